/**
 * The database a test app runs on: a temporary SQLite file by default; with TESTE_BANCO=postgres (the
 * `server-pg` project of vitest), a fresh PostgreSQL database copied from the migrated template the
 * project's globalSetup made (server/test/postgresGlobal.ts). The same suite, both engines.
 */
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { abrirBanco, type Db } from '../src/db';
import { abrirBancoPostgresDoApp } from '../src/db/postgres';
import { recursosDoProjeto } from '../src/recursos';
import { BANCO_MODELO } from './postgresGlobal';

export type MotorDeTeste = 'sqlite' | 'postgres';

export const MOTOR_DE_TESTE: MotorDeTeste = process.env.TESTE_BANCO === 'postgres' ? 'postgres' : 'sqlite';

export interface BancoDeTeste {
  db: Db;
  /** Closes the connections and removes the database (the SQLite file goes with the test's folder). */
  fechar(): Promise<void>;
}

let bancos = 0;

export async function abrirBancoDeTeste(dataDir: string): Promise<BancoDeTeste> {
  if (MOTOR_DE_TESTE === 'sqlite') {
    const db = abrirBanco({ arquivo: path.join(dataDir, 'app.db'), pastaMigracoes: recursosDoProjeto().pastaMigracoes });
    return {
      db,
      fechar: async () => {
        db.$client.close();
      },
    };
  }
  const modelo = inject('postgresModelo');
  if (!modelo) throw new Error('TESTE_BANCO=postgres sem o PostgreSQL de teste (server/test/postgresGlobal.ts).');
  const nome = `sg_t${process.pid}_${++bancos}`;
  const administracao = modelo.replace(/\/[^/]+$/, '/postgres');
  await comAdmin(administracao, (c) => c.query(`create database ${nome} template ${BANCO_MODELO}`));
  const db = await abrirBancoPostgresDoApp({ url: modelo.replace(/\/[^/]+$/, `/${nome}`) });
  return {
    db,
    fechar: async () => {
      await (db.$client as unknown as pg.Pool).end();
      await comAdmin(administracao, (c) => c.query(`drop database if exists ${nome} with (force)`));
    },
  };
}

async function comAdmin(url: string, fn: (cliente: pg.Client) => Promise<unknown>): Promise<void> {
  const cliente = new pg.Client({ connectionString: url });
  await cliente.connect();
  try {
    await fn(cliente);
  } finally {
    await cliente.end();
  }
}

/** The database's own message for a refused statement (drizzle may wrap the driver's error in its own). */
export async function recusaDe(consulta: PromiseLike<unknown>): Promise<string> {
  try {
    await consulta;
  } catch (erro) {
    const doBanco = (erro as { cause?: unknown }).cause ?? erro;
    return doBanco instanceof Error ? doBanco.message : String(doBanco);
  }
  throw new Error('a instrução foi aceita');
}
