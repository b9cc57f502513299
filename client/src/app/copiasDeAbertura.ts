/**
 * The device's copies the opening screen draws first (issue 19, repeat visits), read while React is
 * still drawing the shell: on a cheap phone that drawing takes about a second, and the screens used to
 * ask IndexedDB only when they mounted, then again for what depends on the route (its day, its
 * history). main.tsx starts this read at boot for someone signed in; the screens' previews
 * (copiaPrimeiro.ts) take its answers instead of reading again. Only the signed-in person's copies
 * are read (lerDoCache checks the owner), and an answer is taken once, within a few seconds of boot.
 */
import { lerDoCache, type DadosComOrigem } from '../offline/cache';
import { bancoLocal } from '../offline/db';
import { chavesCacheRotas, rotaAtivaDaLista } from '../rotas/consultas';
import { chavesCache as chavesCacheVendas } from '../vendas/consultas';

type Lida = Promise<DadosComOrigem<unknown> | null>;

/** After this, a read of boot is too old to stand for the screen's own (it may have been replaced). */
const VALIDADE_MS = 10_000;
const lidas = new Map<string, { usuarioId: number; em: number; leitura: Lida }>();

function ler(chave: string, usuarioId: number): Lida {
  const leitura = lerDoCache<unknown>(bancoLocal, chave, usuarioId).catch(() => null);
  lidas.set(chave, { usuarioId, em: Date.now(), leitura });
  return leitura;
}

/**
 * Reads the copies of the screen at `caminho` for this person: the route list for every employee
 * screen, and for Vendas the active route's day (`hoje`, APP_TZ) and history, as soon as the route is known.
 */
export async function lerCopiasDeAbertura(caminho: string, usuarioId: number, hoje: string): Promise<void> {
  const rotas = ler(chavesCacheRotas.ativas(usuarioId), usuarioId);
  if (caminho !== '/vendas') return;
  const ativa = rotaAtivaDaLista((await rotas)?.dados);
  if (!ativa) return;
  await Promise.all([ler(chavesCacheVendas.dia(ativa.id, hoje), usuarioId), ler(chavesCacheVendas.historico(ativa.id), usuarioId)]);
}

/** The boot's read of `chave` for this person, taken once; undefined when there is none (or it is old). */
export function tomarCopiaDeAbertura<T>(chave: string, usuarioId: number, agora = Date.now()): Promise<DadosComOrigem<T> | null> | undefined {
  const lida = lidas.get(chave);
  if (!lida) return undefined;
  lidas.delete(chave);
  if (lida.usuarioId !== usuarioId || agora - lida.em > VALIDADE_MS) return undefined;
  return lida.leitura as Promise<DadosComOrigem<T> | null>;
}

/** Forgets every read of boot (tests; a session ending). */
export function esquecerCopiasDeAbertura(): void {
  lidas.clear();
}
