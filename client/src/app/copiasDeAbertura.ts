/**
 * The device's copies the opening screen draws first on a repeat visit, read at boot while
 * React draws the shell: the route list for every employee screen and, for Vendas, the active route's
 * day (`hoje`, APP_TZ) and history. Read with IndexedDB's own API (offline/copiasSemDexie.ts), not
 * waiting for the sync engine's chunk, and put straight into the screens' queries as previews
 * (semearPrevia), so the screen's first drawing already has them; read through Dexie, they arrived
 * after the screen had mounted, and it drew empty and then again, once per piece.
 *
 * A screen mounting before the read is done takes the same read instead of reading again
 * (tomarCopiaDeAbertura, copiaPrimeiro.ts). Only the signed-in person's copies are taken (the owner is
 * checked), and an answer is taken once, within a few seconds of boot.
 */
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { DadosComOrigem } from '../offline/cache';
import { lerCopiasSemDexie, type CopiasLidas } from '../offline/copiasSemDexie';
import { chavesCacheRotas, chavesRotas, rotaAtivaDaLista } from '../rotas/chaves';
import { chavesCache as chavesCacheVendas, chavesVendas } from '../vendas/chaves';

type Lida = Promise<DadosComOrigem<unknown> | null>;

/** After this, a read of boot is too old to stand for the screen's own (it may have been replaced). */
const VALIDADE_MS = 10_000;
const lidas = new Map<string, { usuarioId: number; em: number; leitura: Lida }>();

/** A piece of a screen drawn from the device while the server's answer is on its way. */
export type Previa<T> = DadosComOrigem<T> & { previa: true };

/**
 * Puts the device's copy in the query at `consulta` as a preview, unless an answer got there first.
 * updatedAt 0: stale, so the query still asks the server and nothing takes the preview for an answer.
 */
export function semearPrevia<TGuardado, TDados = TGuardado>(
  queryClient: QueryClient,
  consulta: QueryKey,
  guardado: DadosComOrigem<TGuardado>,
  transformar?: (guardado: TGuardado) => TDados,
): void {
  if (queryClient.getQueryData(consulta) !== undefined) return;
  const dados = transformar ? transformar(guardado.dados) : (guardado.dados as unknown as TDados);
  const previa: Previa<TDados> = { ...guardado, dados, previa: true };
  queryClient.setQueryData(consulta, previa, { updatedAt: 0 });
}

/** What the opening screen at `caminho` shows from the device, by copy key: its query and how the copy becomes its data. */
function pecasDaTela(caminho: string, usuarioId: number, hoje: () => string) {
  const rotas = { chave: chavesCacheRotas.ativas(usuarioId), consulta: chavesRotas.ativaDoFuncionario(usuarioId), transformar: rotaAtivaDaLista };
  const doDia = (lidasAgora: CopiasLidas) => {
    if (caminho !== '/vendas') return [];
    const ativa = rotaAtivaDaLista(lidasAgora.get(rotas.chave)?.dados);
    if (!ativa) return [];
    const dia = hoje();
    return [
      { chave: chavesCacheVendas.dia(ativa.id, dia), consulta: chavesVendas.dia(usuarioId, ativa.id, dia) },
      { chave: chavesCacheVendas.historico(ativa.id), consulta: chavesVendas.historico(usuarioId, ativa.id) },
    ];
  };
  return { rotas, doDia };
}

/**
 * Reads the copies of the screen at `caminho` for this person and shows them in `queryClient`'s
 * queries. Resolves when done; never rejects (without a database to read, the screens read their own).
 * `hoje` (today in APP_TZ) is asked for only by Vendas, once the route's copy is read: it is an Intl
 * format, and the page's first one starts ICU (shared/aoPrimeiroUso.ts), which the other screens'
 * boot does not need to pay here.
 */
export async function lerCopiasDeAbertura(caminho: string, usuarioId: number, hoje: () => string, queryClient: QueryClient): Promise<void> {
  const { rotas, doDia } = pecasDaTela(caminho, usuarioId, hoje);
  const em = Date.now();
  const leitura = lerCopiasSemDexie(usuarioId, [rotas.chave], (lidasAgora) => doDia(lidasAgora).map((p) => p.chave));
  const registrar = (chave: string) => lidas.set(chave, { usuarioId, em, leitura: leitura.then((l) => l.get(chave) ?? null, () => null) });
  registrar(rotas.chave);
  let copias: CopiasLidas;
  try {
    copias = await leitura;
  } catch {
    lidas.delete(rotas.chave);
    return;
  }
  const rotasLidas = copias.get(rotas.chave);
  if (rotasLidas) semearPrevia(queryClient, rotas.consulta, rotasLidas, rotas.transformar);
  for (const peca of doDia(copias)) {
    registrar(peca.chave);
    const copia = copias.get(peca.chave);
    if (copia) semearPrevia(queryClient, peca.consulta, copia);
  }
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
