/**
 * vitest globalSetup of the `server-pg` project: one throwaway PostgreSQL cluster for
 * the whole run, with a template database already migrated; each test app gets its own database copied
 * from it (server/test/bancoDeTeste.ts), so no test sees another's rows and none pays for the migrations.
 */
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { abrirBancoPostgres } from '../src/db/postgres';
import { iniciarPostgres, temPostgres } from './postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of the migrated template database; '' when the machine has no PostgreSQL (tests skipped). */
    postgresModelo: string;
  }
}

export const BANCO_MODELO = 'sg_modelo';

export default async function preparar(projeto: TestProject): Promise<() => Promise<void>> {
  if (!temPostgres) {
    projeto.provide('postgresModelo', '');
    return async () => {};
  }
  const servidor = await iniciarPostgres(BANCO_MODELO);
  const modelo = await abrirBancoPostgres({ url: servidor.url });
  await modelo.$client.end();
  // Only a template nobody is connected to can be copied: mark it so, then each CREATE DATABASE ... TEMPLATE works.
  const admin = new pg.Client({ connectionString: servidor.url.replace(/\/[^/]+$/, '/postgres') });
  await admin.connect();
  await admin.query(`alter database ${BANCO_MODELO} with is_template true`);
  await admin.end();
  projeto.provide('postgresModelo', servidor.url);
  return () => servidor.parar();
}
