/** App-wide providers: server-state cache, session, toasts, and the sync engine's lifecycle. */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import 'react-toastify/dist/ReactToastify.css';
import { AuthProvider, useAuth } from '../auth/AuthProvider';
import { Avisos } from '../components/avisos';
import { useQuandoOcioso } from '../components/useQuandoOcioso';
import { motorSync } from '../offline';
import { bancoLocal } from '../offline/db';
import { iniciarRelatorioDoDispositivo } from '../offline/dispositivo';
import { pedirArmazenamentoPersistente } from '../pwa/armazenamento';
import { sobDemanda } from '../components/sobDemanda';

// Issue 19: the service worker is registered once the first screen is drawn and the browser is idle
// (a few seconds in, still on the first visit: a phone may lose signal a minute later). Registering
// starts the precache of every screen (~1 MB): at once, on 3G, it took the connections the login
// screen's own files were waiting for. Its update notice, with workbox-window, comes with it and
// picks up an update found meanwhile (workbox-window reports a worker already waiting).
const AvisoAtualizacao = sobDemanda(() => import('../pwa/AvisoAtualizacao').then((m) => m.AvisoAtualizacao));
export const ESPERA_SERVICE_WORKER_MS = 3000;
// Priming (issue 17): its own chunk, fetched for an employee only, right after the session starts.
const PreparoAutomatico = sobDemanda(() => import('../dashboard/PreparoAutomatico').then((m) => m.PreparoAutomatico));

export function criarQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 30_000, retry: 1, refetchOnWindowFocus: true },
      mutations: { retry: false },
    },
  });
}

/**
 * Replays the outbox at start and again whenever someone signs in (a 401 had paused it); for an
 * employee, also fetches by itself everything the screens need offline, once the first screen is
 * drawn (`telaDesenhada`, issue 19: priming's ten requests and IndexedDB writes competed with the
 * dashboard's own first reads; a session started later, at the login, primes at once).
 */
function SincronizacaoDaSessao({ telaDesenhada }: { telaDesenhada: boolean }) {
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
  return telaDesenhada && funcionario && usuarioId !== null ? <PreparoAutomatico key={usuarioId} usuarioId={usuarioId} /> : null;
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
  const depoisDaPrimeiraTela = useQuandoOcioso(ESPERA_SERVICE_WORKER_MS);
  useEffect(() => {
    // Before the first request: the phone's queue report goes with every request (offline/dispositivo.ts).
    const pararRelatorio = iniciarRelatorioDoDispositivo(bancoLocal);
    void motorSync.iniciar();
    return () => {
      motorSync.parar();
      pararRelatorio();
    };
  }, []);
  useEffect(() => {
    if (depoisDaPrimeiraTela && comServiceWorker && 'serviceWorker' in navigator) void navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);
  }, [comServiceWorker, depoisDaPrimeiraTela]);
  return (
    <QueryClientProvider client={cliente}>
      <AuthProvider>
        <SincronizacaoDaSessao telaDesenhada={depoisDaPrimeiraTela} />
        {children}
        {comServiceWorker && depoisDaPrimeiraTela && (
          <AvisoAtualizacao />
        )}
      </AuthProvider>
      <Avisos />
    </QueryClientProvider>
  );
}
