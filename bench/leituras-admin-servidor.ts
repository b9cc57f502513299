/**
 * The server of bench/leituras-admin.ts, in its own process: the app on a temporary database with a
 * year of data times BENCH_ESCALA (the same seed every run), plus a bare Fastify on the same process
 * and the same SQLite file, for the baseline and the bench's probes:
 * - GET /base: a precomputed small JSON (the first page of sales read from this database at start);
 * - POST /invalidar: one trivial write (the read cache's next answer is computed afresh);
 * - GET /atraso: the largest event-loop delay (perf_hooks monitorEventLoopDelay) since the last call, in ms.
 * Run from the project's bench/ folder, or from the same folder of an older checkout (the 'antes' server).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import Fastify from 'fastify';
import { criarApp } from '../server/src/app';
import { carregarConfig } from '../server/src/config';
import { abrirBanco } from '../server/src/db';
import { recursosDoProjeto } from '../server/src/recursos';
import { UFS } from '../server/src/cidades/ufs';
import { gravarEstadosECidades } from '../server/src/cidades/repositorio';
import { garantirPrimeiroAdmin } from '../server/src/usuarios/primeiro-admin';
import { gerarAnoDeDados, PADRAO } from './dados';

const escala = Math.max(1, Math.round(Number(process.env.BENCH_ESCALA ?? '1')));
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-bench-admin-'));
const config = carregarConfig({
  DATA_DIR: dataDir,
  ADMIN_EMAIL: 'admin@bench.com.br',
  ADMIN_PASSWORD: 'admin12345',
  JWT_SECRET: 'segredo-do-benchmark-com-mais-de-32-caracteres',
  LOG_LEVEL: 'silent',
  LOGIN_RATE_LIMIT: '10000',
  // One admin at thousands of requests a second: the per-user limit and line (issue 18) out of reach.
  LIMITE_REQUISICOES_POR_MINUTO: '100000',
  REQUISICOES_SIMULTANEAS_POR_USUARIO: '1000',
});
const db = abrirBanco({ arquivo: path.join(dataDir, 'app.db'), pastaMigracoes: recursosDoProjeto().pastaMigracoes });
gravarEstadosECidades(db, UFS, []);
await garantirPrimeiroAdmin(db, config, { info() {}, warn() {} });
// 5x: five times the employees (and so the routes, sales and expenses) over the same year.
const dados = await gerarAnoDeDados(db, { ...PADRAO, funcionarios: PADRAO.funcionarios * escala });
// BENCH_PASTA_EMPACOTADA: the export worker as the server ships it (build/trabalhador-exportacao.cjs beside
// server.cjs), not the TypeScript source through tsx: recursos.ts looks beside the entry script.
if (process.env.BENCH_PASTA_EMPACOTADA) process.argv[1] = path.resolve(process.env.BENCH_PASTA_EMPACOTADA, 'server.cjs');
// Cached reads of one admin at 10 connections pass 100,000 a minute (the setting's maximum): out of reach.
const app = await criarApp({ config: { ...config, limiteRequisicoesPorMinuto: 1_000_000_000 }, db, segredoJwt: config.jwtSecret!, pastaCliente: null });
await app.listen({ host: '127.0.0.1', port: 0 });
const { port } = app.server.address() as { port: number };
const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'admin@bench.com.br', senha: 'admin12345' } });
const tokenAdmin = login.json().token as string;

const atraso = monitorEventLoopDelay({ resolution: 5 });
atraso.enable();
const base = JSON.stringify({ vendas: db.$client.prepare('select * from vendas order by data_venda desc limit 10').all() });
const sonda = Fastify();
sonda.get('/base', (_request, reply) => reply.type('application/json; charset=utf-8').send(base));
const escrever = db.$client.prepare("update usuarios set nome = nome where email = 'admin@bench.com.br'");
sonda.post('/invalidar', async () => {
  escrever.run();
  return { ok: true };
});
sonda.get('/atraso', async () => {
  const maximo = atraso.max / 1e6;
  atraso.reset();
  return { maximoMs: maximo };
});
await sonda.listen({ host: '127.0.0.1', port: 0 });
const portaSonda = (sonda.server.address() as { port: number }).port;

console.log(JSON.stringify({ pronto: true, porta: port, portaSonda, tokenAdmin, vendas: dados.vendas, despesas: dados.despesas, escala }));

const encerrar = async () => {
  await sonda.close();
  await app.close();
  db.$client.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGTERM', () => void encerrar());
process.on('SIGINT', () => void encerrar());
