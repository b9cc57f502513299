/**
 * Which dates a route still takes field records for (docs/decisions.md, 'Registros de campo depois
 * que o admin finaliza ou cancela a rota'). A phone holds sales, visits and expenses made offline;
 * an admin may finish or cancel the route before they arrive. Work done while the route was active
 * is still accepted afterwards; work dated after it closed is not.
 *
 * Pure: no database, no clock. Calendar dates are 'yyyy-mm-dd' in APP_TZ; instants are ISO UTC.
 */
import { dataNoFuso } from '../../../shared/dates';
import type { StatusRota } from '../../../shared/schemas/rotas';

/** The columns of a route the rule reads (a `rotas` row, or the hot-path situacaoParaEscrita). */
export interface DatasDaRota {
  status: StatusRota;
  /** data_inicio ('yyyy-mm-dd'). */
  dataInicio: string;
  /** criado_em (ISO instant). */
  criadoEm: string;
  /** finalizada_em (ISO instant), set when it was finished. */
  finalizadaEm: string | null;
  /** cancelada_em (ISO instant), set when an admin cancelled it (cleared when reopened). */
  canceladaEm: string | null;
}

export interface PeriodoAtivo {
  /** The first day: data_inicio, or the day the route was created (APP_TZ) when earlier. */
  inicio: string;
  /** The last day: the day (APP_TZ) it was finished or cancelled; null while it is still active. */
  fim: string | null;
}

/** The APP_TZ day of an ISO instant; null when there is none or it is not a valid instant. */
function diaDoInstante(instante: string | null, fuso: string): string | null {
  if (!instante) return null;
  const d = new Date(instante);
  return Number.isNaN(d.getTime()) ? null : dataNoFuso(d, fuso);
}

/**
 * The period the route was (or is) active. Null for a closed route whose closing moment is not
 * known (a route cancelled before cancelada_em existed): no day can be shown to be inside it.
 */
export function periodoAtivo(rota: DatasDaRota, fuso: string): PeriodoAtivo | null {
  const criacao = diaDoInstante(rota.criadoEm, fuso);
  const inicio = criacao !== null && criacao < rota.dataInicio ? criacao : rota.dataInicio;
  if (rota.status === 'ativa') return { inicio, fim: null };
  const fim = diaDoInstante(rota.status === 'finalizada' ? rota.finalizadaEm : rota.canceladaEm, fuso);
  return fim === null ? null : { inicio, fim };
}

/**
 * Whether the route takes a sale, visit or expense dated `data` (or a change to one dated so).
 * An active route takes any date, as before (a sale's date is not bound to the route's dates, and
 * dates in the future are refused by each write's own rule). A finished or cancelled route takes
 * only dates inside the period it was active, both ends included.
 */
export function aceitaRegistroNaData(rota: DatasDaRota, data: string, fuso: string): boolean {
  if (rota.status === 'ativa') return true;
  const periodo = periodoAtivo(rota, fuso);
  return periodo !== null && periodo.fim !== null && periodo.inicio <= data && data <= periodo.fim;
}
