import { describe, expect, it } from 'vitest';
import {
  avaliarDia,
  contaNoLimite,
  excessoDoDia,
  limiteDiarioCentavos,
  LIMITE_DIARIO_CENTAVOS,
  MULTIPLO_MUITO_ACIMA,
  muitoAcimaDoLimite,
  somaAlimentacaoDoDia,
  textoAcimaDoLimite,
  textoConfirmeValor,
  rotuloAcimaDoLimite,
  type DespesaNoLimite,
} from './politicaDespesas';

const refeicao = (valorCentavos: number, extra: Partial<DespesaNoLimite> = {}): DespesaNoLimite => ({
  rota_id: 7,
  data_despesa: '2026-12-03',
  tipo: 'alimentacao',
  valorCentavos,
  status_aprovacao: 'pendente',
  ...extra,
});

describe('limite diário da rota (seção 9)', () => {
  it('R$ 180,00 sem secretário, R$ 220,00 com secretário, em centavos', () => {
    expect(LIMITE_DIARIO_CENTAVOS).toEqual({ semSecretario: 18_000, comSecretario: 22_000 });
    expect(limiteDiarioCentavos({ tem_secretario: false })).toBe(18_000);
    expect(limiteDiarioCentavos({ tem_secretario: true })).toBe(22_000);
  });
});

describe('somaAlimentacaoDoDia', () => {
  it('soma só a alimentação daquela rota e daquele dia', () => {
    const despesas = [
      refeicao(12_000),
      refeicao(11_000),
      refeicao(5_000, { tipo: 'combustivel' }),
      refeicao(4_000, { data_despesa: '2026-12-04' }),
      refeicao(3_000, { rota_id: 8 }),
    ];
    expect(somaAlimentacaoDoDia(despesas, 7, '2026-12-03')).toBe(23_000);
    expect(somaAlimentacaoDoDia(despesas, 7, '2026-12-04')).toBe(4_000);
    expect(somaAlimentacaoDoDia([], 7, '2026-12-03')).toBe(0);
  });

  it('uma rejeitada não conta (não é custo da empresa: volta no acerto)', () => {
    expect(contaNoLimite(refeicao(100, { status_aprovacao: 'rejeitada' }))).toBe(false);
    expect(contaNoLimite(refeicao(100, { status_aprovacao: 'aprovada' }))).toBe(true);
    expect(contaNoLimite(refeicao(100, { tipo: 'hospedagem' }))).toBe(false);
    expect(somaAlimentacaoDoDia([refeicao(15_000), refeicao(9_000, { status_aprovacao: 'rejeitada' })], 7, '2026-12-03')).toBe(15_000);
  });
});

describe('acima do limite (estritamente) e por quanto', () => {
  it('exatamente no limite não está acima; um centavo a mais está', () => {
    expect(avaliarDia(18_000, 18_000)).toEqual({ soma: 18_000, limite: 18_000, acima: false, excesso: 0 });
    expect(avaliarDia(18_001, 18_000)).toEqual({ soma: 18_001, limite: 18_000, acima: true, excesso: 1 });
    expect(avaliarDia(23_000, 18_000)).toMatchObject({ acima: true, excesso: 5_000 });
    expect(avaliarDia(0, 18_000)).toMatchObject({ acima: false, excesso: 0 });
  });

  it('com secretário, R$ 200,00 no dia não passa do limite', () => {
    expect(avaliarDia(20_000, limiteDiarioCentavos({ tem_secretario: true })).acima).toBe(false);
    expect(avaliarDia(20_000, limiteDiarioCentavos({ tem_secretario: false })).acima).toBe(true);
  });

  it('excessoDoDia nunca é negativo', () => {
    expect(excessoDoDia(10_000, 18_000)).toBe(0);
    expect(excessoDoDia(18_050, 18_000)).toBe(50);
  });
});

describe('muito acima: qualquer despesa acima de 10 vezes o limite do dia', () => {
  it('vale para qualquer tipo, estritamente acima de 10x', () => {
    expect(MULTIPLO_MUITO_ACIMA).toBe(10);
    expect(muitoAcimaDoLimite(180_000, 18_000)).toBe(false);
    expect(muitoAcimaDoLimite(180_001, 18_000)).toBe(true);
    expect(muitoAcimaDoLimite(100_000_000, 18_000)).toBe(true);
    // R$ 2.000,00 is above 10x R$ 180,00 but not above 10x R$ 220,00.
    expect(muitoAcimaDoLimite(200_000, 18_000)).toBe(true);
    expect(muitoAcimaDoLimite(200_000, 22_000)).toBe(false);
  });
});

describe('textos', () => {
  it('o aviso diz o dia, a soma, o excesso e o limite', () => {
    expect(textoAcimaDoLimite('2026-12-03', avaliarDia(23_000, 18_000))).toBe(
      'Com esta despesa, a alimentação de 03/12 soma R$\u00a0230,00: R$\u00a050,00 acima do limite diário de R$\u00a0180,00.',
    );
  });

  it('a confirmação do valor o escreve por extenso', () => {
    expect(textoConfirmeValor(100_000_000)).toBe('Confirme o valor: R$\u00a01.000.000,00 (um milhão de reais)');
    expect(textoConfirmeValor(128_050)).toBe('Confirme o valor: R$\u00a01.280,50 (mil duzentos e oitenta reais e cinquenta centavos)');
  });

  it('o selo do admin leva o limite daquela rota', () => {
    expect(rotuloAcimaDoLimite(18_000)).toBe('Acima do limite diário (R$\u00a0180,00)');
    expect(rotuloAcimaDoLimite(22_000)).toBe('Acima do limite diário (R$\u00a0220,00)');
  });
});
