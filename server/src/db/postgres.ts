/**
 * Opens a PostgreSQL database through node-postgres and applies migrations-pg: the engine of
 * DATABASE_URL. The handle it answers is what the data functions take (`Db`): the same query-builder
 * calls, awaited, on PostgreSQL's table declarations (db/tabelas.ts switches to them here).
 */
import path from 'node:path';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import type { Db } from './index';
import * as schema from './schema.pg';
import { usarTabelasDoPostgres } from './tabelas';

// Every integer column is bigint (schema.pg.ts) and count(*) is bigint, sum() of bigints numeric: node-postgres
// reads both as strings by default; the app reads numbers, as better-sqlite3 gives them (money in centavos
// and counts stay far below 2^53).
pg.types.setTypeParser(pg.types.builtins.INT8, (valor) => Number(valor));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (valor) => Number(valor));

export type DbPostgres = NodePgDatabase<typeof schema> & { $client: pg.Pool };

/** PostgreSQL's migrations in the project tree (drizzle-kit's output, committed). */
export const PASTA_MIGRACOES_PG = path.join(process.cwd(), 'server', 'src', 'db', 'migrations-pg');

export interface OpcoesBancoPostgres {
  /** postgres:// or postgresql:// URL. */
  url: string;
  /** Folder with drizzle-kit's PostgreSQL migrations. */
  pastaMigracoes?: string;
}

export async function abrirBancoPostgres({ url, pastaMigracoes = PASTA_MIGRACOES_PG }: OpcoesBancoPostgres): Promise<DbPostgres> {
  const pool = new pg.Pool({ connectionString: url });
  // An idle connection the server drops (restart, failover) must not take the process down: the next
  // query opens another one.
  pool.on('error', () => {});
  const db = drizzle(pool, { schema }) as DbPostgres;
  try {
    await migrate(db, { migrationsFolder: pastaMigracoes });
  } catch (erro) {
    await pool.end();
    throw erro;
  }
  return db;
}

/** The database for the app: migrated, with the data functions' tables pointed at PostgreSQL's. */
export async function abrirBancoPostgresDoApp(opcoes: OpcoesBancoPostgres): Promise<Db> {
  usarTabelasDoPostgres();
  return (await abrirBancoPostgres(opcoes)) as unknown as Db;
}

/**
 * A connection pool on an already migrated database (no migrations run): the export worker's, which
 * reads while the server process owns the schema. Tables pointed at PostgreSQL's in this thread too.
 */
export function conectarPostgresDoApp(url: string, maximoDeConexoes = 1): Db {
  usarTabelasDoPostgres();
  const pool = new pg.Pool({ connectionString: url, max: maximoDeConexoes });
  pool.on('error', () => {});
  return drizzle(pool, { schema }) as unknown as Db;
}
