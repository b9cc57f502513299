import { describe, expect, it } from 'vitest';
import {
  centavosParaReais,
  comoCentavos,
  formatarCentavos,
  formatarReais,
  lerValorDigitado,
  reaisParaCentavos,
  somarCentavos,
  somarReais,
  temNoMaximoDuasCasas,
  textoParaDecimal,
} from './money';

/** Intl separates 'R$' from the amount with a non-breaking space. */
const NBSP = '\u00a0';

describe('reaisParaCentavos', () => {
  it('converte sem erro de ponto flutuante', () => {
    expect(reaisParaCentavos(0.1) + reaisParaCentavos(0.2)).toBe(30);
    expect(reaisParaCentavos(0.1 + 0.2)).toBe(30);
    expect(reaisParaCentavos(19.99)).toBe(1999);
    expect(reaisParaCentavos(1234.56)).toBe(123456);
    expect(reaisParaCentavos(0)).toBe(0);
    expect(reaisParaCentavos(10_000_000)).toBe(1_000_000_000);
  });

  it('recusa o que não é número finito', () => {
    expect(() => reaisParaCentavos(Number.NaN)).toThrow(RangeError);
    expect(() => reaisParaCentavos(Infinity)).toThrow(RangeError);
  });

  it('ida e volta', () => {
    expect(centavosParaReais(reaisParaCentavos(12.34))).toBe(12.34);
  });
});

describe('comoCentavos e somarCentavos', () => {
  it('só inteiros seguros são centavos', () => {
    expect(comoCentavos(150)).toBe(150);
    expect(() => comoCentavos(1.5)).toThrow(RangeError);
    expect(() => comoCentavos(2 ** 60)).toThrow(RangeError);
  });

  it('soma inteiros: dez vezes R$ 0,10 é exatamente R$ 1,00', () => {
    expect(somarCentavos(Array.from({ length: 10 }, () => reaisParaCentavos(0.1)))).toBe(100);
    expect(somarCentavos([])).toBe(0);
  });
});

describe('somarReais', () => {
  it.each([
    [[0.1, 0.2], 0.3],
    [[19.99, 0.01, 33.33], 53.33],
    [[100.1, 0.2, 0, 0], 100.3],
    [[], 0],
  ])('soma %j pelos centavos: %s', (valores, total) => {
    expect(somarReais(...valores)).toBe(total);
  });
});

describe('temNoMaximoDuasCasas', () => {
  it('aceita até 2 casas, tolerando ruído binário; recusa 3', () => {
    for (const v of [0, 1, 12.5, 12.34, 0.1 + 0.2, 1234.56, 19.99]) expect(temNoMaximoDuasCasas(v), String(v)).toBe(true);
    for (const v of [0.001, 12.345, 1.005, 0.125]) expect(temNoMaximoDuasCasas(v), String(v)).toBe(false);
  });
});

describe('formatarCentavos e formatarReais', () => {
  it('formata em pt-BR com o espaço não separável do Intl', () => {
    expect(formatarCentavos(123456)).toBe(`R$${NBSP}1.234,56`);
    expect(formatarCentavos(0)).toBe(`R$${NBSP}0,00`);
    expect(formatarCentavos(5)).toBe(`R$${NBSP}0,05`);
    expect(formatarCentavos(100_000_000)).toBe(`R$${NBSP}1.000.000,00`);
    expect(formatarCentavos(-150)).toBe(`-R$${NBSP}1,50`);
  });

  it('formatarReais arredonda ao centavo e trata ausente como zero', () => {
    expect(formatarReais(1234.5)).toBe(`R$${NBSP}1.234,50`);
    expect(formatarReais(0.1 + 0.2)).toBe(`R$${NBSP}0,30`);
    expect(formatarReais(null)).toBe(`R$${NBSP}0,00`);
    expect(formatarReais(undefined)).toBe(`R$${NBSP}0,00`);
    expect(formatarReais(Number.NaN)).toBe(`R$${NBSP}0,00`);
  });
});

describe('textoParaDecimal', () => {
  it('lê a escrita pt-BR como texto decimal, com sinal', () => {
    expect(textoParaDecimal('1.234,56')).toBe('1234.56');
    expect(textoParaDecimal('1.500')).toBe('1500');
    expect(textoParaDecimal(' -12,5 ')).toBe('-12.5');
    expect(textoParaDecimal('12.5')).toBe('12.5');
    expect(textoParaDecimal('1e3')).toBeNull();
    expect(textoParaDecimal('')).toBeNull();
  });
});

describe('lerValorDigitado', () => {
  it.each([
    ['1.234,56', 1234.56],
    ['12,50', 12.5],
    ['12,5', 12.5],
    ['12.5', 12.5],
    ['12', 12],
    [' 7,00 ', 7],
    ['R$ 12,50', 12.5],
    [`R$${NBSP}1.234,56`, 1234.56],
    ['1.234.567,89', 1234567.89],
    ['0,01', 0.01],
    ['', 0],
    ['   ', 0],
  ])('%j -> %d', (texto, valor) => {
    expect(lerValorDigitado(texto)).toBe(valor);
  });

  it("'1.500' é mil e quinhentos (milhar com ponto), não R$ 1,50", () => {
    expect(lerValorDigitado('1.500')).toBe(1500);
    expect(lerValorDigitado('12.345.678')).toBe(12345678);
    // Not thousands grouping: still a decimal point.
    expect(lerValorDigitado('0.500')).toBe(0.5);
    expect(lerValorDigitado('1.50')).toBe(1.5);
  });

  it.each(['abc', '-5', '12,3,4', '1,2.3', '12.34,5', '12a', '0x10', '1e3', 'Infinity', '.', ',', '12,', '1.2.3'])('%j -> null', (texto) => {
    expect(lerValorDigitado(texto)).toBeNull();
  });
});
