import { describe, expect, it } from 'vitest';
import { calcularAcerto, linhasDoAcerto, recusaDoAcerto, saldoEmAberto, situacaoDoAcerto, type AcertoFeito, type EntradaAcerto } from './acerto';

const entrada = (parcial: Partial<EntradaAcerto> = {}): EntradaAcerto => ({
  creditosCentavos: 100_000,
  creditosSemRotaCentavos: 0,
  despesasAprovadasCentavos: 0,
  despesasPendentesCentavos: 0,
  despesasRejeitadasCentavos: 0,
  salarioCentavos: 0,
  descontoAluguelCentavos: 0,
  acertos: [],
  ...parcial,
});

const acerto = (valorCentavos: number, sentido: AcertoFeito['sentido'], data = '2026-12-05T15:00:00.000Z'): AcertoFeito => ({ valorCentavos, sentido, data, adminNome: 'Admin', observacao: '' });

describe('calcularAcerto', () => {
  it('a despesa rejeitada não é custo da empresa: fica no que o funcionário devolve', () => {
    const f = calcularAcerto(entrada({ despesasAprovadasCentavos: 30_000, despesasRejeitadasCentavos: 10_000 }));
    // Créditos R$ 1.000 − aprovadas R$ 300 = R$ 700 (o caixa tem R$ 600; os R$ 100 rejeitados também voltam).
    expect([f.aDevolverCentavos, f.aReceberCentavos]).toEqual([70_000, 0]);
  });

  it('a pendente conta como gasta até ser decidida', () => {
    const f = calcularAcerto(entrada({ despesasAprovadasCentavos: 30_000, despesasPendentesCentavos: 20_000 }));
    expect(f.aDevolverCentavos).toBe(50_000);
  });

  it('gastos acima dos créditos: a receber, e a devolver fica zero', () => {
    const f = calcularAcerto(entrada({ despesasAprovadasCentavos: 120_000, despesasRejeitadasCentavos: 5_000 }));
    expect([f.aDevolverCentavos, f.aReceberCentavos]).toEqual([0, 20_000]);
  });

  it('créditos sem rota, salário e aluguel aparecem ao lado, nunca na conta', () => {
    const base = calcularAcerto(entrada({ despesasAprovadasCentavos: 40_000 }));
    const comOutros = calcularAcerto(entrada({ despesasAprovadasCentavos: 40_000, creditosSemRotaCentavos: 90_000, salarioCentavos: 500_000, descontoAluguelCentavos: 35_050 }));
    expect(saldoEmAberto(comOutros)).toBe(saldoEmAberto(base));
  });

  it('um acerto parcial deixa o resto em aberto; o total fecha a rota com a data do último', () => {
    const parcial = calcularAcerto(entrada({ despesasAprovadasCentavos: 30_000, acertos: [acerto(50_000, 'devolvido')] }));
    expect([parcial.aDevolverCentavos, parcial.acertadaEm]).toEqual([20_000, null]);
    const total = calcularAcerto(entrada({ despesasAprovadasCentavos: 30_000, acertos: [acerto(50_000, 'devolvido'), acerto(20_000, 'devolvido', '2026-12-06T12:00:00.000Z')] }));
    expect([total.aDevolverCentavos, total.aReceberCentavos, total.acertadaEm]).toEqual([0, 0, '2026-12-06T12:00:00.000Z']);
  });

  it('o pagamento ao funcionário fecha o que ele tinha a receber', () => {
    const f = calcularAcerto(entrada({ despesasAprovadasCentavos: 120_000, acertos: [acerto(20_000, 'pago')] }));
    expect([f.aDevolverCentavos, f.aReceberCentavos, f.acertadoCentavos]).toEqual([0, 0, -20_000]);
    expect(f.acertadaEm).not.toBeNull();
  });

  it('uma aprovação depois do acerto reabre a rota no outro sentido', () => {
    // Acertada com R$ 100 rejeitados devolvidos; o admin aprova a despesa depois: a empresa deve os R$ 100.
    const f = calcularAcerto(entrada({ despesasAprovadasCentavos: 40_000, acertos: [acerto(70_000, 'devolvido')] }));
    expect([f.aDevolverCentavos, f.aReceberCentavos, f.acertadaEm]).toEqual([0, 10_000, null]);
  });
});

describe('recusaDoAcerto', () => {
  const aDevolver = calcularAcerto(entrada({ despesasAprovadasCentavos: 30_000 })); // R$ 700 a devolver
  const aReceber = calcularAcerto(entrada({ despesasAprovadasCentavos: 120_000 })); // R$ 200 a receber

  it('aceita até o que está em aberto, no sentido dele', () => {
    expect(recusaDoAcerto(aDevolver, 70_000, 'devolvido')).toBeNull();
    expect(recusaDoAcerto(aDevolver, 1, 'devolvido')).toBeNull();
    expect(recusaDoAcerto(aReceber, 20_000, 'pago')).toBeNull();
  });

  it('recusa mais do que está em aberto, dizendo quanto está', () => {
    expect(recusaDoAcerto(aDevolver, 70_001, 'devolvido')).toBe('O acerto de R$\u00a0700,01 passa do que está em aberto nesta rota (R$\u00a0700,00).');
  });

  it('recusa o sentido contrário ao que está em aberto', () => {
    expect(recusaDoAcerto(aDevolver, 10_000, 'pago')).toBe('Esta rota tem R$\u00a0700,00 a devolver pelo funcionário: registre o que ele devolveu.');
    expect(recusaDoAcerto(aReceber, 10_000, 'devolvido')).toBe('Esta rota tem R$\u00a0200,00 a receber pelo funcionário: registre o que foi pago a ele.');
  });

  it('valor zero só fecha uma rota sem nada em aberto e ainda não acertada', () => {
    expect(recusaDoAcerto(aDevolver, 0, 'devolvido')).toBe('Informe o valor do acerto.');
    const zerada = calcularAcerto(entrada({ despesasAprovadasCentavos: 100_000, despesasRejeitadasCentavos: 10_000 }));
    expect(recusaDoAcerto(zerada, 0, 'devolvido')).toBeNull();
    expect(recusaDoAcerto(zerada, 100, 'devolvido')).toContain('Não há nada em aberto nesta rota');
    const acertada = calcularAcerto(entrada({ despesasAprovadasCentavos: 30_000, acertos: [acerto(70_000, 'devolvido')] }));
    expect(recusaDoAcerto(acertada, 0, 'devolvido')).toBe('Esta rota já está acertada: não há nada em aberto.');
    expect(recusaDoAcerto(acertada, 100, 'devolvido')).toBe('Esta rota já está acertada: não há nada em aberto.');
  });
});

describe('linhasDoAcerto: as mesmas palavras no celular, nos detalhes e nos PDFs', () => {
  it('a conta fecha: créditos − aprovadas − pendentes − acertos = em aberto; a rejeitada é uma nota, o salário fica ao lado', () => {
    const f = calcularAcerto(entrada({ despesasAprovadasCentavos: 30_000, despesasPendentesCentavos: 5_000, despesasRejeitadasCentavos: 10_000, salarioCentavos: 500_000, creditosSemRotaCentavos: 90_000, acertos: [acerto(20_000, 'devolvido')] }));
    const { conta, rejeitadas, aoLado } = linhasDoAcerto(f, 'funcionario');
    expect(conta.map((l) => [l.rotulo, l.sinal, l.valorCentavos])).toEqual([
      ['Créditos desta rota', '', 100_000],
      ['Despesas aprovadas', '−', 30_000],
      ['Despesas pendentes', '−', 5_000],
      ['Acertos registrados', '−', 20_000],
      ['A devolver', '=', 45_000],
    ]);
    expect(rejeitadas).toBe('Despesas rejeitadas: R$\u00a0100,00. Não são custo da empresa: não descontam do adiantamento e ficam para você devolver.');
    expect(aoLado.map((l) => l.rotulo)).toEqual(['Seu salário', 'Desconto do aluguel', 'Créditos sem rota']);
  });

  it('a receber, para o admin; sem rejeitadas não há nota', () => {
    const { conta, rejeitadas } = linhasDoAcerto(calcularAcerto(entrada({ despesasAprovadasCentavos: 120_000 })), 'admin');
    expect(conta.at(-1)).toEqual({ rotulo: 'A receber', detalhe: 'a empresa paga ao funcionário', valorCentavos: 20_000, sinal: '=' });
    expect(rejeitadas).toBeNull();
  });

  it('situacaoDoAcerto: a data do dia do último acerto no fuso do negócio', () => {
    const f = calcularAcerto(entrada({ despesasAprovadasCentavos: 100_000, acertos: [acerto(0, 'devolvido', '2026-12-06T01:30:00.000Z')] }));
    expect(situacaoDoAcerto(f, 'finalizada', () => '2026-12-05')).toBe('Acertada em 05/12/2026');
    expect(situacaoDoAcerto(calcularAcerto(entrada()), 'finalizada', () => '')).toBe('Aguardando acerto');
    expect(situacaoDoAcerto(calcularAcerto(entrada()), 'ativa', () => '')).toBe('Acerto depois da finalização');
  });
});
