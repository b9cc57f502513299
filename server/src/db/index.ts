/**
 * Opens the SQLite database with the settings the whole server relies on and applies the
 * committed migrations. The one place that creates a connection.
 */
import Database from 'better-sqlite3';
import { Column, is, Param, Placeholder, sql, type SQL } from 'drizzle-orm';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import type { NodePgQueryResultHKT } from 'drizzle-orm/node-postgres';
import { PgDatabase, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import * as schema from './schema';
import type { Talvez } from './talvez';
import { ampliarTrava, travarNoComeco, TRAVA_GERAL, TRAVA_LEITURA, type Trava } from './travas';

export { TRAVA_GERAL, TRAVA_LEITURA, travarUsuario, type Trava } from './travas';

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

export interface OpcoesBanco {
  /** Path of the database file, or ':memory:'. */
  arquivo: string;
  /** Folder with drizzle-kit's migrations. */
  pastaMigracoes: string;
  /** The native addon already loaded (the single executable cannot `require` it from disk). */
  nativeBinding?: unknown;
}

/**
 * Checkpoint (copy the WAL into the database file, with an fsync) every 16 MB of WAL instead of 4: a
 * phone replaying a long queue writes thousands of rows in a few seconds, and the fsyncs were ~15% of a
 * batch's time. Reads are unaffected at this size. The server moves checkpoints to a thread of their
 * own (checkpointDoWal.ts), and this one becomes a fallback only while that thread runs.
 */
export const AUTOCHECKPOINT_PAGINAS = 4000;

export function abrirBanco({ arquivo, pastaMigracoes, nativeBinding }: OpcoesBanco): Db {
  const sqlite = new Database(arquivo, nativeBinding ? { nativeBinding: nativeBinding as string } : {});
  // WAL: readers never wait for the writer; NORMAL sync is durable across app crashes in WAL mode.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGINAS}`);
  const db = drizzle(sqlite, { schema }) as Db;
  migrate(db, { migrationsFolder: pastaMigracoes });
  return db;
}

/**
 * The SQLite file behind `db`, which a worker can open on its own; null when there is none: an
 * in-memory SQLite database, or another engine (PostgreSQL's pool has no such file).
 */
export function arquivoSqliteDe(db: Db): string | null {
  const cliente = (db as { $client?: unknown }).$client as { memory?: unknown; name?: unknown } | null | undefined;
  if (!cliente || typeof cliente.memory !== 'boolean' || typeof cliente.name !== 'string') return null;
  return cliente.memory ? null : cliente.name;
}

/** The handles that are an open transaction: `emTransacao` on one of them joins it. */
const transacoesAbertas = new WeakSet<object>();
/** Per SQLite database: its transaction handle and the queue of transactions waiting for it. */
const transacoesSqlite = new WeakMap<Db, { tx: Db; vez: Promise<unknown> }>();

/** Whether `db` is a transaction's handle (code given one may rely on its reads seeing its writes). */
export function estaEmTransacao(db: Db): boolean {
  return transacoesAbertas.has(db);
}

/**
 * Runs `fn` in one transaction and passes it the transaction's handle, `tx`: every read and write that
 * belongs to the transaction goes through `tx` (given explicitly down to each data function). Called
 * with a handle that is already a transaction, it joins it instead of opening a savepoint: whoever
 * opened the outer transaction decides what a failure rolls back (see emSavepoint for a part that may
 * fail alone). Returns what `fn` returned, after the commit; a throw rolls everything back and is
 * rethrown. Opening one answers a promise; joining one answers as `fn` does (at once when `fn`'s steps
 * were all ready on SQLite, db/talvez.ts).
 *
 * SQLite: one transaction at a time per database, in order (a queue, not a busy wait: the event loop
 * keeps serving reads meanwhile). BEGIN IMMEDIATE takes the write lock at the start (waiting busy_timeout
 * for another process that holds it), so what `fn` reads is still true when it writes; a deferred BEGIN
 * that read first fails at its first write with SQLITE_BUSY_SNAPSHOT when another process committed
 * meanwhile. `fn` must not wait for anything but the database while it holds the
 * lock (files are written before, or after the commit).
 *
 * PostgreSQL: READ COMMITTED, and the transaction first takes the advisory locks `trava` names
 * (db/travas.ts): one user's data ({ usuario } or { usuarioDe }), everything (the default, so that a
 * write path nobody named is as safe as under SQLite), or none for a read-only transaction ('leitura',
 * one snapshot). Joining an open transaction, `trava` widens its locks when given (another user's data)
 * and asks nothing more when omitted. On SQLite `trava` changes nothing: its single writer already
 * serializes everything.
 */
export function emTransacao<T>(db: Db, fn: (tx: Db) => Talvez<T>, trava?: Trava): Talvez<T> {
  // Joined: `fn` answers as it does (at once on SQLite when its steps are ready: see talvez.ts). On
  // PostgreSQL the outer transaction's locks are widened first when this one names someone else.
  if (transacoesAbertas.has(db)) return trava !== undefined && ehPostgres(db) ? juntarComTrava(db, fn, trava) : fn(db);
  if (ehPostgres(db)) return transacaoPostgres(db, fn, trava ?? TRAVA_GERAL);
  return transacaoSqlite(db, fn);
}

async function transacaoSqlite<T>(db: Db, fn: (tx: Db) => Talvez<T>): Promise<T> {
  let estado = transacoesSqlite.get(db);
  if (!estado) {
    const tx = drizzle(db.$client, { schema }) as Db;
    transacoesAbertas.add(tx);
    estado = { tx, vez: Promise.resolve() };
    transacoesSqlite.set(db, estado);
  }
  const anterior = estado.vez;
  let liberar!: () => void;
  estado.vez = new Promise<void>((resolver) => (liberar = resolver));
  await anterior;
  try {
    const cliente = db.$client;
    const { comecar, confirmar, desfazer } = comandosDeTransacao(cliente);
    comecar.run();
    // One connection serves every request: a transaction must end in the event-loop turn it began in
    // (nothing but the database awaited inside), or another request's statement could run inside it.
    let atravessou = false;
    const vigia = setImmediate(() => (atravessou = true));
    try {
      const resultado = await fn(estado.tx);
      if (atravessou) transacaoAtravessouUmaVolta();
      confirmar.run();
      return resultado;
    } catch (erro) {
      if (cliente.inTransaction) desfazer.run();
      throw erro;
    } finally {
      clearImmediate(vigia);
    }
  } finally {
    liberar();
  }
}

const comandosDeTransacoes = new WeakMap<Database.Database, { comecar: Database.Statement; confirmar: Database.Statement; desfazer: Database.Statement }>();

/** BEGIN IMMEDIATE, COMMIT and ROLLBACK of a SQLite connection, prepared once (not on every transaction). */
function comandosDeTransacao(cliente: Database.Database) {
  let comandos = comandosDeTransacoes.get(cliente);
  if (!comandos) {
    comandos = { comecar: cliente.prepare('BEGIN IMMEDIATE'), confirmar: cliente.prepare('COMMIT'), desfazer: cliente.prepare('ROLLBACK') };
    comandosDeTransacoes.set(cliente, comandos);
  }
  return comandos;
}

const motores = new WeakMap<object, boolean>();

/**
 * Whether the handle is a PostgreSQL database or transaction (DATABASE_URL), not SQLite. Remembered per
 * handle: drizzle's `is` climbs the class chain on every call, and the data functions ask it on every
 * statement.
 */
export function ehPostgres(db: Db): boolean {
  let postgres = motores.get(db);
  if (postgres === undefined) motores.set(db, (postgres = is(db, PgDatabase)));
  return postgres;
}

/** A transaction PostgreSQL aborted: a deadlock between two lock orders, or a serialization failure. */
function conflitoDeSerializacao(erro: unknown): boolean {
  for (let e: unknown = erro; e; e = (e as { cause?: unknown }).cause) {
    const codigo = (e as { code?: unknown }).code;
    // serialization_failure, deadlock_detected
    if (codigo === '40001' || codigo === '40P01') return true;
  }
  return false;
}

export const TENTATIVAS_DE_TRANSACAO_POSTGRES = 8;

/**
 * PostgreSQL (several app processes, many connections at once): READ COMMITTED, with every check-then-write
 * made safe by the lock its transaction takes first (db/travas.ts; docs/decisions/postgresql.md, "PostgreSQL: uma trava
 * por funcionário"): the writes of one user run one at a time, and each statement after the lock sees
 * what the previous holder committed; different users never wait for each other. SERIALIZABLE had aborted
 * 12% of the batches of 50 employees (its predicate locks on the ledger's index conflict across
 * employees). A deadlock (a transaction that widened its locks to a second user while another did the
 * reverse) is run again from the start, a bounded number of times: so `fn` may still run more than once,
 * and must build what it returns inside and touch nothing but the database (which SQLite's rule already asks).
 */
async function transacaoPostgres<T>(db: Db, fn: (tx: Db) => Talvez<T>, trava: Trava): Promise<T> {
  const pgDb = db as unknown as PgDatabase<PgQueryResultHKT>;
  const leitura = trava === TRAVA_LEITURA;
  for (let tentativa = 1; ; tentativa++) {
    try {
      return await pgDb.transaction(
        async (tx) => {
          transacoesAbertas.add(tx);
          await travarNoComeco(tx as unknown as Db, trava);
          return fn(tx as unknown as Db);
        },
        leitura ? { isolationLevel: 'repeatable read', accessMode: 'read only' } : undefined,
      );
    } catch (erro) {
      if (tentativa >= TENTATIVAS_DE_TRANSACAO_POSTGRES || !conflitoDeSerializacao(erro)) throw erro;
      // A short random pause, growing with each try: two transactions that collided do not collide again.
      await new Promise((ok) => setTimeout(ok, Math.random() * 5 * 2 ** tentativa));
    }
  }
}

async function juntarComTrava<T>(tx: Db, fn: (tx: Db) => Talvez<T>, trava: Trava | undefined): Promise<T> {
  await ampliarTrava(tx, trava);
  return fn(tx);
}

export const MENSAGEM_TRANSACAO_ATRAVESSOU =
  'Uma transação do SQLite esperou algo além do banco (arquivo, rede, outro processo) e passou de uma volta do laço de eventos: outra requisição poderia ter escrito dentro dela.';

/**
 * A SQLite transaction that waited for something other than the database: a bug in the code that opened
 * it. In the tests it fails (rolled back, with the message); in production the write goes on and the
 * warning goes to the log, since refusing a phone's sync would cost more than the rare interleaving.
 */
function transacaoAtravessouUmaVolta(): void {
  if (process.env.VITEST) throw new Error(MENSAGEM_TRANSACAO_ATRAVESSOU);
  process.emitWarning(MENSAGEM_TRANSACAO_ATRAVESSOU, { code: 'SG_TRANSACAO_ATRAVESSOU' });
}

let savepoints = 0;

/**
 * Runs `fn` inside the open transaction `tx` so that a throw rolls back only what `fn` did (a SAVEPOINT):
 * the rest of the transaction goes on. The same SQL on SQLite and PostgreSQL.
 */
export async function emSavepoint<T>(tx: Db, fn: (tx: Db) => Promise<T> | T): Promise<T> {
  if (!transacoesAbertas.has(tx)) throw new Error('emSavepoint precisa de uma transação aberta (emTransacao).');
  const nome = sql.raw(`sp_${++savepoints}`);
  await executar(tx, sql`savepoint ${nome}`);
  try {
    const resultado = await fn(tx);
    await executar(tx, sql`release savepoint ${nome}`);
    return resultado;
  } catch (erro) {
    try {
      await executar(tx, sql`rollback to savepoint ${nome}`);
      await executar(tx, sql`release savepoint ${nome}`);
    } catch {
      // The failure ended the whole transaction (SQLite rolls back by itself on a full disk or an I/O
      // error, PostgreSQL aborts on a lost connection): the savepoint is gone, and the first error is what happened.
    }
    throw erro;
  }
}

/** The rows of an SQL statement written by hand (`sql\`...\``), as objects named by its columns. */
export async function linhas<T>(db: Db, consulta: SQL): Promise<T[]> {
  if (ehPostgres(db)) return (await (db as unknown as PgDatabase<NodePgQueryResultHKT>).execute(consulta)).rows as T[];
  return db.all<T>(consulta);
}

/** The first row of an SQL statement written by hand, or undefined. */
export async function linha<T>(db: Db, consulta: SQL): Promise<T | undefined> {
  return (await linhas<T>(db, consulta))[0];
}

/** Runs an SQL statement written by hand that returns no rows; answers how many rows it changed. */
export async function executar(db: Db, consulta: SQL): Promise<number> {
  if (ehPostgres(db)) return (await (db as unknown as PgDatabase<NodePgQueryResultHKT>).execute(consulta)).rowCount ?? 0;
  return db.run(consulta).changes;
}

/**
 * How many rows an awaited `update` or `delete` (without returning) changed, on either engine
 * (better-sqlite3 answers `changes`, node-postgres `rowCount`).
 */
export function alteradas(resultado: unknown): number {
  const r = resultado as { changes?: number; rowCount?: number | null };
  return r.changes ?? r.rowCount ?? 0;
}

const preparadas = new WeakMap<Db, Map<string, unknown>>();

/**
 * A query built and prepared once per database, then reused: on hot paths (every authenticated
 * request looks the user up) rebuilding the SQL and re-preparing the statement cost more than
 * running it. Build it with `sql.placeholder(...)` for the values.
 */
export function preparada<T>(db: Db, chave: string, construir: () => T): T {
  let doBanco = preparadas.get(db);
  if (!doBanco) {
    doBanco = new Map();
    preparadas.set(db, doBanco);
  }
  let consulta = doBanco.get(chave) as T | undefined;
  if (consulta === undefined) {
    consulta = construir();
    doBanco.set(chave, consulta);
  }
  return consulta;
}

/**
 * A statement drizzle built, run straight on the driver (see preparadaDireta). Its methods answer at once
 * on SQLite and with a promise on PostgreSQL (talvez.ts): callers await them, or run them in steps that
 * stay synchronous on SQLite. A failure is thrown on SQLite, a rejection on PostgreSQL.
 */
export interface ComandoDireto {
  /** Runs an insert or update; answers how many rows it changed. */
  run(valores: Record<string, unknown>): Talvez<number>;
  /** The first row as an array, in the order of the select's fields. */
  linha(valores: Record<string, unknown>): Talvez<unknown[] | undefined>;
  /** Every row, as arrays. */
  todas(valores: Record<string, unknown>): Talvez<unknown[][]>;
}

const diretas = new WeakMap<Db, Map<string, ComandoDireto>>();

/**
 * For the few statements every queued sale runs: the SQL still comes from drizzle's query builder,
 * but how each placeholder becomes a driver value is worked out once, not on every call. Drizzle's
 * own prepared query checks each parameter's kind on every run and maps result rows to objects,
 * about a fifth of the cost of a small insert.
 */
export function preparadaDireta(db: Db, chave: string, construir: () => { toSQL(): { sql: string; params: unknown[] } }): ComandoDireto {
  // Looked up before anything else: the engine is asked once, when the statement is first built.
  let doBanco = diretas.get(db);
  if (!doBanco) diretas.set(db, (doBanco = new Map()));
  let comando = doBanco.get(chave);
  if (!comando) doBanco.set(chave, (comando = ehPostgres(db) ? comandoPostgres(construir(), chave) : comandoSqlite(db, construir())));
  return comando;
}

function comandoSqlite(db: Db, consulta: { toSQL(): { sql: string; params: unknown[] } }): ComandoDireto {
  const { sql: texto, params } = consulta.toSQL();
  const valoresDe = params.map((p): ((valores: Record<string, unknown>) => unknown) => {
    if (is(p, Placeholder)) return (valores) => valorDe(valores, p.name);
    if (is(p, Param) && is(p.value, Placeholder)) {
      const { encoder } = p;
      const nome = p.value.name;
      return (valores) => encoder.mapToDriverValue(valorDe(valores, nome));
    }
    return () => p;
  });
  // A select answers arrays (raw), in the order of its fields; an insert or update only runs.
  const comando = db.$client.prepare(texto);
  if (comando.reader) comando.raw(true);
  const argumentos = (valores: Record<string, unknown>) => valoresDe.map((v) => v(valores));
  // better-sqlite3 answers at once, and so does the command (no promise per statement).
  return {
    run: (valores) => comando.run(...argumentos(valores)).changes,
    linha: (valores) => comando.get(...argumentos(valores)) as unknown[] | undefined,
    todas: (valores) => comando.all(...argumentos(valores)) as unknown[][],
  };
}

/**
 * PostgreSQL: drizzle's own prepared statement (named, so each connection parses it once), through the
 * handle's session, so that inside a transaction it runs on the transaction's connection. Rows come back as
 * objects in the select's field order and are given as arrays, as on SQLite.
 */
function comandoPostgres(consulta: unknown, nome: string): ComandoDireto {
  const preparadaPg = (consulta as { prepare(nome: string): { execute(valores: Record<string, unknown>): Promise<unknown> } }).prepare(nome);
  const linhasDe = async (valores: Record<string, unknown>) => ((await preparadaPg.execute(valores)) as Record<string, unknown>[]).map((l) => Object.values(l));
  return {
    run: async (valores) => ((await preparadaPg.execute(valores)) as { rowCount?: number | null }).rowCount ?? 0,
    linha: async (valores) => (await linhasDe(valores))[0],
    todas: linhasDe,
  };
}

/** A SQLite insert or update run with its values in a fixed order (see insercaoPosicional). */
export type ComandoPosicional = (...valores: unknown[]) => number;

const posicionais = new WeakMap<Db, Map<string, ComandoPosicional>>();

/**
 * SQLite only, for the batch sync's direct path (vendas/vendasNovasDoLote.ts): a statement drizzle built,
 * run with its values given in the order of `nomes` (its placeholders' names) instead of an object, and
 * answering how many rows it changed. Building that object and looking each name up in it was most of
 * what a queued sale cost outside SQLite itself. Every placeholder must be in `nomes`.
 */
export function insercaoPosicional(db: Db, chave: string, nomes: readonly string[], construir: () => { toSQL(): { sql: string; params: unknown[] } }): ComandoPosicional {
  let doBanco = posicionais.get(db);
  if (!doBanco) posicionais.set(db, (doBanco = new Map()));
  let comando = doBanco.get(chave);
  if (comando) return comando;
  const { sql: texto, params } = construir().toSQL();
  // Each of the statement's parameters: which of the given values it takes (and how it is mapped), or a
  // value drizzle fixed, already mapped (a column's default, for one).
  const posicoes = params.map((p) => {
    const marcador = is(p, Placeholder) ? p : is(p, Param) && is(p.value, Placeholder) ? p.value : null;
    if (!marcador) return { indice: -1, fixo: p, codificar: null };
    const indice = nomes.indexOf(marcador.name);
    if (indice < 0) throw new Error(`${chave}: "${marcador.name}" não está na lista de valores.`);
    // A column whose value the driver takes as it is (text, integer) needs no mapping.
    const codificar = is(p, Param) && p.encoder && p.encoder.mapToDriverValue !== Column.prototype.mapToDriverValue ? (v: unknown) => p.encoder!.mapToDriverValue(v) : null;
    return { indice, fixo: undefined, codificar };
  });
  const preparado = db.$client.prepare(texto);
  const direto = posicoes.length === nomes.length && posicoes.every((p, k) => p.indice === k && !p.codificar);
  comando = direto
    ? (...valores) => preparado.run(...valores).changes
    : (...valores) => preparado.run(...posicoes.map((p) => (p.indice < 0 ? p.fixo : p.codificar ? p.codificar(valores[p.indice]) : valores[p.indice]))).changes;
  doBanco.set(chave, comando);
  return comando;
}

function valorDe(valores: Record<string, unknown>, nome: string): unknown {
  if (!(nome in valores)) throw new Error(`Sem valor para "${nome}".`);
  return valores[nome];
}

const carimbos = new WeakMap<Db, () => string>();
const carimbosDaRequisicao = new WeakMap<object, Promise<string>>();

/**
 * The stamp taken once per request (the first time any cache on its path asks, before any of their reads):
 * on PostgreSQL it is a round trip, and the session, the user, the phone's row and the answer cache each
 * asked for it. Later asks in the same request get the same stamp, which is conservative: whatever changed
 * after it only makes the next request read again. A stamp needed after the request's own write (a cache
 * refreshed with what it just wrote) is carimboDoBanco's.
 */
export function carimboDaRequisicao(db: Db, requisicao: object): Promise<string> {
  let carimbo = carimbosDaRequisicao.get(requisicao);
  if (!carimbo) carimbosDaRequisicao.set(requisicao, (carimbo = carimboDoBanco(db)));
  return carimbo;
}
let carimbosUnicos = 0;

/**
 * A value that changes whenever the data in the database changes, for caches that must never serve
 * stale reads. Take it before the read that the cache keeps: a write that lands during the read changes
 * it, so the next call reads again.
 *
 * SQLite: this connection's `total_changes()` (every insert, update or delete this process makes) and
 * `data_version`, which changes when another connection commits: another app process on the same file
 * (several behind one proxy), or `user:reset-password` run beside the server. Both are read on every call (2-3 µs
 * together, measured in docs/decisions/operacao-e-escala.md). While a transaction is open on the connection, what a read sees may
 * still be rolled back: then the stamp is one that never repeats, so nothing read meanwhile is reused.
 *
 * PostgreSQL: the current snapshot (`pg_current_snapshot()`: the oldest running transaction, the next id,
 * the ones in progress). Any write transaction that starts or commits, in any app process, changes it;
 * reads alone do not. One round trip.
 */
export async function carimboDoBanco(db: Db): Promise<string> {
  if (ehPostgres(db)) return (await linha<{ carimbo: string }>(db, sql`select pg_current_snapshot()::text as carimbo`))!.carimbo;
  if (db.$client.inTransaction) return `transacao:${++carimbosUnicos}`;
  let carimbo = carimbos.get(db);
  if (!carimbo) {
    const mudancas = db.$client.prepare('select total_changes()').pluck();
    const versao = db.$client.prepare('pragma data_version').pluck();
    carimbo = () => `${mudancas.get() as number}:${versao.get() as number}`;
    carimbos.set(db, carimbo);
  }
  return carimbo();
}
