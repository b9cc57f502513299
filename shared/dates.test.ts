import { describe, expect, it } from 'vitest';
import {
  APP_TZ_PADRAO,
  dataNoFuso,
  diaExiste,
  ehDataValida,
  inicioDoDia,
  formatarData,
  formatarDataHora,
  formatarDataPorExtenso,
  formatarHora,
  fusoValido,
  hoje,
  horaNoFuso,
  maisRecentePrimeiro,
  somarDias,
} from './dates';

describe('hoje e dataNoFuso', () => {
  it('22:30 no Brasil ainda é o dia 22, embora em UTC já seja 23', () => {
    expect(hoje('America/Sao_Paulo', new Date('2026-11-23T01:30:00Z'))).toBe('2026-11-22');
    expect(new Date('2026-11-23T01:30:00Z').toISOString().slice(0, 10)).toBe('2026-11-23');
  });

  it('meia-noite em São Paulo já é o dia seguinte', () => {
    expect(hoje('America/Sao_Paulo', new Date('2026-11-23T02:59:59Z'))).toBe('2026-11-22');
    expect(hoje('America/Sao_Paulo', new Date('2026-11-23T03:00:00Z'))).toBe('2026-11-23');
  });

  it('o fuso padrão é America/Sao_Paulo; outro fuso muda o dia', () => {
    expect(APP_TZ_PADRAO).toBe('America/Sao_Paulo');
    expect(dataNoFuso(new Date('2026-11-23T01:30:00Z'))).toBe('2026-11-22');
    expect(dataNoFuso(new Date('2026-11-23T01:30:00Z'), 'UTC')).toBe('2026-11-23');
    expect(dataNoFuso(new Date('2026-11-23T03:30:00Z'), 'America/Manaus')).toBe('2026-11-22');
    expect(dataNoFuso(new Date('2026-11-23T03:30:00Z'), 'America/Sao_Paulo')).toBe('2026-11-23');
  });

  it('a data guardada por minuto vira exatamente na meia-noite local, nem um milissegundo antes', () => {
    const z = 'America/Sao_Paulo';
    expect(dataNoFuso(new Date('2026-11-23T02:59:59.999Z'), z)).toBe('2026-11-22');
    expect(dataNoFuso(new Date('2026-11-23T02:59:00.000Z'), z)).toBe('2026-11-22'); // same minute, memo
    expect(dataNoFuso(new Date('2026-11-23T03:00:00.000Z'), z)).toBe('2026-11-23');
    expect(dataNoFuso(new Date('2026-11-23T02:59:30.000Z'), z)).toBe('2026-11-22'); // back again
    // A zone with a half-hour offset turns on a UTC minute boundary too.
    expect(dataNoFuso(new Date('2026-11-22T18:29:59.999Z'), 'Asia/Kolkata')).toBe('2026-11-22');
    expect(dataNoFuso(new Date('2026-11-22T18:30:00.000Z'), 'Asia/Kolkata')).toBe('2026-11-23');
    expect(() => dataNoFuso(new Date('x'), z)).toThrow(RangeError);
  });

  it('sem data, usa o agora', () => {
    expect(hoje()).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});

describe('fusoValido', () => {
  it('aceita fusos IANA e recusa o resto', () => {
    expect(fusoValido('America/Sao_Paulo')).toBe(true);
    expect(fusoValido('UTC')).toBe(true);
    expect(fusoValido('Brasil/Goiania')).toBe(false);
    expect(fusoValido('GMT-3 horas')).toBe(false);
  });
});

describe('ehDataValida', () => {
  it.each(['2026-11-22', '2028-02-29', '2000-02-29', '2026-12-31', '2026-01-01', '2026-04-30'])('%s é válida', (d) => {
    expect(ehDataValida(d)).toBe(true);
  });

  it.each(['2026-02-30', '2026-02-29', '1900-02-29', '2026-04-31', '2026-13-01', '2026-00-10', '2026-01-00', '2026-1-01', '22/11/2026', '2026-11-22T10:00', '', ' 2026-11-22', '1899-12-31', '3000-01-01', '2026-11-2/', '2026-1:-22', '２０２６-11-22', '2026_11_22', '2026-11-22\n'])(
    '%j é recusada',
    (d) => {
      expect(ehDataValida(d)).toBe(false);
    },
  );
});

describe('diaExiste', () => {
  it('responde o mesmo que o calendário do Date em cada dia de 1896 a 2404 (bissextos de 100 e 400 anos)', () => {
    let diferentes = 0;
    for (let ano = 1896; ano <= 2404; ano++) {
      for (let mes = 0; mes <= 13; mes++) {
        for (let dia = 0; dia <= 32; dia++) {
          const d = new Date(Date.UTC(2000, 0, 1));
          d.setUTCFullYear(ano, mes - 1, dia);
          const peloDate = mes >= 1 && mes <= 12 && d.getUTCMonth() === mes - 1 && d.getUTCDate() === dia;
          if (diaExiste(ano, mes, dia) !== peloDate) diferentes += 1;
        }
      }
    }
    expect(diferentes).toBe(0);
  });
});

describe('formatarData', () => {
  it('yyyy-mm-dd vira dd/mm/aaaa sem passar por fuso', () => {
    expect(formatarData('2026-11-22')).toBe('22/11/2026');
    expect(formatarData('2026-01-01')).toBe('01/01/2026');
    expect(formatarData('2026-11-22T23:59:59Z')).toBe('22/11/2026');
  });

  it('vazio vira vazio; o que não é data volta como veio', () => {
    expect(formatarData(null)).toBe('');
    expect(formatarData(undefined)).toBe('');
    expect(formatarData('')).toBe('');
    expect(formatarData('amanhã')).toBe('amanhã');
  });
});

describe('formatarDataHora e formatarHora', () => {
  it('mostram o instante no fuso do negócio', () => {
    expect(formatarDataHora('2026-11-23T01:30:00Z')).toBe('22/11/2026 22:30');
    expect(formatarDataHora('2026-11-23T01:30:00Z', 'America/Sao_Paulo')).toBe('22/11/2026 22:30');
    expect(formatarDataHora('2026-11-23T01:30:00Z', 'America/Manaus')).toBe('22/11/2026 21:30');
    expect(formatarDataHora('2026-11-23T01:30:00Z', 'UTC')).toBe('23/11/2026 01:30');
    expect(formatarHora('2026-11-22T17:32:00Z')).toBe('14:32');
    expect(formatarHora('2026-11-22T17:32:00Z', 'UTC')).toBe('17:32');
  });

  it('vazio ou inválido vira texto vazio', () => {
    expect(formatarDataHora(null)).toBe('');
    expect(formatarDataHora('')).toBe('');
    expect(formatarDataHora('ontem')).toBe('');
    expect(formatarHora(undefined)).toBe('');
    expect(formatarHora('x')).toBe('');
  });
});

describe('somarDias', () => {
  it.each([
    ['2026-01-31', 1, '2026-02-01'],
    ['2026-02-28', 1, '2026-03-01'],
    ['2028-02-28', 1, '2028-02-29'],
    ['2026-03-01', -1, '2026-02-28'],
    ['2026-12-31', 1, '2027-01-01'],
    ['2027-01-01', -1, '2026-12-31'],
    ['2026-11-22', 0, '2026-11-22'],
    ['2026-11-22', 30, '2026-12-22'],
    ['2026-10-31', 1, '2026-11-01'],
  ])('%s %+d dias = %s', (data, dias, esperado) => {
    expect(somarDias(data, dias)).toBe(esperado);
  });

  it('data mal escrita: RangeError', () => {
    expect(() => somarDias('22/11/2026', 1)).toThrow(RangeError);
  });
});

describe('formatarDataPorExtenso e horaNoFuso', () => {
  it('escreve a data do calendário por extenso em pt-BR, sem deslocar o dia', () => {
    expect(formatarDataPorExtenso('2026-11-21')).toBe('sábado, 21 de novembro de 2026');
    expect(formatarDataPorExtenso('2027-01-01')).toBe('sexta-feira, 1 de janeiro de 2027');
    expect(formatarDataPorExtenso('ontem')).toBe('ontem');
  });

  it('a hora é a do fuso do negócio: 01:30 UTC ainda é 22h da véspera em São Paulo', () => {
    const instante = new Date('2026-11-22T01:30:00.000Z');
    expect(horaNoFuso(instante, APP_TZ_PADRAO)).toBe(22);
    expect(horaNoFuso(instante, 'UTC')).toBe(1);
    expect(horaNoFuso(new Date('2026-11-22T03:00:00.000Z'), APP_TZ_PADRAO)).toBe(0);
  });
});

describe('inicioDoDia', () => {
  it('é a meia-noite local do dia no fuso, em UTC', () => {
    expect(inicioDoDia('2026-11-25', 'America/Sao_Paulo')).toBe('2026-11-25T03:00:00.000Z');
    expect(inicioDoDia('2026-11-25', 'UTC')).toBe('2026-11-25T00:00:00.000Z');
    expect(inicioDoDia('2026-11-25', 'Asia/Kolkata')).toBe('2026-11-24T18:30:00.000Z');
    // São Paulo still had daylight saving time in 2018 (UTC-2 in December).
    expect(inicioDoDia('2018-12-10', 'America/Sao_Paulo')).toBe('2018-12-10T02:00:00.000Z');
  });
});

describe('maisRecentePrimeiro', () => {
  it('ordena instantes ISO do mais recente ao mais antigo, os sem data por último', () => {
    const lista = ['2026-11-02T10:00:00.000Z', null, '2026-11-28T09:59:59.999Z', '2025-12-31T23:59:59.000Z', undefined, '2026-11-28T10:00:00.000Z'];
    expect([...lista].sort(maisRecentePrimeiro)).toEqual(['2026-11-28T10:00:00.000Z', '2026-11-28T09:59:59.999Z', '2026-11-02T10:00:00.000Z', '2025-12-31T23:59:59.000Z', null, undefined]);
  });
});
