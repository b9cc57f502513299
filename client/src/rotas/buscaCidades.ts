/**
 * The city search's rules, apart from the route form's (formularioRota.ts re-exports them): the
 * route queries, loaded with the employee's first screen, need them without the form's schema.
 */
import type { CidadeResumo } from '../../../shared/schemas/rotas';
import { compararTexto, normalizarBusca } from '../../../shared/texto';

/** Spec section 9: the city search starts at 2 characters. */
export const BUSCA_MINIMA_CIDADE = 2;

/** The search may run: enough letters and at least one state. */
export function podeBuscarCidades(termo: string, estados: string[]): boolean {
  return termo.trim().length >= BUSCA_MINIMA_CIDADE && estados.length > 0;
}

/**
 * One answer per selected state, merged: each city once (by id), names starting with the
 * typed text first, then alphabetical.
 */
export function mesclarResultados(listas: CidadeResumo[][], termo: string): CidadeResumo[] {
  const porId = new Map<number, CidadeResumo>();
  for (const lista of listas) for (const c of lista) if (!porId.has(c.id)) porId.set(c.id, c);
  const t = normalizarBusca(termo);
  const comeca = (c: CidadeResumo) => (normalizarBusca(c.nome).startsWith(t) ? 0 : 1);
  return [...porId.values()].sort((a, b) => comeca(a) - comeca(b) || compararTexto(a.nome, b.nome) || a.uf.localeCompare(b.uf));
}
