/**
 * What a phone tells the server about itself on every request, as compact ASCII headers:
 *   X-Dispositivo: <uuid of this install>
 *   X-Versao-App:  0.1.0
 *   X-Fila:        venda=3;visita=1;despesa=0;rota=0   (writes waiting in the outbox, per kind)
 *   X-Fila-Idade:  7260   (seconds since the oldest waiting write was made; absent with an empty queue)
 *   X-Sync-Idade:  95     (seconds since the last complete sync; absent if this phone never synced)
 * Ages, not instants: a phone's clock may be hours off, but the time between two of its own readings
 * is right; the server turns them into instants with its own clock.
 */
import { versaoValida } from './versao';

export const CABECALHO_DISPOSITIVO = 'X-Dispositivo';
export const CABECALHO_VERSAO = 'X-Versao-App';
export const CABECALHO_FILA = 'X-Fila';
export const CABECALHO_FILA_IDADE = 'X-Fila-Idade';
export const CABECALHO_SYNC_IDADE = 'X-Sync-Idade';

export const TIPOS_FILA = ['venda', 'visita', 'despesa', 'rota'] as const;
export type TipoFila = (typeof TIPOS_FILA)[number];
export type ContagemFila = Record<TipoFila, number>;

/** Bounds of what a report may say; anything beyond is garbage, not a report. */
export const MAXIMO_ITENS_POR_TIPO = 999_999;
export const IDADE_MAXIMA_S = 10 * 365 * 24 * 3600;
const PADRAO_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function filaVazia(): ContagemFila {
  return { venda: 0, visita: 0, despesa: 0, rota: 0 };
}

export function totalDaFila(c: ContagemFila): number {
  return c.venda + c.visita + c.despesa + c.rota;
}

/** What several phones of one person hold together (the deactivation's summary). */
export function somarFilas(filas: ContagemFila[]): ContagemFila {
  const soma = filaVazia();
  for (const f of filas) for (const t of TIPOS_FILA) soma[t] += f[t];
  return soma;
}

/** 'venda=3;visita=1;despesa=0;rota=0' */
export function formatarFila(c: ContagemFila): string {
  return TIPOS_FILA.map((t) => `${t}=${Math.min(MAXIMO_ITENS_POR_TIPO, Math.max(0, Math.trunc(c[t])))}`).join(';');
}

/** The counts of X-Fila, or null when it is not one (kinds a newer app adds are skipped). */
export function lerFila(texto: string): ContagemFila | null {
  if (texto.length > 200) return null;
  const c = filaVazia();
  const vistos = new Set<string>();
  for (const parte of texto.split(';')) {
    const m = /^([a-z]{1,20})=(\d{1,6})$/.exec(parte.trim());
    if (!m || vistos.has(m[1]!)) return null;
    vistos.add(m[1]!);
    if ((TIPOS_FILA as readonly string[]).includes(m[1]!)) c[m[1] as TipoFila] = Number(m[2]);
  }
  return c;
}

/** An age in whole seconds ('7260'), or null when it is not one. */
export function lerIdade(texto: string): number | null {
  if (!/^\d{1,10}$/.test(texto)) return null;
  const s = Number(texto);
  return s <= IDADE_MAXIMA_S ? s : null;
}

export function dispositivoValido(texto: string): boolean {
  return PADRAO_UUID.test(texto);
}

export interface RelatoDispositivo {
  dispositivoId: string;
  versao: string;
  fila: ContagemFila;
  /** Seconds since the oldest waiting write was made; null with an empty queue (or not said). */
  filaIdadeS: number | null;
  /** Seconds since the last complete sync; null if never. */
  syncIdadeS: number | null;
}

/** The headers a phone sends (the client builds them with this, the tests too). */
export function cabecalhosDoRelato(r: RelatoDispositivo): Record<string, string> {
  const cabecalhos: Record<string, string> = {
    [CABECALHO_DISPOSITIVO]: r.dispositivoId,
    [CABECALHO_VERSAO]: r.versao,
    [CABECALHO_FILA]: formatarFila(r.fila),
  };
  if (r.filaIdadeS !== null && totalDaFila(r.fila) > 0) cabecalhos[CABECALHO_FILA_IDADE] = String(Math.min(IDADE_MAXIMA_S, Math.max(0, Math.floor(r.filaIdadeS))));
  if (r.syncIdadeS !== null) cabecalhos[CABECALHO_SYNC_IDADE] = String(Math.min(IDADE_MAXIMA_S, Math.max(0, Math.floor(r.syncIdadeS))));
  return cabecalhos;
}

type Cabecalhos = Record<string, string | string[] | undefined>;

/**
 * The report in a request's headers (Node gives their names in lower case), or null: no report
 * (scripts, tests, the admin's browser) or a garbled one, which is ignored as a whole.
 */
export function lerRelato(cabecalhos: Cabecalhos): RelatoDispositivo | null {
  const texto = (nome: string): string | undefined => {
    const v = cabecalhos[nome.toLowerCase()];
    return typeof v === 'string' ? v.trim() : undefined; // a repeated header comes as an array: garbage
  };
  const dispositivoId = texto(CABECALHO_DISPOSITIVO);
  const versao = texto(CABECALHO_VERSAO);
  const filaTexto = texto(CABECALHO_FILA);
  if (!dispositivoId || !versao || filaTexto === undefined) return null;
  if (!dispositivoValido(dispositivoId) || !versaoValida(versao)) return null;
  const fila = lerFila(filaTexto);
  if (!fila) return null;
  const idade = (nome: string): number | null | false => {
    const v = texto(nome);
    if (v === undefined || v === '') return null;
    return lerIdade(v) ?? false;
  };
  const filaIdadeS = idade(CABECALHO_FILA_IDADE);
  const syncIdadeS = idade(CABECALHO_SYNC_IDADE);
  if (filaIdadeS === false || syncIdadeS === false) return null;
  return { dispositivoId: dispositivoId.toLowerCase(), versao, fila, filaIdadeS: totalDaFila(fila) > 0 ? filaIdadeS : null, syncIdadeS };
}
