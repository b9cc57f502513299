/**
 * 'Atualizar aplicativo' when the server refused this version (426): looks for the new version now
 * and, when one is there, makes it take over and reloads. The queue is in IndexedDB, which an update
 * keeps, so unlike the ordinary update notice this one does not wait for the queue to empty (it
 * cannot empty: the server refuses it).
 */
export type ResultadoAtualizacao = 'atualizando' | 'sem_versao_nova';

const ESPERA_INSTALACAO_MS = 30_000;

/** The worker being installed, once it is installed and waiting (or null when it does not get there). */
function esperarInstalada(registro: ServiceWorkerRegistration): Promise<ServiceWorker | null> {
  const instalando = registro.installing;
  if (!instalando) return Promise.resolve(registro.waiting);
  return new Promise((resolver) => {
    const limite = setTimeout(() => resolver(registro.waiting), ESPERA_INSTALACAO_MS);
    instalando.addEventListener('statechange', () => {
      if (instalando.state === 'installed' || instalando.state === 'redundant') {
        clearTimeout(limite);
        resolver(registro.waiting);
      }
    });
  });
}

export async function atualizarAplicativo(recarregar: () => void = () => location.reload()): Promise<ResultadoAtualizacao> {
  const sw = typeof navigator !== 'undefined' ? navigator.serviceWorker : undefined;
  const registro = await sw?.getRegistration().catch(() => undefined);
  if (!sw || !registro) {
    // No service worker (a plain browser tab): loading the page again is loading the new version.
    recarregar();
    return 'atualizando';
  }
  await registro.update().catch(() => undefined);
  const nova = registro.waiting ?? (await esperarInstalada(registro));
  if (!nova) return 'sem_versao_nova';
  sw.addEventListener('controllerchange', () => recarregar(), { once: true });
  // Workbox's generated worker takes over on this message (skipWaiting is false in vite.config.ts).
  nova.postMessage({ type: 'SKIP_WAITING' });
  return 'atualizando';
}
