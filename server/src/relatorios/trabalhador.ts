/**
 * The export worker (a worker_threads Worker, kept for a while after an export: loading pdfkit, exceljs
 * and the server's modules takes 0.5-1 s on an idle machine, many seconds on a busy one). For each
 * request it is sent ({ id, arquivo or urlPostgres, pedido }), it opens the database read-only (the SQLite
 * file, or a connection of its own to the PostgreSQL of DATABASE_URL), makes the file
 * (geracao.ts) and sends it to the request's thread in parts of PARTE bytes (transferred, not copied),
 * then 'fim'; or 'erro' with what went wrong. One export at a time per worker. Bundled on its own by
 * scripts/build-server.mjs (build/trabalhador-exportacao.cjs) and located by recursos.ts; the single
 * executable embeds its own bundle (scripts/build-binary.mjs) and gives the extracted addon's path.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { Db } from '../db';
import { conectarPostgresDoApp } from '../db/postgres';
import { gerarExportacao, type PedidoExportacao } from './geracao';

/** Where the worker reads: the SQLite file, or the PostgreSQL of DATABASE_URL (its own connection). */
export type OrigemDosDados = { arquivo: string } | { urlPostgres: string };

export type DadosDoTrabalhador = OrigemDosDados & { pedido: PedidoExportacao };

export type PedidoAoTrabalhador = DadosDoTrabalhador & { id: number };

/** Given when the worker starts: SQLite's addon to load (the single executable's extracted one), or null for node_modules'. */
export interface DadosIniciaisDoTrabalhador {
  nativeBinding: string | null;
}

const nativeBinding = (workerData as DadosIniciaisDoTrabalhador | null)?.nativeBinding ?? null;

export type MensagemDoTrabalhador = { id: number } & (
  | { tipo: 'inicio'; rotas: number; bytes: number }
  | { tipo: 'parte'; dados: Uint8Array }
  | { tipo: 'fim' }
  | { tipo: 'erro'; mensagem: string }
);

const PARTE = 64 * 1024;

/** The file, read in one transaction: the table, the totals and every route's details come from the same moment. */
async function gerarNoSqlite(arquivo: string, pedido: PedidoExportacao) {
  const sqlite = new Database(arquivo, { readonly: true, fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) });
  try {
    sqlite.pragma('busy_timeout = 5000');
    // SQLite's own handle: the data functions' queries, on SQLite's table declarations (db/tabelas.ts's default in this thread).
    const db = drizzle(sqlite) as unknown as Db;
    sqlite.prepare('begin').run();
    const resultado = await gerarExportacao(db, pedido);
    sqlite.prepare('commit').run();
    return resultado;
  } finally {
    sqlite.close();
  }
}

/** PostgreSQL: one connection of its own, one read-only REPEATABLE READ transaction (one moment, as on SQLite). */
async function gerarNoPostgres(url: string, pedido: PedidoExportacao) {
  const db = conectarPostgresDoApp(url);
  try {
    return await (db as unknown as PgDatabase<PgQueryResultHKT>).transaction((tx) => gerarExportacao(tx as unknown as Db, pedido), {
      isolationLevel: 'repeatable read',
      accessMode: 'read only',
    });
  } finally {
    await (db.$client as unknown as { end(): Promise<void> }).end();
  }
}

async function trabalhar(porta: NonNullable<typeof parentPort>, { id, pedido, ...origem }: PedidoAoTrabalhador) {
  const { bytes, rotas } = 'urlPostgres' in origem ? await gerarNoPostgres(origem.urlPostgres, pedido) : await gerarNoSqlite(origem.arquivo, pedido);
  porta.postMessage({ id, tipo: 'inicio', rotas, bytes: bytes.length } satisfies MensagemDoTrabalhador);
  for (let inicio = 0; inicio < bytes.length; inicio += PARTE) {
    const dados = new Uint8Array(bytes.subarray(inicio, inicio + PARTE));
    porta.postMessage({ id, tipo: 'parte', dados } satisfies MensagemDoTrabalhador, [dados.buffer]);
  }
  porta.postMessage({ id, tipo: 'fim' } satisfies MensagemDoTrabalhador);
}

if (parentPort) {
  const porta = parentPort;
  porta.on('message', (pedido: PedidoAoTrabalhador) => {
    trabalhar(porta, pedido).catch((erro: unknown) => {
      porta.postMessage({ id: pedido.id, tipo: 'erro', mensagem: erro instanceof Error ? (erro.stack ?? erro.message) : String(erro) } satisfies MensagemDoTrabalhador);
    });
  });
}
