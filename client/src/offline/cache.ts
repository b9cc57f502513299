/**
 * Read-through cache for the data an employee needs on the road: each successful answer is kept
 * in IndexedDB; without a connection the last kept answer is returned, with its date.
 */
import { ErroOffline } from '../api/client';
import type { BancoLocal } from './db';
import { lerConfirmacoes } from './outbox';

export interface DadosComOrigem<T> {
  dados: T;
  origem: 'servidor' | 'cache';
  /** When this data came from the server (ISO). */
  atualizadoEm: string;
  /**
   * The device's confirmation counter when the request left: writes confirmed after it may be
   * missing from the data, and the screens lay them over it (offline/escritas.ts). Absent: unknown.
   */
  confirmacoesAte?: number;
}

export async function buscarComCache<T>(
  banco: BancoLocal,
  chave: string,
  usuarioId: number,
  buscar: () => Promise<T>,
): Promise<DadosComOrigem<T>> {
  try {
    // Read before asking: a write confirmed while the answer travels may or may not be in it.
    const confirmacoesAte = await lerConfirmacoes(banco);
    const dados = await buscar();
    const atualizadoEm = new Date().toISOString();
    await banco.cache.put({ chave, usuarioId, dados, atualizadoEm, confirmacoesAte });
    return { dados, origem: 'servidor', atualizadoEm, confirmacoesAte };
  } catch (erro) {
    if (!(erro instanceof ErroOffline)) throw erro;
    const guardado = await lerDoCache<T>(banco, chave, usuarioId);
    if (guardado) return guardado;
    throw erro;
  }
}

/** A piece of an employee screen, or why it is missing: offline, and never kept on this device. */
export type Carga<T> = DadosComOrigem<T> | { semDados: 'offline' };

/**
 * buscarComCache for a screen: offline without a kept answer is a state the screen explains; a
 * refusal or a server failure is logged and the piece reads as `vazio` (spec section 8: load
 * failures show empty lists and zeros).
 */
export async function carregarComCache<T>(
  banco: BancoLocal,
  chave: string,
  usuarioId: number,
  buscar: () => Promise<T>,
  vazio: T,
  rotulo: string,
): Promise<Carga<T>> {
  try {
    return await buscarComCache(banco, chave, usuarioId, buscar);
  } catch (erro) {
    if (erro instanceof ErroOffline) return { semDados: 'offline' };
    console.error(`Erro ao carregar ${rotulo}:`, erro);
    return { dados: vazio, origem: 'servidor', atualizadoEm: new Date().toISOString() };
  }
}

/** The data of a piece, when there is some. */
export function dadosDaCarga<T>(carga: Carga<T> | undefined): T | undefined {
  return carga && 'dados' in carga ? carga.dados : undefined;
}

export async function lerDoCache<T>(banco: BancoLocal, chave: string, usuarioId: number): Promise<DadosComOrigem<T> | null> {
  const guardado = await banco.cache.get(chave);
  // Another person's data on a shared phone is never shown.
  if (!guardado || guardado.usuarioId !== usuarioId) return null;
  return {
    dados: guardado.dados as T,
    origem: 'cache',
    atualizadoEm: guardado.atualizadoEm,
    ...(typeof guardado.confirmacoesAte === 'number' ? { confirmacoesAte: guardado.confirmacoesAte } : {}),
  };
}
