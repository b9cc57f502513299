import { describe, expect, it } from 'vitest';
import { dataNoFuso, formatarDataHora, formatarHora, horaNoFuso, inicioDoDia, usarTabelaDoFuso } from './dates';
import { deslocamentoNaTabela, lerTabelaDoFuso, montarTabelaDoFuso } from './fusos';

const ms = (iso: string) => new Date(iso).getTime();

describe('montarTabelaDoFuso', () => {
  it('São Paulo desde 2019: um trecho só, UTC-3', () => {
    const t = montarTabelaDoFuso('America/Sao_Paulo', ms('2020-01-01T00:00:00Z'), ms('2030-01-01T00:00:00Z'));
    expect(t.trechos).toEqual([[ms('2020-01-01T00:00:00Z'), -180]]);
  });

  it('acha cada mudança de horário de verão no minuto exato', () => {
    // São Paulo's last summer time: from 2018-11-04 00:00 (-03) to 2019-02-17 00:00 (-02).
    const t = montarTabelaDoFuso('America/Sao_Paulo', ms('2018-06-01T00:00:00Z'), ms('2019-06-01T00:00:00Z'));
    expect(t.trechos).toEqual([
      [ms('2018-06-01T00:00:00Z'), -180],
      [ms('2018-11-04T03:00:00Z'), -120],
      [ms('2019-02-17T02:00:00Z'), -180],
    ]);
    expect(deslocamentoNaTabela(t, ms('2018-11-04T02:59:00Z'))).toBe(-180);
    expect(deslocamentoNaTabela(t, ms('2018-11-04T03:00:00Z'))).toBe(-120);
  });

  it('fora da janela não responde (quem usa pergunta ao Intl)', () => {
    const t = montarTabelaDoFuso('America/Sao_Paulo', ms('2020-01-01T00:00:00Z'), ms('2021-01-01T00:00:00Z'));
    expect(deslocamentoNaTabela(t, ms('2019-12-31T23:59:59Z'))).toBeNull();
    expect(deslocamentoNaTabela(t, ms('2021-01-01T00:00:00Z'))).toBeNull();
  });

  it('recusa um fuso que não existe', () => {
    expect(() => montarTabelaDoFuso('America/Atlantida', 0, 1)).toThrow(RangeError);
  });
});

describe('lerTabelaDoFuso', () => {
  it('aceita uma tabela bem formada e recusa o resto', () => {
    const t = montarTabelaDoFuso('Europe/Lisbon', ms('2024-01-01T00:00:00Z'), ms('2025-01-01T00:00:00Z'));
    expect(lerTabelaDoFuso(JSON.parse(JSON.stringify(t)))).toEqual(t);
    expect(lerTabelaDoFuso(null)).toBeNull();
    expect(lerTabelaDoFuso({ ...t, trechos: [] })).toBeNull();
    expect(lerTabelaDoFuso({ ...t, trechos: [[t.de, 'x']] })).toBeNull();
    expect(lerTabelaDoFuso({ ...t, trechos: [[t.de + 1, 0]] })).toBeNull(); // does not start at `de`
    expect(lerTabelaDoFuso({ ...t, trechos: [...t.trechos].reverse() })).toBeNull();
  });
});

describe('datas pela tabela são as mesmas do Intl', () => {
  // Zones with summer time, half-hour and 45-minute offsets, 30-minute summer shifts, and Brazil's.
  const FUSOS = ['America/Sao_Paulo', 'America/Manaus', 'America/Noronha', 'Europe/Lisbon', 'America/New_York', 'Asia/Kolkata', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'Pacific/Chatham'];
  const DE = ms('2016-01-01T00:00:00Z');
  const ATE = ms('2028-01-01T00:00:00Z');

  /** Every date function's answer for these instants, as Intl gives it (no table registered yet). */
  function respostas(fuso: string, instantes: number[]) {
    return instantes.map((t) => {
      const d = new Date(t);
      return [dataNoFuso(d, fuso), formatarDataHora(d.toISOString(), fuso), formatarHora(d.toISOString(), fuso), horaNoFuso(d, fuso)];
    });
  }

  for (const fuso of FUSOS) {
    it(`${fuso}: data, data e hora, hora e início do dia`, () => {
      const tabela = montarTabelaDoFuso(fuso, DE, ATE);
      // Around each change (a minute before, at, after) and a deterministic spread of the window.
      const instantes: number[] = [];
      for (const [inicio] of tabela.trechos) instantes.push(inicio - 60_000, inicio - 1, inicio, inicio + 59_999, inicio + 60_000);
      for (let i = 0; i < 3000; i++) instantes.push(DE + Math.floor(((i * 2654435761) % 4294967296) / 4294967296 * (ATE - DE)));
      const dias = ['2016-02-21', '2018-11-04', '2019-02-16', '2019-02-17', '2024-03-10', '2024-03-31', '2024-10-27', '2024-11-03', '2026-11-29'];
      const peloIntl = respostas(fuso, instantes);
      const iniciosPeloIntl = dias.map((d) => inicioDoDia(d, fuso));

      usarTabelaDoFuso(tabela);
      expect(respostas(fuso, instantes)).toEqual(peloIntl);
      expect(dias.map((d) => inicioDoDia(d, fuso))).toEqual(iniciosPeloIntl);
      // Outside the window Intl still answers.
      const fora = new Date(ATE + 3 * 86_400_000);
      expect(dataNoFuso(fora, fuso)).toBe(new Intl.DateTimeFormat('en-CA', { timeZone: fuso, year: 'numeric', month: '2-digit', day: '2-digit' }).format(fora));
    });
  }
});
