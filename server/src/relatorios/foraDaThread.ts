/**
 * Exports off the request thread (issue 19): each export runs in a worker thread of its own
 * (trabalhador.ts), which reads the database on its own read-only connection and draws the file; this
 * thread only relays the parts to the response as they arrive. Drawing every route's PDF took
 * 0.2-1 s of the event loop, during which no phone's sync nor any other request was answered.
 * At most EXPORTACOES_SIMULTANEAS run at once (each worker holds ~40 MB of pdfkit/exceljs while it
 * runs): the ones beyond are refused with 503 and Retry-After, never queued without bound.
 */
import { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import type { Db } from '../db';
import { ErroApp } from '../errors';
import { localizarTrabalhadorExportacao, type TrabalhadorExportacao } from '../recursos';
import { gerarExportacao, type PedidoExportacao } from './geracao';
import type { DadosDoTrabalhador, MensagemDoTrabalhador } from './trabalhador';

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

/**
 * Starts the export in a worker and resolves once the file is ready to be sent (its size known), with a
 * stream of its parts; rejects if the worker fails before that. `liberar` (idempotent) is called once the file
 * is whole, or when the worker is gone.
 */
export function exportarNoTrabalhador(trabalhador: TrabalhadorExportacao, dados: DadosDoTrabalhador, liberar: () => void): Promise<Exportacao> {
  return new Promise((resolve, reject) => {
    const worker = trabalhador.registroTsx
      ? new Worker(`require(${JSON.stringify(trabalhador.registroTsx)}).register(); require(${JSON.stringify(trabalhador.arquivo)});`, { eval: true, workerData: dados })
      : new Worker(trabalhador.arquivo, { workerData: dados });
    let corpo: Readable | null = null;
    worker.on('message', (m: MensagemDoTrabalhador) => {
      if (m.tipo === 'inicio') {
        corpo = new Readable({ read() {} });
        // The client gave up (closed the connection): stop drawing.
        corpo.once('close', () => void worker.terminate());
        resolve({ emTrabalhador: true, rotas: m.rotas, bytes: m.bytes, corpo });
      } else if (m.tipo === 'parte') corpo?.push(Buffer.from(m.dados.buffer, m.dados.byteOffset, m.dados.byteLength));
      else if (m.tipo === 'fim') {
        // The file is whole: the slot is free now (the worker's exit follows on its own).
        liberar();
        corpo?.push(null);
      }
      else if (m.tipo === 'erro') {
        const erro = new Error(`exportação falhou no trabalhador: ${m.mensagem}`);
        if (corpo) corpo.destroy(erro);
        else reject(erro);
      }
    });
    worker.once('error', (erro) => {
      if (corpo) corpo.destroy(erro);
      else reject(erro);
    });
    worker.once('exit', (codigo) => {
      liberar();
      if (!corpo) reject(new Error(`o trabalhador de exportação terminou (código ${codigo}) sem gerar o arquivo`));
      else if (!corpo.readableEnded && codigo !== 0) corpo.destroy(new Error(`o trabalhador de exportação terminou no meio (código ${codigo})`));
    });
  });
}

const limitePadrao = new WeakMap<Db, LimiteDeExportacoes>();

/**
 * The export of `pedido`: in a worker when the database is a file (always, in the server), in this
 * thread otherwise (an in-memory database a worker cannot open, or no worker file, as in the single
 * executable). Throws the pt-BR 503 when EXPORTACOES_SIMULTANEAS are already running.
 */
export async function exportar(db: Db, pedido: PedidoExportacao, trabalhador: TrabalhadorExportacao | null = localizarTrabalhadorExportacao()): Promise<Exportacao> {
  let limite = limitePadrao.get(db);
  if (!limite) limitePadrao.set(db, (limite = new LimiteDeExportacoes(EXPORTACOES_SIMULTANEAS)));
  const liberar = limite.ocupar();
  if (!liberar) throw exportacoesOcupadas();
  if (trabalhador && !db.$client.memory) return exportarNoTrabalhador(trabalhador, { arquivo: db.$client.name, pedido }, liberar);
  try {
    const { bytes, rotas } = await gerarExportacao(db, pedido);
    return { emTrabalhador: false, rotas, bytes: bytes.length, corpo: Readable.from([bytes]) };
  } finally {
    liberar();
  }
}
