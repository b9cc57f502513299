/**
 * Shared pieces of the security tests: a snapshot of everything the server keeps (every table and
 * the uploads folder) to prove a refused request changed nothing, a small fake PWA build for the
 * static files and the SPA fallback, hand-made JWTs, and the check of the one error body.
 */
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { CODIGOS_ERRO } from '../../../shared/api/errors';
import { ehPostgres, linhas } from '../../src/db';
import type { AppDeTeste } from '../helper';

/**
 * Every row of every table plus the names under uploads/: equal snapshots mean nothing was written.
 * Except the login attempts counted per address (auth/limiteLogin.ts): every login counts there, as it
 * counted in the process's memory before
 * several processes could share them; that is the limit doing its work, not data.
 */
export async function fotografia(t: AppDeTeste): Promise<{ tabelas: Record<string, unknown[]>; uploads: string[] }> {
  const nomes = ehPostgres(t.db)
    ? await linhas<{ name: string }>(
        t.db,
        sql`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' and table_name <> 'tentativas_login_endereco' order by table_name`,
      )
    : await linhas<{ name: string }>(
        t.db,
        sql`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name <> 'tentativas_login_endereco' order by name`,
      );
  const tabelas: Record<string, unknown[]> = {};
  // Sorted here: without an order by, PostgreSQL may return the same rows in another order.
  for (const { name } of nomes) {
    const conteudo = await linhas<unknown>(t.db, sql`select * from ${sql.identifier(name)}`);
    tabelas[name] = conteudo.map((l) => JSON.stringify(l)).sort();
  }
  const pasta = path.join(t.dataDir, 'uploads');
  const uploads = fs.existsSync(pasta) ? fs.readdirSync(pasta).sort() : [];
  return { tabelas, uploads };
}

/**
 * A refusal as any client (or attacker) sees it: a 4xx, JSON, a body that is exactly
 * `{ error, codigo }` with a known code and a pt-BR sentence, and nothing of the server's insides.
 */
export function esperarCorpoDeErro(r: LightMyRequestResponse, codigo?: string): void {
  expect(r.statusCode, r.body).toBeGreaterThanOrEqual(400);
  expect(r.statusCode, r.body).toBeLessThan(500);
  expect(r.headers['content-type'], r.body).toMatch(/^application\/json/);
  const corpo = r.json() as Record<string, unknown>;
  expect(Object.keys(corpo).sort(), r.body).toEqual(['codigo', 'error']);
  expect(CODIGOS_ERRO, r.body).toContain(corpo.codigo);
  if (codigo) expect(corpo.codigo, r.body).toBe(codigo);
  expect(typeof corpo.error).toBe('string');
  // A sentence for people, in Portuguese: never a framework's English text or a stack.
  expect(corpo.error as string).toMatch(/\.$/);
  // Nor a database's message (SQLite's codes; PostgreSQL's sentences).
  expect(r.body).not.toMatch(/FST_|Error:|at \/|node_modules|SQLITE|violates|duplicate key|syntax error|relation "|Authorization token|Bearer \[token\]/);
}

/** A build of the PWA in miniature: the shell, a hashed asset, the service worker, an icon. */
export function criarPastaClienteFalsa(): { pasta: string; arquivos: string[]; remover(): void } {
  const pasta = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-cliente-'));
  const arquivos: Record<string, string> = {
    'index.html': '<!doctype html><html lang="pt-BR"><head><script type="module" src="/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>',
    'assets/index-abc123.js': 'console.log("app");',
    'sw.js': 'self.addEventListener("install", () => {});',
    'favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>',
    'manifest.webmanifest': '{"name":"Sistema de Gestão"}',
  };
  for (const [nome, conteudo] of Object.entries(arquivos)) {
    fs.mkdirSync(path.dirname(path.join(pasta, nome)), { recursive: true });
    fs.writeFileSync(path.join(pasta, nome), conteudo);
  }
  return { pasta, arquivos: Object.keys(arquivos).map((n) => `/${n}`), remover: () => fs.rmSync(pasta, { recursive: true, force: true }) };
}

export const b64url = (valor: object | string) => Buffer.from(typeof valor === 'string' ? valor : JSON.stringify(valor)).toString('base64url');
export const agoraEmSegundos = () => Math.floor(Date.now() / 1000);

/**
 * A compact JWT built by hand (the server's own signer is not trusted): header and payload as
 * given, signed with HMAC over `hash` (sha256 for HS256) with `segredo`.
 */
export function jwtFeitoAMao(cabecalho: object, payload: object, segredo: string, hash: 'sha256' | 'sha384' | 'sha512' = 'sha256'): string {
  const corpo = `${b64url(cabecalho)}.${b64url(payload)}`;
  return `${corpo}.${createHmac(hash, segredo).update(corpo).digest('base64url')}`;
}
