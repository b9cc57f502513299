/**
 * DATABASE_URL before the data functions are ported (issue 21): the configuration accepts it, and the
 * server refuses to start with it, saying why, instead of writing to SQLite when PostgreSQL was asked for.
 * The entry runs as a child process, as an operator would start it.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { carregarConfig } from '../config';
import { ErroMotorIndisponivel, exigirMotorDisponivel, MENSAGEM_POSTGRES_EM_CONSTRUCAO } from './motor';

const executar = promisify(execFile);
const MAIN = path.join(process.cwd(), 'server', 'src', 'main.ts');
const TSX = path.join(process.cwd(), 'node_modules', '.bin', 'tsx');

const pastas: string[] = [];
afterAll(() => {
  for (const p of pastas) fs.rmSync(p, { recursive: true, force: true });
});

describe('DATABASE_URL enquanto as funções de dados só rodam no SQLite', () => {
  it('sem DATABASE_URL, SQLite: nada a recusar', () => {
    expect(() => exigirMotorDisponivel(carregarConfig({}))).not.toThrow();
  });

  it('com DATABASE_URL, a configuração aceita e a partida recusa com a mensagem', () => {
    const config = carregarConfig({ DATABASE_URL: 'postgresql://app@127.0.0.1:5432/gestao' });
    expect(() => exigirMotorDisponivel(config)).toThrow(ErroMotorIndisponivel);
    expect(() => exigirMotorDisponivel(config)).toThrow(MENSAGEM_POSTGRES_EM_CONSTRUCAO);
  });

  it('o servidor (npm start / executável) não inicia: sai com 1, diz por quê, e não cria o banco SQLite', async () => {
    const raiz = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-motor-'));
    pastas.push(raiz);
    const dados = path.join(raiz, 'dados');
    // Port 1 on loopback: nothing listens there, so a server that tried to connect would fail differently.
    const env = { ...process.env, DATA_DIR: dados, LOG_LEVEL: 'silent', PORT: '0', DATABASE_URL: 'postgres://app:segredo@127.0.0.1:1/gestao' };
    const erro = await executar(TSX, [MAIN, 'serve'], { env, timeout: 60_000 }).then(
      () => null,
      (e: { code: number; stderr: string }) => e,
    );
    expect(erro).not.toBeNull();
    expect(erro!.code).toBe(1);
    expect(erro!.stderr).toContain(MENSAGEM_POSTGRES_EM_CONSTRUCAO);
    expect(erro!.stderr).not.toContain('segredo');
    expect(fs.existsSync(dados)).toBe(false);
  }, 90_000);
});
