/** Rules of the routes report shared by the screen and the exported files. */
import { reaisParaCentavos } from './money';

export interface TotaisRelatorio {
  vendas: number;
  despesas: number;
  creditos: number;
}

/** Totals row of the routes report, summed in centavos so the screen and the files agree exactly. */
export function totaisDoRelatorio(linhas: readonly { total_vendas: number; total_despesas: number; total_creditos: number }[]): TotaisRelatorio {
  let vendas = 0;
  let despesas = 0;
  let creditos = 0;
  for (const l of linhas) {
    vendas += reaisParaCentavos(l.total_vendas);
    despesas += reaisParaCentavos(l.total_despesas);
    creditos += reaisParaCentavos(l.total_creditos);
  }
  return { vendas: vendas / 100, despesas: despesas / 100, creditos: creditos / 100 };
}

/**
 * The name of a route's salary where the admin reads it (details modal, PDF): 'Salário pago' only
 * for a finished route; an active one is still an estimate, a cancelled one stopped at the cancelling.
 */
export function rotuloSalarioDaRota(status: 'ativa' | 'finalizada' | 'cancelada'): string {
  if (status === 'finalizada') return 'Salário pago';
  if (status === 'cancelada') return 'Salário até o cancelamento';
  return 'Salário estimado (até agora)';
}
