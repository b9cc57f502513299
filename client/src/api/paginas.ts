/**
 * Lists are paged on the server (at most LIMITE_MAXIMO_PAGINA rows an answer). A reader
 * that needs the whole list (the phone's offline copies, a filter's options) walks the pages here,
 * with a bound: past `maximoPaginas` it fails instead of reading forever.
 */
import { LIMITE_MAXIMO_PAGINA } from '../../../shared/limitesPaginacao';
import { api, type Parametros } from './client';

/** An answer of a paged list: the spec's field with the rows, plus the paging fields. */
export interface RespostaPaginada {
  total?: number;
  page?: number;
  limit?: number;
}

/** 50 pages of 1,000: far above any list a screen needs whole (a route's day has a few dozen sales). */
export const MAXIMO_PAGINAS = 50;

export class ListaGrandeDemais extends Error {
  constructor(paginas: number) {
    super(`A lista passou de ${paginas} páginas e não foi lida inteira.`);
    this.name = 'ListaGrandeDemais';
  }
}

/**
 * Reads every page of `caminho` and returns the first answer (its other fields, like the closing's
 * totals, describe the whole filtered set) with `campo` holding every row. An answer without `total`
 * (a server before paging) is taken as the whole list.
 */
export async function lerTodasAsPaginas<R extends object, K extends keyof R>(
  caminho: string,
  campo: K,
  params: Parametros = {},
  { porPagina = LIMITE_MAXIMO_PAGINA, maximoPaginas = MAXIMO_PAGINAS }: { porPagina?: number; maximoPaginas?: number } = {},
): Promise<R> {
  const ler = (page: number) => api.get<R>(caminho, { params: { ...params, page, limit: porPagina } });
  const primeira = await ler(1);
  const itens = [...((primeira[campo] as unknown[] | undefined) ?? [])];
  const total = (primeira as RespostaPaginada).total;
  if (typeof total !== 'number') return primeira;
  for (let page = 2; itens.length < total; page++) {
    if (page > maximoPaginas) throw new ListaGrandeDemais(maximoPaginas);
    const r = await ler(page);
    const linhas = (r[campo] as unknown[] | undefined) ?? [];
    // The list shrank while it was read (a row deleted): what came is what there is.
    if (linhas.length === 0) break;
    itens.push(...linhas);
  }
  return { ...primeira, [campo]: itens, page: 1, limit: itens.length };
}
