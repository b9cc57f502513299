/**
 * The read cache must never change an answer: reused only while the database is unchanged, for the
 * same user, URL and business day; authentication and permissions still run on every request.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import pg from 'pg';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { hoje } from '../../../shared/dates';
import { abrirBancoDeTeste, MOTOR_DE_TESTE, type BancoDeTeste } from '../../test/bancoDeTeste';
import { criarAppDeTeste, type AppDeTeste } from '../../test/helper';
import { carimboDoBanco, executar, type Db } from '../db';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import cacheLeituras, { codificacaoPreferida } from './cache-leituras';

describe('cache de leituras (mecânica)', () => {
  let db: Db;
  let calculos = 0;
  const abertos: { banco: BancoDeTeste; pasta: string }[] = [];

  /** A fresh database of the engine the suite runs on (SQLite in a temporary folder, or PostgreSQL). */
  async function bancoNovo(): Promise<Db> {
    const pasta = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-cache-'));
    const banco = await abrirBancoDeTeste(pasta);
    abertos.push({ banco, pasta });
    return banco.db;
  }

  async function appMinimo(maximoBytes?: number) {
    db = await bancoNovo();
    calculos = 0;
    const app = Fastify();
    await app.register(cacheLeituras, { db, fuso: 'America/Sao_Paulo', ...(maximoBytes ? { maximoBytes } : {}) });
    app.get('/leitura', { config: { emCache: true } }, async (request) => ({ calculo: ++calculos, q: (request.query as { q?: string }).q ?? null }));
    app.get('/grande', { config: { emCache: true } }, async () => ({ calculo: ++calculos, texto: 'x'.repeat(2000) }));
    app.get('/falha', { config: { emCache: true } }, async (_request, reply) => reply.code(404).send({ error: `não encontrado ${++calculos}` }));
    app.get('/sem-cache', async () => ({ calculo: ++calculos }));
    app.post('/leitura', async () => ({ ok: true }));
    return app;
  }

  afterEach(async () => {
    vi.useRealTimers();
    for (const { banco, pasta } of abertos.splice(0)) {
      await banco.fechar();
      fs.rmSync(pasta, { recursive: true, force: true });
    }
  });

  it('a mesma leitura com o banco inalterado é respondida sem recalcular, com os mesmos bytes', async () => {
    const app = await appMinimo();
    const a = await app.inject({ method: 'GET', url: '/leitura?q=1' });
    const b = await app.inject({ method: 'GET', url: '/leitura?q=1' });
    expect(a.json()).toEqual({ calculo: 1, q: '1' });
    expect(b.body).toBe(a.body);
    expect(b.headers['content-type']).toBe('application/json; charset=utf-8');
    // Another query string is another answer; routes that did not opt in always run.
    expect((await app.inject({ method: 'GET', url: '/leitura?q=2' })).json()).toEqual({ calculo: 2, q: '2' });
    await app.inject({ method: 'GET', url: '/sem-cache' });
    expect((await app.inject({ method: 'GET', url: '/sem-cache' })).json()).toEqual({ calculo: 4 });
  });

  it('qualquer mudança no banco invalida, mesmo um insert fora de uma requisição', async () => {
    const app = await appMinimo();
    await app.inject({ method: 'GET', url: '/leitura' });
    const antes = await carimboDoBanco(db);
    await executar(db, sql`insert into estados (uf, codigo_ibge, nome) values ('ZZ', 99, 'Teste')`);
    expect(await carimboDoBanco(db)).not.toBe(antes);
    expect((await app.inject({ method: 'GET', url: '/leitura' })).json().calculo).toBe(2);
  });

  it('parâmetros que a rota não conhece não mudam a chave: ?x=1 sai do cache; a ordem e a forma dos conhecidos também não', async () => {
    db = await bancoNovo();
    let feitas = 0;
    const app = Fastify().withTypeProvider<ZodTypeProvider>();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    await app.register(cacheLeituras, { db, fuso: 'America/Sao_Paulo' });
    const consulta = z.object({ rota_id: z.coerce.number().optional(), data: z.string().optional() });
    app.get('/filtrada', { config: { emCache: true }, schema: { querystring: consulta } }, async (request) => ({ feitas: ++feitas, rota: request.query.rota_id ?? null }));
    const primeira = await app.inject({ method: 'GET', url: '/filtrada?rota_id=3&data=2026-11-20' });
    expect(primeira.json()).toEqual({ feitas: 1, rota: 3 });
    // An unknown parameter, another order, '03' for 3: the same request as far as the route knows.
    for (const url of ['/filtrada?rota_id=3&data=2026-11-20&x=1', '/filtrada?data=2026-11-20&rota_id=3', '/filtrada?rota_id=03&data=2026-11-20&_=123']) {
      const r = await app.inject({ method: 'GET', url });
      expect(r.body, url).toBe(primeira.body);
    }
    expect(feitas).toBe(1);
    // A known parameter that changes is another answer.
    expect((await app.inject({ method: 'GET', url: '/filtrada?rota_id=4&data=2026-11-20&x=1' })).json()).toEqual({ feitas: 2, rota: 4 });
  });

  it('erros não são guardados', async () => {
    const app = await appMinimo();
    expect((await app.inject({ method: 'GET', url: '/falha' })).json()).toEqual({ error: 'não encontrado 1' });
    expect((await app.inject({ method: 'GET', url: '/falha' })).json()).toEqual({ error: 'não encontrado 2' });
  });

  it('a virada do dia no fuso do negócio é outra resposta (relatórios dependem de "hoje")', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-22T02:59:00.000Z')); // 23:59 em São Paulo
    const app = await appMinimo();
    expect(hoje('America/Sao_Paulo')).toBe('2026-11-21');
    await app.inject({ method: 'GET', url: '/leitura' });
    expect((await app.inject({ method: 'GET', url: '/leitura' })).json().calculo).toBe(1);
    vi.setSystemTime(new Date('2026-11-22T03:00:02.000Z')); // 00:00:02 do dia 22
    expect((await app.inject({ method: 'GET', url: '/leitura' })).json().calculo).toBe(2);
  });

  it('respostas grandes vão comprimidas a quem aceita gzip, na primeira vez e nas guardadas; as pequenas não', async () => {
    const app = await appMinimo();
    const simples = await app.inject({ method: 'GET', url: '/grande' });
    expect(simples.headers['content-encoding']).toBeUndefined();
    for (let vez = 0; vez < 2; vez++) {
      const r = await app.inject({ method: 'GET', url: '/grande?v=1', headers: { 'accept-encoding': 'gzip, deflate' } });
      expect(r.headers['content-encoding']).toBe('gzip');
      expect(r.headers.vary).toBe('accept-encoding');
      expect(Number(r.headers['content-length'])).toBe(r.rawPayload.length);
      expect(r.rawPayload.length).toBeLessThan(200);
      expect(JSON.parse(gunzipSync(r.rawPayload).toString()).texto).toHaveLength(2000);
    }
    const recusa = await app.inject({ method: 'GET', url: '/grande?v=1', headers: { 'accept-encoding': 'gzip;q=0, identity' } });
    expect(recusa.headers['content-encoding']).toBeUndefined();
    expect(recusa.json().texto).toHaveLength(2000);
    const pequena = await app.inject({ method: 'GET', url: '/leitura', headers: { 'accept-encoding': 'gzip' } });
    expect(pequena.headers['content-encoding']).toBeUndefined();
    // Browsers also take brotli, preferred when offered: the same JSON once decoded.
    const br = await app.inject({ method: 'GET', url: '/grande?v=1', headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(recusa.json());
  });

  it('codificacaoPreferida lê o Accept-Encoding como os navegadores o mandam', () => {
    expect(codificacaoPreferida('gzip, deflate, br, zstd')).toBe('br');
    expect(codificacaoPreferida('br;q=1.0, gzip;q=0.8')).toBe('br');
    expect(codificacaoPreferida('br;q=0.5, gzip')).toBe('gzip');
    expect(codificacaoPreferida('gzip, deflate')).toBe('gzip');
    expect(codificacaoPreferida('*')).toBe('br');
    expect(codificacaoPreferida('gzip;q=0')).toBeNull();
    expect(codificacaoPreferida('br;q=0, gzip;q=0, identity')).toBeNull();
    expect(codificacaoPreferida('br')).toBe('br');
    expect(codificacaoPreferida(undefined)).toBeNull();
  });

  it('uma leitura guardada não é serializada nem comprimida de novo: os mesmos bytes comprimidos, sem JSON.stringify', async () => {
    const app = await appMinimo();
    const primeira = await app.inject({ method: 'GET', url: '/grande', headers: { 'accept-encoding': 'br' } });
    expect(primeira.headers['content-encoding']).toBe('br');
    const serializar = vi.spyOn(JSON, 'stringify');
    try {
      const segunda = await app.inject({ method: 'GET', url: '/grande', headers: { 'accept-encoding': 'br' } });
      expect(Buffer.compare(segunda.rawPayload, primeira.rawPayload)).toBe(0);
      // The route's key is built from the parsed query (JSON of two empty objects); nothing else is serialized.
      expect(serializar.mock.calls.filter(([v]) => v && typeof v === 'object' && 'calculo' in (v as object))).toEqual([]);
    } finally {
      serializar.mockRestore();
    }
    expect(calculos).toBe(1);
  });

  it('o tamanho guardado tem limite: as respostas mais antigas saem primeiro', async () => {
    const app = await appMinimo(64 * 1024); // each answer ~4 KB in memory: room for ~16
    for (let i = 0; i < 40; i++) await app.inject({ method: 'GET', url: `/grande?i=${i}` });
    const calculosAntes = calculos;
    await app.inject({ method: 'GET', url: '/grande?i=39' }); // recent: kept
    expect(calculos).toBe(calculosAntes);
    await app.inject({ method: 'GET', url: '/grande?i=0' }); // oldest: evicted
    expect(calculos).toBe(calculosAntes + 1);
  });
});

describe('cache de leituras no app', () => {
  let t: AppDeTeste;
  let admin: string;

  beforeEach(async () => {
    t = await criarAppDeTeste();
    admin = await t.tokenAdmin();
  });
  afterEach(async () => {
    await t.fechar();
  });

  async function rotaDe(funcionarioId: number) {
    const dia = hoje('America/Sao_Paulo');
    const r = await t.chamar({
      method: 'POST',
      url: '/api/rotas',
      token: admin,
      payload: { nome: `Rota ${funcionarioId}`, funcionario_id: funcionarioId, tem_secretario: false, valor_aluguel: 0, data_inicio: dia, data_fim: dia, observacoes: '', cidades: [5208707, 5201108] },
    });
    expect(r.statusCode).toBe(201);
    return r.json().rota.id as number;
  }

  it('uma venda registrada aparece na próxima leitura do relatório e do dashboard', async () => {
    const f = await t.criarFuncionario();
    const rota = await rotaDe(f.id);
    const dia = hoje('America/Sao_Paulo');
    const fechamento = () => t.chamar({ method: 'GET', url: `/api/vendas/fechamento-diario?data=${dia}`, token: admin });
    const dashboard = () => t.chamar({ method: 'GET', url: '/api/relatorios/dashboard-admin', token: admin });
    const antesF = (await fechamento()).body;
    const antesD = (await dashboard()).body;
    expect((await fechamento()).body).toBe(antesF);

    const v = await t.chamar({ method: 'POST', url: '/api/vendas', token: f.token, payload: { id: crypto.randomUUID(), rota_id: rota, cidade_id: 5208707, data_venda: dia, valor_dinheiro: 150, valor_boletos: 1, observacoes: '' } });
    expect(v.statusCode, v.body).toBe(201);
    expect((await fechamento()).body).not.toBe(antesF);
    expect((await fechamento()).json().totais.dinheiro).toBe(150);
    expect((await dashboard()).body).not.toBe(antesD);
  });

  it('a resposta guardada de um funcionário nunca é entregue a outro', async () => {
    const a = await t.criarFuncionario({ email: 'a@escola.com.br' });
    const b = await t.criarFuncionario({ email: 'b@escola.com.br' });
    const rotaA = await rotaDe(a.id);
    const url = `/api/rotas/${rotaA}/cidades-status`;
    expect((await t.chamar({ method: 'GET', url, token: a.token })).statusCode).toBe(200);
    expect((await t.chamar({ method: 'GET', url, token: a.token })).statusCode).toBe(200);
    const deB = await t.chamar({ method: 'GET', url, token: b.token });
    expect(deB.statusCode).toBe(404);
    expect(deB.json().error).toBe('Rota não encontrada.');
    // An employee cannot read the admin's cached report either.
    await t.chamar({ method: 'GET', url: '/api/relatorios/dashboard-admin', token: admin });
    expect((await t.chamar({ method: 'GET', url: '/api/relatorios/dashboard-admin', token: a.token })).statusCode).toBe(403);
  });

  it('desativar um usuário encerra a sessão na hora, mesmo com a leitura dele guardada', async () => {
    const f = await t.criarFuncionario();
    const rota = await rotaDe(f.id);
    const url = `/api/rotas/${rota}/cidades-status`;
    await t.chamar({ method: 'GET', url, token: f.token });
    expect((await t.chamar({ method: 'GET', url, token: f.token })).statusCode).toBe(200);
    expect((await t.chamar({ method: 'PATCH', url: `/api/usuarios/${f.id}/desativar`, token: admin })).statusCode).toBe(200);
    const r = await t.chamar({ method: 'GET', url, token: f.token });
    expect(r.statusCode).toBe(401);
  });

  it('uma senha trocada por outro processo (user:reset-password com o servidor rodando) derruba a sessão antiga', async () => {
    const f = await t.criarFuncionario();
    expect((await t.chamar({ method: 'GET', url: '/api/auth/me', token: f.token })).statusCode).toBe(200);
    // What user:reset-password does (it ends the user's server-side sessions), through its own connection.
    const agora = new Date().toISOString();
    if (MOTOR_DE_TESTE === 'postgres') {
      const outra = new pg.Client({ connectionString: (t.db.$client as unknown as pg.Pool).options.connectionString });
      await outra.connect();
      try {
        await outra.query('update sessoes set revogada_em = $1 where usuario_id = $2', [agora, f.id]);
      } finally {
        await outra.end();
      }
    } else {
      const outra = new Database(path.join(t.dataDir, 'app.db'));
      outra.prepare('update sessoes set revogada_em = ? where usuario_id = ?').run(agora, f.id);
      outra.close();
    }
    // The stamp of the database is read on every request: the next one already sees the other connection's commit.
    const r = await t.chamar({ method: 'GET', url: '/api/auth/me', token: f.token });
    expect(r.statusCode).toBe(401);
    expect(r.json().error).toBe('Sessão encerrada. Faça login novamente.');
  });
});
