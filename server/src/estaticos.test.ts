/**
 * Source maps are not served: the build still writes them (hidden: no
 * sourceMappingURL in the JS) so an operator with the server's files can decode a stack trace, but
 * they hold the whole client source, and nobody outside needs it. The service worker never precaches
 * them either (vite.config.ts globIgnores), checked here against a real build's sw.js when present.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comprimirPasta } from '../../scripts/comprimir';
import { linksDePrecarga } from '../../scripts/precarregar';
import { esperarRecusa } from '../test/helper';
import { criarApp } from './app';
import { carregarConfig } from './config';
import { abrirBancoDeTeste, type BancoDeTeste } from '../test/bancoDeTeste';
import type { App } from './tipos';

const pastas: string[] = [];
const temporaria = () => {
  const p = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-estaticos-'));
  pastas.push(p);
  return p;
};

/** The real server serving `cliente` (a client folder as a build leaves it) on a temporary database. */
function servidorDoCliente(cliente: () => string) {
  const servidor = {} as { app: App; banco: BancoDeTeste };
  beforeAll(async () => {
    const dataDir = temporaria();
    servidor.banco = await abrirBancoDeTeste(dataDir);
    servidor.app = await criarApp({ config: carregarConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), db: servidor.banco.db, segredoJwt: 'x'.repeat(40), pastaCliente: cliente() });
    await servidor.app.ready();
  });
  afterAll(async () => {
    await servidor.app.close();
    await servidor.banco.fechar();
  });
  return servidor;
}

afterAll(() => {
  for (const p of pastas) fs.rmSync(p, { recursive: true, force: true });
});

// The build under test: E2E_PASTA_CLIENTE (as the browser tests), or build/public.
const PASTA_DO_BUILD = process.env.E2E_PASTA_CLIENTE ?? path.join(process.cwd(), 'build', 'public');

describe('mapas de código-fonte (.map) não são servidos', () => {
  const servidor = servidorDoCliente(() => {
    const cliente = temporaria();
    fs.writeFileSync(path.join(cliente, 'index.html'), '<!doctype html><title>Sistema de Gestão</title>');
    fs.mkdirSync(path.join(cliente, 'assets'));
    fs.writeFileSync(path.join(cliente, 'assets', 'index-abc123.js'), 'console.log(1)');
    fs.writeFileSync(path.join(cliente, 'assets', 'index-abc123.js.map'), '{"version":3,"sources":["../src/segredo.ts"]}');
    fs.writeFileSync(path.join(cliente, 'assets', 'index-abc123.css.map'), '{"version":3}');
    fs.writeFileSync(path.join(cliente, 'sw.js.map'), '{"version":3}');
    return cliente;
  });

  it('GET /assets/<x>.js.map é 404 JSON (nem o arquivo, nem o index.html no lugar)', async () => {
    for (const url of ['/assets/index-abc123.js.map', '/assets/index-abc123.css.map', '/sw.js.map', '/assets/index-abc123.js.map?v=1', '/assets/INDEX-abc123.js.MAP', '/assets/nao-existe.js.map']) {
      for (const method of ['GET', 'HEAD'] as const) {
        const r = await servidor.app.inject({ method, url });
        expect(r.statusCode, `${method} ${url}`).toBe(404);
        expect(r.body).not.toContain('segredo.ts');
        expect(r.body).not.toContain('Sistema de Gestão');
      }
    }
    esperarRecusa(await servidor.app.inject({ method: 'GET', url: '/assets/index-abc123.js.map' }), 404, 'nao_encontrado');
  });

  it('o código em si continua servido', async () => {
    const r = await servidor.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(r.statusCode).toBe(200);
    expect(r.body).toBe('console.log(1)');
  });
});

/**
 * The built files go compressed (brotli, else gzip) by the server itself, from the
 * .br/.gz written at build time (scripts/comprimir.mjs), so a phone on 3G downloads a fraction of
 * the JavaScript. The folder here is what a build leaves: each file next to its .br and .gz.
 */
describe('arquivos pré-comprimidos no build', () => {
  const cliente = temporaria();
  const js = `export const a = ${JSON.stringify('Sistema de Gestão '.repeat(400))};\n`;
  const html = `<!doctype html><html lang="pt-BR"><title>Sistema de Gestão</title>${'<!-- casca -->'.repeat(200)}</html>`;
  const sw = `self.addEventListener('install', () => {});${'/* precache */'.repeat(200)}`;
  let escritos: string[] = [];
  beforeAll(async () => {
    fs.mkdirSync(path.join(cliente, 'assets'));
    fs.writeFileSync(path.join(cliente, 'index.html'), html);
    fs.writeFileSync(path.join(cliente, 'sw.js'), sw);
    fs.writeFileSync(path.join(cliente, 'assets', 'index-abc123.js'), js);
    fs.writeFileSync(path.join(cliente, 'assets', 'index-abc123.css'), `body{color:#000}${'.x{margin:0}'.repeat(300)}`);
    fs.writeFileSync(path.join(cliente, 'assets', 'index-abc123.js.map'), '{"version":3,"sources":["../src/segredo.ts"]}');
    escritos = await comprimirPasta(cliente);
  });
  // After the folder is written (hooks run in order).
  const servidor = servidorDoCliente(() => cliente);

  it('o build escreve .br e .gz ao lado de cada arquivo de texto (não dos mapas), que se descomprimem no original', () => {
    expect(escritos.length).toBeGreaterThan(0);
    for (const nome of ['index.html', 'sw.js', 'assets/index-abc123.js', 'assets/index-abc123.css']) {
      const original = fs.readFileSync(path.join(cliente, nome));
      expect(zlib.brotliDecompressSync(fs.readFileSync(path.join(cliente, `${nome}.br`))).equals(original), nome).toBe(true);
      expect(zlib.gunzipSync(fs.readFileSync(path.join(cliente, `${nome}.gz`))).equals(original), nome).toBe(true);
    }
    expect(fs.existsSync(path.join(cliente, 'assets', 'index-abc123.js.map.br'))).toBe(false);
    expect(fs.existsSync(path.join(cliente, 'assets', 'index-abc123.js.map.gz'))).toBe(false);
  });

  const casos = [
    { url: '/assets/index-abc123.js', tipo: /^(text|application)\/javascript; charset=utf-8$/, original: () => js, cache: 'public, max-age=31536000, immutable' },
    { url: '/assets/index-abc123.css', tipo: /^text\/css; charset=utf-8$/, original: () => fs.readFileSync(path.join(cliente, 'assets', 'index-abc123.css'), 'utf8'), cache: 'public, max-age=31536000, immutable' },
    { url: '/sw.js', tipo: /^(text|application)\/javascript; charset=utf-8$/, original: () => sw, cache: 'no-cache' },
    { url: '/index.html', tipo: /^text\/html; charset=utf-8$/, original: () => html, cache: 'no-cache' },
    // A client-side route loads the shell: compressed too.
    { url: '/dashboard', tipo: /^text\/html; charset=utf-8$/, original: () => html, cache: 'no-cache' },
  ];

  for (const caso of casos) {
    it(`${caso.url}: brotli para quem aceita br, gzip para quem só aceita gzip, o original para quem não aceita nada`, async () => {
      const comBr = await servidor.app.inject({ method: 'GET', url: caso.url, headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
      expect(comBr.statusCode).toBe(200);
      expect(comBr.headers['content-encoding']).toBe('br');
      expect(String(comBr.headers['content-type'])).toMatch(caso.tipo);
      expect(String(comBr.headers.vary)).toMatch(/accept-encoding/i);
      expect(comBr.headers['cache-control']).toBe(caso.cache);
      expect(Number(comBr.headers['content-length'])).toBe(comBr.rawPayload.length);
      expect(comBr.rawPayload.length).toBeLessThan(Buffer.byteLength(caso.original()) / 2);
      expect(zlib.brotliDecompressSync(comBr.rawPayload).toString('utf8')).toBe(caso.original());

      const comGzip = await servidor.app.inject({ method: 'GET', url: caso.url, headers: { 'accept-encoding': 'gzip' } });
      expect(comGzip.headers['content-encoding']).toBe('gzip');
      expect(String(comGzip.headers['content-type'])).toMatch(caso.tipo);
      expect(String(comGzip.headers.vary)).toMatch(/accept-encoding/i);
      expect(comGzip.headers['cache-control']).toBe(caso.cache);
      expect(Number(comGzip.headers['content-length'])).toBe(comGzip.rawPayload.length);
      expect(zlib.gunzipSync(comGzip.rawPayload).toString('utf8')).toBe(caso.original());

      const semNada = await servidor.app.inject({ method: 'GET', url: caso.url, headers: { 'accept-encoding': 'identity' } });
      expect(semNada.headers['content-encoding']).toBeUndefined();
      expect(String(semNada.headers.vary)).toMatch(/accept-encoding/i);
      expect(semNada.body).toBe(caso.original());
      expect(Number(semNada.headers['content-length'])).toBe(Buffer.byteLength(caso.original()));

      const head = await servidor.app.inject({ method: 'HEAD', url: caso.url, headers: { 'accept-encoding': 'br' } });
      expect(head.statusCode).toBe(200);
      expect(head.headers['content-encoding']).toBe('br');
    });
  }

  it('os .br/.gz não são endereços próprios, e o mapa continua 404 mesmo pedido comprimido', async () => {
    for (const url of ['/assets/index-abc123.js.br', '/assets/index-abc123.js.gz', '/index.html.br', '/sw.js.gz']) {
      const r = await servidor.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br, gzip' } });
      // Falls to the app shell (a client-side route), never the compressed bytes as a file of their own.
      expect(r.headers['content-type'], url).toMatch(/^text\/html/);
    }
    const mapa = await servidor.app.inject({ method: 'GET', url: '/assets/index-abc123.js.map', headers: { 'accept-encoding': 'br, gzip' } });
    expect(mapa.statusCode).toBe(404);
    expect(mapa.body).not.toContain('segredo.ts');
  });
});

describe('o build real', () => {
  const pasta = PASTA_DO_BUILD;
  const sw = path.join(pasta, 'sw.js');
  it.runIf(fs.existsSync(sw))('o service worker não pré-carrega nenhum .map', () => {
    const texto = fs.readFileSync(sw, 'utf8');
    expect(texto).toContain('precacheAndRoute');
    expect(texto).not.toMatch(/\.map["']/);
  });

  it.runIf(fs.existsSync(path.join(pasta, 'index.html')))('o index.html já pede o código da tela de login junto com o arquivo principal', () => {
    const html = fs.readFileSync(path.join(pasta, 'index.html'), 'utf8');
    const precargas = [...html.matchAll(/<link rel="modulepreload"[^>]*href="\/(assets\/[^"]+)"/g)].map((m) => m[1]!);
    const login = fs.readdirSync(path.join(pasta, 'assets')).filter((n) => /^PaginaLogin-[\w-]+\.js$/.test(n));
    expect(login).toHaveLength(1);
    expect(precargas).toContain(`assets/${login[0]}`);
    for (const arquivo of precargas) expect(fs.existsSync(path.join(pasta, arquivo)), arquivo).toBe(true);
    // The main file is the page's own script, never preloaded a second time.
    const principal = /<script type="module"[^>]*src="\/(assets\/[^"]+)"/.exec(html)?.[1];
    expect(principal).toBeDefined();
    expect(precargas).not.toContain(principal);
  });

  it.runIf(fs.existsSync(path.join(pasta, 'index.html')))('sai pré-comprimido: index.html, sw.js e cada .js/.css de assets/ têm .br e .gz', () => {
    const assets = fs.readdirSync(path.join(pasta, 'assets')).filter((n) => /\.(js|css)$/.test(n));
    for (const nome of ['index.html', 'sw.js', ...assets.map((n) => `assets/${n}`)]) {
      const tamanho = fs.statSync(path.join(pasta, nome)).size;
      // Files under 1 KB are left as they are (the header costs more than it saves).
      if (tamanho < 1024) continue;
      expect(fs.existsSync(path.join(pasta, `${nome}.br`)), `${nome}.br`).toBe(true);
      expect(fs.existsSync(path.join(pasta, `${nome}.gz`)), `${nome}.gz`).toBe(true);
    }
  });
});

describe('linksDePrecarga (scripts/precarregar.ts)', () => {
  const bundle = {
    'assets/index-a.js': { type: 'chunk' as const, fileName: 'assets/index-a.js', isEntry: true, facadeModuleId: '/p/client/src/main.tsx', imports: [] },
    'assets/PaginaLogin-b.js': {
      type: 'chunk' as const,
      fileName: 'assets/PaginaLogin-b.js',
      facadeModuleId: '/p/client/src/auth/PaginaLogin.tsx',
      imports: ['assets/index-a.js', 'assets/Campo-c.js'],
      viteMetadata: { importedCss: new Set(['assets/PaginaLogin-b.css']) },
    },
    'assets/Campo-c.js': { type: 'chunk' as const, fileName: 'assets/Campo-c.js', facadeModuleId: null, imports: ['assets/index-a.js'] },
    'assets/PaginaLogin-b.css': { type: 'asset' as const, fileName: 'assets/PaginaLogin-b.css' },
  };

  it('a tela, o que ela importa (menos o arquivo principal) e o CSS dela', () => {
    expect(linksDePrecarga(bundle, ['client/src/auth/PaginaLogin.tsx']).map((t) => [t.attrs?.rel, t.attrs?.href])).toEqual([
      ['modulepreload', '/assets/PaginaLogin-b.js'],
      ['modulepreload', '/assets/Campo-c.js'],
      ['preload', '/assets/PaginaLogin-b.css'],
    ]);
  });

  it('um módulo sem pedaço no build é um erro do build, não uma página sem precarga', () => {
    expect(() => linksDePrecarga(bundle, ['client/src/nao/Existe.tsx'])).toThrow(/nenhum pedaço/);
  });
});
