/**
 * Opens the SQLite database with the settings the whole server relies on and applies the
 * committed migrations. The one place that creates a connection.
 */
import Database from 'better-sqlite3';
import { is, Param, Placeholder } from 'drizzle-orm';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import * as schema from './schema';

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

export interface OpcoesBanco {
  /** Path of the database file, or ':memory:'. */
  arquivo: string;
  /** Folder with drizzle-kit's migrations. */
  pastaMigracoes: string;
  /** The native addon already loaded (the single executable cannot `require` it from disk). */
  nativeBinding?: unknown;
}

export function abrirBanco({ arquivo, pastaMigracoes, nativeBinding }: OpcoesBanco): Db {
  const sqlite = new Database(arquivo, nativeBinding ? { nativeBinding: nativeBinding as string } : {});
  // WAL: readers never wait for the writer; NORMAL sync is durable across app crashes in WAL mode.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // Checkpoint (copy the WAL into the database file, with an fsync) every 16 MB of WAL instead of 4:
  // a phone replaying a long queue writes thousands of rows in a few seconds, and the fsyncs were
  // ~15% of a batch's time. Reads are unaffected at this size.
  sqlite.pragma('wal_autocheckpoint = 4000');
  const db = drizzle(sqlite, { schema }) as Db;
  migrate(db, { migrationsFolder: pastaMigracoes });
  return db;
}

/**
 * Runs `fn` in one SQLite transaction (synchronous, so nothing else interleaves). Inside a transaction
 * already (a batch of queued writes) it joins it instead of opening a savepoint: whoever opened the
 * outer transaction decides what a failure rolls back, and a savepoint per write makes SQLite copy
 * every page the write touches (a sale's inserts cost about three times as much).
 * BEGIN IMMEDIATE: the write lock is taken at the start (waiting busy_timeout for another process
 * that holds it), so what `fn` reads is still true when it writes. A deferred BEGIN that read first
 * fails at its first write with SQLITE_BUSY_SNAPSHOT when another process committed meanwhile
 * (issue 21, item 3: several processes on one database).
 */
export function emTransacao<T>(db: Db, fn: () => T): T {
  if (db.$client.inTransaction) return fn();
  return db.$client.transaction(fn).immediate();
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

/** A statement drizzle built, run straight on better-sqlite3 (see preparadaDireta). */
export interface ComandoDireto {
  run(valores: Record<string, unknown>): Database.RunResult;
  /** The first row as an array, in the order of the select's fields. */
  linha(valores: Record<string, unknown>): unknown[] | undefined;
  /** Every row, as arrays. */
  todas(valores: Record<string, unknown>): unknown[][];
}

/**
 * For the few statements every queued sale runs: the SQL still comes from drizzle's query builder,
 * but how each placeholder becomes a driver value is worked out once, not on every call. Drizzle's
 * own prepared query checks each parameter's kind on every run and maps result rows to objects,
 * about a fifth of the cost of a small insert.
 */
export function preparadaDireta(db: Db, chave: string, construir: () => { toSQL(): { sql: string; params: unknown[] } }): ComandoDireto {
  return preparada(db, `direta:${chave}`, () => {
    const { sql: texto, params } = construir().toSQL();
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
    return {
      run: (valores) => comando.run(...argumentos(valores)),
      linha: (valores) => comando.get(...argumentos(valores)) as unknown[] | undefined,
      todas: (valores) => comando.all(...argumentos(valores)) as unknown[][],
    };
  });
}

function valorDe(valores: Record<string, unknown>, nome: string): unknown {
  if (!(nome in valores)) throw new Error(`Sem valor para "${nome}".`);
  return valores[nome];
}

const carimbos = new WeakMap<Db, () => string>();

/**
 * A value that changes whenever the data in the database changes, for caches that must never serve
 * stale reads: this connection's `total_changes()` (every insert, update or delete this process makes)
 * and SQLite's `data_version`, which changes when another connection commits: another app process on
 * the same file (issue 21, item 3), or `user:reset-password` run beside the server. Both are read on
 * every call (2-3 µs together, measured in decisions.md), so a write another process acknowledged is
 * seen by the very next request here.
 */
export function carimboDoBanco(db: Db): string {
  let carimbo = carimbos.get(db);
  if (!carimbo) {
    const mudancas = db.$client.prepare('select total_changes()').pluck();
    const versao = db.$client.prepare('pragma data_version').pluck();
    carimbo = () => `${mudancas.get() as number}:${versao.get() as number}`;
    carimbos.set(db, carimbo);
  }
  return carimbo();
}
