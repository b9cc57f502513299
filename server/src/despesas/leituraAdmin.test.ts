/**
 * The admin's expenses list: its default request answered from the read cache
 * (compressed once, per Accept-Encoding), its totals summed by SQLite over the whole filtered set,
 * and its default queries served by indexes (no sort of the whole table for one page).
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hoje, somarDias } from '../../../shared/dates';
import { MOTOR_DE_TESTE } from '../../test/bancoDeTeste';
import { inserirDespesa } from '../../test/fabricas';
import { criarAppDeTeste, type AppDeTeste } from '../../test/helper';
import { planosDe } from '../../test/planos';
import { listarDespesas, totaisDespesas, type FiltroDespesas } from './repositorio';

let t: AppDeTeste;
let admin: string;
let rotaAtiva: number;
let rotaFinalizada: number;
let funcionario: number;
const dia = hoje('America/Sao_Paulo');
const TIPOS = ['alimentacao', 'hospedagem', 'combustivel', 'pedagio', 'aluguel_sala'] as const;

async function criarRota(funcionarioId: number, nome: string) {
  const r = await t.chamar({
    method: 'POST',
    url: '/api/rotas',
    token: admin,
    payload: { nome, funcionario_id: funcionarioId, tem_secretario: false, valor_aluguel: 0, data_inicio: somarDias(dia, -40), data_fim: dia, observacoes: '', cidades: [5208707, 5201108] },
  });
  expect(r.statusCode, r.body).toBe(201);
  return r.json().rota.id as number;
}

beforeAll(async () => {
  t = await criarAppDeTeste();
  admin = await t.tokenAdmin();
  const f = await t.criarFuncionario({ nome: 'Ana Estrada' });
  const g = await t.criarFuncionario({ nome: 'Bruno Viagem' });
  funcionario = f.id;
  rotaFinalizada = await criarRota(g.id, 'Rota Antiga');
  rotaAtiva = await criarRota(f.id, 'Rota Nova');
  // 60 expenses, 45 on the active route, amounts 1..60 reais; one deleted (never counted).
  for (let i = 1; i <= 60; i++) {
    const [rota, dono] = i <= 45 ? [rotaAtiva, f.id] : [rotaFinalizada, g.id];
    await inserirDespesa(t.db, rota, dono, 5208707, somarDias(dia, -(i % 30)), i * 100, { tipo: TIPOS[i % TIPOS.length] });
  }
  await inserirDespesa(t.db, rotaAtiva, f.id, 5208707, dia, 999_999, { excluidaEm: new Date().toISOString() });
  expect((await t.chamar({ method: 'PATCH', url: `/api/rotas/${rotaFinalizada}/finalizar`, token: g.token })).statusCode).toBe(200);
});
afterAll(() => t.fechar());

/** SQL statements sent to the database while `fn` runs that read the expenses table (prepared by better-sqlite3, or sent by node-postgres's pool). */
async function consultasDeDespesas(fn: () => Promise<unknown>): Promise<string[]> {
  const vistas: string[] = [];
  const anotar = (sql: string) => {
    if (/from "despesas"/i.test(sql)) vistas.push(sql);
  };
  let espiao: { mockRestore(): void };
  if (MOTOR_DE_TESTE === 'postgres') {
    const pool = t.db.$client as unknown as pg.Pool;
    const consultar = pool.query.bind(pool) as (...a: unknown[]) => unknown;
    espiao = vi.spyOn(pool, 'query').mockImplementation(((consulta: string | { text: string }, ...resto: unknown[]) => {
      anotar(typeof consulta === 'string' ? consulta : consulta.text);
      return consultar(consulta, ...resto);
    }) as typeof pool.query);
  } else {
    const preparar = t.db.$client.prepare.bind(t.db.$client);
    espiao = vi.spyOn(t.db.$client, 'prepare').mockImplementation(((sql: string) => {
      anotar(sql);
      return preparar(sql);
    }) as typeof t.db.$client.prepare);
  }
  try {
    await fn();
  } finally {
    espiao.mockRestore();
  }
  return vistas;
}

describe('GET /api/despesas do admin', () => {
  const url = '/api/despesas?page=1&limit=20&status_rota=ativa';

  it('a página padrão é pequena e os totais são a soma de todo o filtro, calculada no SQLite', async () => {
    const r = await t.chamar({ method: 'GET', url, token: admin });
    expect(r.statusCode, r.body).toBe(200);
    const corpo = r.json();
    expect(corpo.despesas).toHaveLength(20);
    expect(corpo.total).toBe(45);
    // Sum of 1..45 reais, whatever the page: the deleted one and the finished route's are out.
    expect(corpo.totais.geral).toBe((45 * 46) / 2);
    const porTipo = TIPOS.map((tipo) => corpo.totais[tipo] as number).reduce((a, b) => a + b, 0);
    expect(porTipo).toBe(corpo.totais.geral);
    const semFiltro = await t.chamar({ method: 'GET', url: '/api/despesas?page=3', token: admin });
    expect(semFiltro.json().total).toBe(60);
    expect(semFiltro.json().totais.geral).toBe((60 * 61) / 2);
    expect(semFiltro.json().despesas).toHaveLength(20);
  });

  it('a mesma leitura, com o banco inalterado, sai do cache sem consultar as despesas; uma escrita invalida', async () => {
    const primeira = await t.chamar({ method: 'GET', url, token: admin });
    const consultas = await consultasDeDespesas(async () => {
      const segunda = await t.chamar({ method: 'GET', url, token: admin });
      expect(segunda.body).toBe(primeira.body);
    });
    expect(consultas).toEqual([]);
    await inserirDespesa(t.db, rotaAtiva, funcionario, 5208707, dia, 100_000);
    const depois = await t.chamar({ method: 'GET', url, token: admin });
    expect(depois.json().total).toBe(46);
    expect(depois.json().totais.geral).toBe((45 * 46) / 2 + 1000);
  });

  it('vai comprimida em brotli ou gzip conforme o Accept-Encoding, e decodifica no mesmo JSON', async () => {
    const simples = await t.chamar({ method: 'GET', url, token: admin });
    expect(simples.headers['content-encoding']).toBeUndefined();
    const br = await t.chamar({ method: 'GET', url, token: admin, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(br.rawPayload.length).toBeLessThan(simples.rawPayload.length / 3);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString('utf8'))).toEqual(simples.json());
    const gz = await t.chamar({ method: 'GET', url, token: admin, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString('utf8'))).toEqual(simples.json());
  });

  it('a resposta leva ETag; o mesmo ETag em If-None-Match recebe 304 sem corpo, e um ETag antigo recebe a lista nova', async () => {
    const r = await t.chamar({ method: 'GET', url, token: admin });
    const etag = r.headers.etag as string;
    expect(etag).toMatch(/^W\/".+"$/);
    const naoMudou = await t.chamar({ method: 'GET', url, token: admin, headers: { 'if-none-match': etag } });
    expect(naoMudou.statusCode).toBe(304);
    expect(naoMudou.rawPayload.length).toBe(0);
    await inserirDespesa(t.db, rotaAtiva, funcionario, 5208707, dia, 200);
    const mudou = await t.chamar({ method: 'GET', url, token: admin, headers: { 'if-none-match': etag } });
    expect(mudou.statusCode).toBe(200);
    expect(mudou.headers.etag).not.toBe(etag);
  });
});

// The plans read are SQLite's (EXPLAIN QUERY PLAN through better-sqlite3); PostgreSQL plans its own way.
describe.skipIf(MOTOR_DE_TESTE === 'postgres')('planos das consultas padrão das despesas', () => {
  const planos = (fn: () => unknown) => planosDe(t.db, /from "despesas"/i, fn);

  const pagina = { limite: 20, deslocamento: 0 };
  it.each<[string, FiltroDespesas]>([
    ['sem filtro', {}],
    ['rotas ativas (o padrão da tela)', { statusRota: 'ativa' }],
  ])('%s: a página não ordena a tabela inteira e os totais não varrem a tabela', async (_nome, filtro) => {
    const [lista] = await planos(() => listarDespesas(t.db, filtro, pagina));
    const [totais] = await planos(() => totaisDespesas(t.db, filtro));
    expect(lista, lista!.join('\n')).toBeDefined();
    // Neither a scan of the expenses table itself nor a scan of every route to reach it.
    for (const plano of [lista!, totais!]) {
      expect(plano.filter((l) => /^SCAN (despesas|rotas)\b(?! USING (COVERING )?INDEX despesas_)/.test(l)), plano.join('\n')).toEqual([]);
    }
    if (filtro.statusRota === undefined) {
      // The whole table's newest page comes in index order: no sort at all.
      expect(lista!.filter((l) => l.includes('TEMP B-TREE')), lista!.join('\n')).toEqual([]);
      expect(totais!.filter((l) => l.includes('TEMP B-TREE')), totais!.join('\n')).toEqual([]);
      expect(totais!.some((l) => l.includes('COVERING INDEX')), totais!.join('\n')).toBe(true);
    }
  });
});
