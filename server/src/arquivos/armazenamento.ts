/**
 * Where receipt files live (issue 21, item 2): the folder DATA_DIR/uploads (the default, as before)
 * or a private bucket of an S3-compatible object storage when the S3_* variables are set (config.ts).
 * Access checks stay in the app: no public or presigned URL ever reaches a phone; a receipt goes from
 * the bucket through GET /api/despesas/:id/cupons/:cupomId to whoever may see it, streamed.
 *
 * The same promise on both: no row points at a missing file, and a refused or failed write leaves no
 * file anyone can reach.
 * - local: the received temporary file is renamed into place as the last step inside the transaction
 *   (`colocar`) and removed again if the commit fails (`desfazer`), exactly as before this module.
 * - S3: an upload cannot run inside the synchronous SQLite transaction, so each receipt is put under
 *   its final key before it (`preparar`) and deleted when the transaction then refuses or fails
 *   (`desfazer`, best effort). What a crash or an unreachable bucket leaves behind is an object no row
 *   names: `varrerOrfaos` (at start and every hour) deletes those older than an hour.
 * - A removed receipt goes only after the commit that stopped pointing at it (`remover`).
 */
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import fp from 'fastify-plugin';
import type { ConfigS3 } from '../config';
import { caminhoCupom, colocarCupom, mesmoConteudo, pastaUploads, removerCupom, type CupomRecebido } from '../despesas/cupons';
import { arquivosGuardados } from '../despesas/repositorio';
import type { App } from '../tipos';

/** A stored receipt opened to be sent: its size, then its bytes (read once) or nothing (a 304). */
export interface CupomAberto {
  tamanho: number;
  fluxo(): Readable;
  /** Not sent after all: frees what `abrir` holds (the bucket's connection). */
  descartar(): void;
}

export interface ArmazenamentoCupons {
  readonly tipo: 'local' | 's3';
  /**
   * Before the transaction: S3 puts each received file under its final name (in order) and returns
   * the names stored, to undo if the transaction does not commit. Local: nothing (see `colocar`).
   */
  preparar(cupons: readonly CupomRecebido[], nomes: readonly string[]): Promise<string[]>;
  /** The last step inside the transaction (synchronous): local renames the file into place; S3 has nothing left to do. */
  colocar(cupom: CupomRecebido, nome: string): void;
  /** The transaction that would point at these did not commit: they go. Never throws. */
  desfazer(nomes: readonly string[]): Promise<void>;
  /** After the commit that stopped pointing at it. A file already gone is fine. */
  remover(nome: string | null | undefined): Promise<void>;
  /** True when the stored receipt has exactly the received bytes (a replayed edit sends the same file again). */
  mesmoConteudo(nome: string | null, cupom: CupomRecebido): Promise<boolean>;
  /** The stored receipt, or null when there is none by that name. */
  abrir(nome: string): Promise<CupomAberto | null>;
  /**
   * Deletes what no row names and is older than an hour (left by a crash between the upload and the
   * commit, or by a delete the bucket refused). `guardados` says which of the names rows point at.
   */
  varrerOrfaos(guardados: (nomes: string[]) => Set<string>, agora?: number): Promise<number>;
  fechar(): void;
}

export const MENSAGEM_ARMAZENAMENTO_INDISPONIVEL =
  'O armazenamento de comprovantes está indisponível no momento. Nada foi gravado; tente de novo em alguns minutos.';
export const MENSAGEM_LEITURA_INDISPONIVEL = 'O comprovante não pode ser aberto agora: o armazenamento de comprovantes está indisponível. Tente de novo em alguns minutos.';

/** An object younger than this may belong to a write still on its way to the commit. */
export const IDADE_MINIMA_ORFAO_MS = 60 * 60 * 1000;

export type Log = Pick<FastifyBaseLogger, 'debug' | 'info' | 'warn' | 'error'>;

/** DATA_DIR/uploads: the behaviour before issue 21, unchanged. */
export class ArmazenamentoLocal implements ArmazenamentoCupons {
  readonly tipo = 'local' as const;

  constructor(readonly pasta: string) {
    fs.mkdirSync(pasta, { recursive: true });
  }

  async preparar(): Promise<string[]> {
    return [];
  }

  colocar(cupom: CupomRecebido, nome: string): void {
    colocarCupom(this.pasta, cupom, nome);
  }

  async desfazer(nomes: readonly string[]): Promise<void> {
    for (const nome of nomes) {
      const caminho = caminhoCupom(this.pasta, nome);
      if (caminho) fs.rmSync(caminho, { force: true });
    }
  }

  remover(nome: string | null | undefined): Promise<void> {
    return removerCupom(this.pasta, nome);
  }

  mesmoConteudo(nome: string | null, cupom: CupomRecebido): Promise<boolean> {
    return mesmoConteudo(this.pasta, nome, cupom);
  }

  async abrir(nome: string): Promise<CupomAberto | null> {
    const caminho = caminhoCupom(this.pasta, nome);
    if (!caminho) return null;
    let tamanho: number;
    try {
      tamanho = (await fs.promises.stat(caminho)).size;
    } catch {
      return null;
    }
    return { tamanho, fluxo: () => fs.createReadStream(caminho), descartar: () => undefined };
  }

  async varrerOrfaos(): Promise<number> {
    return 0; // the rename happens inside the transaction: a file with no row needs a crash in the middle of a commit
  }

  fechar(): void {}
}

/** The storage the configuration asks for: S3 when every S3_* variable is set (its module loaded only then), else DATA_DIR/uploads. */
export async function criarArmazenamento(config: { s3: ConfigS3 | null }, pastaLocal: string, log: Log): Promise<ArmazenamentoCupons> {
  if (!config.s3) return new ArmazenamentoLocal(pastaLocal);
  const { ArmazenamentoS3 } = await import('./armazenamentoS3');
  return new ArmazenamentoS3(config.s3, log);
}

/** How often the S3 sweep runs (besides at start). */
export const VARREDURA_A_CADA_MS = 60 * 60 * 1000;

/**
 * Decorates the app with its storage (`app.armazenamento`, one S3 client for all routes) and, on S3,
 * sweeps orphans at start and every hour, never holding the start or a request: a bucket that does
 * not answer is told in the log and tried again at the next round.
 */
async function pluginArmazenamento(app: App) {
  const armazenamento = await criarArmazenamento(app.config, pastaUploads(app.config.dataDir), app.log);
  app.decorate('armazenamento', armazenamento);
  let emCurso: Promise<void> | null = null;
  let relogio: NodeJS.Timeout | undefined;
  const varrer = () => {
    emCurso ??= armazenamento
      .varrerOrfaos((nomes) => arquivosGuardados(app.db, nomes))
      .then((removidos) => {
        if (removidos > 0) app.log.info({ removidos }, 'comprovantes sem registro removidos do armazenamento');
      })
      .catch((erro: unknown) => app.log.warn({ err: erro }, 'varredura do armazenamento de comprovantes não concluída; nova tentativa na próxima rodada'))
      .finally(() => {
        emCurso = null;
      });
  };
  if (armazenamento.tipo === 's3') {
    app.addHook('onReady', async () => {
      varrer();
      relogio = setInterval(varrer, VARREDURA_A_CADA_MS);
      relogio.unref();
    });
  }
  app.addHook('onClose', async () => {
    clearInterval(relogio);
    await emCurso;
    armazenamento.fechar();
  });
}

export const armazenamentoPlugin = fp(pluginArmazenamento, { name: 'armazenamento' });
