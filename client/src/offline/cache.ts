/**
 * Read-through cache for the data an employee needs on the road: each successful answer is kept
 * in IndexedDB; without a connection the last kept answer is returned, with its date.
 */
import { ErroOffline } from '../api/client';
import type { BancoLocal } from './db';

export interface DadosComOrigem<T> {
  dados: T;
  origem: 'servidor' | 'cache';
  /** When this data came from the server (ISO). */
  atualizadoEm: string;
}

export async function buscarComCache<T>(
  banco: BancoLocal,
  chave: string,
  usuarioId: number,
  buscar: () => Promise<T>,
): Promise<DadosComOrigem<T>> {
  try {
    const dados = await buscar();
    const atualizadoEm = new Date().toISOString();
    await banco.cache.put({ chave, usuarioId, dados, atualizadoEm });
    return { dados, origem: 'servidor', atualizadoEm };
  } catch (erro) {
    if (!(erro instanceof ErroOffline)) throw erro;
    const guardado = await banco.cache.get(chave);
    // Another person's data on a shared phone is never shown.
    if (guardado && guardado.usuarioId === usuarioId) {
      return { dados: guardado.dados as T, origem: 'cache', atualizadoEm: guardado.atualizadoEm };
    }
    throw erro;
  }
}

export async function lerDoCache<T>(banco: BancoLocal, chave: string, usuarioId: number): Promise<DadosComOrigem<T> | null> {
  const guardado = await banco.cache.get(chave);
  if (!guardado || guardado.usuarioId !== usuarioId) return null;
  return { dados: guardado.dados as T, origem: 'cache', atualizadoEm: guardado.atualizadoEm };
}
