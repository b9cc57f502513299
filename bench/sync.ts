/**
 * Sync throughput: one phone replaying a backlog of queued sales, sequentially, as the app does.
 * - the app: POST /api/sync/lote in the app's batches (200 writes), authenticated, validated,
 *   deduplicated, each operation recorded in the operation log with its effect — the same code the
 *   single endpoints run;
 * - the limit: the same records POSTed in batches of 50 to a bare Fastify route that only inserts;
 * - the peer: PouchDB on the "phone" replicating the same records to express-pouchdb.
 * Each figure is the median of a few runs, each on a fresh database, after a warm-up of AQUECIMENTO
 * other records on each side (a server in production is warm; a fresh process measures the JIT instead). Targets: at least 70% of the
 * limit's rows per second and at least 5x the peer's, with the operation log in place.
 */
import Database from 'better-sqlite3';
import PouchDB from 'pouchdb-core';
import http from 'pouchdb-adapter-http';
import memoria from 'pouchdb-adapter-memory';
import replicacao from 'pouchdb-replication';
import { v7 as uuidv7 } from 'uuid';
import { somarDias } from '../shared/dates';
import { reaisParaCentavos } from '../shared/money';
import { LIMITES_LOTE } from '../client/src/offline/transporte';
import type { DadosVendaFila } from '../client/src/vendas/fila';
import { iniciarFilho } from './processo';

const BancoCelular = PouchDB.plugin(memoria).plugin(http).plugin(replicacao);

export interface MedidaSync {
  vendas: number;
  app: { porSegundo: number; ms: number; lotes: number; reenvioMs: number };
  limite: { porSegundo: number; ms: number; lotes: number };
  par: { porSegundo: number; ms: number };
  razaoLimite: number;
  razaoPar: number;
  passou: boolean;
}

interface InfoApp {
  porta: number;
  arquivo: string;
  token: string;
  rotaId: number;
  cidades: number[];
  dia: string;
}

/** A queued sale as the phone sends it (what the app's outbox stores, without the names it shows). */
type Venda = Omit<DadosVendaFila, 'cidade_nome' | 'cidade_uf'>;

/** `quantas` closings on distinct (city, date) pairs of the route, as the sales screen queues them. */
function vendasDoCelular(info: Pick<InfoApp, 'rotaId' | 'cidades' | 'dia'>, quantas: number, diasAntes = 0): Venda[] {
  let s = 42;
  const sorte = () => ((s = (s * 1664525 + 1013904223) >>> 0), s / 2 ** 32);
  return Array.from({ length: quantas }, (_, i) => {
    const data = somarDias(info.dia, -(1 + diasAntes + Math.floor(i / info.cidades.length)));
    return {
      id: uuidv7(),
      rota_id: info.rotaId,
      cidade_id: info.cidades[i % info.cidades.length]!,
      data_venda: data,
      valor_dinheiro: Math.round(sorte() * 50_000) / 100,
      valor_pix: Math.round(sorte() * 80_000) / 100,
      valor_cartao: Math.round(sorte() * 60_000) / 100,
      valor_link: 0,
      valor_boletos: Math.floor(sorte() * 4),
      observacoes: i % 10 === 0 ? 'Feira na praça' : '',
      registrado_em: `${data}T20:00:00.000Z`,
    };
  });
}

function emLotes<T>(itens: T[], tamanho: number): T[][] {
  const lotes: T[][] = [];
  for (let i = 0; i < itens.length; i += tamanho) lotes.push(itens.slice(i, i + tamanho));
  return lotes;
}

async function postar(url: string, corpo: unknown, token?: string) {
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(corpo),
  });
  if (!r.ok) throw new Error(`${url}: ${r.status} ${await r.text()}`);
  return r.json() as Promise<unknown>;
}

/**
 * A pause before each timed window, the same for every side: after the warm-up, V8 is still compiling
 * the hot functions on its background threads, and on 2 cores those threads take turns with the
 * server and the phone. A 1,000-sale run lasts ~50 ms, so whether that lands inside it decided ~10%.
 */
const assentar = () => new Promise((resolve) => setTimeout(resolve, 300));

/**
 * Records sent before measuring, on dates the measured ones never use (they take the last 100 days).
 * 2,000: a few days of a team's writes, what a server that has been up since its last deploy has seen.
 * With 400 the app's path (validation, rules, two tables) was still being compiled while measured:
 * its CPU per sale was ~1.6x the warm figure, while the bare limit warms up in a few dozen rows.
 */
export const AQUECIMENTO = 2_000;
const DIAS_DO_AQUECIMENTO = 100;

const contar = (arquivo: string, sql: string) => {
  const db = new Database(arquivo, { readonly: true });
  try {
    return (db.prepare(sql).pluck().get() as number) ?? 0;
  } finally {
    db.close();
  }
};

export async function medirApp(quantas: number) {
  const servidor = await iniciarFilho<InfoApp>('sync-servidor.ts');
  try {
    const info = servidor.info;
    // As the phone's engine sends them: { id, tipo, seq, dados }, the amounts converted to centavos once.
    let seq = 0;
    const operacoes = (vendas: Venda[]) =>
      emLotes(
        vendas.map((v) => ({
          id: `op-${v.id}`,
          tipo: 'venda.salvar',
          seq: ++seq,
          dados: {
            ...v,
            valor_dinheiro: reaisParaCentavos(v.valor_dinheiro),
            valor_pix: reaisParaCentavos(v.valor_pix),
            valor_cartao: reaisParaCentavos(v.valor_cartao),
            valor_link: reaisParaCentavos(v.valor_link),
            versao_base: null,
          },
        })),
        LIMITES_LOTE.escritas,
      );
    const CLIENTE = 'bench-celular';
    const url = `http://127.0.0.1:${info.porta}/api/sync/lote`;
    for (const lote of operacoes(vendasDoCelular(info, AQUECIMENTO, DIAS_DO_AQUECIMENTO))) await postar(url, { cliente_id: CLIENTE, operacoes: lote }, info.token);
    const lotes = operacoes(vendasDoCelular(info, quantas));
    await assentar();
    const enviar = async () => {
      const inicio = performance.now();
      for (const operacoes of lotes) {
        const { resultados } = (await postar(url, { cliente_id: CLIENTE, operacoes }, info.token)) as { resultados: { status: unknown }[] };
        const falhas = resultados.filter((r) => r.status !== 201 && r.status !== 200);
        if (falhas.length > 0) throw new Error(`lote recusado: ${JSON.stringify(falhas[0])}`);
      }
      return performance.now() - inicio;
    };
    const ms = await enviar();
    // The phone never heard back and sends it all again: nothing may be written twice.
    const reenvioMs = await enviar();
    const gravadas = contar(info.arquivo, 'select count(*) from vendas');
    if (gravadas !== quantas + AQUECIMENTO) throw new Error(`o app gravou ${gravadas} vendas de ${quantas}`);
    const registradas = contar(info.arquivo, 'select count(*) from operacoes_aplicadas');
    if (registradas !== quantas + AQUECIMENTO) throw new Error(`o registro de operações tem ${registradas} de ${quantas}`);
    return { ms, reenvioMs, lotes: lotes.length };
  } finally {
    await servidor.parar();
  }
}

export async function medirLimite(quantas: number) {
  const servidor = await iniciarFilho<{ porta: number; arquivo: string }>('sync-limite.ts');
  try {
    const celular = { rotaId: 1, cidades: Array.from({ length: 50 }, (_, i) => i + 1), dia: '2026-11-20' };
    for (const lote of emLotes(vendasDoCelular(celular, AQUECIMENTO, DIAS_DO_AQUECIMENTO), 50)) await postar(`http://127.0.0.1:${servidor.info.porta}/vendas-lote`, lote);
    const lotes = emLotes(vendasDoCelular(celular, quantas), 50);
    await assentar();
    const inicio = performance.now();
    for (const lote of lotes) await postar(`http://127.0.0.1:${servidor.info.porta}/vendas-lote`, lote);
    const ms = performance.now() - inicio;
    const gravadas = contar(servidor.info.arquivo, 'select count(*) from vendas');
    if (gravadas !== quantas + AQUECIMENTO) throw new Error(`o limite gravou ${gravadas} de ${quantas}`);
    return { ms, lotes: lotes.length };
  } finally {
    await servidor.parar();
  }
}

let bancosPar = 0;
async function medirPar(quantas: number) {
  const servidor = await iniciarFilho<{ porta: number }>('sync-couch.ts');
  const nome = `vendas${++bancosPar}`;
  const celular = new BancoCelular(`celular-${nome}`, { adapter: 'memory' });
  const remoto = new BancoCelular(`http://127.0.0.1:${servidor.info.porta}/${nome}`);
  try {
    const celularInfo = { rotaId: 1, cidades: Array.from({ length: 50 }, (_, i) => i + 1), dia: '2026-11-20' };
    const aquecimento = new BancoCelular(`aquecimento-${nome}`, { adapter: 'memory' });
    await aquecimento.bulkDocs(vendasDoCelular(celularInfo, AQUECIMENTO, DIAS_DO_AQUECIMENTO).map(({ id, ...v }) => ({ _id: id, ...v })));
    await aquecimento.replicate.to(new BancoCelular(`http://127.0.0.1:${servidor.info.porta}/aquecimento-${nome}`));
    await aquecimento.destroy();
    const vendas = vendasDoCelular(celularInfo, quantas);
    // The phone's queue: written before the signal comes back (not timed).
    for (const lote of emLotes(vendas, 500)) await celular.bulkDocs(lote.map(({ id, ...v }) => ({ _id: id, ...v })));
    await assentar();
    const inicio = performance.now();
    await celular.replicate.to(remoto);
    const ms = performance.now() - inicio;
    const { doc_count } = await remoto.info();
    if (doc_count !== quantas) throw new Error(`o par recebeu ${doc_count} de ${quantas}`);
    return { ms };
  } finally {
    await celular.destroy();
    await servidor.parar();
  }
}

const mediana = (valores: number[]) => [...valores].sort((a, b) => a - b)[Math.floor(valores.length / 2)]!;

export async function medirSync(quantidades = [1_000, 5_000], repeticoes = 3): Promise<MedidaSync[]> {
  const medidas: MedidaSync[] = [];
  for (const quantas of quantidades) {
    const app: Awaited<ReturnType<typeof medirApp>>[] = [];
    const limite: Awaited<ReturnType<typeof medirLimite>>[] = [];
    const par: Awaited<ReturnType<typeof medirPar>>[] = [];
    // Interleaved, so a slow moment of the machine does not land on one side only.
    for (let i = 0; i < repeticoes; i++) {
      app.push(await medirApp(quantas));
      limite.push(await medirLimite(quantas));
      par.push(await medirPar(quantas));
    }
    const msApp = mediana(app.map((m) => m.ms));
    const msLimite = mediana(limite.map((m) => m.ms));
    const msPar = mediana(par.map((m) => m.ms));
    const porSegundo = (ms: number) => (quantas * 1000) / ms;
    const medida: MedidaSync = {
      vendas: quantas,
      app: { porSegundo: porSegundo(msApp), ms: msApp, lotes: app[0]!.lotes, reenvioMs: mediana(app.map((m) => m.reenvioMs)) },
      limite: { porSegundo: porSegundo(msLimite), ms: msLimite, lotes: limite[0]!.lotes },
      par: { porSegundo: porSegundo(msPar), ms: msPar },
      razaoLimite: msLimite / msApp,
      razaoPar: msPar / msApp,
      passou: msLimite / msApp >= 0.7 && msPar / msApp >= 5,
    };
    medidas.push(medida);
    console.log(
      `  ${quantas} vendas: app ${Math.round(medida.app.porSegundo)}/s (${medida.app.lotes} lotes, reenvio ${Math.round(medida.app.reenvioMs)} ms), ` +
        `limite ${Math.round(medida.limite.porSegundo)}/s, PouchDB ${Math.round(medida.par.porSegundo)}/s — ` +
        `${(medida.razaoLimite * 100).toFixed(0)}% do limite, ${medida.razaoPar.toFixed(1)}x o PouchDB`,
    );
  }
  return medidas;
}

if (process.argv[1]?.endsWith('/sync.ts')) await medirSync(process.argv.includes('--rapido') ? [1_000] : undefined, process.argv.includes('--rapido') ? 1 : 3);
