import { describe, expect, it } from 'vitest';
import { formatarCentavos } from './money';
import { formatarNumero } from './numeros';

const NBSP = '\u00a0';

/** A deterministic stream of numbers (mulberry32): the same cases on every run and machine. */
function sorteador(semente: number) {
  let a = semente >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Values of every size a screen shows: counts, amounts, averages, halves to round, and their negatives. */
function valores(quantos: number, semente: number, casas: number): number[] {
  const sortear = sorteador(semente);
  const lista = [0, 1, 9, 10, 99, 100, 999, 1000, 1001, 9999, 10_000, 999_999, 1_000_000, 123_456_789, 2 ** 40, Number.MAX_SAFE_INTEGER];
  for (let i = 0; i < quantos; i++) {
    const ordem = Math.floor(sortear() * 13); // up to 10^12
    const bruto = sortear() * 10 ** ordem;
    lista.push(bruto, Math.round(bruto), Math.round(bruto * 10 ** casas) / 10 ** casas, (Math.floor(bruto) * 2 + 1) / 2);
  }
  return [...lista, ...lista.map((v) => -v).filter((v) => v !== 0)];
}

describe('formatarNumero (pt-BR sem Intl)', () => {
  it('escreve como o pt-BR escreve: ponto nos milhares, vírgula nos decimais', () => {
    expect(formatarNumero(0)).toBe('0');
    expect(formatarNumero(999)).toBe('999');
    expect(formatarNumero(1000)).toBe('1.000');
    expect(formatarNumero(1_234_567)).toBe('1.234.567');
    expect(formatarNumero(-1500)).toBe('-1.500');
    expect(formatarNumero(1.5, 2)).toBe('1,50');
    expect(formatarNumero(1234.5, 2)).toBe('1.234,50');
    expect(formatarNumero(1.46484375, 1)).toBe('1,5');
  });

  it('arredonda a metade para longe do zero, como o Intl', () => {
    expect(formatarNumero(2.5)).toBe('3');
    expect(formatarNumero(-2.5)).toBe('-3');
    expect(formatarNumero(0.125, 2)).toBe('0,13');
    expect(formatarNumero(1.005, 2)).toBe('1,01'); // 1.00499999... as a double, but written 1.005: Intl says 1,01
  });

  it('zero não tem sinal, e o que não é número vira 0', () => {
    expect(formatarNumero(-0)).toBe('0');
    expect(formatarNumero(-0.001, 2)).toBe('0,00');
    expect(formatarNumero(Number.NaN)).toBe('0');
    expect(formatarNumero(Number.POSITIVE_INFINITY, 2)).toBe('0,00');
  });

  for (const casas of [0, 1, 2, 3]) {
    it(`dá o mesmo texto que Intl.NumberFormat('pt-BR') com ${casas} casa(s), em milhares de valores`, () => {
      const intl = new Intl.NumberFormat('pt-BR', { minimumFractionDigits: casas, maximumFractionDigits: casas });
      const diferentes: string[] = [];
      for (const v of valores(2500, 19 + casas, casas)) {
        const esperado = intl.format(v).replace(/^-(0(,0+)?)$/, '$1'); // Intl keeps the sign of a negative that rounds to zero
        const obtido = formatarNumero(v, casas);
        if (obtido !== esperado) diferentes.push(`${v}: ${obtido} != ${esperado}`);
      }
      expect(diferentes.slice(0, 5)).toEqual([]);
    });
  }
});

describe('formatarCentavos (money.ts), pelas mesmas regras', () => {
  it('R$ com o espaço que não quebra, sinal antes do R$', () => {
    expect(formatarCentavos(123_456)).toBe(`R$${NBSP}1.234,56`);
    expect(formatarCentavos(5)).toBe(`R$${NBSP}0,05`);
    expect(formatarCentavos(-150)).toBe(`-R$${NBSP}1,50`);
    expect(formatarCentavos(0)).toBe(`R$${NBSP}0,00`);
    expect(formatarCentavos(-0)).toBe(`R$${NBSP}0,00`);
  });

  it('dá o mesmo texto que o formato BRL do Intl para qualquer valor inteiro de centavos', () => {
    const intl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });
    const diferentes: string[] = [];
    // Up to R$ 10 trillion: beyond, centavos / 100 is no longer exact as a double and Intl's answer is the one off.
    for (const v of valores(2500, 7, 0).map(Math.round)) {
      if (v === 0 || Math.abs(v) > 1e15) continue;
      const esperado = intl.format(v / 100);
      const obtido = formatarCentavos(v);
      if (obtido !== esperado) diferentes.push(`${v}: ${obtido} != ${esperado}`);
    }
    expect(diferentes.slice(0, 5)).toEqual([]);
  });
});
