/**
 * Numbers written as pt-BR writes them ('1.234,56'), by hand instead of Intl.NumberFormat.
 *
 * Why not Intl: a page's first Intl object starts ICU, 20-100 ms of main thread on this
 * machine and 4x that on a cheap phone, paid on every app start by the first screen that formats a
 * count or an amount. The pt-BR rules for these numbers are fixed and short: a dot every three digits
 * of the integer part (from 1.000 on), a comma before the decimals, '-' before a negative. The tests
 * compare every function here with Intl's output over many values (numeros.test.ts).
 */

/** Above this the double no longer holds every integer, nor toFixed plain digits: Intl writes it. */
export const MAIOR_EXATO = Number.MAX_SAFE_INTEGER;

/** '1234567' -> '1.234.567' (digits only). */
export function agruparMilhares(digitos: string): string {
  let grupos = '';
  let fim = digitos.length;
  while (fim > 3) {
    grupos = `.${digitos.slice(fim - 3, fim)}${grupos}`;
    fim -= 3;
  }
  return digitos.slice(0, fim) + grupos;
}

/**
 * [integer digits, `casas` decimal digits] of `absoluto` (>= 0, at most MAIOR_EXATO) rounded half up on
 * its shortest decimal form, the digits String() gives: that is what Intl rounds, so 1.005 is '1,01'
 * (toFixed rounds the binary value, 1.00499999..., and says '1.00').
 */
function arredondar(absoluto: number, casas: number): [string, string] {
  const texto = String(absoluto);
  // Below 1e-6 String() switches to exponent form; such a value rounds to zero at 3 decimals or fewer.
  if (texto.includes('e')) return ['0', '0'.repeat(casas)];
  const [inteira, fracao = ''] = texto.split('.') as [string, string | undefined];
  if (fracao.length <= casas) return [inteira, fracao.padEnd(casas, '0')];
  const mantidos = inteira + fracao.slice(0, casas);
  const digitos = fracao[casas]! >= '5' ? (BigInt(mantidos) + 1n).toString().padStart(mantidos.length, '0') : mantidos;
  return [digitos.slice(0, digitos.length - casas) || '0', digitos.slice(digitos.length - casas)];
}

/**
 * `valor` with exactly `casas` decimals (0-3), rounded half away from zero as Intl
 * rounds (see arredondar): 1234.5 -> '1.234,50' (casas 2), 2.5 -> '3' (casas 0). A value that rounds to zero loses its
 * sign ('0,00', never '-0,00': nobody owes minus nothing). Not finite: '0'.
 */
export function formatarNumero(valor: number, casas = 0): string {
  if (!Number.isFinite(valor)) valor = 0;
  const negativo = valor < 0;
  const absoluto = Math.abs(valor);
  let texto: string;
  if (absoluto > MAIOR_EXATO) {
    texto = new Intl.NumberFormat('pt-BR', { minimumFractionDigits: casas, maximumFractionDigits: casas }).format(absoluto);
  } else {
    const [inteira, decimais] = arredondar(absoluto, casas);
    texto = casas === 0 ? agruparMilhares(inteira) : `${agruparMilhares(inteira)},${decimais}`;
  }
  return negativo && /[1-9]/.test(texto) ? `-${texto}` : texto;
}
