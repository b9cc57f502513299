import { describe, expect, it } from 'vitest';
import { numeroPorExtenso, valorPorExtenso } from './extenso';

describe('numeroPorExtenso', () => {
  it.each<[number, string]>([
    [0, 'zero'],
    [1, 'um'],
    [2, 'dois'],
    [3, 'três'],
    [9, 'nove'],
    [10, 'dez'],
    [11, 'onze'],
    [14, 'quatorze'],
    [16, 'dezesseis'],
    [17, 'dezessete'],
    [19, 'dezenove'],
    [20, 'vinte'],
    [21, 'vinte e um'],
    [55, 'cinquenta e cinco'],
    [99, 'noventa e nove'],
    [100, 'cem'],
    [101, 'cento e um'],
    [110, 'cento e dez'],
    [119, 'cento e dezenove'],
    [180, 'cento e oitenta'],
    [200, 'duzentos'],
    [220, 'duzentos e vinte'],
    [345, 'trezentos e quarenta e cinco'],
    [500, 'quinhentos'],
    [999, 'novecentos e noventa e nove'],
  ])('%i -> %s', (n, texto) => expect(numeroPorExtenso(n)).toBe(texto));

  it.each<[number, string]>([
    [1000, 'mil'],
    [1001, 'mil e um'],
    [1010, 'mil e dez'],
    [1100, 'mil e cem'],
    [1101, 'mil cento e um'],
    [1280, 'mil duzentos e oitenta'],
    [1500, 'mil e quinhentos'],
    [2000, 'dois mil'],
    [10_000, 'dez mil'],
    [21_000, 'vinte e um mil'],
    [100_000, 'cem mil'],
    [101_000, 'cento e um mil'],
    [123_456, 'cento e vinte e três mil quatrocentos e cinquenta e seis'],
    [999_999, 'novecentos e noventa e nove mil novecentos e noventa e nove'],
  ])('milhares: %i -> %s', (n, texto) => expect(numeroPorExtenso(n)).toBe(texto));

  it.each<[number, string]>([
    [1_000_000, 'um milhão'],
    [1_000_001, 'um milhão e um'],
    [1_000_100, 'um milhão e cem'],
    [1_001_000, 'um milhão e mil'],
    [1_500_000, 'um milhão e quinhentos mil'],
    [1_200_300, 'um milhão duzentos mil e trezentos'],
    [2_000_000, 'dois milhões'],
    [10_000_000, 'dez milhões'],
    [1_000_000_000, 'um bilhão'],
    [3_000_000_000, 'três bilhões'],
    [2_000_000_000_000, 'dois trilhões'],
  ])('milhões e acima: %i -> %s', (n, texto) => expect(numeroPorExtenso(n)).toBe(texto));

  it('recusa o que não é um inteiro não negativo seguro', () => {
    for (const n of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) expect(() => numeroPorExtenso(n)).toThrow(RangeError);
  });
});

describe('valorPorExtenso (centavos)', () => {
  it.each<[number, string]>([
    [0, 'zero reais'],
    [100, 'um real'],
    [200, 'dois reais'],
    [1, 'um centavo'],
    [2, 'dois centavos'],
    [50, 'cinquenta centavos'],
    [99, 'noventa e nove centavos'],
    [101, 'um real e um centavo'],
    [150, 'um real e cinquenta centavos'],
    [1_000, 'dez reais'],
    [1_500, 'quinze reais'],
    [10_000, 'cem reais'],
    [18_000, 'cento e oitenta reais'],
    [22_000, 'duzentos e vinte reais'],
    [23_000, 'duzentos e trinta reais'],
    [100_000, 'mil reais'],
    [128_050, 'mil duzentos e oitenta reais e cinquenta centavos'],
    [150_000, 'mil e quinhentos reais'],
    [35_050, 'trezentos e cinquenta reais e cinquenta centavos'],
    [100_000_000, 'um milhão de reais'],
    [100_000_001, 'um milhão de reais e um centavo'],
    [100_000_050, 'um milhão de reais e cinquenta centavos'],
    [200_000_000, 'dois milhões de reais'],
    [150_000_000, 'um milhão e quinhentos mil reais'],
    [100_000_100, 'um milhão e um reais'],
    [1_000_000_000, 'dez milhões de reais'],
    [100_000_000_000, 'um bilhão de reais'],
  ])('%i centavos -> %s', (centavos, texto) => expect(valorPorExtenso(centavos)).toBe(texto));

  it('um valor negativo começa com "menos"', () => {
    expect(valorPorExtenso(-5_000)).toBe('menos cinquenta reais');
  });

  it('recusa fração de centavo', () => {
    expect(() => valorPorExtenso(10.5)).toThrow(RangeError);
  });
});
