/**
 * The workers of the bundled server: `scripts/build-server.mjs` writes them beside
 * build/server.cjs, the bundle finds them (recursos.ts): an export is drawn in its worker, over HTTP,
 * and the WAL checkpoint runs in its own.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portaLivre } from '../../../e2e/suporte/servidor';
import { TRABALHADORES } from '../recursos';

const ADMIN = { email: 'operador@escola.com.br', senha: 'operador123' };
const saida = path.join('build', `teste-exportacao-${process.pid}`);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-bundle-'));
let processo: ChildProcess | null = null;
let url = '';
const linhas: string[] = [];

beforeAll(async () => {
  execFileSync(process.execPath, ['scripts/build-server.mjs', '--saida', saida], { stdio: 'pipe' });
  const porta = await portaLivre();
  processo = spawn(process.execPath, [path.join(saida, 'server.cjs'), 'serve'], {
    env: { PATH: process.env.PATH, DATA_DIR: dataDir, PORT: String(porta), HOST: '127.0.0.1', ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.senha, LOG_LEVEL: 'info', JWT_SECRET: 'segredo-de-teste-com-mais-de-32-caracteres' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  url = `http://127.0.0.1:${porta}`;
  await new Promise<void>((pronto, falhou) => {
    let resto = '';
    processo!.stdout!.on('data', (parte: Buffer) => {
      resto += parte.toString();
      const completas = resto.split('\n');
      resto = completas.pop()!;
      linhas.push(...completas);
      if (completas.some((l) => l.includes('Sistema de Gestão em'))) pronto();
    });
    processo!.once('exit', (codigo) => falhou(new Error(`o bundle terminou com código ${codigo}`)));
  });
}, 120_000);

afterAll(async () => {
  if (processo && processo.exitCode === null) {
    const saiu = new Promise((fim) => processo!.once('exit', fim));
    processo.kill('SIGTERM');
    await saiu;
  }
  fs.rmSync(saida, { recursive: true, force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('as threads do servidor empacotado', () => {
  it('o checkpoint do WAL vai ao lado do bundle e roda na sua thread', async () => {
    expect(fs.existsSync(path.join(saida, TRABALHADORES.checkpoint.empacotado))).toBe(true);
    // Logged once the worker has its connection open; the server may have started listening first.
    const ligado = () => linhas.some((l) => l.includes('"msg":"checkpoint do WAL numa thread à parte"'));
    while (!ligado()) await new Promise((chegou) => processo!.stdout!.once('data', chegou));
    expect(linhas.some((l) => l.includes('checkpoint do WAL: a thread parou'))).toBe(false);
  }, 60_000);


  it('o trabalhador vai ao lado do bundle, e o PDF sai dele', async () => {
    expect(fs.existsSync(path.join(saida, TRABALHADORES.exportacao.empacotado))).toBe(true);
    const login = await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
    expect(login.status).toBe(200);
    const { token } = (await login.json()) as { token: string };
    for (const formato of ['pdf', 'excel'] as const) {
      const r = await fetch(`${url}/api/relatorios/rotas/exportar?formato=${formato}`, { headers: { authorization: `Bearer ${token}` } });
      expect(r.status, await r.clone().text()).toBe(200);
      const bytes = Buffer.from(await r.arrayBuffer());
      expect(Number(r.headers.get('content-length'))).toBe(bytes.length);
      // A PDF starts with %PDF-; an .xlsx is a zip (PK).
      expect(bytes.subarray(0, formato === 'pdf' ? 5 : 2).toString()).toBe(formato === 'pdf' ? '%PDF-' : 'PK');
    }
    // The log lines travel through a pipe: wait until both arrived (or the test's own time limit).
    const exportados = () => linhas.filter((l) => l.includes('relatório exportado'));
    while (exportados().length < 2) await new Promise((chegou) => processo!.stdout!.once('data', chegou));
    const registros = linhas.filter((l) => l.includes('relatório exportado')).map((l) => JSON.parse(l) as { emTrabalhador: boolean; formato: string });
    expect(registros.map((r) => [r.formato, r.emTrabalhador])).toEqual([
      ['pdf', true],
      ['excel', true],
    ]);
  }, 60_000);
});
