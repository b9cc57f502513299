/**
 * The app under load, in its own process (the load generator must not share its event loop):
 * a temporary database with a year of data (the same seed every run), listening on loopback. Prints one JSON line with the
 * port, tokens and ids the benchmark needs, then serves until killed.
 */
import { ADMIN_DO_BENCH, subirAppDoBench } from './app-do-bench';
import { gerarAnoDeDados, PADRAO } from './dados';

let dados: Awaited<ReturnType<typeof gerarAnoDeDados>> | null = null;
const { porta, dataDir, entrar, encerrarAoSinal } = await subirAppDoBench({
  prefixo: 'sg-bench-',
  env: {
    // The load generators are one user at thousands of requests a second: the per-user limit is
    // raised out of reach, except where bench/leituras.ts measures it (BENCH_LIMITE_REQUISICOES=600).
    LIMITE_REQUISICOES_POR_MINUTO: process.env.BENCH_LIMITE_REQUISICOES ?? '100000',
    // Likewise the line per user (plugins/vezPorUsuario.ts), except where bench/leituras.ts measures it.
    REQUISICOES_SIMULTANEAS_POR_USUARIO: process.env.BENCH_SIMULTANEAS ?? '1000',
  },
  preparar: async (db) => {
    dados = process.argv.includes('--vazio') ? null : await gerarAnoDeDados(db, PADRAO);
  },
  // --sem-cache: every answer computed afresh, as on a busy day when phones keep writing.
  opcoesApp: () => ({ cacheDeLeituras: !process.argv.includes('--sem-cache') }),
});
const gerados = dados as Awaited<ReturnType<typeof gerarAnoDeDados>> | null;

const tokenAdmin = await entrar(ADMIN_DO_BENCH.email, ADMIN_DO_BENCH.senha);
const tokenFuncionario = gerados ? await entrar(gerados.emails[0]!, gerados.senha) : null;
console.log(
  JSON.stringify({
    pronto: true,
    porta,
    dataDir,
    tokenAdmin,
    tokenFuncionario,
    rotaAtiva: gerados?.rotaDoPrimeiro ?? null,
    vendas: gerados?.vendas ?? 0,
    despesas: gerados?.despesas ?? 0,
    dia: PADRAO.ultimoDia,
  }),
);
encerrarAoSinal();
