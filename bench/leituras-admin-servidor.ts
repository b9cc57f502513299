/**
 * The server of bench/leituras-admin.ts, in its own process: the app on a temporary database with a
 * year of data times BENCH_ESCALA (the same seed every run), plus a bare Fastify on the same process
 * and the same SQLite file, for the baseline and the bench's probes:
 * - GET /base: a precomputed small JSON (the first page of sales read from this database at start);
 * - POST /invalidar: one trivial write (the read cache's next answer is computed afresh);
 * - GET /atraso: the largest event-loop delay (perf_hooks monitorEventLoopDelay) since the last call, in ms.
 * Run from the project's bench/ folder, or from the same folder of an older checkout (the 'antes' server).
 */
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import Fastify from 'fastify';
import { ADMIN_DO_BENCH, subirAppDoBench } from './app-do-bench';
import { gerarAnoDeDados, PADRAO } from './dados';

const escala = Math.max(1, Math.round(Number(process.env.BENCH_ESCALA ?? '1')));
let dados = { vendas: 0, despesas: 0 };
const { db, porta, entrar, encerrarAoSinal } = await subirAppDoBench({
  prefixo: 'sg-bench-admin-',
  // One admin at thousands of requests a second: the per-user limit and line out of reach.
  env: { LIMITE_REQUISICOES_POR_MINUTO: '100000', REQUISICOES_SIMULTANEAS_POR_USUARIO: '1000' },
  preparar: async (banco) => {
    // 5x: five times the employees (and so the routes, sales and expenses) over the same year.
    dados = await gerarAnoDeDados(banco, { ...PADRAO, funcionarios: PADRAO.funcionarios * escala });
    // BENCH_PASTA_EMPACOTADA: the export worker as the server ships it (build/trabalhador-exportacao.cjs beside
    // server.cjs), not the TypeScript source through tsx: recursos.ts looks beside the entry script.
    if (process.env.BENCH_PASTA_EMPACOTADA) process.argv[1] = path.resolve(process.env.BENCH_PASTA_EMPACOTADA, 'server.cjs');
  },
  // Cached reads of one admin at 10 connections pass 100,000 a minute (the setting's maximum): out of reach.
  opcoesApp: (config) => ({ config: { ...config, limiteRequisicoesPorMinuto: 1_000_000_000 } }),
});
const tokenAdmin = await entrar(ADMIN_DO_BENCH.email, ADMIN_DO_BENCH.senha);

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

console.log(JSON.stringify({ pronto: true, porta, portaSonda, tokenAdmin, vendas: dados.vendas, despesas: dados.despesas, escala }));
encerrarAoSinal(() => sonda.close());
