/**
 * The export worker (a worker_threads Worker, kept for a while after an export: loading pdfkit, exceljs
 * and the server's modules takes 0.5-1 s on an idle machine, many seconds on a busy one). For each
 * request it is sent ({ id, arquivo, pedido }), it opens the database read-only, makes the file
 * (geracao.ts) and sends it to the request's thread in parts of PARTE bytes (transferred, not copied),
 * then 'fim'; or 'erro' with what went wrong. One export at a time per worker. Bundled on its own by
 * scripts/build-server.mjs (build/trabalhador-exportacao.cjs) and located by recursos.ts; the single
 * executable embeds its own bundle (scripts/build-binary.mjs) and gives the extracted addon's path.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import type { Db } from '../db';
import { gerarExportacao, type PedidoExportacao } from './geracao';

export interface DadosDoTrabalhador {
  arquivo: string;
  pedido: PedidoExportacao;
}

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

async function trabalhar(porta: NonNullable<typeof parentPort>, { id, arquivo, pedido }: PedidoAoTrabalhador) {
  const sqlite = new Database(arquivo, { readonly: true, fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) });
  try {
    sqlite.pragma('busy_timeout = 5000');
    // SQLite's own handle (the worker exists for an SQLite file): the data functions' queries, on SQLite's
    // table declarations (db/tabelas.ts's default in this thread).
    const db = drizzle(sqlite) as unknown as Db;
    // One read transaction on this connection: the table, the totals and every route's details come from the same moment.
    sqlite.prepare('begin').run();
    const { bytes, rotas } = await gerarExportacao(db, pedido);
    sqlite.prepare('commit').run();
    porta.postMessage({ id, tipo: 'inicio', rotas, bytes: bytes.length } satisfies MensagemDoTrabalhador);
    for (let inicio = 0; inicio < bytes.length; inicio += PARTE) {
      const dados = new Uint8Array(bytes.subarray(inicio, inicio + PARTE));
      porta.postMessage({ id, tipo: 'parte', dados } satisfies MensagemDoTrabalhador, [dados.buffer]);
    }
    porta.postMessage({ id, tipo: 'fim' } satisfies MensagemDoTrabalhador);
  } finally {
    sqlite.close();
  }
}

if (parentPort) {
  const porta = parentPort;
  porta.on('message', (pedido: PedidoAoTrabalhador) => {
    trabalhar(porta, pedido).catch((erro: unknown) => {
      porta.postMessage({ id: pedido.id, tipo: 'erro', mensagem: erro instanceof Error ? (erro.stack ?? erro.message) : String(erro) } satisfies MensagemDoTrabalhador);
    });
  });
}
