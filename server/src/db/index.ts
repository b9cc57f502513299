/**
 * Opens the SQLite database with the settings the whole server relies on and applies the
 * committed migrations. The one place that creates a connection.
 */
import Database from 'better-sqlite3';
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
  const db = drizzle(sqlite, { schema }) as Db;
  migrate(db, { migrationsFolder: pastaMigracoes });
  return db;
}

/** Runs `fn` in one SQLite transaction (synchronous, so nothing else interleaves). */
export function emTransacao<T>(db: Db, fn: () => T): T {
  return db.$client.transaction(fn)();
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
