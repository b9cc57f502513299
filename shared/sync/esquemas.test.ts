import { describe, expect, it } from 'vitest';
import { ESQUEMAS_OPERACAO, operacaoCanonica, operacaoSyncSchema, vendaCanonica } from './esquemas';

/** A sale as the phone's engine queues it (client/src/offline: amounts already in centavos). */
const vendaDoCelular = () => ({
  id: '0193a5c2-7d4e-7a1b-9c3d-1e2f3a4b5c6d',
  rota_id: 7,
  cidade_id: 5208707,
  data_venda: '2026-11-20',
  valor_dinheiro: 12_345,
  valor_pix: 0,
  valor_cartao: 999,
  valor_link: 0,
  valor_boletos: 2,
  observacoes: 'Feira na praça',
  registrado_em: '2026-11-20T20:00:00.000Z',
  versao_base: null as number | null,
});

/** Values each field may come with from an old app, a rescue file or a hostile client. */
const ALTERNATIVAS: Record<string, unknown[]> = {
  id: [
    '0193A5C2-7D4E-7A1B-9C3D-1E2F3A4B5C6D',
    ' 0193a5c2-7d4e-7a1b-9c3d-1e2f3a4b5c6d',
    '0193a5c2-7d4e-7a1b-9c3d-1e2f3a4b5c6g',
    '0193a5c2-7d4e-7a1b-9c3d-1e2f3a4b5c6',
    '0193a5c2-7d4e-7a1b-9c3d-1e2f3a4b5c6d0',
    '0193a5c27d4e-7a1b-9c3d-1e2f3a4b5c6dd',
    '0193a5c2_7d4e_7a1b_9c3d_1e2f3a4b5c6d',
    '0193a5c2-7d4e-7a1b-9c3d-1e2f3a4b5c/d',
    '0193a5c2-7d4e-7a1b-9c3d-1e2f3a4b5c:d',
    '0193a5c2-7d4e-7a1b-9c3d-1e2f3a4b5c`d',
    '0193a5c2-7d4e-7a1b-9c3d-1e2f3a4b5c６d',
    'nao-e-uuid',
    '',
    42,
    null,
    undefined,
  ],
  rota_id: [1, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 1, 0, -3, 1.5, '7', ' 7 ', 'x', null, undefined, NaN, Infinity],
  cidade_id: [2, 0, '12', 2.0000001, null],
  data_venda: ['2024-02-29', '2026-02-29', '2026-02-30', '1899-12-31', '3000-01-01', ' 2026-11-20', '2026-11-20 ', '20/11/2026', '2026-11-2/', '2026-1:-20', '２０２６-11-20', '2026_11_20', '', null, 20261120],
  valor_dinheiro: [0, -0, 1_000_000_000, 1_000_000_001, -1, 1.5, '100', '', null, undefined, NaN, Infinity],
  valor_pix: [7, -5, '1,50', null, undefined],
  valor_cartao: [0.1, 3],
  valor_link: [undefined, 1],
  valor_boletos: [0, 1_000_000, 1_000_001, -1, 2.5, '3', '', null, undefined],
  observacoes: ['', ' borda ', 'borda ', '\tcom tab', 'x'.repeat(1000), 'x'.repeat(1001), ` ${'x'.repeat(1000)} `, 'á'.repeat(1000), null, undefined, 3],
  registrado_em: [
    '2026-11-20T20:00:00Z',
    '2026-11-20T20:00:00.0Z',
    '2026-11-20T20:00:00.123456Z',
    '2026-11-20T20:00:00.000+00:00',
    '2026-11-20T23:59:59.999Z',
    '2026-02-30T10:00:00.000Z',
    '2024-02-29T10:00:00.000Z',
    '2026-11-20T24:00:00.000Z',
    '2026-11-20T20:60:00.000Z',
    '1999-12-31T23:59:60.000Z',
    '2026-11-20',
    '+002026-11-20T20:00:00.000Z',
    '2026-11-20T20:0/:00.000Z',
    '2026-11-20T20:00:00.00:Z',
    '2026-11-20t20:00:00.000Z',
    '2026-11-20T20:00:00,000Z',
    '0999-12-31T23:59:59.999Z',
    '1000-01-01T00:00:00.000Z',
    '2026-11-20T２0:00:00.000Z',
    '',
    null,
    undefined,
    1763668800000,
  ],
  versao_base: [1, 3, 0, -1, 1.5, '2', Number.MAX_SAFE_INTEGER + 2, undefined],
};

/** Deterministic: the same inputs on every run. */
function sorteador(semente: number) {
  let s = semente;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0), s / 2 ** 32);
}

function variantes(): unknown[] {
  const sorte = sorteador(19);
  const casos: unknown[] = [vendaDoCelular()];
  // Each alternative alone, the key absent, and an extra key.
  for (const [campo, valores] of Object.entries(ALTERNATIVAS)) {
    for (const valor of valores) casos.push({ ...vendaDoCelular(), [campo]: valor });
    const sem: Record<string, unknown> = vendaDoCelular();
    delete sem[campo];
    casos.push(sem);
  }
  casos.push({ ...vendaDoCelular(), extra: 'ignorado', cidade_nome: 'Goiânia' });
  // Random mixes of two to four changes.
  for (let i = 0; i < 3_000; i++) {
    const v: Record<string, unknown> = vendaDoCelular();
    const campos = Object.keys(ALTERNATIVAS);
    for (let k = 0, n = 2 + Math.floor(sorte() * 3); k < n; k++) {
      const campo = campos[Math.floor(sorte() * campos.length)]!;
      const valores = ALTERNATIVAS[campo]!;
      if (sorte() < 0.1) delete v[campo];
      else v[campo] = valores[Math.floor(sorte() * valores.length)];
    }
    casos.push(v);
  }
  // Random instants across the years the fast path takes.
  for (let i = 0; i < 500; i++) casos.push({ ...vendaDoCelular(), registrado_em: new Date(Math.floor(sorte() * 4e13) - 1e12).toISOString() });
  casos.push(null, [], 'venda', 3, Object.create(null), [vendaDoCelular()]);
  return casos;
}

describe('vendaCanonica: a venda na forma do celular, conferida sem o zod', () => {
  it('aceita a venda que o celular envia, com e sem versão de base, e responde o mesmo que o esquema', () => {
    const esquema = ESQUEMAS_OPERACAO['venda.salvar'];
    const comVersao = { ...vendaDoCelular(), versao_base: 4 };
    const semVersao: Record<string, unknown> = vendaDoCelular();
    delete semVersao.versao_base;
    for (const dados of [vendaDoCelular(), comVersao, semVersao]) {
      const rapida = vendaCanonica(dados);
      expect(rapida).not.toBeNull();
      expect(rapida).toStrictEqual(esquema.parse(dados));
    }
  });

  it('em milhares de entradas geradas: quando aceita, o esquema aceita e responde exatamente o mesmo; o resto fica para o esquema', () => {
    const esquema = ESQUEMAS_OPERACAO['venda.salvar'];
    let aceitas = 0;
    let recusadasPeloEsquema = 0;
    for (const dados of variantes()) {
      const rapida = vendaCanonica(dados);
      const pelaRegra = esquema.safeParse(dados);
      if (!pelaRegra.success) recusadasPeloEsquema += 1;
      if (rapida === null) continue;
      aceitas += 1;
      expect(pelaRegra.success, JSON.stringify(dados)).toBe(true);
      expect(rapida, JSON.stringify(dados)).toStrictEqual(pelaRegra.data);
    }
    // Both sides of the property were exercised: many taken by the fast path, many refused by the schema.
    expect(aceitas).toBeGreaterThan(500);
    expect(recusadasPeloEsquema).toBeGreaterThan(500);
  });
});

describe('operacaoCanonica: o envelope { id, tipo, seq, dados } sem o zod', () => {
  it('quando aceita, o esquema aceita e responde o mesmo', () => {
    const sorte = sorteador(7);
    const ids: unknown[] = ['op-1', '', 'x'.repeat(100), 'x'.repeat(101), 3, null, undefined];
    const tipos: unknown[] = ['venda.salvar', 'qualquer', 'x'.repeat(60), 'x'.repeat(61), 1, null, undefined];
    const seqs: unknown[] = [0, -0, 1, 7, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 1, -1, 1.5, '3', null, undefined, NaN];
    const dados: unknown[] = [{ a: 1 }, null, undefined, 'x'];
    let aceitas = 0;
    for (let i = 0; i < 2_000; i++) {
      const escolher = (xs: unknown[]) => xs[Math.floor(sorte() * xs.length)];
      const bruta: Record<string, unknown> = { id: escolher(ids), tipo: escolher(tipos), seq: escolher(seqs), dados: escolher(dados) };
      if (sorte() < 0.1) delete bruta.dados;
      if (sorte() < 0.05) bruta.extra = true;
      const rapida = operacaoCanonica(bruta);
      if (rapida === null) continue;
      aceitas += 1;
      const pelaRegra = operacaoSyncSchema.safeParse(bruta);
      expect(pelaRegra.success, JSON.stringify(bruta)).toBe(true);
      expect(rapida).toStrictEqual(pelaRegra.data);
    }
    expect(aceitas).toBeGreaterThan(100);
    for (const bruta of [null, [], 'op', Object.create(null)]) expect(operacaoCanonica(bruta)).toBeNull();
  });
});
