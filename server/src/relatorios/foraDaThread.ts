/**
 * Exports off the request thread: each export runs in a worker thread (trabalhador.ts, one
 * export at a time each, kept a minute for the next), which reads the database on its own read-only
 * connection and draws the file; this thread only relays the parts to the response as they arrive. Drawing every route's PDF took
 * 0.2-1 s of the event loop, during which no phone's sync nor any other request was answered.
 * At most EXPORTACOES_SIMULTANEAS run at once (each worker holds ~40 MB of pdfkit/exceljs while it
 * runs): the ones beyond are refused with 503 and Retry-After, never queued without bound.
 */
import { Readable } from 'node:stream';
import type { Worker } from 'node:worker_threads';
import { arquivoSqliteDe, type Db } from '../db';
import { urlDoPostgres } from '../db/motor';
import { ErroApp } from '../errors';
import { localizarTrabalhador, novoTrabalhador, type ArquivoDeTrabalhador } from '../recursos';
import { gerarExportacao, type PedidoExportacao } from './geracao';
import type { DadosDoTrabalhador, DadosIniciaisDoTrabalhador, MensagemDoTrabalhador, OrigemDosDados, PedidoAoTrabalhador } from './trabalhador';

export const EXPORTACOES_SIMULTANEAS = 2;
export const MENSAGEM_EXPORTACOES_OCUPADAS = `Já há ${EXPORTACOES_SIMULTANEAS} relatórios sendo gerados. Tente novamente em alguns segundos.`;

export const exportacoesOcupadas = () => new ErroApp(503, 'indisponivel', MENSAGEM_EXPORTACOES_OCUPADAS);

/** Slots for exports: `ocupar()` gives the release function, or null when all are taken. */
export class LimiteDeExportacoes {
  emAndamento = 0;
  constructor(private readonly maximo: number) {}

  ocupar(): (() => void) | null {
    if (this.emAndamento >= this.maximo) return null;
    this.emAndamento += 1;
    let liberada = false;
    return () => {
      if (liberada) return;
      liberada = true;
      this.emAndamento -= 1;
    };
  }
}

export interface Exportacao {
  /** Drawn by a worker thread (false: in the request's thread, see `exportar`). */
  emTrabalhador: boolean;
  rotas: number;
  bytes: number;
  corpo: Readable;
}

/** How long an idle worker is kept for the next export (exports come in bursts: the PDF, then the spreadsheet). */
export const TRABALHADOR_OCIOSO_MS = 60_000;

/**
 * The export workers: at most one export at a time each (the slots of LimiteDeExportacoes bound how
 * many exist), kept TRABALHADOR_OCIOSO_MS after their last export, then ended. Unref'd: an idle worker
 * never keeps the process alive.
 */
export class TrabalhadoresDeExportacao {
  private readonly livres = new Map<Worker, NodeJS.Timeout>();
  private proximoId = 1;
  /** Workers started so far (each loads pdfkit, exceljs and the server's modules once). */
  criados = 0;
  constructor(
    private readonly trabalhador: ArquivoDeTrabalhador,
    private readonly ociosoMs = TRABALHADOR_OCIOSO_MS,
  ) {}

  private obter(): Worker {
    for (const [worker, prazo] of this.livres) {
      clearTimeout(prazo);
      this.livres.delete(worker);
      return worker;
    }
    const workerData: DadosIniciaisDoTrabalhador = { nativeBinding: this.trabalhador.nativeBinding ?? null };
    const worker = novoTrabalhador(this.trabalhador, workerData);
    this.criados += 1;
    worker.unref();
    // A worker that ends (crash, terminate) leaves the idle list by itself.
    worker.once('exit', () => {
      clearTimeout(this.livres.get(worker));
      this.livres.delete(worker);
    });
    return worker;
  }

  private devolver(worker: Worker) {
    const prazo = setTimeout(() => void worker.terminate(), this.ociosoMs);
    prazo.unref();
    this.livres.set(worker, prazo);
  }

  /** Ends the idle workers (app close). */
  async encerrar() {
    const ociosos = [...this.livres.keys()];
    await Promise.all(ociosos.map((w) => w.terminate()));
  }

  /**
   * Runs the export in a worker and resolves once the file is ready to be sent (its size known), with a
   * stream of its parts; rejects if it fails before that. `liberar` (idempotent) is called once the file
   * is whole, or when the export fails.
   */
  exportar(dados: DadosDoTrabalhador, liberar: () => void): Promise<Exportacao> {
    const worker = this.obter();
    const id = this.proximoId++;
    return new Promise((resolve, reject) => {
      let corpo: Readable | null = null;
      let terminado = false;
      const falhar = (erro: Error) => {
        if (terminado) return;
        terminado = true;
        desligar();
        liberar();
        if (corpo) corpo.destroy(erro);
        else reject(erro);
      };
      const aoMorrer = (codigo: number) => falhar(new Error(`o trabalhador de exportação terminou (código ${codigo}) sem terminar o arquivo`));
      const aoErro = (erro: Error) => falhar(erro);
      const aoMensagem = (m: MensagemDoTrabalhador) => {
        if (m.id !== id) return;
        if (m.tipo === 'inicio') {
          corpo = new Readable({ read() {} });
          // The client gave up (closed the connection) before the end: stop drawing.
          corpo.once('close', () => {
            if (!terminado) void worker.terminate();
          });
          resolve({ emTrabalhador: true, rotas: m.rotas, bytes: m.bytes, corpo });
        } else if (m.tipo === 'parte') corpo?.push(Buffer.from(m.dados.buffer, m.dados.byteOffset, m.dados.byteLength));
        else if (m.tipo === 'fim') {
          // The file is whole: the slot and the worker are free now.
          terminado = true;
          desligar();
          liberar();
          this.devolver(worker);
          corpo?.push(null);
        } else {
          // The worker is sound (the failure was caught in it): it goes back for the next export.
          const mensagem = m.mensagem;
          falhar(new Error(`exportação falhou no trabalhador: ${mensagem}`));
          this.devolver(worker);
        }
      };
      const desligar = () => {
        worker.off('message', aoMensagem);
        worker.off('error', aoErro);
        worker.off('exit', aoMorrer);
      };
      worker.on('message', aoMensagem);
      worker.once('error', aoErro);
      worker.once('exit', aoMorrer);
      worker.postMessage({ id, ...dados } satisfies PedidoAoTrabalhador);
    });
  }
}

const limitePadrao = new WeakMap<Db, LimiteDeExportacoes>();
const trabalhadoresPadrao = new WeakMap<Db, Map<string, TrabalhadoresDeExportacao>>();

function trabalhadoresDe(db: Db, trabalhador: ArquivoDeTrabalhador): TrabalhadoresDeExportacao {
  let doBanco = trabalhadoresPadrao.get(db);
  if (!doBanco) trabalhadoresPadrao.set(db, (doBanco = new Map()));
  let t = doBanco.get(trabalhador.arquivo);
  if (!t) doBanco.set(trabalhador.arquivo, (t = new TrabalhadoresDeExportacao(trabalhador)));
  return t;
}

/** Ends the idle export workers of this database (the app's onClose). */
export async function encerrarTrabalhadores(db: Db): Promise<void> {
  await Promise.all([...(trabalhadoresPadrao.get(db)?.values() ?? [])].map((t) => t.encerrar()));
}

/** What a worker can open on its own: the SQLite file, or PostgreSQL's URL; null for an in-memory SQLite database. */
export function origemDosDados(db: Db): OrigemDosDados | null {
  const arquivo = arquivoSqliteDe(db);
  if (arquivo) return { arquivo };
  const urlPostgres = urlDoPostgres(db);
  return urlPostgres ? { urlPostgres } : null;
}

/**
 * The export of `pedido`: in a worker when it can open the database on its own (an SQLite file, or the
 * PostgreSQL of DATABASE_URL: always, in the server), in this thread otherwise (an in-memory database,
 * or no worker file found). Throws the pt-BR 503 when EXPORTACOES_SIMULTANEAS are already running.
 */
export async function exportar(db: Db, pedido: PedidoExportacao, trabalhador: ArquivoDeTrabalhador | null = localizarTrabalhador('exportacao')): Promise<Exportacao> {
  let limite = limitePadrao.get(db);
  if (!limite) limitePadrao.set(db, (limite = new LimiteDeExportacoes(EXPORTACOES_SIMULTANEAS)));
  const liberar = limite.ocupar();
  if (!liberar) throw exportacoesOcupadas();
  const origem = origemDosDados(db);
  if (trabalhador && origem) return trabalhadoresDe(db, trabalhador).exportar({ ...origem, pedido }, liberar);
  try {
    const { bytes, rotas } = await gerarExportacao(db, pedido);
    return { emTrabalhador: false, rotas, bytes: bytes.length, corpo: Readable.from([bytes]) };
  } finally {
    liberar();
  }
}
