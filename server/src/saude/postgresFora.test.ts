/**
 * PostgreSQL down (nobody listening at DATABASE_URL's address) as a phone sees it: login, /auth/me, the
 * sync batch and an upload answer 503 in pt-BR with Retry-After, not 500; /api/health names the
 * database; and the log, where drizzle's error carries the query's parameters, shows none of them.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esperarRecusa } from '../../test/helper';
import { criarApp } from '../app';
import { carregarConfig } from '../config';
import { conectarPostgresDoApp } from '../db/postgres';
import type { App } from '../tipos';
import { MENSAGENS_INDISPONIVEL } from './indisponibilidade';

const EMAIL = 'maria.sigilosa@exemplo.com.br';

function portaFechada(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

describe('PostgreSQL fora do ar', () => {
  let app: App;
  let dataDir: string;
  const linhas: string[] = [];

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-pg-fora-'));
    const config = carregarConfig({ DATA_DIR: dataDir, JWT_SECRET: 'segredo-de-teste-com-mais-de-32-caracteres', DATABASE_URL: `postgres://sg:senha@127.0.0.1:${await portaFechada()}/sg` });
    const db = conectarPostgresDoApp(config.databaseUrl!, 2);
    const destino = new Writable({
      write(pedaco, _codificacao, feito) {
        linhas.push(String(pedaco));
        feito();
      },
    });
    app = await criarApp({ config, db, segredoJwt: config.jwtSecret!, pastaCliente: null, logger: { level: 'info', stream: destino } });
    await app.ready();
  });

  afterAll(async () => {
    await app?.close();
    await (app?.db.$client as unknown as pg.Pool | undefined)?.end();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('login, /auth/me, lote e envio respondem 503 com Retry-After; o log não traz os parâmetros da consulta', async () => {
    const esperar503 = (r: Awaited<ReturnType<App['inject']>>) => {
      esperarRecusa(r, 503, 'indisponivel', MENSAGENS_INDISPONIVEL.banco);
      expect(r.headers['retry-after']).toBe('5');
    };
    esperar503(await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: EMAIL, senha: 'senha-secreta-123' } }));
    const token = app.jwt.sign({ sub: '7', tipo: 'funcionario', sid: 'sessao-de-teste' }, { expiresIn: 3600 });
    const comToken = { authorization: `Bearer ${token}` };
    esperar503(await app.inject({ method: 'GET', url: '/api/auth/me', headers: comToken }));
    esperar503(await app.inject({ method: 'POST', url: '/api/sync/lote', headers: comToken, payload: { cliente_id: 'celular', operacoes: [] } }));
    esperar503(
      await app.inject({
        method: 'POST',
        url: '/api/despesas',
        headers: { ...comToken, 'content-type': 'multipart/form-data; boundary=x' },
        payload: '--x\r\nContent-Disposition: form-data; name="valor"\r\n\r\n10,00\r\n--x--\r\n',
      }),
    );

    const log = linhas.join('');
    // The failure is in the log, with drizzle's SQL text but not the values it was run with.
    expect(log).toContain('banco de dados indisponível');
    expect(log).toContain('ECONNREFUSED');
    expect(log).toContain('params: [omitidos]');
    expect(log).not.toContain(EMAIL);
    expect(log).not.toContain('sessao-de-teste');
    expect(log).not.toContain('senha-secreta-123');
  });

  it('/api/health responde 503 nomeando o banco de dados', async () => {
    const r = await app.inject({ method: 'GET', url: '/api/health' });
    expect(r.statusCode, r.body).toBe(503);
    expect(r.headers['retry-after']).toBe('5');
    expect(r.json()).toMatchObject({ status: 'falha', error: 'Servidor com falha: banco de dados.', verificacoes: { banco: { ok: false }, disco: { ok: true } } });
  });
});
