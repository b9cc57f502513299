/** Texts of the dashboards, kept pure so the rules behind them are tested without a screen. */
import { formatarCentavos } from '../../../shared/money';
import type { QuemPagaAluguel } from '../../../shared/payroll/salario';
import { formatarNumero } from '../../../shared/numeros';

/** 'Bom dia' from 5h, 'Boa tarde' from 12h, 'Boa noite' from 18h (hour in the business time zone). */
export function saudacao(hora: number): string {
  if (hora >= 5 && hora < 12) return 'Bom dia';
  if (hora >= 12 && hora < 18) return 'Boa tarde';
  return 'Boa noite';
}

/** 1.5 -> '1,50': averages and bag counts, two decimals as pt-BR writes them. */
export function formatarDecimal(valor: number): string {
  return formatarNumero(valor, 2);
}

/**
 * Who pays the route's rent, by the rule of decisions.md ('Salary'): average below 1,5 the employee
 * pays all of it; below 2 half; otherwise the company ('escola').
 */
export function mensagemAluguel(quem: QuemPagaAluguel, valorAluguelCentavos: number): string {
  if (valorAluguelCentavos <= 0) return 'Esta rota não tem aluguel: nada é descontado.';
  const aluguel = formatarCentavos(valorAluguelCentavos);
  if (quem === 'funcionario') return `Média abaixo de 1,5: você paga o aluguel inteiro (${aluguel}).`;
  if (quem === 'metade') return `Média entre 1,5 e 2: o aluguel de ${aluguel} é dividido, e você paga a metade (${formatarCentavos(Math.round(valorAluguelCentavos / 2))}).`;
  return `Média de 2 ou mais: a escola paga o aluguel (${aluguel}); nada é descontado.`;
}
