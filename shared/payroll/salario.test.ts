import { describe, expect, it } from 'vitest';
import {
  calcularSalario,
  mediaParaExibir,
  quemPagaAluguelParaMedia,
  valorFixoPorCidadeParaMedia,
  valorPorBolsaParaMedia,
} from './salario';

/** Sales (centavos) that give exactly `media` bags per city over `cidades` cities: media × 666,66 × cidades / 1,5. */
const vendasParaMedia = (media: number, cidades: number) => Math.round((media * 66_666 * cidades * 2) / 3);

describe('faixas por média (limites exatos)', () => {
  it.each([
    [0, 50],
    [0.99, 50],
    [1, 60],
    [1.5, 60],
    [1.69, 60],
    [1.7, 80],
    [1.99, 80],
    [2, 100],
    [2.49, 100],
    [2.5, 110],
    [2.99, 110],
    [3, 120],
    [7.2, 120],
  ])('média %s -> R$ %s por bolsa', (media, valor) => {
    expect(valorPorBolsaParaMedia(media)).toBe(valor);
  });

  it.each([
    [0, 25, 'funcionario'],
    [1.49, 25, 'funcionario'],
    [1.5, 50, 'metade'],
    [1.99, 50, 'metade'],
    [2, 50, 'escola'],
    [3, 50, 'escola'],
  ])('média %s -> fixo R$ %s por cidade, aluguel pago por %s', (media, fixo, quem) => {
    expect(valorFixoPorCidadeParaMedia(media)).toBe(fixo);
    expect(quemPagaAluguelParaMedia(media)).toBe(quem);
  });
});

describe('calcularSalario', () => {
  it.each([
    // media, cidades, valor por bolsa, fixo, quem paga
    [1, 3, 60, 25, 'funcionario'],
    [1.5, 4, 60, 50, 'metade'],
    [2, 2, 100, 50, 'escola'],
    [2.5, 2, 110, 50, 'escola'],
    [3, 5, 120, 50, 'escola'],
  ])('média exatamente %s em %s cidades: faixa certa, sem erro de arredondamento', (media, cidades, porBolsa, fixo, quem) => {
    const c = calcularSalario({ vendasCentavos: vendasParaMedia(media, cidades), boletos: 0, cidadesVisitadas: cidades, valorAluguelCentavos: 0 });
    expect(c.mediaBolsasCidade).toBeCloseTo(media, 9);
    expect(c.valorPorBolsa).toBe(porBolsa);
    expect(c.valorFixoPorCidade).toBe(fixo);
    expect(c.quemPagaAluguel).toBe(quem);
  });

  it('as bolsas arredondadas a duas casas decidem a faixa: 1,695 bolsa vira 1,70 e já vale R$ 80', () => {
    // R$ 753,32 são 1,6949 bolsa (1,69: R$ 60); R$ 753,33 são 1,6951 (1,70: R$ 80).
    const abaixo = calcularSalario({ vendasCentavos: 75_332, boletos: 0, cidadesVisitadas: 1, valorAluguelCentavos: 0 });
    const acima = calcularSalario({ vendasCentavos: 75_333, boletos: 0, cidadesVisitadas: 1, valorAluguelCentavos: 0 });
    expect([abaixo.totalBolsas, abaixo.valorPorBolsa]).toEqual([1.69, 60]);
    expect([acima.totalBolsas, acima.valorPorBolsa]).toEqual([1.7, 80]);
  });

  it('cada linha do detalhamento fecha como impressa: 42,32 × R$ 120,00 = R$ 5.078,40 (não R$ 5.078,23)', () => {
    const c = calcularSalario({ vendasCentavos: 1_880_876, boletos: 0, cidadesVisitadas: 10, valorAluguelCentavos: 0 });
    expect(c.totalBolsas).toBe(42.32);
    expect(c.valorPorBolsa).toBe(120);
    expect(c.valorBolsasCentavos).toBe(507_840);
  });

  it('para qualquer venda, bolsas (duas casas) × valor por bolsa dá exatamente o valor das bolsas', () => {
    for (let vendas = 0; vendas <= 5_000_000; vendas += 9_973) {
      for (const cidades of [1, 3, 7]) {
        const c = calcularSalario({ vendasCentavos: vendas, boletos: 0, cidadesVisitadas: cidades, valorAluguelCentavos: 0 });
        const impressas = Math.round(c.totalBolsas * 100);
        expect(impressas / 100).toBe(c.totalBolsas);
        expect(impressas * c.valorPorBolsa).toBe(c.valorBolsasCentavos);
      }
    }
  });

  it('um exemplo completo, centavo a centavo', () => {
    // R$ 6.666,60 em 4 cidades: 15 bolsas, média 3,75 -> R$ 120 por bolsa, R$ 50 por cidade, escola paga o aluguel.
    const c = calcularSalario({ vendasCentavos: 666_660, boletos: 3, cidadesVisitadas: 4, valorAluguelCentavos: 80_000 });
    expect(c.totalBolsas).toBeCloseTo(15, 9);
    expect(c.mediaBolsasCidade).toBeCloseTo(3.75, 9);
    expect(c.valorBolsasCentavos).toBe(180_000); // 15 × 120
    expect(c.valorCidadesCentavos).toBe(20_000); // 4 × 50
    expect(c.valorBoletosCentavos).toBe(1_650); // 3 × 5,50
    expect(c.descontoAluguelFuncionarioCentavos).toBe(0);
    expect(c.descontoAluguelEscolaCentavos).toBe(80_000);
    expect(c.totalSalarioCentavos).toBe(201_650);
  });

  it('média baixa: o funcionário paga todo o aluguel e o salário pode ficar negativo', () => {
    const c = calcularSalario({ vendasCentavos: 66_666, boletos: 1, cidadesVisitadas: 2, valorAluguelCentavos: 50_000 });
    // 1,5 bolsa em 2 cidades: média 0,75 -> R$ 50 por bolsa, R$ 25 por cidade
    expect(c.valorBolsasCentavos).toBe(7_500);
    expect(c.valorCidadesCentavos).toBe(5_000);
    expect(c.descontoAluguelFuncionarioCentavos).toBe(50_000);
    expect(c.totalSalarioCentavos).toBe(7_500 + 5_000 + 550 - 50_000);
  });

  it('média entre 1,5 e 2: metade do aluguel para cada, arredondando ao centavo', () => {
    const c = calcularSalario({ vendasCentavos: vendasParaMedia(1.8, 2), boletos: 0, cidadesVisitadas: 2, valorAluguelCentavos: 35_051 });
    expect(c.quemPagaAluguel).toBe('metade');
    expect(c.descontoAluguelFuncionarioCentavos + c.descontoAluguelEscolaCentavos).toBe(35_051);
    expect(c.descontoAluguelFuncionarioCentavos).toBe(17_526);
  });

  it('sem cidade visitada: média 0, nada por cidade, o funcionário paga o aluguel', () => {
    const c = calcularSalario({ vendasCentavos: 100_000, boletos: 2, cidadesVisitadas: 0, valorAluguelCentavos: 30_000 });
    expect(c.mediaBolsasCidade).toBe(0);
    expect(c.valorPorBolsa).toBe(50);
    expect(c.valorCidadesCentavos).toBe(0);
    expect(c.quemPagaAluguel).toBe('funcionario');
    expect(c.valorBolsasCentavos).toBe(Math.round((100_000 * 3 * 50 * 100) / 133_332));
  });

  it('aluguel zero: nenhum desconto para ninguém', () => {
    const c = calcularSalario({ vendasCentavos: 50_000, boletos: 0, cidadesVisitadas: 1, valorAluguelCentavos: 0 });
    expect(c.descontoAluguelFuncionarioCentavos).toBe(0);
    expect(c.descontoAluguelEscolaCentavos).toBe(0);
    expect(c.totalSalarioCentavos).toBe(c.valorBolsasCentavos + c.valorCidadesCentavos);
  });

  it('nada vendido, nada visitado: tudo zero', () => {
    const c = calcularSalario({ vendasCentavos: 0, boletos: 0, cidadesVisitadas: 0, valorAluguelCentavos: 0 });
    expect(c.totalSalarioCentavos).toBe(0);
    expect(c.totalBolsas).toBe(0);
  });

  it('boletos valem R$ 5,50 cada e nunca entram nas vendas', () => {
    const sem = calcularSalario({ vendasCentavos: 200_000, boletos: 0, cidadesVisitadas: 2, valorAluguelCentavos: 0 });
    const com = calcularSalario({ vendasCentavos: 200_000, boletos: 10, cidadesVisitadas: 2, valorAluguelCentavos: 0 });
    expect(com.totalSalarioCentavos - sem.totalSalarioCentavos).toBe(5_500);
    expect(com.totalBolsas).toBe(sem.totalBolsas);
  });
});

describe('mediaParaExibir', () => {
  it('divide por 1000 só valores de 10 ou mais (a proteção da especificação)', () => {
    expect(mediaParaExibir(1.75)).toBe(1.75);
    expect(mediaParaExibir(9.99)).toBe(9.99);
    expect(mediaParaExibir(1750)).toBe(1.75);
    expect(mediaParaExibir(undefined)).toBe(0);
  });
});
