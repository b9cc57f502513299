/**
 * The data of bench/postgres.ts, once, in a SQLite DATA_DIR (the same file is then served as is by
 * the SQLite process and copied into PostgreSQL by `migrate-to-postgres`, so both engines hold the
 * same rows): bench/dados.ts's year of data for BENCH_PG_FUNCIONARIOS employees, ADMINS admins (the
 * per-user request limit counts each one apart), and BENCH_PG_CELULARES phones (two by default) — as
 * many employees, each with an active route of the sync bench's 100 cities over 800 days
 * (bench/sync-servidor.ts). Prints one JSON line
 * and exits, leaving the folder (the caller removes it).
 */
import { hoje, somarDias } from '../shared/dates';
import { ADMIN_DO_BENCH, subirAppDoBench } from './app-do-bench';
import { gerarAnoDeDados, PADRAO } from './dados';

const ADMINS = 4;
// bench/sync-servidor.ts's route (importing it would start its server): room for 80,000 closings per phone.
const CIDADES_DA_ROTA = 100;
const DIAS_DA_ROTA = 800;
const funcionarios = Math.max(1, Number(process.env.BENCH_PG_FUNCIONARIOS ?? PADRAO.funcionarios));
const quantosCelulares = Math.max(1, Number(process.env.BENCH_PG_CELULARES ?? 2));
const cidades = Array.from({ length: CIDADES_DA_ROTA }, (_, i) => ({ id: 9_100_000 + i, nome: `Cidade Sync ${i}`, uf: 'GO' }));

let dados = { vendas: 0, despesas: 0 };
const { app, db, config, dataDir, entrar, chamar } = await subirAppDoBench({
  prefixo: 'sg-bench-pg-',
  cidades,
  preparar: async (banco) => {
    dados = await gerarAnoDeDados(banco, { ...PADRAO, funcionarios });
  },
});
const admin = await entrar(ADMIN_DO_BENCH.email, ADMIN_DO_BENCH.senha);
const admins = [ADMIN_DO_BENCH];
for (let i = 1; i < ADMINS; i++) {
  const email = `admin${i}@bench.com.br`;
  await chamar('POST', '/api/usuarios', admin, { nome: `Admin Bench ${i}`, email, senha: ADMIN_DO_BENCH.senha, tipo: 'admin' });
  admins.push({ email, senha: ADMIN_DO_BENCH.senha });
}
const dia = hoje(config.appTz);
const celulares = [];
for (let n = 1; n <= quantosCelulares; n++) {
  const email = `celular${n}@escola.com.br`;
  const senha = 'sync12345';
  const { usuario } = await chamar('POST', '/api/usuarios', admin, { nome: `Vendedora Celular ${n}`, email, senha, tipo: 'funcionario' });
  const { rota } = await chamar('POST', '/api/rotas', admin, {
    nome: `Rota do Celular ${n}`,
    funcionario_id: usuario.id,
    tem_secretario: false,
    valor_aluguel: 0,
    data_inicio: somarDias(dia, -DIAS_DA_ROTA),
    data_fim: dia,
    observacoes: '',
    cidades: cidades.map((c) => c.id),
  });
  celulares.push({ email, senha, rotaId: rota.id as number, cidades: cidades.map((c) => c.id), dia });
}
await app.close();
db.$client.close();
console.log(JSON.stringify({ pronto: true, dataDir, admins, celulares, funcionarios, vendas: dados.vendas, despesas: dados.despesas }));
process.exit(0);
