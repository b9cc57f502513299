/**
 * Which database engine the server runs on: SQLite in DATA_DIR by default, the one
 * the single executable ships with; PostgreSQL when DATABASE_URL is set (several app processes,
 * managed databases with replicas). The one place that opens and closes either. The PostgreSQL client
 * (db/postgres.ts, node-postgres) is loaded only when DATABASE_URL asks for it: a server on SQLite never
 * evaluates it (and the single executable keeps it in a file of its own, scripts/build-binary.mjs).
 */
import path from 'node:path';
import type pg from 'pg';
import type { Config } from '../config';
import type { Recursos } from '../recursos';
import { abrirBanco, ehPostgres, type Db } from '.';

export type Motor = 'sqlite' | 'postgres';

export function motorDaConfig(config: Pick<Config, 'databaseUrl'>): Motor {
  return config.databaseUrl === undefined ? 'sqlite' : 'postgres';
}

export const arquivoSqliteDaConfig = (config: Pick<Config, 'dataDir'>): string => path.join(config.dataDir, 'app.db');

/** The database of the configuration, migrated: PostgreSQL with DATABASE_URL, otherwise DATA_DIR/app.db. */
export async function abrirBancoDoMotor(
  config: Pick<Config, 'databaseUrl' | 'dataDir'>,
  recursos: Pick<Recursos, 'pastaMigracoes' | 'pastaMigracoesPg'>,
  nativeBinding?: unknown,
): Promise<Db> {
  if (config.databaseUrl !== undefined) {
    const { abrirBancoPostgresDoApp } = await import('./postgres');
    return abrirBancoPostgresDoApp({ url: config.databaseUrl, pastaMigracoes: recursos.pastaMigracoesPg });
  }
  return abrirBanco({ arquivo: arquivoSqliteDaConfig(config), pastaMigracoes: recursos.pastaMigracoes, nativeBinding });
}

/** The URL a PostgreSQL pool was opened with (the export worker opens its own pool on the same database); null on SQLite. */
export function urlDoPostgres(db: Db): string | null {
  if (!ehPostgres(db)) return null;
  return (db.$client as unknown as pg.Pool).options.connectionString ?? null;
}

/** Closes the connections (SQLite's file, or PostgreSQL's pool after its queries end). */
export async function fecharBanco(db: Db): Promise<void> {
  if (ehPostgres(db)) await (db.$client as unknown as pg.Pool).end();
  else db.$client.close();
}

export class ErroSoNoSqlite extends Error {
  constructor(comando: string, alternativa: string) {
    super(`${comando} trabalha com o banco SQLite em DATA_DIR, e DATABASE_URL aponta para um PostgreSQL: ${alternativa}`);
    this.name = 'ErroSoNoSqlite';
  }
}

/** Commands about SQLite's file (backup, restore, the continuous copy) refuse to run against PostgreSQL, saying what to use. */
export function exigirSqlite(config: Pick<Config, 'databaseUrl'>, comando: string, alternativa: string): void {
  if (motorDaConfig(config) === 'postgres') throw new ErroSoNoSqlite(comando, alternativa);
}
