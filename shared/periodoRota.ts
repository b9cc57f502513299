/**
 * Which dates a route still takes field records for (docs/decisions/rotas.md, 'O período da rota' and
 * 'A rota cancelada aceita o período em que esteve ativa'). A phone holds sales, visits and expenses made offline;
 * an admin may finish or cancel the route before they arrive. Work done while the route was active
 * is still accepted afterwards; work dated after it closed is not. Nothing is dated before the route
 * began, whatever its status.
 *
 * Pure: no database, no clock. Calendar dates are 'yyyy-mm-dd' in APP_TZ; instants are ISO UTC.
 * Shared: the server refuses with it (rotas/servico.ts, exigirRotaAtivaDoFuncionario) and the
 * employee's sales screen takes its first day as the date input's minimum.
 */
import { dataNoFuso } from './dates';
import type { StatusRota } from './schemas/rotas';

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

/** The first day: data_inicio, or the day the route was created (APP_TZ) when earlier. */
export function inicioDaRota(rota: Pick<DatasDaRota, 'dataInicio' | 'criadoEm'>, fuso: string): string {
  const criacao = diaDoInstante(rota.criadoEm, fuso);
  return criacao !== null && criacao < rota.dataInicio ? criacao : rota.dataInicio;
}

/**
 * The period the route was (or is) active. Null for a closed route whose closing moment is not
 * known (a route cancelled before cancelada_em existed): no day can be shown to be inside it.
 */
export function periodoAtivo(rota: DatasDaRota, fuso: string): PeriodoAtivo | null {
  const inicio = inicioDaRota(rota, fuso);
  if (rota.status === 'ativa') return { inicio, fim: null };
  const fim = diaDoInstante(rota.status === 'finalizada' ? rota.finalizadaEm : rota.canceladaEm, fuso);
  return fim === null ? null : { inicio, fim };
}

/** Why a date does or does not fit the route (situacaoDaData). */
export type SituacaoDaData = 'dentro' | 'antes_do_inicio' | 'depois_do_fechamento';

/**
 * Where `data` falls for a sale, visit or expense (or a change to one) on this route:
 * - before the period's first day, whatever the status: 'antes_do_inicio' (a sale dated
 *   1900 on a 2026 route used to be accepted; the write answers 422 naming the period);
 * - a finished or cancelled route, after the day it closed, or closed at an unknown moment (then no
 *   day can be shown to be inside): 'depois_do_fechamento' (the write keeps its 409, 'Esta rota já
 *   foi finalizada...');
 * - otherwise 'dentro'. An active route has no last day here: the planned data_fim does not bind
 *   (a route may run longer than planned), and dates in the future are refused by each write's own rule.
 */
export function situacaoDaData(rota: DatasDaRota, data: string, fuso: string): SituacaoDaData {
  // An active route on the hot path (each queued sale): a date from data_inicio on needs no time zone work.
  if (rota.status === 'ativa') return data >= rota.dataInicio || data >= inicioDaRota(rota, fuso) ? 'dentro' : 'antes_do_inicio';
  const periodo = periodoAtivo(rota, fuso);
  if (periodo === null || periodo.fim === null) return 'depois_do_fechamento'; // closed at an unknown moment: takes nothing
  if (data < periodo.inicio) return 'antes_do_inicio';
  return data <= periodo.fim ? 'dentro' : 'depois_do_fechamento';
}

/** Whether the route takes a sale, visit or expense dated `data` (situacaoDaData is 'dentro'). */
export function aceitaRegistroNaData(rota: DatasDaRota, data: string, fuso: string): boolean {
  return situacaoDaData(rota, data, fuso) === 'dentro';
}

const dataBr = (data: string) => data.split('-').reverse().join('/');

/**
 * 'A data 01/01/1900 está fora do período da rota: são aceitas datas de 08/11/2026 até hoje (25/11/2026).'
 * An active route's period runs to today (`hoje`, APP_TZ); a closed one's to the day it closed.
 */
export function mensagemForaDoPeriodo(data: string, periodo: PeriodoAtivo, hoje: string): string {
  const ate = periodo.fim === null ? `até hoje (${dataBr(hoje)})` : `a ${dataBr(periodo.fim)}`;
  return `A data ${dataBr(data)} está fora do período da rota: são aceitas datas de ${dataBr(periodo.inicio)} ${ate}.`;
}
