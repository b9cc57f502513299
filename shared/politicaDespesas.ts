/**
 * The expense policy: the route's daily meal limit (spec section 9: R$ 180,00, R$ 220,00 when the
 * route has a secretary), which meals of a day count against it, whether a day is above it and by how
 * much, and the 'far above' rule that asks for the amount to be read back in words. The phone's form,
 * the server's list (the same rule in SQL, server/src/despesas/repositorio.ts) and the admin's badge
 * all follow these definitions. Never a refusal: an expense above the limit is saved once confirmed.
 */
import { formatarData } from './dates';
import { valorPorExtenso } from './extenso';
import { comoCentavos, formatarCentavos, type Centavos } from './money';
import type { TipoDespesa } from './schemas/tiposDespesa';

/** Spec section 9, in centavos. */
export const LIMITE_DIARIO_CENTAVOS = { semSecretario: 18_000, comSecretario: 22_000 } as const;

/** Any expense above this many times the day's limit asks for its amount to be confirmed in words. */
export const MULTIPLO_MUITO_ACIMA = 10;

/** The only expense type the daily limit is about. */
export const TIPO_COM_LIMITE: TipoDespesa = 'alimentacao';

/** The route's daily meal limit. */
export function limiteDiarioCentavos(rota: { tem_secretario: boolean }): Centavos {
  return comoCentavos(rota.tem_secretario ? LIMITE_DIARIO_CENTAVOS.comSecretario : LIMITE_DIARIO_CENTAVOS.semSecretario);
}

/** An expense as the rule needs it (the caller converts its reais to centavos once). */
export interface DespesaNoLimite {
  rota_id: number;
  data_despesa: string;
  tipo: TipoDespesa;
  valorCentavos: number;
  status_aprovacao?: 'pendente' | 'aprovada' | 'rejeitada';
}

/**
 * Whether an expense uses the day's allowance: a meal not rejected. A rejected expense is no company
 * cost (the employee returns it at the route's settlement), so it neither counts nor is flagged.
 * Deleted ones never reach here (the lists leave them out).
 */
export function contaNoLimite(d: Pick<DespesaNoLimite, 'tipo' | 'status_aprovacao'>): boolean {
  return d.tipo === TIPO_COM_LIMITE && d.status_aprovacao !== 'rejeitada';
}

/** The sum of the meals of one route on one date that count against the limit. */
export function somaAlimentacaoDoDia(despesas: Iterable<DespesaNoLimite>, rotaId: number, data: string): Centavos {
  let soma = 0;
  for (const d of despesas) if (d.rota_id === rotaId && d.data_despesa === data && contaNoLimite(d)) soma += d.valorCentavos;
  return comoCentavos(soma);
}

/** How much the day's meals pass the limit by (0 when they do not). */
export function excessoDoDia(soma: number, limite: number): Centavos {
  return comoCentavos(Math.max(0, soma - limite));
}

export interface AvaliacaoDoDia {
  soma: Centavos;
  limite: Centavos;
  /** Strictly above: a day of exactly R$ 180,00 is within the limit. */
  acima: boolean;
  excesso: Centavos;
}

export function avaliarDia(soma: number, limite: number): AvaliacaoDoDia {
  return { soma: comoCentavos(soma), limite: comoCentavos(limite), acima: soma > limite, excesso: excessoDoDia(soma, limite) };
}

/** Any expense (of any type) strictly above MULTIPLO_MUITO_ACIMA times the day's limit. */
export function muitoAcimaDoLimite(valorCentavos: number, limite: number): boolean {
  return valorCentavos > MULTIPLO_MUITO_ACIMA * limite;
}

/** 'Com esta despesa, a alimentação de 03/12 soma R$ 230,00: R$ 50,00 acima do limite diário de R$ 180,00.' */
export function textoAcimaDoLimite(data: string, dia: AvaliacaoDoDia): string {
  return `Com esta despesa, a alimentação de ${formatarData(data).slice(0, 5)} soma ${formatarCentavos(dia.soma)}: ${formatarCentavos(dia.excesso)} acima do limite diário de ${formatarCentavos(dia.limite)}.`;
}

/** 'Confirme o valor: R$ 1.000.000,00 (um milhão de reais)'. */
export function textoConfirmeValor(valorCentavos: number): string {
  return `Confirme o valor: ${formatarCentavos(valorCentavos)} (${valorPorExtenso(valorCentavos)})`;
}

/** The admin's badge: 'Acima do limite diário (R$ 180,00)', with that route's limit. */
export function rotuloAcimaDoLimite(limite: number): string {
  return `Acima do limite diário (${formatarCentavos(limite)})`;
}
