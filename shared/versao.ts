/**
 * Versions of the client app ('0.1.0', '1.2.0-beta.1'): the phone sends its own with every request
 * (X-Versao-App) and the server refuses queued writes from one older than the minimum it accepts.
 * Pure functions, shared by both sides.
 */

/** The oldest client the server accepts writes from (the server may raise it: VERSAO_MINIMA_APP). */
export const VERSAO_MINIMA_APP = '0.1.0';

/** major.minor.patch with an optional pre-release ('-beta.1'); short and ASCII, fit for a header. */
const PADRAO_VERSAO = /^(0|[1-9]\d{0,5})\.(0|[1-9]\d{0,5})\.(0|[1-9]\d{0,5})(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$/;
const TAMANHO_MAXIMO = 40;

interface VersaoLida {
  numeros: [number, number, number];
  preLancamento: string[];
}

function lerVersao(texto: string): VersaoLida | null {
  if (texto.length > TAMANHO_MAXIMO) return null;
  const m = PADRAO_VERSAO.exec(texto);
  if (!m) return null;
  return { numeros: [Number(m[1]), Number(m[2]), Number(m[3])], preLancamento: m[4] ? m[4].split('.') : [] };
}

export function versaoValida(texto: unknown): texto is string {
  return typeof texto === 'string' && lerVersao(texto) !== null;
}

function compararIdentificador(a: string, b: string): number {
  const na = /^\d+$/.test(a);
  const nb = /^\d+$/.test(b);
  if (na && nb) return Math.sign(Number(a) - Number(b));
  if (na !== nb) return na ? -1 : 1; // numeric identifiers come first (semver)
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * -1, 0 or 1 as `a` is older than, the same as or newer than `b` (semver precedence: '1.0.0-beta' is
 * older than '1.0.0'). Throws on a text that is not a version: callers validate first.
 */
export function compararVersoes(a: string, b: string): -1 | 0 | 1 {
  const va = lerVersao(a);
  const vb = lerVersao(b);
  if (!va || !vb) throw new Error(`Versão inválida: ${JSON.stringify(va ? b : a)}`);
  for (let i = 0; i < 3; i++) {
    const d = Math.sign(va.numeros[i]! - vb.numeros[i]!);
    if (d !== 0) return d as -1 | 1;
  }
  const pa = va.preLancamento;
  const pb = vb.preLancamento;
  if (pa.length === 0 || pb.length === 0) return pa.length === pb.length ? 0 : pa.length === 0 ? 1 : -1;
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const d = compararIdentificador(pa[i]!, pb[i]!);
    if (d !== 0) return d as -1 | 1;
  }
  return Math.sign(pa.length - pb.length) as -1 | 0 | 1;
}

/** Whether a client of `versao` is too old for a server that accepts from `minima` on. */
export function versaoAntiga(versao: string, minima: string): boolean {
  return compararVersoes(versao, minima) < 0;
}

/**
 * The minimum-version gate as every caller applies it: a readable version older than `minima`.
 * Anything unreadable (absent, a script's 'teste', garbage) is never gated.
 */
export function abaixoDaMinima(versao: unknown, minima: string): boolean {
  if (typeof versao !== 'string') return false;
  const texto = versao.trim();
  return versaoValida(texto) && versaoAntiga(texto, minima);
}
