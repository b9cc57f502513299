/**
 * Source maps are not served (issue 18, item 10c): the build still writes them (hidden: no
 * sourceMappingURL in the JS) so an operator with the server's files can decode a stack trace, but
 * they hold the whole client source, and nobody outside needs it. The service worker never precaches
 * them either (vite.config.ts globIgnores), checked here against a real build's sw.js when present.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esperarRecusa } from '../test/helper';
import { criarApp } from './app';
import { carregarConfig } from './config';
import { abrirBanco, type Db } from './db';
import { recursosDoProjeto } from './recursos';
import type { App } from './tipos';

const pastas: string[] = [];
const temporaria = () => {
  const p = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-estaticos-'));
  pastas.push(p);
  return p;
};

describe('mapas de código-fonte (.map) não são servidos', () => {
  let app: App;
  let db: Db;
  beforeAll(async () => {
    const cliente = temporaria();
    fs.writeFileSync(path.join(cliente, 'index.html'), '<!doctype html><title>Sistema de Gestão</title>');
    fs.mkdirSync(path.join(cliente, 'assets'));
    fs.writeFileSync(path.join(cliente, 'assets', 'index-abc123.js'), 'console.log(1)');
    fs.writeFileSync(path.join(cliente, 'assets', 'index-abc123.js.map'), '{"version":3,"sources":["../src/segredo.ts"]}');
    fs.writeFileSync(path.join(cliente, 'assets', 'index-abc123.css.map'), '{"version":3}');
    fs.writeFileSync(path.join(cliente, 'sw.js.map'), '{"version":3}');
    const dataDir = temporaria();
    db = abrirBanco({ arquivo: path.join(dataDir, 'app.db'), pastaMigracoes: recursosDoProjeto().pastaMigracoes });
    app = await criarApp({ config: carregarConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), db, segredoJwt: 'x'.repeat(40), pastaCliente: cliente });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    db.$client.close();
    for (const p of pastas) fs.rmSync(p, { recursive: true, force: true });
  });

  it('GET /assets/<x>.js.map é 404 JSON (nem o arquivo, nem o index.html no lugar)', async () => {
    for (const url of ['/assets/index-abc123.js.map', '/assets/index-abc123.css.map', '/sw.js.map', '/assets/index-abc123.js.map?v=1', '/assets/INDEX-abc123.js.MAP', '/assets/nao-existe.js.map']) {
      for (const method of ['GET', 'HEAD'] as const) {
        const r = await app.inject({ method, url });
        expect(r.statusCode, `${method} ${url}`).toBe(404);
        expect(r.body).not.toContain('segredo.ts');
        expect(r.body).not.toContain('Sistema de Gestão');
      }
    }
    esperarRecusa(await app.inject({ method: 'GET', url: '/assets/index-abc123.js.map' }), 404, 'nao_encontrado');
  });

  it('o código em si continua servido', async () => {
    const r = await app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(r.statusCode).toBe(200);
    expect(r.body).toBe('console.log(1)');
  });
});

describe('o service worker de um build real não pré-carrega .map', () => {
  // The build under test: E2E_PASTA_CLIENTE (as the browser tests), or build/public.
  const pasta = process.env.E2E_PASTA_CLIENTE ?? path.join(process.cwd(), 'build', 'public');
  const sw = path.join(pasta, 'sw.js');
  it.runIf(fs.existsSync(sw))('sw.js não lista nenhum .map', () => {
    const texto = fs.readFileSync(sw, 'utf8');
    expect(texto).toContain('precacheAndRoute');
    expect(texto).not.toMatch(/\.map["']/);
  });
});
