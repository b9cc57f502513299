/**
 * The app for the sync benchmark, in its own process, up for the whole run (every round of every
 * size, as a server in production): a temporary database with one employee and an active route of
 * 100 cities over the last 800 days (room for 80,000 distinct closings: the warm-up's and every
 * round's, each round on days no other one uses). Prints one JSON line with what the client side
 * needs, then serves until killed.
 */
import { hoje, somarDias } from '../shared/dates';
import { normalizarBusca } from '../shared/texto';
import type { App } from '../server/src/tipos';
import { ADMIN_DO_BENCH, subirAppDoBench } from './app-do-bench';
import { servirCpu } from './cpu-do-processo';

export const CIDADES_DA_ROTA = 100;
export const DIAS_DA_ROTA = 800;

const cidades = Array.from({ length: CIDADES_DA_ROTA }, (_, i) => 9_100_000 + i);

/** BENCH_TEMPOS=1: where a batch's time goes, phase by phase (on stderr). */
function medirFases(app: App) {
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

const { config, db, porta, entrar, chamar, encerrarAoSinal } = await subirAppDoBench({
  prefixo: 'sg-bench-sync-',
  // One phone sending ~400 batches a minute (28 rounds of 1,000 sales, 7 of 5,000, each sent twice): over the 600 of a real one.
  env: { LIMITE_REQUISICOES_POR_MINUTO: '100000' },
  preparar: (banco) => {
    const inserirCidade = banco.$client.prepare('insert into cidades (id, nome, nome_busca, uf) values (?, ?, ?, ?)');
    banco.$client.transaction(() => cidades.forEach((id, i) => inserirCidade.run(id, `Cidade Sync ${i}`, normalizarBusca(`Cidade Sync ${i}`), 'GO')))();
  },
  antesDeEscutar: (app) => {
    if (process.env.BENCH_TEMPOS) medirFases(app);
  },
});
const arquivo = db.$client.name;
const admin = await entrar(ADMIN_DO_BENCH.email, ADMIN_DO_BENCH.senha);
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
  JSON.stringify({ pronto: true, porta, portaCpu: await servirCpu(), arquivo, token: await entrar('sync@escola.com.br', 'sync12345'), funcionarioId: usuario.id, rotaId: rota.id, cidades, dia }),
);
encerrarAoSinal();
