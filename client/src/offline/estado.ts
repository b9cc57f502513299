/**
 * The sync engine's state as the app shell reads it (the header's indicator, the menu's queue count),
 * without the engine itself: the engine, IndexedDB (Dexie) and every domain's queued write
 * types load in their own chunk, after the first screen for someone not signed in, at once for
 * someone who is (`carregarSync`). Until the engine is there, the shell shows its starting state.
 */
import { useSyncExternalStore } from 'react';
import type { EstadoSync } from './sync';

/** The engine's state before it has read anything: online as the browser says, nothing queued. */
export function estadoSyncInicial(): EstadoSync {
  return {
    online: typeof navigator === 'undefined' ? true : navigator.onLine,
    sincronizando: false,
    pendentes: 0,
    comErro: 0,
    ultimaSincronizacao: null,
    pausadoPorSessao: false,
    atualizacaoNecessaria: false,
    ultimoErroRede: null,
    progresso: null,
    deOutrosUsuarios: 0,
    confirmacoes: 0,
  };
}

let atual: EstadoSync = estadoSyncInicial();
const ouvintes = new Set<() => void>();

/** Called by the engine (offline/index.ts) at each change of its state. */
export function publicarEstadoSync(estado: EstadoSync): void {
  if (estado === atual) return;
  atual = estado;
  for (const ouvir of ouvintes) ouvir();
}

function assinar(ouvir: () => void): () => void {
  ouvintes.add(ouvir);
  return () => ouvintes.delete(ouvir);
}
const ler = () => atual;

export function useEstadoSync(): EstadoSync {
  return useSyncExternalStore(assinar, ler, ler);
}

type ModuloSync = typeof import('./index');
let carga: Promise<ModuloSync> | null = null;

/**
 * The engine with every write type registered (offline/operacoes.ts), loaded once. A failed load (no
 * signal before the service worker kept the chunk) is tried again at the next call.
 */
export function carregarSync(): Promise<ModuloSync> {
  carga ??= import('./operacoes')
    .then(() => import('./index'))
    .catch((erro: unknown) => {
      carga = null;
      throw erro;
    });
  return carga;
}
