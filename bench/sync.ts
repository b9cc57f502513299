/**
 * Sync throughput: one phone replaying a backlog of queued sales, sequentially, as the app does.
 * - the app: POST /api/sync/lote in the app's batches (200 writes), authenticated, validated,
 *   deduplicated, each operation recorded in the operation log with its effect — the same code the
 *   single endpoints run;
 * - the limit (bare replay, sync-limite.ts): the very same request bodies POSTed to a bare Fastify
 *   route that parses them and inserts the same rows into the app's own `vendas` table (made by the
 *   app's migrations) with one prepared statement, one transaction per batch, nothing else; and, for
 *   comparison only, the same into a table with a primary key alone ("mínimo");
 * - the peer: PouchDB on the "phone" replicating the same records to express-pouchdb.
 * The three servers start once and stay up for the whole run (a server in production is warm), each
 * warmed with AQUECIMENTO other records. Then rounds: in each, every side takes the round's sales
 * (on days no other round uses), in an order that rotates from round to round, after the same pause.
 * A round's ratio compares sides measured seconds apart; the figure is the median ratio over the
 * rounds, with its spread (min–max). Targets: at least 70% of the limit's rows per second and at
 * least 5x the peer's, with the operation log in place.
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
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { cpuDe } from './cpu-do-processo';
import { iniciarFilho, type Filho } from './processo';

const BancoCelular = PouchDB.plugin(memoria).plugin(http).plugin(replicacao);


interface InfoApp {
  porta: number;
  portaCpu: number;
  arquivo: string;
  token: string;
  rotaId: number;
  cidades: number[];
  dia: string;
}

/** A queued sale as the phone sends it (what the app's outbox stores, without the names it shows). */
export type Venda = Omit<DadosVendaFila, 'cidade_nome' | 'cidade_uf'>;

/** `quantas` closings on distinct (city, date) pairs of the route, as the sales screen queues them. */
export function vendasDoCelular(info: Pick<InfoApp, 'rotaId' | 'cidades' | 'dia'>, quantas: number, diasAntes = 0): Venda[] {
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

/**
 * A pause before each timed window, the same for every side: V8 may still be compiling hot functions
 * on its background threads, and on 2 cores those take turns with the server and the phone.
 */
const assentar = () => new Promise((resolve) => setTimeout(resolve, 300));

/**
 * Records sent to each side before measuring, on days no round uses. 2,000: a few days of a team's
 * writes, what a server that has been up since its last deploy has seen; with 400 the app's path was
 * still being compiled while measured, while the bare limit warms up in a few dozen rows.
 */
export const AQUECIMENTO = 2_000;

/**
 * Rounds for a size: at least `repeticoes`, more for short runs. A 1,000-sale round's windows last
 * ~25 ms a side, and single rounds' ratios spread from ~35% to ~150%: with 14 rounds the median of
 * one run moved between 60% and 73% for the same server (six runs), so 1,000 sales take 28.
 */
export const rodadasPara = (quantas: number, repeticoes: number) => Math.max(repeticoes, Math.ceil((repeticoes * 4_000) / quantas));

const contar = (arquivo: string, sql: string) => {
  const db = new Database(arquivo, { readonly: true });
  try {
    return (db.prepare(sql).pluck().get() as number) ?? 0;
  } finally {
    db.close();
  }
};

export interface Faixa {
  min: number;
  mediana: number;
  max: number;
}

export interface LadoSync {
  /** Sales per second at the median window. */
  porSegundo: number;
  /** Median window, ms. */
  ms: number;
  /** Each round's window, ms, in round order. */
  msPorRodada: number[];
  /** The server process's CPU time per sale (user + system, µs), median over rounds (not for the peer). */
  cpuUsPorVenda?: number;
  /** Each round's server CPU time, ms. */
  cpuMsPorRodada?: number[];
}

export interface MedidaSync {
  vendas: number;
  rodadas: number;
  app: LadoSync & { lotes: number; reenvioMs: number };
  limite: LadoSync & { lotes: number };
  minimo?: LadoSync;
  par: LadoSync;
  /** Median over rounds of limit ms / app ms (the app's share of the limit's rows per second), and its spread. */
  razaoLimite: number;
  faixaLimite?: Faixa;
  /**
   * All rounds' limit ms / all rounds' app ms: the share over the whole run, each side's stalls counted
   * where they fell. The limit's WAL checkpoint runs inside the COMMIT that crosses 4,000 pages (every
   * ~16 batches): at 1,000 sales it falls in about one round in three, which the median leaves out; the
   * app's runs on a thread of its own. Shown beside the median; the target is read on the median.
   */
  razaoLimiteNoTotal?: number;
  /**
   * Median over rounds of peer ms / limit ms: how many times PouchDB's speed the bare replay itself reaches.
   * The app's two targets meet here: at ~100% of the limit the app can only be as many times PouchDB as this.
   */
  razaoLimitePar?: number;
  razaoMinimo?: number;
  faixaMinimo?: Faixa;
  /** Median over rounds of peer ms / app ms, and its spread. */
  razaoPar: number;
  faixaPar?: Faixa;
  /**
   * Median over rounds of the limit's server CPU time / the app's for the same sales: what the app's
   * path costs the server against the bare replay, which a loaded machine disturbs far less than the
   * wall clock (other processes' turns on the cores count in a window's time, not in its CPU time).
   */
  faixaCpuLimite?: Faixa;
  /** On the wall clock (the measure the targets are set in): limit ≥ 70% and peer ≥ 5x. */
  passou: boolean;
  /** The machine's 1-minute load average before and after this size's rounds (2 cores: above ~2, others were running). */
  carga?: { antes: number; depois: number };
}

const mediana = (valores: number[]) => {
  const o = [...valores].sort((a, b) => a - b);
  const m = Math.floor(o.length / 2);
  return o.length % 2 ? o[m]! : (o[m - 1]! + o[m]!) / 2;
};
const soma = (valores: number[]) => valores.reduce((a, b) => a + b, 0);
const faixa = (valores: number[]): Faixa => ({ min: Math.min(...valores), mediana: mediana(valores), max: Math.max(...valores) });

interface Lados {
  app: Filho<InfoApp>;
  limite: Filho<{ porta: number; portaCpu: number; arquivo: string; arquivoMinimo: string }>;
  par: Filho<{ porta: number }>;
}

/** The batches as the phone's engine sends them: { id, tipo, seq, dados }, amounts in centavos, 200 per batch. */
let seq = 0;
const CLIENTE = 'bench-celular';
/** `cliente`: the phone's id (bench/postgres.ts syncs two phones at once). */
export function corposDosLotes(vendas: Venda[], cliente = CLIENTE): string[] {
  return emLotes(
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
  ).map((operacoes) => JSON.stringify({ cliente_id: cliente, operacoes }));
}

async function postarCorpo(url: string, corpo: string, token?: string) {
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: corpo,
  });
  if (!r.ok) throw new Error(`${url}: ${r.status} ${await r.text()}`);
  return r.json() as Promise<unknown>;
}

/** The app's batches, sequentially, each answer checked: every operation accepted (or, replayed, answered from the log). */
async function enviarAoApp(lados: Lados, corpos: string[], repetidas: boolean) {
  const url = `http://127.0.0.1:${lados.app.info.porta}/api/sync/lote`;
  const cpu = await cpuDe(lados.app.info.portaCpu);
  const inicio = performance.now();
  for (const corpo of corpos) {
    const { resultados } = (await postarCorpo(url, corpo, lados.app.info.token)) as { resultados: { status: unknown; repetida?: boolean }[] };
    const falha = resultados.find((r) => (r.status !== 201 && r.status !== 200) || (repetidas && !r.repetida));
    if (falha) throw new Error(`lote recusado: ${JSON.stringify(falha)}`);
  }
  const ms = performance.now() - inicio;
  return { ms, cpuMs: ((await cpuDe(lados.app.info.portaCpu)) - cpu) / 1000 };
}

async function enviarAoLimite(lados: Lados, rota: '/lote' | '/lote-minimo', corpos: string[]) {
  const url = `http://127.0.0.1:${lados.limite.info.porta}${rota}`;
  const cpu = await cpuDe(lados.limite.info.portaCpu);
  const inicio = performance.now();
  for (const corpo of corpos) await postarCorpo(url, corpo);
  const ms = performance.now() - inicio;
  return { ms, cpuMs: ((await cpuDe(lados.limite.info.portaCpu)) - cpu) / 1000 };
}

let celulares = 0;
/** The phone's PouchDB gets the round's sales (not timed), then replicates them to the peer's one database (timed). */
async function replicarNoPar(lados: Lados, vendas: Venda[], cronometrar: boolean) {
  const celular = new BancoCelular(`celular-${++celulares}`, { adapter: 'memory' });
  try {
    for (const lote of emLotes(vendas, 500)) await celular.bulkDocs(lote.map(({ id, ...v }) => ({ _id: id, ...v })));
    if (cronometrar) await assentar();
    const inicio = performance.now();
    await celular.replicate.to(new BancoCelular(`http://127.0.0.1:${lados.par.info.porta}/vendas`));
    return performance.now() - inicio;
  } finally {
    await celular.destroy();
  }
}

/**
 * BENCH_SYNC_SERVIDOR_DE=<folder>: the app's server from another checkout (an older commit extracted
 * with git archive, with this bench/sync-servidor.ts, bench/app-do-bench.ts and bench/cpu-do-processo.ts copied in and a
 * COMMIT file naming it): the same harness measures the server before a change.
 */
export const PASTA_DO_SERVIDOR = process.env.BENCH_SYNC_SERVIDOR_DE;

async function iniciarLados(): Promise<Lados> {
  const app = await iniciarFilho<InfoApp>('sync-servidor.ts', [], 180_000, PASTA_DO_SERVIDOR ?? process.cwd());
  const limite = await iniciarFilho<Lados['limite']['info']>('sync-limite.ts', [app.info.cidades.join(','), String(app.info.rotaId)]);
  const par = await iniciarFilho<Lados['par']['info']>('sync-couch.ts');
  return { app, limite, par };
}

export async function medirSync(quantidades = [1_000, 5_000], repeticoes = 7): Promise<MedidaSync[]> {
  const lados = await iniciarLados();
  const medidas: MedidaSync[] = [];
  try {
    const info = lados.app.info;
    // Each round's sales on days of their own, counted back from yesterday (one day holds one closing per city).
    let diasUsados = 0;
    const vendasNovas = (quantas: number) => {
      const vendas = vendasDoCelular(info, quantas, diasUsados);
      diasUsados += Math.ceil(quantas / info.cidades.length);
      return vendas;
    };
    const aquecimento = vendasNovas(AQUECIMENTO);
    const corposAquecimento = corposDosLotes(aquecimento);
    await enviarAoApp(lados, corposAquecimento, false);
    await enviarAoApp(lados, corposAquecimento, true);
    await enviarAoLimite(lados, '/lote', corposAquecimento);
    await enviarAoLimite(lados, '/lote-minimo', corposAquecimento);
    await replicarNoPar(lados, aquecimento, false);
    let total = AQUECIMENTO;

    for (const quantas of quantidades) {
      const rodadas = rodadasPara(quantas, repeticoes);
      const ms = { app: [] as number[], reenvio: [] as number[], limite: [] as number[], minimo: [] as number[], par: [] as number[] };
      const cpu = { app: [] as number[], limite: [] as number[], minimo: [] as number[] };
      const anotar = (lado: keyof typeof cpu, medida: { ms: number; cpuMs: number }) => {
        ms[lado].push(medida.ms);
        cpu[lado].push(medida.cpuMs);
      };
      const carga = { antes: os.loadavg()[0]!, depois: 0 };
      for (let r = 0; r < rodadas; r++) {
        const vendas = vendasNovas(quantas);
        const corpos = corposDosLotes(vendas);
        // The app, the limit and the minimum take each batch in turn (the order rotating per batch), so
        // a slow moment of the machine lands on all three alike; the peer replicates the round's sales
        // as one window (replication is one call), before or after them in alternate rounds.
        const janelas = { app: { ms: 0, cpuMs: 0 }, limite: { ms: 0, cpuMs: 0 }, minimo: { ms: 0, cpuMs: 0 } };
        const somar = (janela: { ms: number; cpuMs: number }, medida: { ms: number; cpuMs: number }) => {
          janela.ms += medida.ms;
          janela.cpuMs += medida.cpuMs;
        };
        const porLote = async () => {
          await assentar();
          for (let b = 0; b < corpos.length; b++) {
            const vez = [
              async () => somar(janelas.app, await enviarAoApp(lados, [corpos[b]!], false)),
              async () => somar(janelas.limite, await enviarAoLimite(lados, '/lote', [corpos[b]!])),
              async () => somar(janelas.minimo, await enviarAoLimite(lados, '/lote-minimo', [corpos[b]!])),
            ];
            for (let k = 0; k < vez.length; k++) await vez[(r + b + k) % vez.length]!();
          }
          for (const lado of ['app', 'limite', 'minimo'] as const) anotar(lado, janelas[lado]);
          // The phone never heard back and sends it all again: answered from the operation log, nothing written twice.
          ms.reenvio.push((await enviarAoApp(lados, corpos, true)).ms);
        };
        const doPar = async () => {
          ms.par.push(await replicarNoPar(lados, vendas, true));
        };
        if (r % 2 === 0) {
          await porLote();
          await doPar();
        } else {
          await doPar();
          await porLote();
        }
        total += quantas;
      }
      carga.depois = os.loadavg()[0]!;
      const lado = (msPorRodada: number[], cpuMsPorRodada?: number[]): LadoSync => ({
        porSegundo: (quantas * 1000) / mediana(msPorRodada),
        ms: mediana(msPorRodada),
        msPorRodada,
        ...(cpuMsPorRodada ? { cpuUsPorVenda: (mediana(cpuMsPorRodada) * 1000) / quantas, cpuMsPorRodada } : {}),
      });
      const razoes = (outro: number[]) => faixa(outro.map((m, i) => m / ms.app[i]!));
      const faixaLimite = razoes(ms.limite);
      const faixaMinimo = razoes(ms.minimo);
      const faixaPar = razoes(ms.par);
      const faixaCpuLimite = faixa(cpu.limite.map((c, i) => c / cpu.app[i]!));
      const lotes = Math.ceil(quantas / LIMITES_LOTE.escritas);
      const medida: MedidaSync = {
        vendas: quantas,
        rodadas,
        app: { ...lado(ms.app, cpu.app), lotes, reenvioMs: mediana(ms.reenvio) },
        limite: { ...lado(ms.limite, cpu.limite), lotes },
        minimo: lado(ms.minimo, cpu.minimo),
        par: lado(ms.par),
        razaoLimite: faixaLimite.mediana,
        faixaLimite,
        razaoLimiteNoTotal: soma(ms.limite) / soma(ms.app),
        razaoLimitePar: mediana(ms.par.map((m, i) => m / ms.limite[i]!)),
        razaoMinimo: faixaMinimo.mediana,
        faixaMinimo,
        razaoPar: faixaPar.mediana,
        faixaPar,
        faixaCpuLimite,
        passou: faixaLimite.mediana >= 0.7 && faixaPar.mediana >= 5,
        carga,
      };
      medidas.push(medida);
      const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
      console.log(
        `  ${quantas} vendas, ${rodadas} rodadas: app ${Math.round(medida.app.porSegundo)}/s (reenvio ${Math.round(medida.app.reenvioMs)} ms), ` +
          `limite ${Math.round(medida.limite.porSegundo)}/s, mínimo ${Math.round(medida.minimo!.porSegundo)}/s, PouchDB ${Math.round(medida.par.porSegundo)}/s — ` +
          `${pct(faixaLimite.mediana)} do limite (${pct(faixaLimite.min)}–${pct(faixaLimite.max)}; ${pct(medida.razaoLimiteNoTotal!)} no total), ${pct(faixaMinimo.mediana)} do mínimo, ` +
          `${faixaPar.mediana.toFixed(1)}x o PouchDB (${faixaPar.min.toFixed(1)}–${faixaPar.max.toFixed(1)}; o limite, ${medida.razaoLimitePar!.toFixed(1)}x); ` +
          `CPU do servidor por venda: app ${medida.app.cpuUsPorVenda!.toFixed(1)} µs, limite ${medida.limite.cpuUsPorVenda!.toFixed(1)} µs ` +
          `(${pct(faixaCpuLimite.mediana)}, ${pct(faixaCpuLimite.min)}–${pct(faixaCpuLimite.max)}); carga ${carga.antes.toFixed(1)} → ${carga.depois.toFixed(1)}`,
      );
    }
    // Every side stored every sale once; the app's log holds one entry per operation.
    const conferir = (nome: string, achadas: number) => {
      if (achadas !== total) throw new Error(`${nome}: ${achadas} de ${total}`);
    };
    conferir('vendas do app', contar(info.arquivo, 'select count(*) from vendas'));
    conferir('registro de operações do app', contar(info.arquivo, 'select count(*) from operacoes_aplicadas'));
    conferir('vendas do limite', contar(lados.limite.info.arquivo, 'select count(*) from vendas'));
    conferir('vendas do mínimo', contar(lados.limite.info.arquivoMinimo, 'select count(*) from vendas'));
    const { doc_count } = await new BancoCelular(`http://127.0.0.1:${lados.par.info.porta}/vendas`).info();
    conferir('documentos do PouchDB', doc_count);
  } finally {
    await Promise.all([lados.app.parar(), lados.limite.parar(), lados.par.parar()]);
  }
  return medidas;
}

if (process.argv[1]?.endsWith('/sync.ts')) {
  const rapido = process.argv.includes('--rapido');
  const so = process.argv.find((a) => a.startsWith('--vendas='));
  await medirSync(so ? so.slice('--vendas='.length).split(',').map(Number) : rapido ? [1_000] : undefined, rapido ? 1 : 7);
}

/** One run's figures, kept across runs (bench/index.ts): the page lists the recent ones, before and after a change. */
export interface ExecucaoSync {
  medidoEm: string;
  /** The commit measured ('+': with uncommitted changes to server/ or shared/). */
  commit: string;
  medidas: Pick<MedidaSync, 'vendas' | 'rodadas' | 'razaoLimite' | 'faixaLimite' | 'razaoLimiteNoTotal' | 'razaoPar' | 'faixaPar' | 'faixaCpuLimite' | 'carga' | 'passou'>[];
}

export const EXECUCOES_GUARDADAS = 12;

export function comEstaExecucao(anteriores: ExecucaoSync[] = [], medidas: MedidaSync[], medidoEm: string): ExecucaoSync[] {
  let commit = '?';
  if (PASTA_DO_SERVIDOR) {
    const arquivo = path.join(PASTA_DO_SERVIDOR, 'COMMIT');
    commit = `${fs.existsSync(arquivo) ? fs.readFileSync(arquivo, 'utf8').trim() : '?'} (servidor de ${PASTA_DO_SERVIDOR})`;
  } else try {
    commit = execSync('git rev-parse --short HEAD', { encoding: 'utf8' }).trim();
    if (execSync('git status --porcelain -- server/src shared', { encoding: 'utf8' }).trim() !== '') commit += '+';
  } catch {
    // not a git checkout: the commit stays unknown
  }
  const estas = medidas.map(({ vendas, rodadas, razaoLimite, faixaLimite, razaoLimiteNoTotal, razaoPar, faixaPar, faixaCpuLimite, carga, passou }) => ({
    vendas,
    rodadas,
    razaoLimite,
    faixaLimite,
    razaoLimiteNoTotal,
    razaoPar,
    faixaPar,
    faixaCpuLimite,
    carga,
    passou,
  }));
  return [...anteriores, { medidoEm, commit, medidas: estas }].slice(-EXECUCOES_GUARDADAS);
}
