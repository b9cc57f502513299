/**
 * The WAL checkpoint worker (a worker_threads Worker for the life of the server; checkpointDoWal.ts
 * starts it). Every `intervaloMs`, if another connection committed since the WAL was last copied
 * whole (`data_version`), it runs a PASSIVE checkpoint on a connection of its own: the WAL's new frames
 * are copied into the database file, with the two fsyncs that go with it, on this thread instead of at
 * the end of whichever request's COMMIT crossed wal_autocheckpoint. PASSIVE never waits for nor blocks
 * a reader or the writer. An idle server's tick reads data_version and nothing else.
 * Bundled on its own (scripts/build-server.mjs, scripts/build-binary.mjs) and located by recursos.ts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

export interface DadosDoTrabalhadorCheckpoint {
  arquivo: string;
  intervaloMs: number;
  /** SQLite's addon to load (the single executable's extracted one), or null for node_modules'. */
  nativeBinding: string | null;
}

export type MensagemDoTrabalhadorCheckpoint =
  | { tipo: 'pronto' }
  /** A checkpoint run after a commit of another connection: the WAL's frames (`quadros`), how many are in the file now, how long it took. */
  | { tipo: 'checkpoint'; quadros: number; copiados: number; ms: number }
  | { tipo: 'erro'; mensagem: string };

export type PedidoAoTrabalhadorCheckpoint = { tipo: 'parar' };

const { arquivo, intervaloMs, nativeBinding } = workerData as DadosDoTrabalhadorCheckpoint;
const porta = parentPort!;

const sqlite = new Database(arquivo, { fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) });
// This connection never writes; its own automatic checkpoint would never run anyway.
sqlite.pragma('wal_autocheckpoint = 0');
const checkpoint = sqlite.prepare('pragma wal_checkpoint(PASSIVE)');

const versaoDoBanco = sqlite.prepare('pragma data_version').pluck();

/**
 * data_version when a checkpoint last left the whole WAL in the file: while it stays the same, no
 * other connection has committed since, and the tick does nothing more.
 */
let versaoCopiada: unknown = null;

function checkpointar() {
  const inicio = performance.now();
  try {
    const versao = versaoDoBanco.get();
    if (versao === versaoCopiada) return;
    const r = checkpoint.get() as { busy: number; log: number; checkpointed: number };
    if (r.busy === 0 && r.checkpointed === r.log) versaoCopiada = versao;
    porta.postMessage({ tipo: 'checkpoint', quadros: r.log, copiados: r.checkpointed, ms: performance.now() - inicio } satisfies MensagemDoTrabalhadorCheckpoint);
  } catch (erro) {
    porta.postMessage({ tipo: 'erro', mensagem: String(erro) } satisfies MensagemDoTrabalhadorCheckpoint);
  }
}

const relogio = setInterval(checkpointar, intervaloMs);

porta.on('message', (pedido: PedidoAoTrabalhadorCheckpoint) => {
  if (pedido.tipo !== 'parar') return;
  clearInterval(relogio);
  sqlite.close();
  porta.close();
});

porta.postMessage({ tipo: 'pronto' } satisfies MensagemDoTrabalhadorCheckpoint);
