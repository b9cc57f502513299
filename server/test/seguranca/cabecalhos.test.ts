/**
 * Security headers on every kind of response the server gives (API success and refusals, a
 * receipt, the built PWA's static files, the app shell served for client-side paths) and the
 * session cookie's flags, over plain HTTP and behind the HTTPS reverse proxy. The CSP is parsed
 * and checked directive by directive; e2e/seguranca-csp.test.ts proves the real PWA runs under it.
 */
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoje, somarDias } from '../../../shared/dates';
import { ARQUIVOS, GOIANIA, criarRotaAtiva, formulario } from '../despesas';
import { ADMIN, criarAppDeTeste, type AppDeTeste } from '../helper';
import { criarPastaClienteFalsa } from './suporte';

/** 'default-src 'self'; img-src ...' -> { 'default-src': ["'self'"], ... } */
function lerCsp(cabecalho: unknown): Record<string, string[]> {
  expect(typeof cabecalho, 'Content-Security-Policy ausente').toBe('string');
  const diretivas: Record<string, string[]> = {};
  for (const parte of String(cabecalho).split(';')) {
    const [nome, ...fontes] = parte.trim().split(/\s+/);
    if (!nome) continue;
    expect(diretivas[nome], `diretiva ${nome} repetida`).toBeUndefined();
    diretivas[nome] = fontes;
  }
  return diretivas;
}

const DIRETIVAS_DE_BUSCA = ['default-src', 'script-src', 'style-src', 'img-src', 'font-src', 'connect-src', 'media-src', 'object-src', 'frame-src', 'worker-src', 'manifest-src'];

function esperarCabecalhosDeSeguranca(r: LightMyRequestResponse) {
  const csp = lerCsp(r.headers['content-security-policy']);
  expect(csp['default-src']).toEqual(["'self'"]);
  // Scripts: only files from this origin. No eval, no inline, no other host.
  expect(csp['script-src']).toEqual(["'self'"]);
  expect(csp['script-src-attr']).toEqual(["'none'"]);
  // No plugins; frames only for the receipt viewer (this origin, or a receipt still on the device).
  expect(csp['object-src']).toEqual(["'none'"]);
  expect(csp['frame-src']).toEqual(["'self'", 'blob:']);
  expect(csp['worker-src']).toEqual(["'self'"]);
  expect(csp['connect-src']).toEqual(["'self'"]);
  // Nobody else may frame the app, change its base URL or receive its forms.
  expect(csp['frame-ancestors']).toEqual(["'self'"]);
  expect(csp['base-uri']).toEqual(["'self'"]);
  expect(csp['form-action']).toEqual(["'self'"]);
  for (const nome of DIRETIVAS_DE_BUSCA) {
    for (const fonte of csp[nome] ?? []) {
      expect(fonte, `${nome}: ${fonte}`).not.toMatch(/\*|^'unsafe-eval'$|^'wasm-unsafe-eval'$|^https?:$|^http:\/\//);
      // Only this origin and the browser's own schemes: never another host.
      expect(["'self'", "'none'", "'unsafe-inline'", 'data:', 'blob:'], `${nome}: ${fonte}`).toContain(fonte);
    }
  }
  // 'unsafe-inline' only where React's style attributes need it.
  for (const nome of Object.keys(csp)) if (nome !== 'style-src') expect(csp[nome], nome).not.toContain("'unsafe-inline'");

  expect(r.headers['x-content-type-options']).toBe('nosniff');
  expect(r.headers['x-frame-options']).toBe('SAMEORIGIN');
  expect(['no-referrer', 'same-origin', 'strict-origin', 'strict-origin-when-cross-origin']).toContain(r.headers['referrer-policy']);
  // These requests come over plain HTTP: no HSTS (over HTTPS it is checked in server/src/plugins/cabecalhos.test.ts).
  expect(r.headers['strict-transport-security']).toBeUndefined();
  expect(r.headers['cross-origin-opener-policy']).toBe('same-origin');
  expect(r.headers['cross-origin-resource-policy']).toBe('same-origin');
  // The old XSS auditor is off (it could be abused); nothing says what runs the server.
  expect(r.headers['x-xss-protection']).toBe('0');
  expect(r.headers['x-powered-by']).toBeUndefined();
  expect(r.headers.server).toBeUndefined();
}

const cliente = criarPastaClienteFalsa();
let t: AppDeTeste;
let token: string;
let cupomJpeg: string;
let cupomPdf: string;

beforeAll(async () => {
  t = await criarAppDeTeste({ pastaCliente: cliente.pasta });
  const f = await t.criarFuncionario();
  token = f.token;
  const rota = await criarRotaAtiva(t, f.id, [GOIANIA]);
  const criar = async (arquivo = ARQUIVOS.jpeg()) => {
    const corpo = await formulario(
      { id: uuidv7(), rota_id: rota, cidade_id: GOIANIA, data_despesa: somarDias(hoje('America/Sao_Paulo'), -1), tipo: 'pedagio', valor: '5' },
      arquivo,
    );
    const r = await t.chamar({ method: 'POST', url: '/api/despesas', token, ...corpo });
    expect(r.statusCode, r.body).toBe(201);
    return r.json().despesa.cupom_url as string;
  };
  cupomJpeg = await criar();
  cupomPdf = await criar(ARQUIVOS.pdf());
});
afterAll(async () => {
  await t?.fechar();
  cliente.remover();
});

describe('cabeçalhos de segurança em toda resposta', () => {
  const casos: [string, () => InjectOptions & { token?: string }, number][] = [
    ['API: sucesso público (/api/health)', () => ({ method: 'GET', url: '/api/health' }), 200],
    ['API: dados de uma pessoa (/api/saldo/resumo)', () => ({ method: 'GET', url: '/api/saldo/resumo', token }), 200],
    ['API: login', () => ({ method: 'POST', url: '/api/auth/login', payload: ADMIN }), 200],
    ['API: recusa 401', () => ({ method: 'GET', url: '/api/auth/me' }), 401],
    ['API: recusa 403', () => ({ method: 'GET', url: '/api/usuarios', token }), 403],
    ['API: 404', () => ({ method: 'GET', url: '/api/nao-existe' }), 404],
    ['API: 415', () => ({ method: 'POST', url: '/api/auth/login', payload: 'x', headers: { 'content-type': 'text/plain' } }), 415],
    ['cupom JPEG', () => ({ method: 'GET', url: cupomJpeg, token }), 200],
    ['cupom PDF', () => ({ method: 'GET', url: cupomPdf, token }), 200],
    ['arquivo estático: index.html', () => ({ method: 'GET', url: '/index.html' }), 200],
    ['arquivo estático: script', () => ({ method: 'GET', url: '/assets/index-abc123.js' }), 200],
    ['arquivo estático: service worker', () => ({ method: 'GET', url: '/sw.js' }), 200],
    ['arquivo estático: manifesto', () => ({ method: 'GET', url: '/manifest.webmanifest' }), 200],
    ['app para um caminho do cliente (/dashboard)', () => ({ method: 'GET', url: '/dashboard' }), 200],
    ['app para um caminho do cliente (/despesas?x=1)', () => ({ method: 'GET', url: '/despesas?x=1' }), 200],
    ['HEAD do app', () => ({ method: 'HEAD', url: '/relatorios' }), 200],
  ];
  it.each(casos)('%s', async (_caso, pedido, status) => {
    const r = await t.chamar(pedido());
    expect(r.statusCode, r.body).toBe(status);
    esperarCabecalhosDeSeguranca(r);
  });

  it('o app servido no lugar de um caminho do cliente é o index.html, como HTML', async () => {
    const r = await t.chamar({ method: 'GET', url: '/usuarios' });
    expect(r.headers['content-type']).toMatch(/^text\/html/);
    expect(r.body).toContain('<div id="root"></div>');
  });

  it('o cupom sai com o tipo dos bytes, nosniff e inline (nunca como anexo que o navegador adivinha)', async () => {
    const jpeg = await t.chamar({ method: 'GET', url: cupomJpeg, token });
    expect(jpeg.headers['content-type']).toBe('image/jpeg');
    const pdf = await t.chamar({ method: 'GET', url: cupomPdf, token });
    expect(pdf.headers['content-type']).toBe('application/pdf');
    for (const r of [jpeg, pdf]) expect(String(r.headers['content-disposition'])).toMatch(/^inline; filename="/);
  });
});

describe('cookie da sessão', () => {
  const cookieDoLogin = (r: LightMyRequestResponse) => {
    expect(r.statusCode, r.body).toBe(200);
    const cabecalho = [r.headers['set-cookie']].flat().find((c) => String(c).startsWith('token='));
    expect(cabecalho).toBeDefined();
    return String(cabecalho);
  };
  const atributos = (cookie: string) => cookie.split(';').slice(1).map((a) => a.trim().toLowerCase());

  it('por HTTP direto: HttpOnly, SameSite=Strict, Path=/api, Max-Age do JWT, sem Secure (uso local por http://127.0.0.1)', async () => {
    const cookie = cookieDoLogin(await t.chamar({ method: 'POST', url: '/api/auth/login', payload: ADMIN }));
    const a = atributos(cookie);
    expect(a).toEqual(expect.arrayContaining(['httponly', 'samesite=strict', 'path=/api', `max-age=${t.config.jwtTtlSegundos}`]));
    expect(a).not.toContain('secure');
    // Not for the whole site, and no Domain: it never leaves this host.
    expect(a.some((x) => x.startsWith('domain='))).toBe(false);
  });

  it('sem TRUST_PROXY, um X-Forwarded-Proto: https do cliente não muda nada', async () => {
    const r = await t.chamar({ method: 'POST', url: '/api/auth/login', payload: ADMIN, headers: { 'x-forwarded-proto': 'https' } });
    expect(atributos(cookieDoLogin(r))).not.toContain('secure');
  });

  describe('atrás do proxy HTTPS (TRUST_PROXY=true)', () => {
    let atras: AppDeTeste;
    beforeAll(async () => {
      atras = await criarAppDeTeste({ env: { TRUST_PROXY: 'true' }, cidades: false });
    });
    afterAll(() => atras?.fechar());

    it('com X-Forwarded-Proto: https vindo do proxy da máquina: Secure, além de HttpOnly, SameSite=Strict e Path=/api', async () => {
      const r = await atras.chamar({
        method: 'POST',
        url: '/api/auth/login',
        payload: ADMIN,
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.9' },
      });
      expect(atributos(cookieDoLogin(r))).toEqual(expect.arrayContaining(['secure', 'httponly', 'samesite=strict', 'path=/api']));
    });

    it('um cliente que fala direto com o servidor e diz X-Forwarded-Proto: https não é o proxy: sem Secure', async () => {
      const r = await atras.chamar({ method: 'POST', url: '/api/auth/login', payload: ADMIN, remoteAddress: '203.0.113.5', headers: { 'x-forwarded-proto': 'https' } });
      expect(atributos(cookieDoLogin(r))).not.toContain('secure');
    });

    it('o proxy em HTTP (X-Forwarded-Proto: http): sem Secure', async () => {
      const r = await atras.chamar({ method: 'POST', url: '/api/auth/login', payload: ADMIN, remoteAddress: '127.0.0.1', headers: { 'x-forwarded-proto': 'http' } });
      expect(atributos(cookieDoLogin(r))).not.toContain('secure');
    });

    it('o logout apaga o cookie no mesmo caminho', async () => {
      const r = await atras.chamar({ method: 'POST', url: '/api/auth/logout', remoteAddress: '127.0.0.1', headers: { 'x-forwarded-proto': 'https' } });
      const cookie = String([r.headers['set-cookie']].flat().find((c) => String(c).startsWith('token=')));
      expect(cookie).toMatch(/^token=;/);
      expect(atributos(cookie)).toContain('path=/api');
    });
  });

  it('só o login põe o cookie: leituras autenticadas não o renovam nem o mudam', async () => {
    for (const url of ['/api/auth/me', '/api/saldo/resumo', cupomJpeg]) {
      const r = await t.chamar({ method: 'GET', url, token });
      expect(r.statusCode).toBe(200);
      expect(r.headers['set-cookie']).toBeUndefined();
    }
  });
});
