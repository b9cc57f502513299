/**
 * Read-through cache for the data an employee needs on the road: each successful answer is kept
 * in IndexedDB; without a connection the last kept answer is returned, with its date.
 */
import Dexie from 'dexie';
import { ErroOffline } from '../api/client';
import { copiaDoGuardado } from './copiasSemDexie';
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

/**
 * One read of each copy per sync pass and per priming: a field day's pass was followed by
 * the same copy read three times (the reconnect's refetch during the pass, the priming after it, the
 * screens' refresh after the priming), and every opening of the app read the dashboard's copies
 * twice or three times (the screen, the priming that runs at opening, the refresh after it). Here,
 * for every query that reads a device copy:
 * - a read asked while a sync pass is sending this user's writes, when a copy is kept, waits for the
 *   pass to end (the screen keeps showing what it has, with the queued writes laid over it): a copy
 *   read mid-pass would miss those writes and be read again right after;
 * - reads of the same copy at the same time, with no write confirmed between them, share the request;
 * - for REUSO_MS after a pass that confirmed writes (passadaTerminou), or while a priming runs and
 *   REUSO_MS after it (abrirJanelaDeLeituras), each copy is asked of the server once: later reads take
 *   the answer read since the window opened, while no other write is confirmed.
 * Outside those windows a finished read is not reused: every new read asks the server, as before.
 */
export const REUSO_MS = 10_000;
/** A read never waits longer than this for the pass (a pass of big receipts on a harsh link lasts minutes). */
export const ESPERA_MAXIMA_DA_PASSADA_MS = 60_000;

/** Set by the app's engine (offline/index.ts): the pass in progress, while it has writes of this user to send; null otherwise. */
let passadaEmCurso: (usuarioId: number) => Promise<void> | null = () => null;
export function definirPassadaEmCurso(f: (usuarioId: number) => Promise<void> | null): void {
  passadaEmCurso = f;
}

interface LeituraDoServidor {
  usuarioId: number;
  confirmacoesAte: number;
  /** When it was asked (ms). */
  em: number;
  terminada: boolean;
  resultado: Promise<DadosComOrigem<unknown>>;
}
/** The reuse window: reads asked since `desde`, with the counter at `confirmacoes`, stand until `ate`. */
let janela: { confirmacoes: number; desde: number; ate: number } | null = null;
/** The last read of each copy (one per key: a newer one replaces it). */
const leituras = new Map<string, LeituraDoServidor>();

/**
 * Opens (or extends) the window in which each copy is asked of the server once: reads asked since
 * `desde` with the counter at `confirmacoes` answer the later ones until REUSO_MS from now.
 */
export function abrirJanelaDeLeituras(confirmacoes: number, desde = Date.now(), agora = Date.now()): void {
  janela = { confirmacoes, desde, ate: agora + REUSO_MS };
}

/** A pass ended having confirmed writes, the counter now at `confirmacoes`: its one refresh of each copy starts. */
export function passadaTerminou(confirmacoes: number, agora = Date.now()): void {
  abrirJanelaDeLeituras(confirmacoes, agora, agora);
}

/** Closes the window (the engine stopped: the app closed, another session; tests). */
export function encerrarJanelaDaPassada(): void {
  janela = null;
  leituras.clear();
}

/** Whether `feita` can answer a read asked now by this person with the counter at `confirmacoesAte`. */
function podeResponder(feita: LeituraDoServidor, usuarioId: number, confirmacoesAte: number, agora: number): boolean {
  if (feita.usuarioId !== usuarioId || feita.confirmacoesAte !== confirmacoesAte) return false;
  // On its way: as fresh as a new request would be.
  if (!feita.terminada) return true;
  return janela !== null && agora < janela.ate && janela.confirmacoes === confirmacoesAte && feita.em >= janela.desde;
}

async function esperarPassada(banco: BancoLocal, chave: string, usuarioId: number): Promise<void> {
  // Is a copy kept? Nothing to show meanwhile, read now: from the keys only (a copy's contents take a
  // cheap phone hundreds of ms to bring back, and the request must not wait for them). The read also
  // lets the `online` event that set off this read reach the engine, which starts its pass on it.
  const guardada = await banco.cache
    .where('usuarioId')
    .equals(usuarioId)
    .primaryKeys()
    .then((chaves) => chaves.includes(chave))
    .catch(() => false);
  if (!guardada) return;
  const passada = passadaEmCurso(usuarioId);
  if (!passada) return;
  let limite: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([passada.catch(() => undefined), new Promise<void>((r) => (limite = setTimeout(r, ESPERA_MAXIMA_DA_PASSADA_MS)))]);
  clearTimeout(limite);
}

/** Whether the device keeps this person's copy of `chave` as it came at `atualizadoEm` (keys only). */
async function guardadaComData(banco: BancoLocal, chave: string, usuarioId: number, atualizadoEm: string): Promise<boolean> {
  const chaves = await banco.cache.where('[usuarioId+atualizadoEm]').equals([usuarioId, atualizadoEm]).primaryKeys();
  return chaves.includes(chave);
}

async function lerDoServidor<T>(banco: BancoLocal, chave: string, usuarioId: number, buscar: () => Promise<T>, confirmacoesAte: number): Promise<DadosComOrigem<T>> {
  const dados = await buscar();
  const atualizadoEm = new Date().toISOString();
  await banco.cache.put({ chave, usuarioId, dados, atualizadoEm, confirmacoesAte });
  return { dados, origem: 'servidor', atualizadoEm, confirmacoesAte };
}

export async function buscarComCache<T>(
  banco: BancoLocal,
  chave: string,
  usuarioId: number,
  buscar: () => Promise<T>,
): Promise<DadosComOrigem<T>> {
  try {
    await esperarPassada(banco, chave, usuarioId);
    // Read before asking: a write confirmed while the answer travels may or may not be in it.
    const confirmacoesAte = await lerConfirmacoes(banco);
    const agora = Date.now();
    const feita = leituras.get(chave);
    if (feita && podeResponder(feita, usuarioId, confirmacoesAte, agora)) {
      const resultado = (await feita.resultado.catch(() => null)) as DadosComOrigem<T> | null;
      // Only while the device still keeps that answer (not replaced by another read, nor cleared): from the index, not the contents.
      if (resultado && (await guardadaComData(banco, chave, usuarioId, resultado.atualizadoEm))) return resultado;
    }
    const leitura: LeituraDoServidor = { usuarioId, confirmacoesAte, em: agora, terminada: false, resultado: lerDoServidor(banco, chave, usuarioId, buscar, confirmacoesAte) };
    leituras.set(chave, leitura);
    // A failed read is not reused: the next one asks again.
    leitura.resultado.then(
      () => {
        leitura.terminada = true;
      },
      () => {
        if (leituras.get(chave) === leitura) leituras.delete(chave);
      },
    );
    return (await leitura.resultado) as DadosComOrigem<T>;
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
  return copiaDoGuardado<T>(await banco.cache.get(chave), usuarioId);
}

/**
 * When each of this user's copies came from the server (key -> ISO date), from the index alone: the
 * copies' contents (a route's history, a page of expenses) stay in IndexedDB.
 */
export async function datasDasCopias(banco: BancoLocal, usuarioId: number): Promise<Map<string, string>> {
  const datas = new Map<string, string>();
  await banco.cache
    .where('[usuarioId+atualizadoEm]')
    .between([usuarioId, Dexie.minKey], [usuarioId, Dexie.maxKey])
    .eachKey((chave, cursor) => {
      datas.set(String(cursor.primaryKey), (chave as [number, string])[1]);
    });
  return datas;
}
