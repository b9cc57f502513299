/**
 * 'Pendências nos celulares' on the admin dashboard, as text (pure functions): how long ago in pt-BR,
 * what waits on a phone ('3 despesas e 1 venda'), and whether it waits more than 24 hours.
 */
import { TIPOS_FILA, type ContagemFila, type TipoFila } from '../../../shared/dispositivos';
import { contagem } from '../../../shared/texto';

export const LIMITE_ATRASO_MS = 24 * 3600 * 1000;

const MINUTO = 60_000;
const HORA = 60 * MINUTO;
const DIA = 24 * HORA;

/** 'há instantes', 'há 1 minuto', 'há 5 minutos', 'há 3 horas', 'há 2 dias' (rounded down). */
export function haQuantoTempo(instante: string, agoraMs: number): string {
  const passado = Math.max(0, agoraMs - Date.parse(instante));
  if (!Number.isFinite(passado)) return '';
  const plural = (n: number, um: string, varios: string) => `há ${n} ${n === 1 ? um : varios}`;
  if (passado < MINUTO) return 'há instantes';
  if (passado < HORA) return plural(Math.floor(passado / MINUTO), 'minuto', 'minutos');
  if (passado < DIA) return plural(Math.floor(passado / HORA), 'hora', 'horas');
  return plural(Math.floor(passado / DIA), 'dia', 'dias');
}

const NOMES: Record<TipoFila, [string, string]> = {
  venda: ['venda', 'vendas'],
  visita: ['visita', 'visitas'],
  despesa: ['despesa', 'despesas'],
  rota: ['finalização de rota', 'finalizações de rota'],
};

/** '3 despesas e 1 venda': the kinds with most items first. */
export function descreverFila(fila: ContagemFila): string {
  const partes = TIPOS_FILA.filter((t) => fila[t] > 0)
    .sort((a, b) => fila[b] - fila[a])
    .map((t) => contagem(fila[t], NOMES[t][0], NOMES[t][1]));
  if (partes.length <= 1) return partes[0] ?? 'nada';
  return `${partes.slice(0, -1).join(', ')} e ${partes[partes.length - 1]}`;
}

/** The oldest item waits more than 24 hours. */
export function atrasado(maisAntigoEm: string | null, agoraMs: number): boolean {
  return maisAntigoEm !== null && agoraMs - Date.parse(maisAntigoEm) > LIMITE_ATRASO_MS;
}

/** '20/11 14:32' in the business time zone. */
export function diaEHora(instante: string, fuso: string): string {
  const partes = new Intl.DateTimeFormat('pt-BR', { timeZone: fuso, day: '2-digit', month: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(
    new Date(instante),
  );
  const p = (tipo: Intl.DateTimeFormatPartTypes) => partes.find((x) => x.type === tipo)?.value ?? '';
  return `${p('day')}/${p('month')} ${p('hour')}:${p('minute')}`;
}
