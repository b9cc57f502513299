import { describe, expect, it } from 'vitest';
import { aceitaRegistroNaData, inicioDaRota, mensagemForaDoPeriodo, periodoAtivo, situacaoDaData, type DatasDaRota } from './periodoRota';

const SP = 'America/Sao_Paulo';

function rota(extra: Partial<DatasDaRota> = {}): DatasDaRota {
  return {
    status: 'ativa',
    dataInicio: '2026-11-10',
    criadoEm: '2026-11-08T15:00:00.000Z',
    finalizadaEm: null,
    canceladaEm: null,
    ...extra,
  };
}

describe('periodoAtivo', () => {
  it('começa em data_inicio, ou no dia da criação quando ela vem antes', () => {
    expect(periodoAtivo(rota(), SP)).toEqual({ inicio: '2026-11-08', fim: null });
    expect(periodoAtivo(rota({ criadoEm: '2026-11-20T15:00:00.000Z' }), SP)).toEqual({ inicio: '2026-11-10', fim: null });
  });

  it('o dia da criação é o do fuso do negócio: 01:30 UTC ainda é o dia anterior em São Paulo', () => {
    expect(periodoAtivo(rota({ dataInicio: '2026-11-30', criadoEm: '2026-11-09T01:30:00.000Z' }), SP)!.inicio).toBe('2026-11-08');
    expect(periodoAtivo(rota({ dataInicio: '2026-11-30', criadoEm: '2026-11-09T01:30:00.000Z' }), 'UTC')!.inicio).toBe('2026-11-09');
  });

  it('termina no dia (fuso do negócio) em que foi finalizada ou cancelada', () => {
    expect(periodoAtivo(rota({ status: 'finalizada', finalizadaEm: '2026-11-21T18:00:00.000Z' }), SP)).toEqual({ inicio: '2026-11-08', fim: '2026-11-21' });
    expect(periodoAtivo(rota({ status: 'cancelada', canceladaEm: '2026-11-22T02:59:00.000Z' }), SP)).toEqual({ inicio: '2026-11-08', fim: '2026-11-21' });
    expect(periodoAtivo(rota({ status: 'cancelada', canceladaEm: '2026-11-22T03:00:00.000Z' }), SP)).toEqual({ inicio: '2026-11-08', fim: '2026-11-22' });
  });

  it('rota fechada sem a hora do fechamento (cancelada antes de cancelada_em existir) não tem período', () => {
    expect(periodoAtivo(rota({ status: 'cancelada' }), SP)).toBeNull();
    expect(periodoAtivo(rota({ status: 'finalizada' }), SP)).toBeNull();
    expect(periodoAtivo(rota({ status: 'cancelada', canceladaEm: 'não é hora' }), SP)).toBeNull();
    // The status says which column counts: a cancelled route is not closed by a finishing time.
    expect(periodoAtivo(rota({ status: 'cancelada', finalizadaEm: '2026-11-21T18:00:00.000Z' }), SP)).toBeNull();
  });

  it('hora de criação inválida: vale data_inicio', () => {
    expect(periodoAtivo(rota({ criadoEm: '' }), SP)).toEqual({ inicio: '2026-11-10', fim: null });
  });
});

describe('aceitaRegistroNaData', () => {
  const finalizada = rota({ status: 'finalizada', finalizadaEm: '2026-11-21T18:00:00.000Z' });
  const cancelada = rota({ status: 'cancelada', canceladaEm: '2026-11-21T18:00:00.000Z' });

  it.each([
    ['2026-11-07', false, 'antes do início'],
    ['2026-11-08', true, 'o dia da criação'],
    ['2026-11-15', true, 'no meio'],
    ['2026-11-21', true, 'o dia do fechamento'],
    ['2026-11-22', false, 'depois do fechamento'],
  ])('rota finalizada ou cancelada, registro de %s: %s (%s)', (data, aceita) => {
    expect(aceitaRegistroNaData(finalizada, data, SP)).toBe(aceita);
    expect(aceitaRegistroNaData(cancelada, data, SP)).toBe(aceita);
  });

  it('rota ativa aceita do início em diante (o futuro é recusado pela regra de cada escrita; o fim previsto não limita)', () => {
    for (const data of ['2026-11-08', '2026-11-25', '2026-12-31', '2030-01-01']) expect(aceitaRegistroNaData(rota(), data, SP)).toBe(true);
  });

  it('uma venda de 1900 numa rota de 2026 não é aceita, nem com a rota ativa', () => {
    for (const data of ['1900-01-01', '2020-01-01', '2026-11-07']) expect(aceitaRegistroNaData(rota(), data, SP)).toBe(false);
  });

  it('rota reaberta (cancelada_em limpa) volta a aceitar tudo; fechada sem hora conhecida não aceita nada', () => {
    expect(aceitaRegistroNaData(rota({ status: 'ativa', canceladaEm: null }), '2026-11-30', SP)).toBe(true);
    expect(aceitaRegistroNaData(rota({ status: 'cancelada' }), '2026-11-15', SP)).toBe(false);
  });
});

describe('situacaoDaData: por que uma data não cabe', () => {
  const finalizada = rota({ status: 'finalizada', finalizadaEm: '2026-11-21T18:00:00.000Z' });
  it.each([
    [rota(), '1900-01-01', 'antes_do_inicio'],
    [rota(), '2026-11-07', 'antes_do_inicio'],
    [rota(), '2026-11-08', 'dentro'],
    [rota(), '2027-01-01', 'dentro'],
    [finalizada, '1900-01-01', 'antes_do_inicio'],
    [finalizada, '2026-11-21', 'dentro'],
    [finalizada, '2026-11-22', 'depois_do_fechamento'],
    // Closed without a known closing time: nothing can be shown to be inside (as before, the closed route's 409).
    [rota({ status: 'cancelada' }), '2026-11-15', 'depois_do_fechamento'],
    [rota({ status: 'cancelada' }), '1900-01-01', 'depois_do_fechamento'],
  ] as const)('%#: %s', (r, data, esperado) => {
    expect(situacaoDaData(r, data, SP)).toBe(esperado);
  });
});

describe('mensagemForaDoPeriodo', () => {
  it('diz a data e o período em dd/mm/aaaa; rota ativa vai até hoje', () => {
    expect(mensagemForaDoPeriodo('1900-01-01', { inicio: '2026-11-08', fim: null }, '2026-11-25')).toBe(
      'A data 01/01/1900 está fora do período da rota: são aceitas datas de 08/11/2026 até hoje (25/11/2026).',
    );
    expect(mensagemForaDoPeriodo('2026-11-01', { inicio: '2026-11-08', fim: '2026-11-21' }, '2026-11-25')).toBe(
      'A data 01/11/2026 está fora do período da rota: são aceitas datas de 08/11/2026 a 21/11/2026.',
    );
  });
});

describe('inicioDaRota (o mínimo do campo de data na tela de vendas)', () => {
  it('data_inicio, ou o dia da criação no fuso do negócio quando vem antes', () => {
    expect(inicioDaRota({ dataInicio: '2026-11-10', criadoEm: '2026-11-20T15:00:00.000Z' }, SP)).toBe('2026-11-10');
    expect(inicioDaRota({ dataInicio: '2026-11-10', criadoEm: '2026-11-09T01:30:00.000Z' }, SP)).toBe('2026-11-08');
  });
});
