/**
 * The server's side of the paging rule (shared/schemas/paginacao.ts): a validated `page`/`limit`
 * (already clamped by the schema) becomes the query's LIMIT and OFFSET, and the answer's fields.
 * Every list endpoint goes through here, so no route computes an offset of its own.
 */
import { LIMITE_MAXIMO_PAGINA, type Paginacao } from '../../shared/schemas/paginacao';

export interface Janela {
  limite: number;
  deslocamento: number;
}

/** LIMIT/OFFSET of a page; the clamp is applied again here so a caller that skipped the schema is still bounded. */
export function janelaDaPagina({ page, limit }: Paginacao): Janela {
  const limite = Math.max(1, Math.min(Math.trunc(limit), LIMITE_MAXIMO_PAGINA));
  const pagina = Math.max(1, Math.trunc(page));
  return { limite, deslocamento: (pagina - 1) * limite };
}

/** A page of rows already in memory (lists the server sorts after the query, like pt-BR name order). */
export function fatiar<T>(linhas: T[], paginacao: Paginacao): { itens: T[]; total: number; page: number; limit: number } {
  const { limite, deslocamento } = janelaDaPagina(paginacao);
  return { itens: linhas.slice(deslocamento, deslocamento + limite), total: linhas.length, page: paginacao.page, limit: limite };
}

/** The paging fields of an answer: `{ total, page, limit }` as applied. */
export function camposDaPagina(total: number, paginacao: Paginacao): { total: number; page: number; limit: number } {
  return { total, page: paginacao.page, limit: janelaDaPagina(paginacao).limite };
}
