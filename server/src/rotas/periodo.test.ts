import { describe, expect, it } from 'vitest';
import { aceitaRegistroNaData, periodoAtivo, type DatasDaRota } from './periodo';

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

  it('rota ativa aceita qualquer data, como antes (o futuro é recusado pela regra de cada escrita)', () => {
    for (const data of ['2020-01-01', '2026-11-07', '2026-11-25', '2030-01-01']) expect(aceitaRegistroNaData(rota(), data, SP)).toBe(true);
  });

  it('rota reaberta (cancelada_em limpa) volta a aceitar tudo; fechada sem hora conhecida não aceita nada', () => {
    expect(aceitaRegistroNaData(rota({ status: 'ativa', canceladaEm: null }), '2026-11-30', SP)).toBe(true);
    expect(aceitaRegistroNaData(rota({ status: 'cancelada' }), '2026-11-15', SP)).toBe(false);
  });
});
