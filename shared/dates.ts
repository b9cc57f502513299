/**
 * Calendar dates are 'yyyy-mm-dd' strings in the business time zone (APP_TZ), never UTC:
 * a sale at 22:00 in Brazil belongs to that Brazilian day. Instants (timestamps) are ISO
 * strings in UTC and are only converted to APP_TZ for display.
 */
import { aoPrimeiroUso } from './aoPrimeiroUso';
import { deslocamentoNaTabela, type TabelaDoFuso } from './fusos';

export const APP_TZ_PADRAO = 'America/Sao_Paulo';

/** Each zone's table of offsets (shared/fusos.ts): read with arithmetic, without Intl, inside its window. */
const tabelasPorFuso = new Map<string, TabelaDoFuso>();

/** From now on `fuso` is read from this table inside its window (a newer table for the zone replaces the older). */
export function usarTabelaDoFuso(tabela: TabelaDoFuso): void {
  tabelasPorFuso.set(tabela.fuso, tabela);
  ultimaDataPorFuso.delete(tabela.fuso);
}

/**
 * The wall clock of `instante` in `fuso` as a Date whose UTC fields are the local ones, from the zone's
 * table; null when there is none for that instant (then Intl answers).
 */
function relogioLocal(instante: Date, fuso: string): Date | null {
  const tabela = tabelasPorFuso.get(fuso);
  if (!tabela) return null;
  const ms = instante.getTime();
  const deslocamento = deslocamentoNaTabela(tabela, ms);
  return deslocamento === null ? null : new Date(ms + deslocamento * 60_000);
}

const doisDigitos = (n: number) => (n < 10 ? `0${n}` : String(n));

const formatosPorFuso = new Map<string, Intl.DateTimeFormat>();

function formatoDeData(fuso: string): Intl.DateTimeFormat {
  let formato = formatosPorFuso.get(fuso);
  if (!formato) {
    // en-CA formats as yyyy-mm-dd.
    formato = new Intl.DateTimeFormat('en-CA', {
      timeZone: fuso,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    formatosPorFuso.set(fuso, formato);
  }
  return formato;
}

export function fusoValido(fuso: string): boolean {
  try {
    new Intl.DateTimeFormat('en-CA', { timeZone: fuso });
    return true;
  } catch {
    return false;
  }
}

/**
 * The last date computed per zone, with the UTC minute it was for. Every zone's offset is a whole
 * number of minutes, so local midnight falls on a UTC minute boundary and all instants of one UTC
 * minute share a local date: the memo is exact. Writes ask for today many times a second (each
 * queued sale checks its date), and Intl formatting costs microseconds.
 */
const ultimaDataPorFuso = new Map<string, { minuto: number; data: string }>();

/** The calendar date of `instante` in `fuso`, as 'yyyy-mm-dd'. */
export function dataNoFuso(instante: Date, fuso: string = APP_TZ_PADRAO): string {
  const minuto = Math.floor(instante.getTime() / 60_000);
  const ultima = ultimaDataPorFuso.get(fuso);
  if (ultima && ultima.minuto === minuto) return ultima.data;
  const local = relogioLocal(instante, fuso);
  const data = local
    ? `${String(local.getUTCFullYear()).padStart(4, '0')}-${doisDigitos(local.getUTCMonth() + 1)}-${doisDigitos(local.getUTCDate())}`
    : formatoDeData(fuso).format(instante);
  ultimaDataPorFuso.set(fuso, { minuto, data });
  return data;
}

/** Today's date in the business time zone. */
export function hoje(fuso: string = APP_TZ_PADRAO, agora: Date = new Date()): string {
  return dataNoFuso(agora, fuso);
}

/**
 * The number written by the `quantos` ASCII digits of `texto` from `inicio`, or -1 if any is not a digit.
 * Read by char codes, not a regex with groups: the batch sync reads two dates of every queued sale, and
 * the groups' match array and substrings were most of that.
 */
export function digitosEm(texto: string, inicio: number, quantos: number): number {
  let valor = 0;
  for (let i = inicio; i < inicio + quantos; i++) {
    const c = texto.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    valor = valor * 10 + c;
  }
  return valor;
}

const DATA_ISO = /^(\d{4})-(\d{2})-(\d{2})$/;
const HIFEN = 45;

/** True for a real calendar date written as 'yyyy-mm-dd' (rejects 2026-02-30). */
export function ehDataValida(texto: string): boolean {
  if (texto.length !== 10 || texto.charCodeAt(4) !== HIFEN || texto.charCodeAt(7) !== HIFEN) return false;
  const ano = digitosEm(texto, 0, 4);
  const mes = digitosEm(texto, 5, 2);
  const dia = digitosEm(texto, 8, 2);
  return ano >= 1900 && ano <= 2999 && mes >= 0 && dia >= 0 && diaExiste(ano, mes, dia);
}

const DIAS_DO_MES = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Whether day `dia` of month `mes` (1-12) exists in `ano` (Gregorian). Arithmetic, no Date: the batch
 * sync checks two dates per queued sale.
 */
export function diaExiste(ano: number, mes: number, dia: number): boolean {
  if (mes < 1 || mes > 12 || dia < 1) return false;
  const bissexto = ano % 4 === 0 && (ano % 100 !== 0 || ano % 400 === 0);
  return dia <= (mes === 2 && bissexto ? 29 : DIAS_DO_MES[mes - 1]!);
}

/**
 * Sort order of ISO instants, most recent first, a missing one last. The text order of one ISO format is
 * its time order: compared as text, not with localeCompare (a collator starts ICU, shared/fusos.ts).
 */
export function maisRecentePrimeiro(a: string | null | undefined, b: string | null | undefined): number {
  const x = a ?? '';
  const y = b ?? '';
  return x === y ? 0 : x > y ? -1 : 1;
}

/** '2026-11-22' -> '22/11/2026' without going through Date (no time-zone shift possible). */
export function formatarData(data: string | null | undefined): string {
  if (!data) return '';
  const m = DATA_ISO.exec(data.slice(0, 10));
  if (!m) return data;
  return `${m[3]}/${m[2]}/${m[1]}`;
}

const formatosDataHora = new Map<string, Intl.DateTimeFormat>();

function formatoDataHora(fuso: string, comData: boolean): Intl.DateTimeFormat {
  const chave = `${fuso}|${comData}`;
  let formato = formatosDataHora.get(chave);
  if (!formato) {
    formato = new Intl.DateTimeFormat('pt-BR', {
      timeZone: fuso,
      ...(comData ? { day: '2-digit', month: '2-digit', year: 'numeric' } : {}),
      hour: '2-digit',
      minute: '2-digit',
    });
    formatosDataHora.set(chave, formato);
  }
  return formato;
}

/** ISO instant -> '22/11/2026 14:32' in the business time zone. */
export function formatarDataHora(instante: string | null | undefined, fuso: string = APP_TZ_PADRAO): string {
  if (!instante) return '';
  const d = new Date(instante);
  if (Number.isNaN(d.getTime())) return '';
  const local = relogioLocal(d, fuso);
  if (local) {
    return `${doisDigitos(local.getUTCDate())}/${doisDigitos(local.getUTCMonth() + 1)}/${local.getUTCFullYear()} ${doisDigitos(local.getUTCHours())}:${doisDigitos(local.getUTCMinutes())}`;
  }
  return formatoDataHora(fuso, true).format(d).replace(',', '');
}

/** ISO instant -> '14:32' in the business time zone. */
export function formatarHora(instante: string | null | undefined, fuso: string = APP_TZ_PADRAO): string {
  if (!instante) return '';
  const d = new Date(instante);
  if (Number.isNaN(d.getTime())) return '';
  const local = relogioLocal(d, fuso);
  if (local) return `${doisDigitos(local.getUTCHours())}:${doisDigitos(local.getUTCMinutes())}`;
  return formatoDataHora(fuso, false).format(d);
}

const formatoPorExtenso = aoPrimeiroUso(() => new Intl.DateTimeFormat('pt-BR', { timeZone: 'UTC', weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }));

/** '2026-11-21' -> 'sábado, 21 de novembro de 2026'. A calendar date: read at noon UTC, so no zone shifts the day. */
export function formatarDataPorExtenso(data: string): string {
  const m = DATA_ISO.exec(data);
  if (!m) return data;
  return formatoPorExtenso().format(new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 12)));
}

const formatosHora = new Map<string, Intl.DateTimeFormat>();

/** The hour (0-23) of `instante` in `fuso`. */
export function horaNoFuso(instante: Date, fuso: string = APP_TZ_PADRAO): number {
  const local = relogioLocal(instante, fuso);
  if (local) return local.getUTCHours();
  let formato = formatosHora.get(fuso);
  if (!formato) {
    formato = new Intl.DateTimeFormat('en-GB', { timeZone: fuso, hour: '2-digit', hourCycle: 'h23' });
    formatosHora.set(fuso, formato);
  }
  return Number(formato.format(instante));
}

/**
 * The first instant of the calendar date `data` in `fuso` (local midnight), as an ISO string in UTC: the
 * bound for filtering instants by a business day. Found by bisecting the minutes around UTC midnight
 * (every zone is within ±15 h and whole minutes), so no offset table nor daylight-saving rule is needed.
 */
export function inicioDoDia(data: string, fuso: string = APP_TZ_PADRAO): string {
  const m = DATA_ISO.exec(data);
  if (!m) throw new RangeError(`Data inválida: ${data}`);
  const meiaNoiteUtc = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / 60_000;
  let de = meiaNoiteUtc - 15 * 60;
  let ate = meiaNoiteUtc + 15 * 60;
  while (de < ate) {
    const meio = Math.floor((de + ate) / 2);
    if (dataNoFuso(new Date(meio * 60_000), fuso) >= data) ate = meio;
    else de = meio + 1;
  }
  return new Date(de * 60_000).toISOString();
}

/** Adds whole days to a 'yyyy-mm-dd' date (calendar arithmetic, no time zone involved). */
export function somarDias(data: string, dias: number): string {
  const m = DATA_ISO.exec(data);
  if (!m) throw new RangeError(`Data inválida: ${data}`);
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + dias));
  return d.toISOString().slice(0, 10);
}
