/**
 * CSV the way a Brazilian spreadsheet opens it with a double click, no import wizard:
 * UTF-8 with a BOM (or Excel reads 'Goiânia' as 'GoiÃ¢nia'), ';' between fields (',' is the decimal
 * mark), decimal comma, CRLF line ends. One place for the rule: the server's exports and the client's
 * tables both write through here.
 */

export const BOM_UTF8 = '\uFEFF';
export type CelulaCsv = string | number | null | undefined;

/** Text a spreadsheet would run as a formula (CSV injection): it is written with a leading apostrophe. */
const INICIO_DE_FORMULA = /^[=+\-@\t\r]/;

/** Numbers: no thousands separator (so the sheet reads a number), a comma, cents when not whole. */
function numeroCsv(n: number): string {
  if (Number.isInteger(n)) return String(n);
  return n.toFixed(2).replace('.', ',');
}

export function valorCsv(valor: CelulaCsv): string {
  if (valor === null || valor === undefined) return '';
  if (typeof valor === 'number') return Number.isFinite(valor) ? numeroCsv(valor) : '';
  const texto = INICIO_DE_FORMULA.test(valor) ? `'${valor}` : valor;
  return /[;"\r\n]/.test(texto) ? `"${texto.replace(/"/g, '""')}"` : texto;
}

/** One line with its CRLF: an export streamed row by row writes `inicioCsv` once, then these. */
export function linhaCsv(celulas: readonly CelulaCsv[]): string {
  return `${celulas.map(valorCsv).join(';')}\r\n`;
}

/** The BOM and the header line: the start of a CSV written row by row. */
export function inicioCsv(cabecalho: readonly string[]): string {
  return `${BOM_UTF8}${linhaCsv(cabecalho)}`;
}

export function gerarCsv(cabecalho: readonly string[], linhas: readonly (readonly CelulaCsv[])[]): string {
  return inicioCsv(cabecalho) + linhas.map(linhaCsv).join('');
}
