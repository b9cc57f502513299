/**
 * WAL checkpoints off the request thread (for sync throughput). SQLite's automatic checkpoint
 * runs inside the COMMIT that crosses wal_autocheckpoint: that request, and every other one waiting on
 * the event loop, waits while 16 MB of pages are copied into the database file and fsynced twice
 * (~5 ms per 1,000 pages on this machine, more on a VPS disk). A phone replaying a week of sales
 * crossed it once or twice per sync. SQLite's documentation (wal.html, "Automatic Checkpoint") gives
 * the way out: checkpoint from another thread. Here a worker (trabalhadorCheckpoint.ts) runs a PASSIVE
 * checkpoint every INTERVALO_CHECKPOINT_MS on a connection of its own, and the app's connection keeps
 * its automatic checkpoint only as a fallback, at four times the size, for a worker that falls behind.
 * If the worker cannot start or dies, the app's automatic checkpoint goes back to its size: the WAL is
 * never left without a checkpoint.
 *
 * Not with the continuous copy on (operacao/copiaContinua.ts): it owns the checkpoints then.
 */
import type { Config } from '../config';
import { localizarTrabalhador, novoTrabalhador, type ArquivoDeTrabalhador } from '../recursos';
import { arquivoSqliteDe, AUTOCHECKPOINT_PAGINAS, type Db } from './index';
import { motorDaConfig } from './motor';
import type { DadosDoTrabalhadorCheckpoint, MensagemDoTrabalhadorCheckpoint, PedidoAoTrabalhadorCheckpoint } from './trabalhadorCheckpoint';

export const INTERVALO_CHECKPOINT_MS = 200;

/** The app connection's own automatic checkpoint while the worker runs: reached only if the worker falls behind (64 MB of WAL). */
export const AUTOCHECKPOINT_DE_RESERVA_PAGINAS = 4 * AUTOCHECKPOINT_PAGINAS;

/** How long `parar` waits for the worker to close its connection before ending it. */
const ESPERA_AO_PARAR_MS = 2_000;

export interface LogDoCheckpoint {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
}

export interface CheckpointFeito {
  /** Frames in the WAL when it ran. */
  quadros: number;
  /** Of them, in the database file after it. */
  copiados: number;
}

export interface CheckpointDoWal {
  /** true once the worker has its connection open and the app's automatic checkpoint is the fallback; false if it could not start. */
  pronto: Promise<boolean>;
  /** Resolves once the worker has ended: stopped (`parar`), or it could not run or died. */
  terminou: Promise<void>;
  /** Checkpoints the worker ran (each after commits of the app). */
  readonly checkpoints: number;
  /** The next checkpoint the worker runs. */
  proximoCheckpoint(): Promise<CheckpointFeito>;
  /** Ends the worker (its connection closed) and gives the checkpoints back to the app's connection. */
  parar(): Promise<void>;
}

export interface OpcoesCheckpointDoWal {
  trabalhador: ArquivoDeTrabalhador;
  log: LogDoCheckpoint;
  intervaloMs?: number;
}

/** Starts the checkpoint worker on `db`'s SQLite file. */
export function iniciarCheckpointDoWal(db: Db, { trabalhador, log, intervaloMs = INTERVALO_CHECKPOINT_MS }: OpcoesCheckpointDoWal): CheckpointDoWal {
  const arquivo = arquivoSqliteDe(db);
  if (!arquivo) throw new Error('checkpoint do WAL numa thread: o banco não é um arquivo SQLite');
  const dados: DadosDoTrabalhadorCheckpoint = { arquivo, intervaloMs, nativeBinding: trabalhador.nativeBinding ?? null };
  const worker = novoTrabalhador(trabalhador, dados);
  // Never what keeps the process alive.
  worker.unref();

  let checkpoints = 0;
  let parado = false;
  let ultimoErro = '';
  let esperando: ((feito: CheckpointFeito) => void)[] = [];
  let avisarPronto: (ligado: boolean) => void = () => {};
  const pronto = new Promise<boolean>((resolve) => (avisarPronto = resolve));
  const terminou = new Promise<void>((resolve) => worker.once('exit', () => resolve()));

  const autocheckpoint = (paginas: number) => {
    if (db.$client.open) db.$client.pragma(`wal_autocheckpoint = ${paginas}`);
  };
  let devolvido = false;
  // On a crash both 'error' and 'exit' come: said once.
  const devolverAoApp = (motivo: object) => {
    if (devolvido) return;
    devolvido = true;
    autocheckpoint(AUTOCHECKPOINT_PAGINAS);
    avisarPronto(false);
    if (!parado) log.warn(motivo, 'checkpoint do WAL: a thread parou; os checkpoints voltam para as requisições');
  };

  worker.on('message', (m: MensagemDoTrabalhadorCheckpoint) => {
    if (m.tipo === 'pronto') {
      if (parado) return;
      autocheckpoint(AUTOCHECKPOINT_DE_RESERVA_PAGINAS);
      avisarPronto(true);
      log.info({ intervaloMs, reservaPaginas: AUTOCHECKPOINT_DE_RESERVA_PAGINAS }, 'checkpoint do WAL numa thread à parte');
    } else if (m.tipo === 'checkpoint') {
      checkpoints += 1;
      ultimoErro = '';
      log.debug({ quadros: m.quadros, copiados: m.copiados, ms: Math.round(m.ms * 10) / 10 }, 'checkpoint do WAL');
      const feito = { quadros: m.quadros, copiados: m.copiados };
      const aAvisar = esperando;
      esperando = [];
      for (const avisar of aAvisar) avisar(feito);
    } else if (m.mensagem !== ultimoErro) {
      // Logged once per kind of failure: the next tick may well succeed, and a stuck one should not fill the log.
      ultimoErro = m.mensagem;
      log.warn({ erro: m.mensagem }, 'checkpoint do WAL: falhou nesta vez; tenta de novo no próximo intervalo');
    }
  });
  worker.once('error', (erro) => devolverAoApp({ erro: String(erro) }));
  worker.once('exit', (codigo) => devolverAoApp({ codigo }));

  return {
    pronto,
    terminou,
    get checkpoints() {
      return checkpoints;
    },
    proximoCheckpoint: () => new Promise<CheckpointFeito>((resolve) => esperando.push(resolve)),
    async parar() {
      if (parado) return terminou;
      parado = true;
      worker.postMessage({ tipo: 'parar' } satisfies PedidoAoTrabalhadorCheckpoint);
      const prazo = setTimeout(() => void worker.terminate(), ESPERA_AO_PARAR_MS);
      await terminou;
      clearTimeout(prazo);
    },
  };
}

/**
 * The server's (`serve`): on SQLite's file, unless the continuous copy is on (it owns the checkpoints
 * then); null when not started, with the app's automatic checkpoint as it was.
 */
export function iniciarCheckpointDoServidor(
  config: Pick<Config, 'databaseUrl' | 'copia'>,
  db: Db,
  log: LogDoCheckpoint,
  trabalhador: ArquivoDeTrabalhador | null = localizarTrabalhador('checkpoint'),
): CheckpointDoWal | null {
  if (motorDaConfig(config) !== 'sqlite' || config.copia || !arquivoSqliteDe(db)) return null;
  if (!trabalhador) {
    log.warn({}, 'checkpoint do WAL: o arquivo da thread não foi encontrado; os checkpoints ficam nas requisições');
    return null;
  }
  return iniciarCheckpointDoWal(db, { trabalhador, log });
}
