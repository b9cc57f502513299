/**
 * The app under load, in its own process (the load generator must not share its event loop):
 * a temporary database with a year of data (the same seed every run), listening on loopback. Prints one JSON line with the
 * port, tokens and ids the benchmark needs, then serves until killed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { criarApp } from '../server/src/app';
import { carregarConfig } from '../server/src/config';
import { abrirBanco } from '../server/src/db';
import { recursosDoProjeto } from '../server/src/recursos';
import { UFS } from '../server/src/cidades/ufs';
import { gravarEstadosECidades } from '../server/src/cidades/repositorio';
import { garantirPrimeiroAdmin } from '../server/src/usuarios/primeiro-admin';
import { gerarAnoDeDados, PADRAO } from './dados';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-bench-'));
const config = carregarConfig({
  DATA_DIR: dataDir,
  ADMIN_EMAIL: 'admin@bench.com.br',
  ADMIN_PASSWORD: 'admin12345',
  JWT_SECRET: 'segredo-do-benchmark-com-mais-de-32-caracteres',
  LOG_LEVEL: 'silent',
  LOGIN_RATE_LIMIT: '10000',
  // The load generators are one user at thousands of requests a second: the per-user limit (issue 18) is
  // raised out of reach, except where bench/leituras.ts measures it (BENCH_LIMITE_REQUISICOES=600).
  LIMITE_REQUISICOES_POR_MINUTO: process.env.BENCH_LIMITE_REQUISICOES ?? '100000',
  // Likewise the line per user (plugins/vezPorUsuario.ts), except where bench/leituras.ts measures it.
  REQUISICOES_SIMULTANEAS_POR_USUARIO: process.env.BENCH_SIMULTANEAS ?? '1000',
});
const db = abrirBanco({ arquivo: path.join(dataDir, 'app.db'), pastaMigracoes: recursosDoProjeto().pastaMigracoes });
gravarEstadosECidades(db, UFS, []);
await garantirPrimeiroAdmin(db, config, { info() {}, warn() {} });
const dados = process.argv.includes('--vazio') ? null : await gerarAnoDeDados(db, PADRAO);
// --sem-cache: every answer computed afresh, as on a busy day when phones keep writing.
const app = await criarApp({ config, db, segredoJwt: config.jwtSecret!, pastaCliente: null, cacheDeLeituras: !process.argv.includes('--sem-cache') });
await app.listen({ host: '127.0.0.1', port: 0 });
const { port } = app.server.address() as { port: number };

async function entrar(email: string, senha: string): Promise<string> {
  const r = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, senha } });
  return r.json().token as string;
}

const tokenAdmin = await entrar('admin@bench.com.br', 'admin12345');
const tokenFuncionario = dados ? await entrar(dados.emails[0]!, dados.senha) : null;
console.log(
  JSON.stringify({
    pronto: true,
    porta: port,
    dataDir,
    tokenAdmin,
    tokenFuncionario,
    rotaAtiva: dados?.rotaDoPrimeiro ?? null,
    vendas: dados?.vendas ?? 0,
    despesas: dados?.despesas ?? 0,
    dia: PADRAO.ultimoDia,
  }),
);

const encerrar = async () => {
  await app.close();
  db.$client.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGTERM', () => void encerrar());
process.on('SIGINT', () => void encerrar());
