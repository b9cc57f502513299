/**
 * The device's copies read without Dexie on a repeat visit: the opening screen's copies are read
 * at boot (app/copiasDeAbertura.ts), and through Dexie that read waited for the sync engine's chunk
 * (Dexie with it, 145 KB) to arrive and run, finishing after the screen had mounted, so the screen drew
 * empty and then again. Read here with IndexedDB's own API, a few gets in one transaction, it starts
 * while React draws the shell. Dexie stays the owner of the database (offline/db.ts creates and
 * upgrades it): this never creates it, and lets go at once of a connection an upgrade needs.
 */
import type { DadosComOrigem } from './cache';
import type { EntradaCache } from './db';
import { NOME_DO_BANCO, TABELA_COPIAS } from './nomeDoBanco';

/** A kept copy as a screen takes it; null when there is none or it belongs to someone else (a shared phone). */
export function copiaDoGuardado<T>(guardado: EntradaCache | undefined, usuarioId: number): DadosComOrigem<T> | null {
  if (!guardado || guardado.usuarioId !== usuarioId) return null;
  return {
    dados: guardado.dados as T,
    origem: 'cache',
    atualizadoEm: guardado.atualizadoEm,
    ...(typeof guardado.confirmacoesAte === 'number' ? { confirmacoesAte: guardado.confirmacoesAte } : {}),
  };
}

export type CopiasLidas = Map<string, DadosComOrigem<unknown> | null>;

/**
 * Reads `chaves`, then the keys `seguintes` names from what was read (the active route's day), in one
 * transaction. Rejects when the database cannot be read as it is (never created on this device, or
 * without the copies' table yet): the caller reads through Dexie then.
 */
export function lerCopiasSemDexie(usuarioId: number, chaves: string[], seguintes: (lidas: CopiasLidas) => string[] = () => []): Promise<CopiasLidas> {
  return new Promise((resolver, rejeitar) => {
    const pedido = indexedDB.open(NOME_DO_BANCO);
    // No database yet: creating it here would give Dexie an empty one at the wrong version.
    pedido.onupgradeneeded = () => pedido.transaction?.abort();
    pedido.onerror = () => rejeitar(pedido.error ?? new Error('IndexedDB indisponível'));
    pedido.onsuccess = () => {
      const banco = pedido.result;
      banco.onversionchange = () => banco.close(); // Dexie upgrading: never hold it up
      if (!banco.objectStoreNames.contains(TABELA_COPIAS)) {
        banco.close();
        rejeitar(new Error('Sem a tabela de cópias'));
        return;
      }
      const lidas: CopiasLidas = new Map();
      const transacao = banco.transaction(TABELA_COPIAS, 'readonly');
      const tabela = transacao.objectStore(TABELA_COPIAS);
      const ler = (lista: string[], depois?: () => void) => {
        let faltam = lista.length;
        if (faltam === 0) depois?.();
        for (const chave of lista) {
          const get = tabela.get(chave);
          get.onsuccess = () => {
            lidas.set(chave, copiaDoGuardado(get.result as EntradaCache | undefined, usuarioId));
            if (--faltam === 0) depois?.();
          };
        }
      };
      ler(chaves, () => ler(seguintes(lidas).filter((c) => !lidas.has(c))));
      transacao.oncomplete = () => {
        banco.close();
        resolver(lidas);
      };
      transacao.onerror = () => {
        banco.close();
        rejeitar(transacao.error ?? new Error('Falha ao ler as cópias'));
      };
    };
  });
}
