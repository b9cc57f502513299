/**
 * Opens a PostgreSQL database through node-postgres and applies migrations-pg (issue 21). The foundation
 * for DATABASE_URL: the server's data functions still run on SQLite only (db/motor.ts refuses the URL
 * at start), so today the tests and the schema checks are its users.
 */
import path from 'node:path';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema.pg';

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
