/**
 * PostgreSQL with two app processes (what a second process buys), as ratios to SQLite with one process measured
 * in the same run on the same data:
 * - 'sqlite': one `serve` process (server/src/main.ts) on a DATA_DIR holding bench/postgres-dados.ts's
 *   database, behind the bench's proxy with that one upstream;
 * - 'postgres': the same file copied by `migrate-to-postgres` into a throwaway PostgreSQL cluster
 *   (server/test/postgres.ts), two `serve` processes with DATABASE_URL behind the round-robin proxy
 *   (bench/postgres-proxy.ts, the same as server/test/multiprocesso's) — the deployment docs/deploy.md
 *   describes for scale-out.
 * Both get the same requests through the same kind of hop:
 * - the sync replay of bench/sync.ts (the same queued sales, batches of 200 to POST /api/sync/lote),
 *   with two phones syncing at once (two employees, each with its own route), so that on 'postgres'
 *   the round-robin gives both processes work; each round's sales go to both sides, on days of their
 *   own, the side that goes first alternating; sales/s over both phones' window, the ratio
 *   postgres/sqlite per round, median and spread;
 * - the admin's reads of bench/leituras-admin.ts (autocannon, 10 connections, p50/p99), alternating
 *   sides read by read; the admins rotate per request (the per-user request limit, a setting of at
 *   most 100,000 a minute, stays out of reach on both).
 * Every batch answer is checked; a failed one (a 500, a serialization retry the server gives up on)
 * is recorded with its body and sent again, as the phone does, and the report lists it.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import autocannon from 'autocannon';
import pg from 'pg';
import { iniciarPostgres } from '../server/test/postgres';
import { portaLivre } from '../e2e/suporte/servidor';
import { LEITURAS } from './leituras-admin';
import { iniciarFilho, type Filho } from './processo';
import { AQUECIMENTO, corposDosLotes, vendasDoCelular } from './sync';

const executar = promisify(execFile);
const CONEXOES = 10;
const JWT_SECRET = 'segredo-do-benchmark-com-mais-de-32-caracteres';
/** The reads measured: the Vendas screen's default and /despesas?page=1, plus the two screens' pages. */
const LEITURAS_MEDIDAS = LEITURAS;

export interface DadosPreparados {
  dataDir: string;
  admins: { email: string; senha: string }[];
  celulares: { email: string; senha: string; rotaId: number; cidades: number[]; dia: string }[];
  funcionarios: number;
  vendas: number;
  despesas: number;
}

export interface Faixa {
  min: number;
  mediana: number;
  max: number;
}

export interface SyncPostgres {
  /** Sales per phone per round (two phones at once). */
  vendas: number;
  rodadas: number;
  sqliteMsPorRodada: number[];
  postgresMsPorRodada: number[];
  /** Both phones' sales per second at the median window. */
  sqlitePorSegundo: number;
  postgresPorSegundo: number;
  /** Per round: postgres sales/s ÷ sqlite sales/s. */
  razao: Faixa;
  /** Batches each PostgreSQL process answered in these rounds (round-robin). */
  lotesPorProcesso: number[];
  carga: { antes: number; depois: number };
}

export interface LadoLeitura {
  p50: number[];
  p99: number[];
  rps: number[];
  /** Answers other than 2xx, errors and timeouts, over the rounds; `status`: count per status code. */
  erros: number;
  status: Record<string, number>;
}

export interface LeituraPostgres {
  chave: string;
  nome: string;
  caminho: string;
  sqlite: LadoLeitura;
  postgres: LadoLeitura;
  /** Per round: postgres ÷ sqlite. */
  razaoP50: Faixa;
  razaoP99: Faixa;
}

export interface ResultadoPostgres {
  versaoPostgres: string;
  dados: { funcionarios: number; vendas: number; despesas: number };
  aquecimento: number;
  sync: SyncPostgres[];
  /** PostgreSQL's committed and rolled-back transactions over the measured rounds (a serialization retry is a rollback). */
  transacoesSync?: { confirmadas: number; desfeitas: number; vendas: number };
  conexoes: number;
  segundos: number;
  rodadasLeitura: number;
  leituras: LeituraPostgres[];
  /** Requests each PostgreSQL process answered during the reads. */
  leiturasPorProcesso: number[];
  /** PostgreSQL's committed transactions (the read cache's stamp query counts as one) and rows written per table during the reads. */
  transacoesNasLeituras: number;
  escritasNasLeituras: Record<string, number>;
  /** Failed batches and operations (status and body), as received. */
  falhas: string[];
  /** The server processes' log lines at warn or above (the first ones of each process). */
  avisos: string[];
  /** 1-, 5- and 15-minute load averages at the start and the end (2 cores: above ~2, others were running). */
  carga: { inicio: number[]; fim: number[] };
  segundosTotais: number;
}

const mediana = (v: number[]) => {
  const o = [...v].sort((a, b) => a - b);
  const m = Math.floor(o.length / 2);
  return o.length % 2 ? o[m]! : (o[m - 1]! + o[m]!) / 2;
};
const faixa = (v: number[]): Faixa => ({ min: Math.min(...v), mediana: mediana(v), max: Math.max(...v) });
const assentar = () => new Promise((resolve) => setTimeout(resolve, 300));

/** bench/postgres-dados.ts in a child: the SQLite DATA_DIR with the data. */
export async function prepararDados(funcionarios: number, celulares = 2): Promise<DadosPreparados> {
  const { stdout } = await executar(process.execPath, ['--import', 'tsx', path.join('bench', 'postgres-dados.ts')], {
    env: { ...process.env, BENCH_PG_FUNCIONARIOS: String(funcionarios), BENCH_PG_CELULARES: String(celulares) },
    maxBuffer: 64 * 1024 * 1024,
  });
  const linha = stdout.split('\n').find((l) => l.includes('"pronto":true'));
  if (!linha) throw new Error(`postgres-dados.ts não respondeu: ${stdout.slice(-500)}`);
  return JSON.parse(linha) as DadosPreparados;
}

/** The environment of every `serve` and `migrate-to-postgres` here: the proxy trusted, the per-user limits out of reach. */
export const ambiente = (dataDir: string, extra: Record<string, string> = {}): Record<string, string> => ({
  PATH: process.env.PATH ?? '',
  DATA_DIR: dataDir,
  HOST: '127.0.0.1',
  JWT_SECRET,
  LOG_LEVEL: 'warn',
  TRUST_PROXY: 'true',
  LOGIN_RATE_LIMIT: '10000',
  LIMITE_REQUISICOES_POR_MINUTO: '100000',
  REQUISICOES_SIMULTANEAS_POR_USUARIO: '1000',
  ...extra,
});

export interface Processo {
  porta: number;
  processo: ChildProcess;
  avisos: string[];
  parar(): Promise<void>;
}

/** `serve` from the sources, ready when /api/health answers; warn-or-above log lines kept (the first 30). */
export async function iniciarProcesso(nome: string, env: Record<string, string>): Promise<Processo> {
  const porta = await portaLivre();
  const processo = spawn(process.execPath, ['--import', 'tsx', path.join('server', 'src', 'main.ts'), 'serve'], {
    env: { ...env, PORT: String(porta) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const avisos: string[] = [];
  const anotar = (parte: Buffer) => {
    for (const linha of parte.toString().split('\n')) {
      if (linha.trim() && avisos.length < 30) avisos.push(`${nome}: ${linha.slice(0, 600)}`);
    }
  };
  processo.stdout!.on('data', anotar);
  processo.stderr!.on('data', anotar);
  let saiu: number | null | undefined;
  processo.once('exit', (codigo) => (saiu = codigo));
  const limite = Date.now() + 180_000;
  for (;;) {
    if (saiu !== undefined) throw new Error(`${nome} terminou com código ${saiu} antes de responder:\n${avisos.join('\n')}`);
    if (Date.now() > limite) {
      processo.kill('SIGKILL');
      throw new Error(`${nome} não respondeu em 180 s:\n${avisos.join('\n')}`);
    }
    const ok = await fetch(`http://127.0.0.1:${porta}/api/health`).then((r) => r.ok, () => false);
    if (ok) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    porta,
    processo,
    avisos,
    parar: () =>
      new Promise<void>((fim) => {
        if (processo.exitCode !== null || processo.signalCode !== null) return fim();
        processo.once('exit', () => fim());
        processo.kill('SIGTERM');
      }),
  };
}

interface Celular {
  token: string;
  cliente: string;
  info: DadosPreparados['celulares'][number];
}

interface Lado {
  nome: 'sqlite' | 'postgres';
  processos: Processo[];
  proxy: Filho<{ porta: number }>;
  url: string;
  tokensAdmin: string[];
  celulares: Celular[];
}

let enderecos = 0;
export async function entrar(url: string, email: string, senha: string): Promise<string> {
  enderecos += 1;
  const r = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${enderecos % 250}` },
    body: JSON.stringify({ email, senha }),
  });
  if (!r.ok) throw new Error(`login de ${email}: ${r.status} ${await r.text()}`);
  return ((await r.json()) as { token: string }).token;
}

async function iniciarLado(nome: Lado['nome'], dados: DadosPreparados, env: Record<string, string>, quantos: number): Promise<Lado> {
  const processos: Processo[] = [];
  try {
    // Started together, as an operator's two units: the server serializes their start (partida.trava).
    processos.push(...(await Promise.all(Array.from({ length: quantos }, (_, i) => iniciarProcesso(`${nome}#${i}`, env)))));
    const proxy = await iniciarFilho<{ porta: number }>('postgres-proxy.ts', processos.map((p) => String(p.porta)));
    const url = `http://127.0.0.1:${proxy.info.porta}`;
    const tokensAdmin: string[] = [];
    for (const a of dados.admins) tokensAdmin.push(await entrar(url, a.email, a.senha));
    const celulares: Celular[] = [];
    for (const [i, c] of dados.celulares.entries()) celulares.push({ token: await entrar(url, c.email, c.senha), cliente: `bench-celular-${i + 1}`, info: c });
    return { nome, processos, proxy, url, tokensAdmin, celulares };
  } catch (erro) {
    await Promise.all(processos.map((p) => p.parar()));
    throw erro;
  }
}

async function contagemDoProxy(lado: Lado): Promise<number[]> {
  return (await (await fetch(`${lado.url}/__bench/contagem`)).json()) as number[];
}

const falhas: string[] = [];
const TENTATIVAS = 5;

/** One phone's batches in order, as the app sends them; a refused batch or operation is recorded and the batch sent again. */
async function enviarFila(lado: Lado, celular: Celular, corpos: string[]) {
  for (const corpo of corpos) {
    for (let tentativa = 1; ; tentativa++) {
      const r = await fetch(`${lado.url}/api/sync/lote`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${celular.token}` },
        body: corpo,
      });
      const texto = await r.text();
      let recusa: string | null = r.ok ? null : `${lado.nome}: lote ${r.status} ${texto.slice(0, 400)}`;
      if (!recusa) {
        const { resultados } = JSON.parse(texto) as { resultados: { status: unknown }[] };
        const ruim = resultados.filter((o) => o.status !== 200 && o.status !== 201);
        if (ruim.length > 0) recusa = `${lado.nome}: ${ruim.length} operações recusadas no lote, a primeira: ${JSON.stringify(ruim[0]).slice(0, 400)}`;
      }
      if (!recusa) break;
      falhas.push(recusa);
      console.log(`  ${recusa}`);
      if (tentativa >= TENTATIVAS) throw new Error(`${recusa} (${TENTATIVAS} tentativas)`);
    }
  }
}

/** Both phones at once; the window ends when the last one is done. */
async function sincronizar(lado: Lado, filas: string[][]): Promise<number> {
  await assentar();
  const inicio = performance.now();
  await Promise.all(lado.celulares.map((c, i) => enviarFila(lado, c, filas[i]!)));
  return performance.now() - inicio;
}

async function carregar(lado: Lado, caminho: string, segundos: number) {
  let vez = 0;
  const r = await autocannon({
    url: lado.url,
    connections: CONEXOES,
    duration: segundos,
    pipelining: 1,
    headers: { 'accept-encoding': 'gzip, deflate, br' },
    requests: [
      {
        method: 'GET',
        path: caminho,
        setupRequest: (pedido) => ({ ...pedido, headers: { ...pedido.headers, authorization: `Bearer ${lado.tokensAdmin[vez++ % lado.tokensAdmin.length]}` } }),
      },
    ],
  });
  return { p50: r.latency.p50, p99: r.latency.p99, rps: r.requests.average, erros: r.non2xx + r.errors + r.timeouts, status: r.statusCodeStats as Record<string, { count: number }> };
}

async function contarVendas(lados: { sqlite: string; postgres: string }, rotas: number[]) {
  const banco = new Database(lados.sqlite, { readonly: true });
  const sqlite = banco.prepare(`select count(*) from vendas where rota_id in (${rotas.join(',')})`).pluck().get() as number;
  banco.close();
  const cliente = new pg.Client({ connectionString: lados.postgres });
  await cliente.connect();
  const postgres = Number((await cliente.query(`select count(*)::int as n from vendas where rota_id in (${rotas.join(',')})`)).rows[0].n);
  await cliente.end();
  return { sqlite, postgres };
}

/**
 * Rows written per table and transactions committed in PostgreSQL, from its statistics: read across
 * the admin's reads, they say whether a read writes (a write changes the read cache's stamp,
 * pg_current_snapshot(), so every process computes its next answer afresh).
 */
async function estatisticasPg(url: string): Promise<{ transacoes: number; desfeitas: number; escritas: Record<string, number> }> {
  const cliente = new pg.Client({ connectionString: url });
  await cliente.connect();
  try {
    const { rows } = await cliente.query<{ relname: string; n: string }>('select relname, (n_tup_ins + n_tup_upd + n_tup_del)::text as n from pg_stat_user_tables');
    const banco = await cliente.query<{ n: string; r: string }>(
      'select xact_commit::text as n, xact_rollback::text as r from pg_stat_database where datname = current_database()',
    );
    return { transacoes: Number(banco.rows[0]!.n), desfeitas: Number(banco.rows[0]!.r), escritas: Object.fromEntries(rows.map((r) => [r.relname, Number(r.n)])) };
  } finally {
    await cliente.end();
  }
}
/** Backends flush their statistics when idle at most every 10 s (PGSTAT_IDLE_INTERVAL). */
const ESPERA_ESTATISTICAS_MS = 11_000;

export interface OpcoesPostgres {
  funcionarios: number;
  quantidades: number[];
  rodadas: (quantas: number) => number;
  rodadasLeitura: number;
  segundos: number;
}

export async function medirPostgres(o: OpcoesPostgres): Promise<ResultadoPostgres> {
  const inicioTotal = performance.now();
  const carga = { inicio: os.loadavg(), fim: [] as number[] };
  console.log(`  dados: ${o.funcionarios} funcionários (bench/dados.ts), carga ${carga.inicio.map((c) => c.toFixed(1)).join(' ')}`);
  const dados = await prepararDados(o.funcionarios);
  const banco = await iniciarPostgres('sg_bench');
  const dataDirPg = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-bench-pg-dir-'));
  const lados: Lado[] = [];
  try {
    const cliente = new pg.Client({ connectionString: banco.url });
    await cliente.connect();
    const versaoPostgres = String((await cliente.query('show server_version')).rows[0].server_version);
    await cliente.end();
    const t0 = performance.now();
    await executar(process.execPath, ['--import', 'tsx', path.join('server', 'src', 'main.ts'), 'migrate-to-postgres', path.join(dados.dataDir, 'app.db')], {
      env: ambiente(dataDirPg, { DATABASE_URL: banco.url }),
      maxBuffer: 64 * 1024 * 1024,
    });
    console.log(`  ${dados.vendas} vendas e ${dados.despesas} despesas; copiadas ao PostgreSQL ${versaoPostgres} em ${((performance.now() - t0) / 1000).toFixed(0)} s`);

    const sqlite = await iniciarLado('sqlite', dados, ambiente(dados.dataDir), 1);
    lados.push(sqlite);
    const postgres = await iniciarLado('postgres', dados, ambiente(dataDirPg, { DATABASE_URL: banco.url }), 2);
    lados.push(postgres);

    // Each round's sales on days of their own, per phone (one day holds one closing per city of its route).
    let diasUsados = 0;
    const filasNovas = (quantas: number) => {
      const filas = postgres.celulares.map((c) => corposDosLotes(vendasDoCelular(c.info, quantas, diasUsados), c.cliente));
      diasUsados += Math.ceil(quantas / dados.celulares[0]!.cidades.length);
      return filas;
    };
    let total = AQUECIMENTO;
    const aquecimento = filasNovas(AQUECIMENTO);
    for (const lado of lados) await sincronizar(lado, aquecimento);
    // Rolled-back transactions across the rounds: each serialization failure the app retries is one.
    await new Promise((r) => setTimeout(r, ESPERA_ESTATISTICAS_MS));
    const estatisticasSync = await estatisticasPg(banco.url);
    let vendasNasRodadas = 0;

    const sync: SyncPostgres[] = [];
    for (const quantas of o.quantidades) {
      const rodadas = o.rodadas(quantas);
      const ms = { sqlite: [] as number[], postgres: [] as number[] };
      const cargaSync = { antes: os.loadavg()[0]!, depois: 0 };
      const antes = await contagemDoProxy(postgres);
      for (let r = 0; r < rodadas; r++) {
        const filas = filasNovas(quantas);
        for (const lado of r % 2 === 0 ? [sqlite, postgres] : [postgres, sqlite]) ms[lado.nome].push(await sincronizar(lado, filas));
        total += quantas;
        vendasNasRodadas += 2 * quantas;
      }
      cargaSync.depois = os.loadavg()[0]!;
      const depois = await contagemDoProxy(postgres);
      const razao = faixa(ms.postgres.map((p, i) => ms.sqlite[i]! / p));
      const medida: SyncPostgres = {
        vendas: quantas,
        rodadas,
        sqliteMsPorRodada: ms.sqlite,
        postgresMsPorRodada: ms.postgres,
        sqlitePorSegundo: (2 * quantas * 1000) / mediana(ms.sqlite),
        postgresPorSegundo: (2 * quantas * 1000) / mediana(ms.postgres),
        razao,
        lotesPorProcesso: depois.map((d, i) => d - antes[i]!),
        carga: cargaSync,
      };
      sync.push(medida);
      console.log(
        `  sync 2 × ${quantas} vendas, ${rodadas} rodadas: SQLite 1 processo ${Math.round(medida.sqlitePorSegundo)}/s, PostgreSQL 2 processos ${Math.round(medida.postgresPorSegundo)}/s ` +
          `= ${razao.mediana.toFixed(2)}× (${razao.min.toFixed(2)}–${razao.max.toFixed(2)}); lotes por processo ${medida.lotesPorProcesso.join('/')}; carga ${cargaSync.antes.toFixed(1)} → ${cargaSync.depois.toFixed(1)}`,
      );
    }
    // Every sale stored once on each side.
    const contadas = await contarVendas({ sqlite: path.join(dados.dataDir, 'app.db'), postgres: banco.url }, dados.celulares.map((c) => c.rotaId));
    for (const [nome, n] of Object.entries(contadas)) {
      if (n !== 2 * total) throw new Error(`${nome}: ${n} vendas dos celulares, esperadas ${2 * total}`);
    }

    const leituras: LeituraPostgres[] = [];
    await new Promise((r) => setTimeout(r, ESPERA_ESTATISTICAS_MS));
    const estatisticasAntes = await estatisticasPg(banco.url);
    const transacoesSync = {
      confirmadas: estatisticasAntes.transacoes - estatisticasSync.transacoes,
      desfeitas: estatisticasAntes.desfeitas - estatisticasSync.desfeitas,
      vendas: vendasNasRodadas,
    };
    console.log(`  sincronização no PostgreSQL: ${transacoesSync.confirmadas} transações confirmadas e ${transacoesSync.desfeitas} desfeitas para ${vendasNasRodadas} vendas`);
    const antesLeituras = await contagemDoProxy(postgres);
    const porLado = () => ({ p50: [] as number[], p99: [] as number[], rps: [] as number[], erros: 0, status: {} as Record<string, number> });
    const medidas = LEITURAS_MEDIDAS.map((l) => ({ ...l, sqlite: porLado(), postgres: porLado() }));
    for (let r = 0; r < o.rodadasLeitura; r++) {
      for (const [i, l] of medidas.entries()) {
        for (const lado of (r + i) % 2 === 0 ? [sqlite, postgres] : [postgres, sqlite]) {
          await carregar(lado, l.caminho, 1); // warm-up (JIT, each process's read cache)
          const c = await carregar(lado, l.caminho, o.segundos);
          const alvo = l[lado.nome];
          alvo.p50.push(c.p50);
          alvo.p99.push(c.p99);
          alvo.rps.push(c.rps);
          alvo.erros += c.erros;
          for (const [codigo, { count }] of Object.entries(c.status)) alvo.status[codigo] = (alvo.status[codigo] ?? 0) + count;
        }
        const s = l.sqlite;
        const p = l.postgres;
        console.log(
          `  ${l.chave}, rodada ${r + 1}: SQLite p50 ${s.p50.at(-1)} p99 ${s.p99.at(-1)} ms (${Math.round(s.rps.at(-1)!)}/s), ` +
            `PostgreSQL p50 ${p.p50.at(-1)} p99 ${p.p99.at(-1)} ms (${Math.round(p.rps.at(-1)!)}/s)${s.erros + p.erros ? `; erros ${JSON.stringify({ sqlite: s.status, postgres: p.status })}` : ''}`,
        );
      }
    }
    const depoisLeituras = await contagemDoProxy(postgres);
    await new Promise((r) => setTimeout(r, ESPERA_ESTATISTICAS_MS));
    const estatisticasDepois = await estatisticasPg(banco.url);
    const escritasNasLeituras = Object.fromEntries(
      Object.entries(estatisticasDepois.escritas)
        .map(([tabela, n]) => [tabela, n - (estatisticasAntes.escritas[tabela] ?? 0)] as const)
        .filter(([, n]) => n > 0),
    );
    const transacoesNasLeituras = estatisticasDepois.transacoes - estatisticasAntes.transacoes;
    console.log(`  durante as leituras: ${transacoesNasLeituras} transações no PostgreSQL, linhas escritas por tabela ${JSON.stringify(escritasNasLeituras)}`);
    for (const l of medidas) {
      leituras.push({
        chave: l.chave,
        nome: l.nome,
        caminho: l.caminho,
        sqlite: l.sqlite,
        postgres: l.postgres,
        razaoP50: faixa(l.postgres.p50.map((p, i) => p / Math.max(1, l.sqlite.p50[i]!))),
        razaoP99: faixa(l.postgres.p99.map((p, i) => p / Math.max(1, l.sqlite.p99[i]!))),
      });
    }
    carga.fim = os.loadavg();
    return {
      versaoPostgres,
      dados: { funcionarios: dados.funcionarios, vendas: dados.vendas, despesas: dados.despesas },
      aquecimento: AQUECIMENTO,
      sync,
      transacoesSync,
      conexoes: CONEXOES,
      segundos: o.segundos,
      rodadasLeitura: o.rodadasLeitura,
      leituras,
      leiturasPorProcesso: depoisLeituras.map((d, i) => d - antesLeituras[i]!),
      transacoesNasLeituras,
      escritasNasLeituras,
      falhas: falhas.slice(0, 20),
      avisos: lados.flatMap((l) => l.processos.flatMap((p) => p.avisos)),
      carga,
      segundosTotais: (performance.now() - inicioTotal) / 1000,
    };
  } finally {
    for (const lado of lados) {
      await lado.proxy.parar();
      await Promise.all(lado.processos.map((p) => p.parar()));
    }
    await banco.parar();
    fs.rmSync(dataDirPg, { recursive: true, force: true });
    fs.rmSync(dados.dataDir, { recursive: true, force: true });
  }
}

const int = (n: number) => Math.round(n).toLocaleString('pt-BR');
const x = (n: number) => `${n.toFixed(2).replace('.', ',')}×`;
const fx = (f: Faixa) => `**${x(f.mediana)}** (${x(f.min)}–${x(f.max)})`;
const ms = (v: number[]) => `${mediana(v)} (${Math.min(...v)}–${Math.max(...v)})`;
const cargas = (c: number[]) => c.map((v) => v.toFixed(1).replace('.', ',')).join(' / ');

/** The section of docs/performance.md (bench/relatorio.ts). */
export function secaoPostgres(r: ResultadoPostgres & { medidoEm: string }): string {
  const sync = r.sync.map(
    (s) =>
      `| 2 celulares × ${int(s.vendas)} vendas | ${s.rodadas} | ${int(s.sqlitePorSegundo)} | ${int(s.postgresPorSegundo)} | ${fx(s.razao)} | ${s.lotesPorProcesso.join(' / ')} | ${cargas([s.carga.antes])} → ${cargas([s.carga.depois])} |`,
  );
  const leituras = r.leituras.map((l) => {
    const erros = l.sqlite.erros + l.postgres.erros ? ` (respostas não 2xx: SQLite ${JSON.stringify(l.sqlite.status)}, PostgreSQL ${JSON.stringify(l.postgres.status)})` : '';
    return `| ${l.nome}${erros} | ${ms(l.sqlite.p50)} / ${ms(l.sqlite.p99)} | ${ms(l.postgres.p50)} / ${ms(l.postgres.p99)} | ${fx(l.razaoP50)} | ${fx(l.razaoP99)} | ${int(mediana(l.sqlite.rps))} / ${int(mediana(l.postgres.rps))} |`;
  });
  const falhas = r.falhas.length
    ? `\n**Falhas na sincronização** (cada lote recusado foi enviado de novo, como o celular faz):\n\n${r.falhas.map((f) => `- \`${f.replace(/`/g, "'")}\``).join('\n')}\n`
    : '\nNenhum lote nem operação recusados nos dois lados (cada resposta conferida; no fim, cada venda gravada uma vez em cada banco).\n';
  const avisos = r.avisos.length ? `\nLinhas de aviso ou erro dos processos (nível warn ou acima):\n\n${r.avisos.slice(0, 12).map((a) => `- \`${a.replace(/`/g, "'").slice(0, 300)}\``).join('\n')}\n` : '';
  return `## PostgreSQL com dois processos

O mesmo banco nos dois lados: ${int(r.dados.vendas)} vendas e ${int(r.dados.despesas)} despesas (\`bench/dados.ts\` com
${r.dados.funcionarios} funcionários em 250 dias úteis), gerado em SQLite e copiado ao PostgreSQL
${r.versaoPostgres} com \`migrate-to-postgres\`. **SQLite**: um processo \`serve\`. **PostgreSQL**: dois processos \`serve\` com
\`DATABASE_URL\` num cluster local (\`fsync=off\`, como nos testes: o disco fora da medida), atrás de um proxy round-robin
(\`bench/postgres-proxy.ts\`, um processo Node); o SQLite passa pelo mesmo proxy com um destino só, para que os dois lados
paguem o mesmo salto. Tudo na mesma máquina de ${os.cpus().length} núcleos que o gerador de carga: os dois processos, o PostgreSQL e
o proxy disputam os mesmos núcleos, então isto mede o custo do PostgreSQL e do segundo processo, não o ganho de
espalhar processos por máquinas. Razão = PostgreSQL ÷ SQLite, na mesma rodada; mediana (faixa) das rodadas.
Carga da máquina (1 / 5 / 15 min): ${cargas(r.carga.inicio)} no início, ${cargas(r.carga.fim)} no fim (outras execuções
rodavam ao mesmo tempo). Medido em ${r.medidoEm.slice(0, 16).replace('T', ' ')} UTC em ${Math.round(r.segundosTotais)} s
(\`BENCH_SO=postgres npx tsx bench/index.ts\`, \`bench/postgres.ts\`).

**Sincronização.** A fila do celular de \`bench/sync.ts\` (lotes de 200 em \`POST /api/sync/lote\`), dois celulares ao
mesmo tempo (dois funcionários, cada um com sua rota), cada um enviando seus lotes em ordem; vendas por segundo somando
os dois. Cada rodada manda as mesmas vendas aos dois lados, o lado que vai primeiro alternando; antes, ${int(r.aquecimento)}
vendas por celular em cada lado, sem medir.

| Fila | Rodadas | SQLite, 1 processo: vendas/s | PostgreSQL, 2 processos: vendas/s | Razão | Lotes por processo PG | Carga (1 min) |
|---|---:|---:|---:|---:|---:|---:|
${sync.join('\n')}
${falhas}${
    r.transacoesSync
      ? `No PostgreSQL, nas rodadas medidas: ${int(r.transacoesSync.confirmadas)} transações confirmadas e ${int(r.transacoesSync.desfeitas)} desfeitas (cada conflito de serialização que o app refaz é uma desfeita) para ${int(r.transacoesSync.vendas)} vendas, das estatísticas do PostgreSQL.\n`
      : ''
  }
**Leituras do admin.** As requisições de \`bench/leituras-admin.ts\`, autocannon a ${r.conexoes} conexões pelo proxy, ${r.segundos} s
cada depois de 1 s de aquecimento, aceitando brotli e gzip; ${r.rodadasLeitura} rodadas, os lados alternando. Quatro admins
revezam as requisições (o limite por usuário, no máximo 100.000 por minuto, fica fora de alcance nos dois lados).
Requisições por processo PostgreSQL (com as de aquecimento): ${r.leiturasPorProcesso.join(' / ')}; no PostgreSQL, ${int(r.transacoesNasLeituras)} transações
(${(r.transacoesNasLeituras / Math.max(1, r.leiturasPorProcesso.reduce((a, b) => a + b, 0))).toFixed(1).replace('.', ',')} por requisição) e
${Object.keys(r.escritasNasLeituras).length ? `linhas escritas ${Object.entries(r.escritasNasLeituras).map(([t, n]) => `${t} ${int(n)}`).join(', ')}` : 'nenhuma linha escrita'} durante as leituras (das estatísticas do PostgreSQL).
Sem escritas, o carimbo do cache de leituras não muda e as respostas vêm do cache nos dois lados; no PostgreSQL, porém,
o carimbo (\`carimboDoBanco\`: \`select pg_current_snapshot()\`) é uma volta ao banco, e o caminho de uma leitura o pede
três vezes — a sessão (\`auth/plugin.ts\`), o aparelho (\`dispositivos/plugin.ts\`) e a resposta
(\`plugins/cache-leituras.ts\`) —, o que bate com as transações contadas; no SQLite são \`total_changes()\` e
\`data_version\` lidos no próprio processo.

| Leitura | SQLite p50 / p99 ms | PostgreSQL p50 / p99 ms | Razão p50 | Razão p99 | req/s SQLite / PostgreSQL |
|---|---:|---:|---:|---:|---:|
${leituras.join('\n')}
${avisos}`;
}
