/**
 * The paging bounds without zod: the phone's first screen walks pages (client/src/api/paginas.ts)
 * and must not load the schema library. shared/schemas/paginacao.ts builds the query schema on these.
 */

/** No list answers more rows than this in one response, whatever `limit` asks. */
export const LIMITE_MAXIMO_PAGINA = 1000;
/** Pages beyond this are refused (offset 1e9 rows would make SQLite walk the whole table). */
export const PAGINA_MAXIMA = 1_000_000;

/** How many pages `total` rows make at `limit` a page (at least 1, so 'Página 1 de 1' when empty). */
export function totalDePaginas(total: number, limit: number): number {
  return Math.max(1, Math.ceil(total / Math.max(1, limit)));
}
