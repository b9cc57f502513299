/**
 * Files at rest are the owner's only: the database, its WAL, receipts,
 * backups and the JWT secret used to come out world-readable (mode 644 under the usual umask 022).
 * The entry runs as a child process here, with this test's umask (022), exactly as an operator
 * would run it; the creation functions are also called directly.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { PASTA_FIXTURE_IBGE } from '../../test/helper';
import { obterSegredoJwt } from '../auth/segredo';
import { fazerCopia, restaurarCopia } from './copia';
import { MODO_ARQUIVO, MODO_PASTA, prepararPastaDeDados } from './permissoes';

const executar = promisify(execFile);
const pastas: string[] = [];
const temporaria = () => {
  const p = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-permissoes-'));
  fs.chmodSync(p, 0o755);
  pastas.push(p);
  return p;
};
afterAll(() => {
  for (const p of pastas) fs.rmSync(p, { recursive: true, force: true });
});

const modo = (caminho: string) => fs.statSync(caminho).mode & 0o777;
/** Nobody but the owner can read, write or enter it. */
const soDoDono = (caminho: string) => expect(modo(caminho) & 0o077, `${caminho}: ${modo(caminho).toString(8)}`).toBe(0);

const MAIN = path.join(process.cwd(), 'server', 'src', 'main.ts');
const TSX = path.join(process.cwd(), 'node_modules', '.bin', 'tsx');

async function rodarEntrada(dataDir: string, ...argumentos: string[]) {
  // The test runs with a permissive umask (a file made without a mode is readable by others): the entry must tighten it.
  const sonda = path.join(temporaria(), 'sonda');
  fs.writeFileSync(sonda, '');
  expect(modo(sonda) & 0o044).not.toBe(0);
  return executar(TSX, [MAIN, ...argumentos], { env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', JWT_SECRET: '' }, timeout: 60_000 });
}

describe('a entrada do servidor (npm start / executável) cria tudo só para o dono', () => {
  it('DATA_DIR, uploads/, app.db e a cópia de segurança nascem 700/600 mesmo com umask 022', async () => {
    const raiz = temporaria();
    const dados = path.join(raiz, 'dados');
    await rodarEntrada(dados, 'cities:import', PASTA_FIXTURE_IBGE);
    soDoDono(dados);
    soDoDono(path.join(dados, 'uploads'));
    for (const nome of fs.readdirSync(dados)) soDoDono(path.join(dados, nome));
    expect(fs.existsSync(path.join(dados, 'app.db'))).toBe(true);

    const copia = path.join(raiz, 'copias', 'app-copia.db');
    await rodarEntrada(dados, 'backup', copia);
    soDoDono(path.dirname(copia));
    soDoDono(copia);
  }, 90_000);
});

describe('funções que criam arquivos, chamadas diretamente', () => {
  it('segredo do JWT: pasta 700 e arquivo 600, também quando substitui um arquivo ruim legível por todos', () => {
    const pasta = path.join(temporaria(), 'novo');
    obterSegredoJwt(pasta, undefined);
    soDoDono(pasta);
    expect(modo(path.join(pasta, 'jwt-secret'))).toBe(MODO_ARQUIVO);

    const outra = temporaria();
    fs.writeFileSync(path.join(outra, 'jwt-secret'), 'curto\n', { mode: 0o644 });
    obterSegredoJwt(outra, undefined);
    expect(modo(path.join(outra, 'jwt-secret'))).toBe(MODO_ARQUIVO);
  });

  it('uma instalação antiga (pasta 755, app.db 644, jwt-secret 644) é apertada na partida', () => {
    const dados = temporaria();
    new Database(path.join(dados, 'app.db')).close();
    fs.chmodSync(path.join(dados, 'app.db'), 0o644);
    fs.writeFileSync(path.join(dados, 'jwt-secret'), 'x'.repeat(40), { mode: 0o644 });
    fs.mkdirSync(path.join(dados, 'uploads'), { mode: 0o755 });
    fs.chmodSync(path.join(dados, 'uploads'), 0o755);
    expect(prepararPastaDeDados(dados)).toEqual([]);
    expect(modo(dados)).toBe(MODO_PASTA);
    expect(modo(path.join(dados, 'uploads'))).toBe(MODO_PASTA);
    expect(modo(path.join(dados, 'app.db'))).toBe(MODO_ARQUIVO);
    expect(modo(path.join(dados, 'jwt-secret'))).toBe(MODO_ARQUIVO);
  });

  it('backup e restauração: a cópia, o banco restaurado e o anterior guardado ficam 600', () => {
    const dados = temporaria();
    const banco = path.join(dados, 'app.db');
    const db = new Database(banco);
    db.exec('create table usuarios (id integer primary key)');
    db.close();
    const copia = path.join(temporaria(), 'sub', 'copia.db');
    fazerCopia(banco, copia);
    soDoDono(path.dirname(copia));
    expect(modo(copia)).toBe(MODO_ARQUIVO);

    fs.chmodSync(copia, 0o644); // a copy brought from elsewhere, readable by all
    const { anterior } = restaurarCopia(banco, copia);
    expect(modo(banco)).toBe(MODO_ARQUIVO);
    expect(anterior).not.toBeNull();
    expect(modo(anterior!)).toBe(MODO_ARQUIVO);
  });
});
