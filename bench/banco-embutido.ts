/**
 * The first question of the PostgreSQL work, by measurement: could PGlite (PostgreSQL compiled to WebAssembly, from npm)
 * replace SQLite as the embedded default, so one dialect serves the small VPS and the scale-out? Two
 * figures decide it: the batch sync's write throughput, and whether a write the engine confirmed
 * survives the process being killed.
 *
 * The workload is the sync batch's writes without the app around them (the simplest thing that does
 * the job, the same on every engine): batches of 200 sales, each batch one transaction that inserts
 * its 200 rows into a `vendas` table (primary key, the one-closing-per-route/city/date unique index)
 * and 200 rows into the operation log, one multi-row insert per table. Engines:
 * - SQLite through better-sqlite3, with the app's pragmas (WAL, synchronous=NORMAL): today's default;
 * - PGlite 0.5 in this process, data on disk (its default durability);
 * - PostgreSQL 15 (Debian's), a throwaway cluster in a temporary folder on a loopback port, through
 *   node-postgres: the scale-out engine, for reference.
 * Rounds alternate the engines' order; each round a fresh database. Durability: a child process writes
 * batches and prints each confirmed one; it is killed (SIGKILL) mid-stream, the database reopened, and
 * every confirmed row must be there (PostgreSQL: its server process is the one killed and restarted).
 *
 * `npx tsx bench/banco-embutido.ts` (BENCH_RODADAS=n, default 5). Writes bench/.results/banco-embutido.json.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import Database from 'better-sqlite3';
import pg from 'pg';

const LOTE = 200;
const VENDAS = 5_000;
const RODADAS = Number(process.env.BENCH_RODADAS ?? 5);
const BIN_PG = fs.existsSync('/usr/lib/postgresql/15/bin') ? '/usr/lib/postgresql/15/bin' : path.dirname(execFileSync('which', ['initdb']).toString().trim());

const DDL = [
  `create table vendas (
    id text primary key, funcionario_id integer not null, rota_id integer not null, cidade_id integer not null,
    data_venda text not null, dinheiro_centavos integer not null, pix_centavos integer not null,
    cartao_centavos integer not null, registrado_em text not null)`,
  'create unique index vendas_rota_cidade_data on vendas (rota_id, cidade_id, data_venda)',
  'create table operacoes_aplicadas (id text primary key, usuario_id integer not null, tipo text not null, status integer not null, recebido_em text not null)',
];

type Linha = [string, number, number, number, string, number, number, number, string];
function lotes(): { vendas: Linha[]; ops: [string, number, string, number, string][] }[] {
  const r = [];
  const inicio = Date.UTC(2025, 0, 1);
  for (let b = 0; b < VENDAS / LOTE; b++) {
    const vendas: Linha[] = [];
    const ops: [string, number, string, number, string][] = [];
    for (let i = 0; i < LOTE; i++) {
      const n = b * LOTE + i;
      const data = new Date(inicio + Math.floor(n / 40) * 86_400_000).toISOString().slice(0, 10);
      const agora = new Date().toISOString();
      vendas.push([`v-${n}`, 1, 1 + (n % 7), 5_200_000 + (n % 40), data, 1000 + n, 500, 0, agora]);
      ops.push([`op-${n}`, 1, 'venda.salvar', 201, agora]);
    }
    r.push({ vendas, ops });
  }
  return r;
}

/** '($1,$2,...),(...)' for n rows of k columns. */
const marcadores = (n: number, k: number) => Array.from({ length: n }, (_, i) => `(${Array.from({ length: k }, (_, j) => `$${i * k + j + 1}`).join(',')})`).join(',');
const INSERIR_VENDAS = `insert into vendas (id, funcionario_id, rota_id, cidade_id, data_venda, dinheiro_centavos, pix_centavos, cartao_centavos, registrado_em) values ${marcadores(LOTE, 9)}`;
const INSERIR_OPS = `insert into operacoes_aplicadas (id, usuario_id, tipo, status, recebido_em) values ${marcadores(LOTE, 5)}`;

interface Motor {
  nome: string;
  gravarLote(l: ReturnType<typeof lotes>[number]): Promise<void>;
  contar(): Promise<number>;
  fechar(): Promise<void>;
}

async function sqlite(pasta: string): Promise<Motor> {
  const db = new Database(path.join(pasta, 'app.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('wal_autocheckpoint = 4000');
  for (const s of DDL) db.exec(s);
  const vendas = db.prepare(INSERIR_VENDAS.replace(/\$\d+/g, '?'));
  const ops = db.prepare(INSERIR_OPS.replace(/\$\d+/g, '?'));
  const gravar = db.transaction((l: ReturnType<typeof lotes>[number]) => {
    vendas.run(l.vendas.flat());
    ops.run(l.ops.flat());
  });
  return {
    nome: 'SQLite (better-sqlite3)',
    gravarLote: async (l) => gravar(l),
    contar: async () => (db.prepare('select count(*) as n from vendas').get() as { n: number }).n,
    fechar: async () => {
      db.close();
    },
  };
}

async function pglite(pasta: string): Promise<Motor> {
  const db = await PGlite.create(path.join(pasta, 'pgdata'));
  for (const s of DDL) await db.exec(s);
  return {
    nome: 'PGlite 0.5 (WebAssembly, em processo)',
    gravarLote: async (l) => {
      await db.transaction(async (tx) => {
        await tx.query(INSERIR_VENDAS, l.vendas.flat());
        await tx.query(INSERIR_OPS, l.ops.flat());
      });
    },
    contar: async () => Number((await db.query<{ n: number }>('select count(*)::int as n from vendas')).rows[0]!.n),
    fechar: () => db.close(),
  };
}

async function portaLivre(): Promise<number> {
  return new Promise((ok, falha) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => ok(port));
    });
    s.on('error', falha);
  });
}

/** A throwaway PostgreSQL cluster: initdb in `pasta`, started on a loopback port as this user. */
async function clusterPostgres(pasta: string) {
  const dados = path.join(pasta, 'pg');
  const usuario = os.userInfo().username === 'root' ? 'postgres' : os.userInfo().username;
  const comoDono = (bin: string, args: string[]) => {
    // PostgreSQL refuses to run as root: the cluster belongs to the 'postgres' system user then.
    if (os.userInfo().username !== 'root') return execFileSync(path.join(BIN_PG, bin), args, { stdio: 'pipe' });
    return execFileSync('runuser', ['-u', 'postgres', '--', path.join(BIN_PG, bin), ...args], { stdio: 'pipe' });
  };
  if (os.userInfo().username === 'root') execFileSync('chown', ['-R', 'postgres', pasta]);
  comoDono('initdb', ['-D', dados, '-U', usuario, '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const porta = await portaLivre();
  const iniciar = () => comoDono('pg_ctl', ['-D', dados, '-o', `-p ${porta} -k ${pasta} -c listen_addresses=127.0.0.1`, '-l', path.join(pasta, 'pg.log'), '-w', 'start']);
  iniciar();
  const parar = (modo: 'fast' | 'immediate') => {
    try {
      comoDono('pg_ctl', ['-D', dados, '-m', modo, '-w', 'stop']);
    } catch {
      /* already down */
    }
  };
  const conectar = async () => {
    const c = new pg.Client({ host: '127.0.0.1', port: porta, user: usuario, database: 'postgres' });
    await c.connect();
    return c;
  };
  const pidDoServidor = () => Number(fs.readFileSync(path.join(dados, 'postmaster.pid'), 'utf8').split('\n')[0]);
  return { porta, usuario, iniciar, parar, conectar, pidDoServidor };
}

async function postgres(pasta: string): Promise<Motor> {
  const cluster = await clusterPostgres(pasta);
  const c = await cluster.conectar();
  for (const s of DDL) await c.query(s);
  return {
    nome: 'PostgreSQL 15 (servidor, node-postgres)',
    gravarLote: async (l) => {
      await c.query('begin');
      await c.query(INSERIR_VENDAS, l.vendas.flat());
      await c.query(INSERIR_OPS, l.ops.flat());
      await c.query('commit');
    },
    contar: async () => Number((await c.query('select count(*)::int as n from vendas')).rows[0].n),
    fechar: async () => {
      await c.end();
      cluster.parar('fast');
    },
  };
}

const MOTORES = { sqlite, pglite, postgres } as const;
type NomeMotor = keyof typeof MOTORES;

async function medirVazao(): Promise<Record<NomeMotor, { nome: string; porSegundo: number[] }>> {
  const dados = lotes();
  const r = {} as Record<NomeMotor, { nome: string; porSegundo: number[] }>;
  const ordem = Object.keys(MOTORES) as NomeMotor[];
  for (let rodada = 0; rodada < RODADAS; rodada++) {
    const desta = rodada % 2 === 0 ? ordem : [...ordem].reverse();
    for (const chave of desta) {
      const pasta = fs.mkdtempSync(path.join(os.tmpdir(), `sg-embutido-${chave}-`));
      fs.chmodSync(pasta, 0o777);
      const motor = await MOTORES[chave](pasta);
      const inicio = process.hrtime.bigint();
      for (const l of dados) await motor.gravarLote(l);
      const ms = Number(process.hrtime.bigint() - inicio) / 1e6;
      if ((await motor.contar()) !== VENDAS) throw new Error(`${motor.nome}: contagem errada`);
      await motor.fechar();
      fs.rmSync(pasta, { recursive: true, force: true });
      (r[chave] ??= { nome: motor.nome, porSegundo: [] }).porSegundo.push(Math.round((VENDAS / ms) * 1000));
      console.log(`  rodada ${rodada + 1} ${motor.nome}: ${Math.round((VENDAS / ms) * 1000)} vendas/s`);
    }
  }
  return r;
}

/**
 * The child of the durability check: writes batches to the engine in `pasta`, printing 'confirmado N'
 * after each commit returned; the parent kills it.
 */
async function filho(chave: 'sqlite' | 'pglite', pasta: string) {
  const motor = await MOTORES[chave](pasta);
  let n = 0;
  for (const l of lotes()) {
    await motor.gravarLote(l);
    n += LOTE;
    process.stdout.write(`confirmado ${n}\n`);
  }
  await new Promise(() => undefined);
}

async function reabrirEContar(chave: NomeMotor, pasta: string): Promise<number> {
  if (chave === 'sqlite') {
    const db = new Database(path.join(pasta, 'app.db'));
    try {
      return (db.prepare('select count(*) as n from vendas').get() as { n: number }).n;
    } finally {
      db.close();
    }
  }
  const db = await PGlite.create(path.join(pasta, 'pgdata'));
  try {
    return Number((await db.query<{ n: number }>('select count(*)::int as n from vendas')).rows[0]!.n);
  } finally {
    await db.close();
  }
}

/** Kills the writer once `apos` rows are confirmed; every confirmed row must be found after reopening. */
async function medirDurabilidade(chave: 'sqlite' | 'pglite', apos: number): Promise<{ confirmadas: number; achadas: number }> {
  const pasta = fs.mkdtempSync(path.join(os.tmpdir(), `sg-queda-${chave}-`));
  const proc = spawn(process.execPath, ['--import', 'tsx', path.resolve('bench/banco-embutido.ts'), 'filho', chave, pasta], { stdio: ['ignore', 'pipe', 'inherit'] });
  let confirmadas = 0;
  await new Promise<void>((ok, falha) => {
    let resto = '';
    proc.stdout!.on('data', (b: Buffer) => {
      resto += b.toString();
      const linhas = resto.split('\n');
      resto = linhas.pop()!;
      for (const l of linhas) {
        const m = /^confirmado (\d+)$/.exec(l);
        if (m) confirmadas = Number(m[1]);
      }
      if (confirmadas >= apos && proc.exitCode === null) {
        proc.kill('SIGKILL');
        ok();
      }
    });
    proc.on('exit', () => ok());
    proc.on('error', falha);
  });
  await new Promise((ok) => (proc.exitCode !== null || proc.signalCode !== null ? ok(null) : proc.on('exit', ok)));
  const achadas = await reabrirEContar(chave, pasta);
  fs.rmSync(pasta, { recursive: true, force: true });
  return { confirmadas, achadas };
}

/** PostgreSQL: the server process is killed (SIGKILL of the postmaster, no checkpoint) and started again. */
async function medirDurabilidadePostgres(apos: number): Promise<{ confirmadas: number; achadas: number }> {
  const pasta = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-queda-postgres-'));
  fs.chmodSync(pasta, 0o777);
  const cluster = await clusterPostgres(pasta);
  const c = await cluster.conectar();
  c.on('error', () => undefined);
  for (const s of DDL) await c.query(s);
  let confirmadas = 0;
  for (const l of lotes()) {
    await c.query('begin');
    await c.query(INSERIR_VENDAS, l.vendas.flat());
    await c.query(INSERIR_OPS, l.ops.flat());
    await c.query('commit');
    confirmadas += LOTE;
    if (confirmadas >= apos) break;
  }
  process.kill(cluster.pidDoServidor(), 'SIGKILL');
  await c.end().catch(() => undefined);
  // The postmaster is gone; its children notice and exit. Start again on the same folder (crash recovery).
  await new Promise((ok) => setTimeout(ok, 1000));
  cluster.parar('immediate');
  fs.rmSync(path.join(pasta, 'pg', 'postmaster.pid'), { force: true });
  cluster.iniciar();
  const c2 = await cluster.conectar();
  const achadas = Number((await c2.query('select count(*)::int as n from vendas')).rows[0].n);
  await c2.end();
  cluster.parar('fast');
  fs.rmSync(pasta, { recursive: true, force: true });
  return { confirmadas, achadas };
}

const mediana = (v: number[]) => {
  const s = [...v].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : Math.round((s[m - 1]! + s[m]!) / 2);
};

async function principal() {
  console.log(`Vazão: ${VENDAS} vendas em lotes de ${LOTE}, ${RODADAS} rodadas alternadas; carga ${os.loadavg()[0]!.toFixed(1)}`);
  const cargaAntes = os.loadavg()[0]!;
  const vazao = await medirVazao();
  const cargaDepois = os.loadavg()[0]!;
  const quedas = {
    sqlite: [await medirDurabilidade('sqlite', 2_000), await medirDurabilidade('sqlite', 3_000)],
    pglite: [await medirDurabilidade('pglite', 2_000), await medirDurabilidade('pglite', 3_000)],
    postgres: [await medirDurabilidadePostgres(2_000), await medirDurabilidadePostgres(3_000)],
  };
  const base = mediana(vazao.sqlite.porSegundo);
  const resultado = {
    medidoEm: new Date().toISOString(),
    vendas: VENDAS,
    lote: LOTE,
    rodadas: RODADAS,
    carga: [cargaAntes, cargaDepois].map((c) => Math.round(c * 10) / 10),
    motores: Object.fromEntries(
      (Object.keys(vazao) as NomeMotor[]).map((k) => [k, { ...vazao[k], mediana: mediana(vazao[k].porSegundo), razaoSqlite: Math.round((mediana(vazao[k].porSegundo) / base) * 100) / 100, quedas: quedas[k] }]),
    ),
  };
  fs.mkdirSync('bench/.results', { recursive: true });
  fs.writeFileSync('bench/.results/banco-embutido.json', `${JSON.stringify(resultado, null, 2)}\n`);
  console.log('\n| Motor | vendas/s (mediana; todas) | ÷ SQLite | queda (SIGKILL): confirmadas → achadas |');
  console.log('|---|---:|---:|---|');
  for (const [, m] of Object.entries(resultado.motores)) {
    console.log(`| ${m.nome} | ${m.mediana.toLocaleString('pt-BR')} (${m.porSegundo.join(', ')}) | ${m.razaoSqlite.toFixed(2)}x | ${m.quedas.map((q) => `${q.confirmadas} → ${q.achadas}`).join('; ')} |`);
  }
  console.log(`\ncarga ${resultado.carga.join(' → ')}`);
}

if (process.argv[2] === 'filho') void filho(process.argv[3] as 'sqlite' | 'pglite', process.argv[4]!);
else await principal();
