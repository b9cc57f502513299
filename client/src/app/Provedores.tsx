/** App-wide providers: server-state cache, session, toasts, and the sync engine's lifecycle. */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { ToastContainer } from 'react-toastify';
import 'react-toastify/dist/ReactToastify.css';
import { AuthProvider, useAuth } from '../auth/AuthProvider';
import { motorSync } from '../offline';
import { AvisoAtualizacao } from '../pwa/AvisoAtualizacao';
import { pedirArmazenamentoPersistente } from '../pwa/armazenamento';

export function criarQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 30_000, retry: 1, refetchOnWindowFocus: true },
      mutations: { retry: false },
    },
  });
}

/** Replays the outbox at start and again whenever someone signs in (a 401 had paused it). */
function SincronizacaoDaSessao() {
  const { estado } = useAuth();
  const usuarioId = estado.usuario?.id ?? null;
  const funcionario = estado.usuario?.tipo === 'funcionario';
  useEffect(() => {
    if (usuarioId !== null) void motorSync.retomar();
  }, [usuarioId]);
  // Days of queued work live in IndexedDB: ask the browser not to evict it under storage pressure.
  useEffect(() => {
    if (funcionario) void pedirArmazenamentoPersistente();
  }, [funcionario]);
  return null;
}

export function Provedores({
  children,
  queryClient,
  comServiceWorker = true,
}: {
  children: ReactNode;
  queryClient?: QueryClient;
  comServiceWorker?: boolean;
}) {
  const [cliente] = useState(() => queryClient ?? criarQueryClient());
  useEffect(() => {
    void motorSync.iniciar();
    return () => motorSync.parar();
  }, []);
  return (
    <QueryClientProvider client={cliente}>
      <AuthProvider>
        <SincronizacaoDaSessao />
        {children}
        {comServiceWorker && <AvisoAtualizacao />}
      </AuthProvider>
      <ToastContainer position="top-right" autoClose={5000} theme="light" newestOnTop closeOnClick pauseOnFocusLoss={false} />
    </QueryClientProvider>
  );
}
