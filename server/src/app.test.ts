import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyServerOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN, criarAppDeTeste, esperarRecusa, type AppDeTeste } from '../test/helper';
import { criarApp } from './app';
import { obterSegredoJwt } from './auth/segredo';
import { carregarConfig } from './config';
import type { Db } from './db';
import { usuarios } from './db/tabelas';
import { ErroApp } from './errors';
import { abrirBancoDeTeste, type BancoDeTeste } from '../test/bancoDeTeste';
import type { App } from './tipos';
import { deslocamentoNaTabela, lerTabelaDoFuso, montarTabelaDoFuso } from '../../shared/fusos';
import { contarUsuarios } from './usuarios/repositorio';
import { EMAIL_ADMIN_PADRAO, garantirPrimeiroAdmin } from './usuarios/primeiro-admin';

const pastas: string[] = [];
function pastaTemporaria(): string {
  const p = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-app-'));
  pastas.push(p);
  return p;
}
afterAll(() => {
  for (const p of pastas) fs.rmSync(p, { recursive: true, force: true });
});

/**
 * The real app on a fresh database (SQLite in dataDir or PostgreSQL, as the suite runs), not yet ready:
 * routes can still be added. Given `banco`, the app runs on that database instead (a restarted server).
 */
async function appCru(
  dataDir: string,
  opcoes: { segredo?: string; logger?: FastifyServerOptions['logger']; pastaCliente?: string; banco?: BancoDeTeste } = {},
): Promise<{ app: App; db: Db; banco: BancoDeTeste }> {
  const config = carregarConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const banco = opcoes.banco ?? (await abrirBancoDeTeste(dataDir));
  const { db } = banco;
  const app = await criarApp({
    config,
    db,
    segredoJwt: opcoes.segredo ?? obterSegredoJwt(dataDir, undefined),
    pastaCliente: opcoes.pastaCliente ?? null,
    logger: opcoes.logger,
  });
  return { app, db, banco };
}

const logMudo = () => ({ info: vi.fn(), warn: vi.fn() });

let t: AppDeTeste;
beforeAll(async () => {
  t = await criarAppDeTeste({ cidades: false });
});
afterAll(() => t.fechar());

describe('rotas do sistema', () => {
  it('GET /api/health responde { status: "ok" } com cada verificação, sem autenticação', async () => {
    const r = await t.chamar({ method: 'GET', url: '/api/health' });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ status: 'ok', verificacoes: { banco: { ok: true }, disco: { ok: true }, armazenamento: { ok: true } } });
  });

  it('GET /api/config traz o nome do centro e o fuso, sem autenticação', async () => {
    const r = await t.chamar({ method: 'GET', url: '/api/config' });
    expect(r.statusCode).toBe(200);
    const { fuso_tabela: tabela, ...resto } = r.json();
    expect(resto).toEqual({ centro_nome: 'Centro de Ensino', app_tz: 'America/Sao_Paulo', versao: 'dev', versao_minima_app: '0.1.0' });
    // The zone's offsets around today, from the server's time-zone data (the phone writes dates with them, without ICU).
    expect(lerTabelaDoFuso(tabela)).toEqual(tabela);
    expect(tabela.fuso).toBe('America/Sao_Paulo');
    expect(tabela.de).toBeLessThan(Date.now() - 300 * 86_400_000);
    expect(tabela.ate).toBeGreaterThan(Date.now() + 300 * 86_400_000);
    const agora = Date.now();
    expect(deslocamentoNaTabela(tabela, agora)).toBe(montarTabelaDoFuso('America/Sao_Paulo', agora, agora + 1).trechos[0]![1]);
  });
});

describe('recusas do framework, sempre { error, codigo } em português', () => {
  it.each([
    ['GET', '/api/x'],
    ['POST', '/api/nada/aqui'],
    ['GET', '/api'],
    ['GET', '/dashboard'],
  ])('%s %s inexistente: 404 JSON', async (method, url) => {
    esperarRecusa(await t.chamar({ method: method as 'GET', url }), 404, 'nao_encontrado', 'Recurso não encontrado.');
  });

  it('método que a rota não tem: 404 JSON', async () => {
    esperarRecusa(await t.chamar({ method: 'DELETE', url: '/api/health' }), 404, 'nao_encontrado');
  });

  it.each([
    ['quebrado', '{"email": "a@b.com", '],
    ['com aspas simples', "{'email': 'a@b.com'}"],
    ['com __proto__', '{"email":"a@b.com","senha":"x","__proto__":{"tipo":"admin"}}'],
  ])('JSON %s: 400', async (_caso, payload) => {
    const r = await t.chamar({ method: 'POST', url: '/api/auth/login', payload, headers: { 'content-type': 'application/json' } });
    expect(r.statusCode).toBe(400);
    esperarRecusa(r, 400, 'dados_invalidos');
    expect(({} as Record<string, unknown>).tipo).toBeUndefined();
  });

  it('JSON inválido: a mensagem diz o que houve', async () => {
    const r = await t.chamar({ method: 'POST', url: '/api/auth/login', payload: '{', headers: { 'content-type': 'application/json' } });
    esperarRecusa(r, 400, 'dados_invalidos', 'O corpo da requisição não é um JSON válido.');
  });

  it('corpo JSON acima de 1 MB: 413', async () => {
    const payload = JSON.stringify({ email: ADMIN.email, senha: 'x'.repeat(1024 * 1024) });
    const r = await t.chamar({ method: 'POST', url: '/api/auth/login', payload, headers: { 'content-type': 'application/json' } });
    esperarRecusa(r, 413, 'arquivo_grande', 'A requisição é grande demais.');
  });

  it('corpo JSON logo abaixo de 1 MB ainda é lido (e recusado pelo esquema, não pelo tamanho)', async () => {
    const payload = JSON.stringify({ email: ADMIN.email, senha: 'x'.repeat(1000 * 1000) });
    esperarRecusa(await t.chamar({ method: 'POST', url: '/api/auth/login', payload, headers: { 'content-type': 'application/json' } }), 400, 'dados_invalidos', 'Senha inválida.');
  });

  it.each(['text/plain', 'text/plain; charset=utf-8', 'application/xml', 'application/x-www-form-urlencoded'])(
    'Content-Type %s numa rota JSON: 415',
    async (tipo) => {
      const payload = tipo.includes('urlencoded') ? `email=${ADMIN.email}&senha=${ADMIN.senha}` : JSON.stringify(ADMIN);
      const r = await t.chamar({ method: 'POST', url: '/api/auth/login', payload, headers: { 'content-type': tipo } });
      esperarRecusa(r, 415, 'tipo_nao_suportado', 'Tipo de conteúdo não suportado.');
    },
  );

  it('application/json com charset é aceito', async () => {
    const r = await t.chamar({ method: 'POST', url: '/api/auth/login', payload: JSON.stringify(ADMIN), headers: { 'content-type': 'application/json; charset=utf-8' } });
    expect(r.statusCode).toBe(200);
  });

  it('PATCH com Content-Type JSON e corpo vazio funciona', async () => {
    const token = await t.tokenAdmin();
    const adminId = (await t.chamar({ method: 'GET', url: '/api/auth/me', token })).json().usuario.id;
    for (const payload of ['', '  \n']) {
      const r = await t.chamar({ method: 'PATCH', url: `/api/usuarios/${adminId}/desbloquear`, token, payload, headers: { 'content-type': 'application/json' } });
      expect(r.statusCode, r.body).toBe(200);
    }
  });

  it('POST com Content-Type JSON e corpo vazio numa rota que pede corpo: 400', async () => {
    const r = await t.chamar({ method: 'POST', url: '/api/auth/login', payload: '', headers: { 'content-type': 'application/json' } });
    esperarRecusa(r, 400, 'dados_invalidos', 'Dados da requisição inválidos.');
  });
});

describe('cabeçalhos de segurança', () => {
  it.each([
    ['numa resposta de sucesso', '/api/health'],
    ['numa recusa 401', '/api/auth/me'],
    ['num 404', '/api/nao-existe'],
  ])('%s', async (_caso, url) => {
    const r = await t.chamar({ method: 'GET', url });
    const csp = String(r.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(r.headers['x-powered-by']).toBeUndefined();
  });
});

describe('erro inesperado', () => {
  let app: App;
  let banco: BancoDeTeste;
  const linhasDeLog: string[] = [];
  beforeAll(async () => {
    ({ app, banco } = await appCru(pastaTemporaria(), {
      logger: { level: 'error', stream: { write: (linha: string) => void linhasDeLog.push(linha) } },
    }));
    app.get('/api/teste/falha', async () => {
      throw new Error('SQLITE_ERROR: no such column senha_hash em /srv/sistema/app.db');
    });
    app.get('/api/teste/falha-sincrona', () => {
      throw new TypeError("Cannot read properties of undefined (reading 'id')");
    });
    app.get('/api/teste/erro-app', async () => {
      throw new ErroApp(409, 'conflito', 'Conflito de teste.');
    });
    app.get('/api/teste/status-estranho', async () => {
      throw Object.assign(new Error('detalhe interno'), { statusCode: 418 });
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await banco.fechar();
  });

  it.each(['/api/teste/falha', '/api/teste/falha-sincrona'])('%s: 500 com mensagem genérica; os detalhes ficam só no log', async (url) => {
    linhasDeLog.length = 0;
    const r = await app.inject({ method: 'GET', url });
    expect(r.statusCode).toBe(500);
    expect(r.json()).toEqual({ error: 'Erro interno do servidor. Tente novamente.', codigo: 'erro_interno' });
    expect(r.body).not.toMatch(/SQLITE|senha_hash|srv|Cannot read|stack/);
    expect(linhasDeLog.join('\n')).toMatch(/SQLITE_ERROR|Cannot read properties/);
  });

  it('ErroApp sai com seu status, mensagem e código', async () => {
    esperarRecusa(await app.inject({ method: 'GET', url: '/api/teste/erro-app' }), 409, 'conflito', 'Conflito de teste.');
  });

  it('um 4xx sem código conhecido ganha um texto genérico, sem o detalhe', async () => {
    const r = await app.inject({ method: 'GET', url: '/api/teste/status-estranho' });
    expect(r.statusCode).toBe(418);
    expect(r.body).not.toContain('detalhe interno');
    expect(Object.keys(r.json()).sort()).toEqual(['codigo', 'error']);
  });

  it('banco indisponível: /api/health responde 503 em português', async () => {
    const pasta = pastaTemporaria();
    const cru = await appCru(pasta);
    await cru.app.ready();
    await cru.banco.fechar();
    try {
      const r = await cru.app.inject({ method: 'GET', url: '/api/health' });
      expect(r.statusCode, r.body).toBe(503);
      expect(r.headers['retry-after']).toBe('5');
      expect(r.json()).toMatchObject({ status: 'falha', codigo: 'indisponivel', error: 'Servidor com falha: banco de dados.', verificacoes: { banco: { ok: false } } });
    } finally {
      await cru.app.close();
    }
  });
});

describe('primeiro administrador', () => {
  it('banco vazio e sem ADMIN_*: cria admin@localhost com senha gerada, mostrada uma vez no log, que entra', async () => {
    const pasta = pastaTemporaria();
    const { app, db, banco } = await appCru(pasta);
    await app.ready();
    try {
      const log = logMudo();
      const r = await garantirPrimeiroAdmin(db, { adminEmail: undefined, adminPassword: undefined, adminName: 'Administrador' }, log);
      expect(r).toEqual({ email: EMAIL_ADMIN_PADRAO, senhaGerada: expect.stringMatching(/^[\w-]{12,}$/) });
      expect(EMAIL_ADMIN_PADRAO).toBe('admin@localhost');
      expect(log.warn).toHaveBeenCalledTimes(1);
      expect(JSON.stringify(log.warn.mock.calls[0])).toContain(r!.senhaGerada);
      const [linha] = await db.select().from(usuarios).where(eq(usuarios.email, 'admin@localhost')).limit(1);
      expect(linha).toMatchObject({ tipo: 'admin', ativo: true, bloqueado: false, nome: 'Administrador' });
      expect(linha!.senhaHash).not.toContain(r!.senhaGerada!);

      const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'admin@localhost', senha: r!.senhaGerada } });
      expect(login.statusCode).toBe(200);
      expect(login.json().usuario).toMatchObject({ email: 'admin@localhost', tipo: 'admin' });

      // A second start finds users and does nothing.
      const log2 = logMudo();
      expect(await garantirPrimeiroAdmin(db, { adminEmail: 'outro@escola.com.br', adminPassword: 'outra-senha', adminName: 'Outro' }, log2)).toBeNull();
      expect(await contarUsuarios(db)).toBe(1);
      expect(log2.warn).not.toHaveBeenCalled();
    } finally {
      await app.close();
      await banco.fechar();
    }
  });

  it('com ADMIN_EMAIL/ADMIN_PASSWORD: cria esse admin e não põe a senha no log', async () => {
    const banco = await abrirBancoDeTeste(pastaTemporaria());
    const { db } = banco;
    try {
      const log = logMudo();
      const r = await garantirPrimeiroAdmin(db, { adminEmail: 'chefe@escola.com.br', adminPassword: 'senha-do-chefe', adminName: 'Chefe' }, log);
      expect(r).toEqual({ email: 'chefe@escola.com.br' });
      expect(await db.select().from(usuarios)).toEqual([expect.objectContaining({ email: 'chefe@escola.com.br', nome: 'Chefe', tipo: 'admin' })]);
      expect(JSON.stringify([log.info.mock.calls, log.warn.mock.calls])).not.toContain('senha-do-chefe');
    } finally {
      await banco.fechar();
    }
  });
});

describe('segredo do JWT', () => {
  it('sem JWT_SECRET: gerado uma vez em DATA_DIR/jwt-secret (modo 600) e reaproveitado', () => {
    const pasta = path.join(pastaTemporaria(), 'dados-novos');
    const primeiro = obterSegredoJwt(pasta, undefined);
    expect(primeiro.length).toBeGreaterThanOrEqual(32);
    const arquivo = path.join(pasta, 'jwt-secret');
    expect(fs.readFileSync(arquivo, 'utf8').trim()).toBe(primeiro);
    expect(fs.statSync(arquivo).mode & 0o777).toBe(0o600);
    expect(obterSegredoJwt(pasta, undefined)).toBe(primeiro);
    expect(obterSegredoJwt(pastaTemporaria(), undefined)).not.toBe(primeiro);
  });

  it('com JWT_SECRET: usa o configurado e não grava arquivo', () => {
    const pasta = pastaTemporaria();
    expect(obterSegredoJwt(pasta, 'y'.repeat(40))).toBe('y'.repeat(40));
    expect(fs.existsSync(path.join(pasta, 'jwt-secret'))).toBe(false);
  });

  it('arquivo corrompido (curto demais) é substituído por um segredo bom', () => {
    const pasta = pastaTemporaria();
    fs.writeFileSync(path.join(pasta, 'jwt-secret'), 'curto\n');
    const segredo = obterSegredoJwt(pasta, undefined);
    expect(segredo.length).toBeGreaterThanOrEqual(32);
    expect(obterSegredoJwt(pasta, undefined)).toBe(segredo);
  });

  it('as sessões sobrevivem a um reinício com o segredo guardado', async () => {
    const pasta = pastaTemporaria();
    const primeiro = await appCru(pasta);
    await primeiro.app.ready();
    await garantirPrimeiroAdmin(primeiro.db, { adminEmail: ADMIN.email, adminPassword: ADMIN.senha, adminName: 'Admin' }, logMudo());
    const { token } = (await primeiro.app.inject({ method: 'POST', url: '/api/auth/login', payload: ADMIN })).json();
    await primeiro.app.close();

    // The server restarts on the same database: only the secret in DATA_DIR can make the old token valid.
    const segundo = await appCru(pasta, { banco: primeiro.banco });
    await segundo.app.ready();
    try {
      const r = await segundo.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });
      expect(r.statusCode).toBe(200);
    } finally {
      await segundo.app.close();
      await segundo.banco.fechar();
    }
  });
});

describe('cliente (PWA) servido pelo mesmo servidor', () => {
  let app: App;
  let banco: BancoDeTeste;
  beforeAll(async () => {
    const cliente = pastaTemporaria();
    fs.writeFileSync(path.join(cliente, 'index.html'), '<!doctype html><title>Sistema de Gestão</title>');
    fs.mkdirSync(path.join(cliente, 'assets'));
    fs.writeFileSync(path.join(cliente, 'assets', 'app-abc123.js'), 'console.log(1)');
    ({ app, banco } = await appCru(pastaTemporaria(), { pastaCliente: cliente }));
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await banco.fechar();
  });

  it('rotas do cliente carregam o index.html, revalidado', async () => {
    for (const url of ['/dashboard', '/vendas?data=2026-11-22', '/']) {
      const r = await app.inject({ method: 'GET', url });
      expect(r.statusCode, url).toBe(200);
      expect(r.body).toContain('Sistema de Gestão');
      expect(r.headers['cache-control']).toBe('no-cache');
    }
  });

  it('arquivos com hash em /assets ficam em cache para sempre', async () => {
    const r = await app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['cache-control']).toContain('immutable');
  });

  it('caminhos da API continuam 404 JSON, não o index.html', async () => {
    esperarRecusa(await app.inject({ method: 'GET', url: '/api/nao-existe' }), 404, 'nao_encontrado');
    esperarRecusa(await app.inject({ method: 'POST', url: '/dashboard' }), 404, 'nao_encontrado');
  });
});
