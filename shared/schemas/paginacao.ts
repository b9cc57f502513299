/**
 * Paging of every list endpoint (docs/decisions/api-e-erros.md, 'Listas paginadas'): one rule for the query and the answer.
 * - Query: `page` (from 1) and `limit` (the spec's names, already used by GET /despesas). A `limit`
 *   above LIMITE_MAXIMO_PAGINA is clamped to it, not refused: the server answers at most that many
 *   rows whatever is asked. A `limit` below 1, or text, is refused with a pt-BR 400.
 * - Answer: the spec's field with the rows (vendas, despesas, rotas...) plus `total` (rows of the
 *   whole filtered set), `page` and `limit` (as applied, after the clamp).
 */
import { LIMITE_MAXIMO_PAGINA, PAGINA_MAXIMA } from '../limitesPaginacao';
import { z } from '../zod';

export { LIMITE_MAXIMO_PAGINA, PAGINA_MAXIMA, totalDePaginas } from '../limitesPaginacao';

function inteiroPositivo(invalido: string) {
  return z.preprocess(
    (v) => (v === '' || v === undefined || v === null ? undefined : typeof v === 'string' ? Number(v.trim()) : v),
    z.number({ error: invalido }).int(invalido).min(1, invalido).optional(),
  );
}

/**
 * The `page`/`limit` fields of a list's query schema, with this list's default page size. Spread
 * them into the list's filter object: `z.object({ ...filtros, ...camposPaginacao(100) })`.
 */
export function camposPaginacao(padrao: number) {
  const porPagina = Math.min(padrao, LIMITE_MAXIMO_PAGINA);
  return {
    page: inteiroPositivo('Página inválida.').transform((p) => p ?? 1).pipe(z.number().max(PAGINA_MAXIMA, `Página deve ser no máximo ${PAGINA_MAXIMA}.`)),
    limit: inteiroPositivo('Limite inválido.').transform((l) => Math.min(l ?? porPagina, LIMITE_MAXIMO_PAGINA)),
  };
}

/** Just the paging, for lists with no other filter. */
export const paginacaoSchema = (padrao: number) => z.object(camposPaginacao(padrao));

export interface Paginacao {
  page: number;
  limit: number;
}

/** The answer's paging fields, to extend a list's response schema with. */
export const camposRespostaPaginada = {
  /** Rows of the whole filtered set (every page). */
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
};
