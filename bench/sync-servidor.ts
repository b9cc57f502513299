/**
 * The app for the sync benchmark, in its own process, up for the whole run (every round of every
 * size, as a server in production): a temporary database with one employee and an active route of
 * 100 cities over the last 800 days (room for 80,000 distinct closings: the warm-up's and every
 * round's, each round on days no other one uses). Prints one JSON line with what the client side
 * needs, then serves until killed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { hoje, somarDias } from '../shared/dates';
import { normalizarBusca } from '../shared/texto';
import { criarApp } from '../server/src/app';
import { UFS } from '../server/src/cidades/ufs';
import { gravarEstadosECidades } from '../server/src/cidades/repositorio';
import { carregarConfig } from '../server/src/config';
import { abrirBanco } from '../server/src/db';
import { recursosDoProjeto } from '../server/src/recursos';
import { garantirPrimeiroAdmin } from '../server/src/usuarios/primeiro-admin';
import { servirCpu } from './cpu-do-processo';

export const CIDADES_DA_ROTA = 100;
export const DIAS_DA_ROTA = 800;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-bench-sync-'));
const config = carregarConfig({
  DATA_DIR: dataDir,
  ADMIN_EMAIL: 'admin@bench.com.br',
  ADMIN_PASSWORD: 'admin12345',
  JWT_SECRET: 'segredo-do-benchmark-com-mais-de-32-caracteres',
  LOG_LEVEL: 'silent',
  LOGIN_RATE_LIMIT: '10000',
});
const arquivo = path.join(dataDir, 'app.db');
const db = abrirBanco({ arquivo, pastaMigracoes: recursosDoProjeto().pastaMigracoes });
gravarEstadosECidades(db, UFS, []);
const sqlite = db.$client;
const inserirCidade = sqlite.prepare('insert into cidades (id, nome, nome_busca, uf) values (?, ?, ?, ?)');
const cidades = Array.from({ length: CIDADES_DA_ROTA }, (_, i) => 9_100_000 + i);
sqlite.transaction(() => cidades.forEach((id, i) => inserirCidade.run(id, `Cidade Sync ${i}`, normalizarBusca(`Cidade Sync ${i}`), 'GO')))();
await garantirPrimeiroAdmin(db, config, { info() {}, warn() {} });
const app = await criarApp({ config, db, segredoJwt: config.jwtSecret!, pastaCliente: null });
if (process.env.BENCH_TEMPOS) {
  // Where a batch's time goes, phase by phase (BENCH_TEMPOS=1 on stderr).
  const fases = ['onRequest', 'preValidation', 'preHandler', 'preSerialization', 'onSend', 'onResponse'] as const;
  const somas = new Map<string, number>();
  let n = 0;
  const marcas = new WeakMap<object, Record<string, number>>();
  for (const fase of fases) {
    app.addHook(fase as 'onRequest', (request, _reply, ...resto: unknown[]) => {
      if (request.url.endsWith('/lote')) {
        const m = marcas.get(request) ?? {};
        m[fase] = performance.now();
        marcas.set(request, m);
        if (fase === 'onResponse') {
          n += 1;
          for (let i = 1; i < fases.length; i++) somas.set(fases[i]!, (somas.get(fases[i]!) ?? 0) + m[fases[i]!]! - m[fases[i - 1]!]!);
          if (n % 25 === 0) console.error(`[servidor] ${n} lotes, ms por lote até cada fase:`, Object.fromEntries([...somas].map(([k, v]) => [k, (v / n).toFixed(2)])));
        }
      }
      const feito = resto.find((r) => typeof r === 'function') as ((e?: unknown, p?: unknown) => void) | undefined;
      if (fase === 'onSend' || fase === 'preSerialization') feito!(null, resto[0]);
      else feito!();
    });
  }
}
await app.listen({ host: '127.0.0.1', port: 0 });

const chamar = async (method: 'GET' | 'POST', url: string, token: string, payload?: object) => {
  const r = await app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });
  if (r.statusCode >= 300) throw new Error(`${url}: ${r.statusCode} ${r.body}`);
  return r.json();
};
const login = async (email: string, senha: string) => (await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, senha } })).json().token as string;
const admin = await login('admin@bench.com.br', 'admin12345');
const { usuario } = await chamar('POST', '/api/usuarios', admin, { nome: 'Vendedora Sync', email: 'sync@escola.com.br', senha: 'sync12345', tipo: 'funcionario' });
const dia = hoje(config.appTz);
const { rota } = await chamar('POST', '/api/rotas', admin, {
  nome: 'Rota do Benchmark',
  funcionario_id: usuario.id,
  tem_secretario: false,
  valor_aluguel: 0,
  data_inicio: somarDias(dia, -DIAS_DA_ROTA),
  data_fim: dia,
  observacoes: '',
  cidades,
});
console.log(
  JSON.stringify({ pronto: true, porta: (app.server.address() as { port: number }).port, portaCpu: await servirCpu(), arquivo, token: await login('sync@escola.com.br', 'sync12345'), funcionarioId: usuario.id, rotaId: rota.id, cidades, dia }),
);

const encerrar = async () => {
  await app.close();
  sqlite.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGTERM', () => void encerrar());
