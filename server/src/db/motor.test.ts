/**
 * Which engine the configuration picks, and the commands about SQLite's file refusing
 * to run when DATABASE_URL points at PostgreSQL instead of copying the wrong database. The server on a
 * real PostgreSQL is motor.pg.test.ts.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { carregarConfig } from '../config';
import { ErroSoNoSqlite, exigirSqlite, motorDaConfig } from './motor';

const executar = promisify(execFile);
const MAIN = path.join(process.cwd(), 'server', 'src', 'main.ts');
const TSX = path.join(process.cwd(), 'node_modules', '.bin', 'tsx');

const pastas: string[] = [];
afterAll(() => {
  for (const p of pastas) fs.rmSync(p, { recursive: true, force: true });
});

describe('o motor do banco', () => {
  it('sem DATABASE_URL, SQLite; com ela, PostgreSQL', () => {
    expect(motorDaConfig(carregarConfig({}))).toBe('sqlite');
    expect(motorDaConfig(carregarConfig({ DATABASE_URL: 'postgresql://app@127.0.0.1:5432/gestao' }))).toBe('postgres');
  });

  it('os comandos do arquivo SQLite recusam com DATABASE_URL, dizendo o que usar', () => {
    const config = carregarConfig({ DATABASE_URL: 'postgresql://app@127.0.0.1:5432/gestao' });
    expect(() => exigirSqlite(config, 'backup', 'use o pg_dump.')).toThrow(ErroSoNoSqlite);
    expect(() => exigirSqlite(config, 'backup', 'use o pg_dump.')).toThrow(/^backup trabalha com o banco SQLite.*use o pg_dump\.$/);
    expect(() => exigirSqlite(carregarConfig({}), 'backup', 'use o pg_dump.')).not.toThrow();
  });

  it('backup com DATABASE_URL: sai com 1, diz por quê, sem ecoar a senha da URL e sem criar um banco SQLite', async () => {
    const raiz = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-motor-'));
    pastas.push(raiz);
    const dados = path.join(raiz, 'dados');
    const env = { ...process.env, DATA_DIR: dados, LOG_LEVEL: 'silent', DATABASE_URL: 'postgres://app:segredo@127.0.0.1:1/gestao' };
    const erro = await executar(TSX, [MAIN, 'backup', path.join(raiz, 'copia.db')], { env, timeout: 60_000 }).then(
      () => null,
      (e: { code: number; stderr: string }) => e,
    );
    expect(erro).not.toBeNull();
    expect(erro!.code).toBe(1);
    expect(erro!.stderr).toContain('backup trabalha com o banco SQLite em DATA_DIR, e DATABASE_URL aponta para um PostgreSQL');
    expect(erro!.stderr).not.toContain('segredo');
    expect(fs.existsSync(path.join(dados, 'app.db'))).toBe(false);
    expect(fs.existsSync(path.join(raiz, 'copia.db'))).toBe(false);
  }, 90_000);
});
