/**
 * Which database engine the configuration asks for (issue 21). DATABASE_URL is accepted by the
 * configuration, the PostgreSQL schema and migrations exist (schema.pg.ts, migrations-pg), but the data
 * functions still run on SQLite only: a server started with the URL would silently write to SQLite
 * instead, so every command refuses to start with it until the port is done.
 */
import type { Config } from '../config';

export const MENSAGEM_POSTGRES_EM_CONSTRUCAO =
  'DATABASE_URL está definida, mas o suporte a PostgreSQL ainda está em construção: o esquema e as migrações ' +
  'existem, as funções de dados ainda não. O servidor roda com SQLite (o banco em DATA_DIR) sem DATABASE_URL: ' +
  'remova a variável para iniciar.';

export class ErroMotorIndisponivel extends Error {
  constructor() {
    super(MENSAGEM_POSTGRES_EM_CONSTRUCAO);
    this.name = 'ErroMotorIndisponivel';
  }
}

/** Throws unless the configured engine is one the server can run on today (SQLite). */
export function exigirMotorDisponivel(config: Pick<Config, 'databaseUrl'>): void {
  if (config.databaseUrl !== undefined) throw new ErroMotorIndisponivel();
}
