/**
 * Money is integer centavos everywhere inside the system: R$ 12,34 is 1234.
 * The HTTP API speaks reais (numbers with at most 2 decimals), so conversion
 * happens only at the edges, through the two functions below.
 */
import { agruparMilhares, formatarNumero, MAIOR_EXATO } from './numeros';

export type Centavos = number & { readonly __centavos: unique symbol };

/** Largest amount accepted anywhere (R$ 10 milhões): keeps sums far from float precision limits. */
export const MAXIMO_CENTAVOS = 1_000_000_000;

export function comoCentavos(valor: number): Centavos {
  if (!Number.isSafeInteger(valor)) {
    throw new RangeError(`Valor em centavos deve ser inteiro: ${valor}`);
  }
  return valor as Centavos;
}

/** True when `reais` has at most two decimal places (tolerating binary float noise such as 0.1 + 0.2). */
export function temNoMaximoDuasCasas(reais: number): boolean {
  const escalado = reais * 100;
  return Math.abs(escalado - Math.round(escalado)) < 1e-6;
}

/** 12.34 -> 1234. The caller validates the input first (finite, two decimals). */
export function reaisParaCentavos(reais: number): Centavos {
  if (!Number.isFinite(reais)) throw new RangeError(`Valor inválido: ${reais}`);
  return comoCentavos(Math.round(reais * 100));
}

/** 1234 -> 12.34, for the API and for display. */
export function centavosParaReais(valor: number): number {
  return valor / 100;
}

export function somarCentavos(valores: Iterable<number>): Centavos {
  let total = 0;
  for (const v of valores) total += v;
  return comoCentavos(total);
}

/** Sums amounts in reais through centavos, so 0,10 + 0,20 is exactly 0,30 (never 0,30000000000000004). */
export function somarReais(...valores: number[]): number {
  return centavosParaReais(somarCentavos(valores.map((v) => Math.round(v * 100))));
}

/**
 * 123456 -> 'R$ 1.234,56', -5000 -> '-R$ 50,00': Intl's pt-BR BRL format, written by hand (a page's first
 * Intl object starts ICU: shared/numeros.ts), with the non-breaking space after 'R$' so the amount never
 * wraps away from its sign. A fraction of a centavo is rounded half away from zero.
 */
export function formatarCentavos(valor: number): string {
  const centavos = Number.isFinite(valor) ? Math.round(Math.abs(valor)) : 0;
  const sinal = valor < 0 && centavos > 0 ? '-' : '';
  // Integer arithmetic: exact for every amount; beyond 2^53 centavos (no real amount) the decimal writer.
  const texto =
    centavos > MAIOR_EXATO ? formatarNumero(centavos / 100, 2) : `${agruparMilhares(String(Math.floor(centavos / 100)))},${String(centavos % 100).padStart(2, '0')}`;
  return `${sinal}R$\u00a0${texto}`;
}

/** 1234.5 -> 'R$ 1.234,50'. Rounds to the centavo first so floats never show 3 decimals. */
export function formatarReais(reais: number | null | undefined): string {
  const valor = typeof reais === 'number' && Number.isFinite(reais) ? reais : 0;
  return formatarCentavos(Math.round(valor * 100));
}

/** Dots grouping thousands with no decimal part: '1.500', '12.345.678'. */
const MILHARES = /^[1-9]\d{0,2}(\.\d{3})+$/;

/**
 * A number as a person writes it in pt-BR, as plain decimal text for Number(): '1.234,56' -> '1234.56',
 * '1.500' -> '1500' (mil e quinhentos, never 1,50), '12,5' -> '12.5'. A lone dot that does not group
 * thousands stays a decimal point ('12.5'). Null for anything else ('1,2.3', '0x10', '1e3', 'abc').
 */
export function textoParaDecimal(texto: string): string | null {
  const t = texto.trim();
  const sinal = t.startsWith('-') ? '-' : '';
  const corpo = t.slice(sinal.length);
  let decimal = corpo;
  if (corpo.includes(',') || MILHARES.test(corpo)) {
    // Dots may only group thousands before the decimal comma.
    if (!/^(\d+|[1-9]\d{0,2}(\.\d{3})+)(,\d+)?$/.test(corpo)) return null;
    decimal = corpo.replace(/\./g, '').replace(',', '.');
  }
  return /^\d+(\.\d+)?$/.test(decimal) ? sinal + decimal : null;
}

/**
 * Parses what a person types in a money field: '12,50', '1.234,56', '1.500', '12.5', '' (blank is 0).
 * Returns null when the text is not an amount.
 */
export function lerValorDigitado(texto: string): number | null {
  const limpo = texto.trim().replace(/^R\$\s*/, '');
  if (limpo === '') return 0;
  if (limpo.startsWith('-')) return null;
  const decimal = textoParaDecimal(limpo);
  if (decimal === null) return null;
  const valor = Number(decimal);
  return Number.isFinite(valor) ? valor : null;
}
