/** App-wide providers: server-state cache, session, toasts, and the sync engine's lifecycle. */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import 'react-toastify/dist/ReactToastify.css';
import { AuthProvider, useAuth } from '../auth/AuthProvider';
import { Avisos } from '../components/avisos';
import { useQuandoOcioso } from '../components/useQuandoOcioso';
import { carregarSync } from '../offline/estado';
import { pedirArmazenamentoPersistente } from '../pwa/armazenamento';
import { sobDemanda } from '../components/sobDemanda';

// The service worker is registered once the first screen is drawn and the browser is idle
// (a few seconds in, still on the first visit: a phone may lose signal a minute later). Registering
// starts the precache of every screen (~1 MB): at once, on 3G, it took the connections the login
// screen's own files were waiting for. Its update notice, with workbox-window, comes with it and
// picks up an update found meanwhile (workbox-window reports a worker already waiting).
const AvisoAtualizacao = sobDemanda(() => import('../pwa/AvisoAtualizacao').then((m) => m.AvisoAtualizacao));
export const ESPERA_SERVICE_WORKER_MS = 3000;
// Priming: its own chunk, fetched for an employee only, right after the session starts.
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
 * drawn (`telaDesenhada`: priming's ten requests and IndexedDB writes competed with the
 * dashboard's own first reads; a session started later, at the login, primes at once).
 */
function SincronizacaoDaSessao({ telaDesenhada }: { telaDesenhada: boolean }) {
  const { estado } = useAuth();
  const usuarioId = estado.usuario?.id ?? null;
  const funcionario = estado.usuario?.tipo === 'funcionario';
  // The engine and IndexedDB come in their own chunk. Someone signed in needs them at once
  // (main.tsx already asked for them); the login screen of a new phone is drawn first, and they start
  // once the browser is idle or someone signs in. Started once, stopped when the app goes.
  const iniciar = usuarioId !== null || telaDesenhada;
  const parar = useRef<(() => void) | null>(null);
  // A chunk that could not be fetched (signal lost before the service worker kept it) is asked for again when the signal returns.
  const [tentativa, setTentativa] = useState(0);
  useEffect(() => {
    if (!iniciar || parar.current) return;
    let desmontado = false;
    parar.current = () => {
      desmontado = true;
    };
    void carregarSync().then(
      ({ iniciarOffline }) => {
        if (!desmontado) parar.current = iniciarOffline();
      },
      () => {
        parar.current = null;
        if (!desmontado) window.addEventListener('online', () => setTentativa((t) => t + 1), { once: true });
      },
    );
  }, [iniciar, tentativa]);
  useEffect(
    () => () => {
      parar.current?.();
      parar.current = null;
    },
    [],
  );
  useEffect(() => {
    if (usuarioId !== null) void carregarSync().then(({ motorSync }) => motorSync.retomar(), () => undefined);
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
