/**
 * Where receipt files live: the folder DATA_DIR/uploads (the default, as before)
 * or a private bucket of an S3-compatible object storage when the S3_* variables are set (config.ts).
 * Access checks stay in the app: no public or presigned URL ever reaches a phone; a receipt goes from
 * the bucket through GET /api/despesas/:id/cupons/:cupomId to whoever may see it, streamed.
 *
 * The same promise on both: no row points at a missing file, and a refused or failed write leaves no
 * file anyone can reach. Nothing but the database is awaited inside a transaction,
 * so on both each receipt is stored under its final name before the transaction that points at it
 * (`preparar`: local links the received temporary file into place, S3 uploads it) and removed when
 * the transaction then refuses or fails (`desfazer`, best effort). Until the row commits, no one can
 * reach the file: receipts are only served through their rows. What a crash between the two (or a
 * delete that failed) leaves behind is a file no row names: `varrerOrfaos` (at start and every hour)
 * deletes those older than an hour.
 * - A removed receipt goes only after the commit that stopped pointing at it (`remover`).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import fp from 'fastify-plugin';
import type { ConfigS3 } from '../config';
import { caminhoCupom, colocarCupom, mesmoConteudo, nomeCupomValido, pastaUploads, removerCupom, type CupomRecebido } from '../despesas/cupons';
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
   * Before the transaction: puts each received file under its final name (in order; local links it
   * into place, S3 uploads it; the received file stays for its request to remove) and returns the
   * names stored, to undo if the transaction does not commit. A failure undoes what it stored and throws.
   */
  preparar(cupons: readonly CupomRecebido[], nomes: readonly string[]): Promise<string[]>;
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
  varrerOrfaos(guardados: (nomes: string[]) => Promise<Set<string>>, agora?: number): Promise<number>;
  fechar(): void;
}

export const MENSAGEM_ARMAZENAMENTO_INDISPONIVEL =
  'O armazenamento de comprovantes está indisponível no momento. Nada foi gravado; tente de novo em alguns minutos.';
export const MENSAGEM_LEITURA_INDISPONIVEL = 'O comprovante não pode ser aberto agora: o armazenamento de comprovantes está indisponível. Tente de novo em alguns minutos.';

/** An object younger than this may belong to a write still on its way to the commit. */
export const IDADE_MINIMA_ORFAO_MS = 60 * 60 * 1000;

export type Log = Pick<FastifyBaseLogger, 'debug' | 'info' | 'warn' | 'error'>;

/** DATA_DIR/uploads: the behaviour before S3 storage existed, unchanged. */
export class ArmazenamentoLocal implements ArmazenamentoCupons {
  readonly tipo = 'local' as const;

  constructor(readonly pasta: string) {
    fs.mkdirSync(pasta, { recursive: true });
  }

  async preparar(cupons: readonly CupomRecebido[], nomes: readonly string[]): Promise<string[]> {
    const colocados: string[] = [];
    try {
      for (const [i, cupom] of cupons.entries()) {
        await colocarCupom(this.pasta, cupom, nomes[i]!);
        colocados.push(nomes[i]!);
      }
    } catch (erro) {
      await this.desfazer(colocados);
      throw erro;
    }
    return colocados;
  }

  async desfazer(nomes: readonly string[]): Promise<void> {
    for (const nome of nomes) {
      const caminho = caminhoCupom(this.pasta, nome);
      if (!caminho) continue;
      // Never throws: what stays (a disk error) has no row and the sweep takes it.
      await fs.promises.rm(caminho, { force: true }).catch(() => undefined);
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

  async varrerOrfaos(guardados: (nomes: string[]) => Promise<Set<string>>, agora = Date.now()): Promise<number> {
    const antigos: string[] = [];
    for (const nome of await fs.promises.readdir(this.pasta)) {
      if (!nomeCupomValido(nome)) continue;
      try {
        // mtime: set when the file was put in place (colocarCupom), so a write on its way to the commit is young.
        if (agora - (await fs.promises.stat(path.join(this.pasta, nome))).mtimeMs > IDADE_MINIMA_ORFAO_MS) antigos.push(nome);
      } catch {
        // removed meanwhile
      }
    }
    let removidos = 0;
    for (let i = 0; i < antigos.length; i += 500) {
      const parte = antigos.slice(i, i + 500);
      const vivos = await guardados(parte);
      for (const nome of parte) {
        if (vivos.has(nome)) continue;
        await fs.promises.rm(path.join(this.pasta, nome), { force: true });
        removidos += 1;
      }
    }
    return removidos;
  }

  fechar(): void {}
}

/** The storage the configuration asks for: S3 when every S3_* variable is set (its module loaded only then), else DATA_DIR/uploads. */
export async function criarArmazenamento(config: { s3: ConfigS3 | null; s3LimiteMs: number }, pastaLocal: string, log: Log): Promise<ArmazenamentoCupons> {
  if (!config.s3) return new ArmazenamentoLocal(pastaLocal);
  const { ArmazenamentoS3 } = await import('./armazenamentoS3');
  return new ArmazenamentoS3(config.s3, log, undefined, config.s3LimiteMs);
}

/** How often the S3 sweep runs (besides at start). */
export const VARREDURA_A_CADA_MS = 60 * 60 * 1000;

/**
 * Decorates the app with its storage (`app.armazenamento`, one S3 client for all routes) and sweeps
 * orphans at start and every hour (on disk too, since the files are put in place before their
 * transaction), never holding the start or a request: a bucket that does
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
  app.addHook('onReady', async () => {
    varrer();
    relogio = setInterval(varrer, VARREDURA_A_CADA_MS);
    relogio.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(relogio);
    await emCurso;
    armazenamento.fechar();
  });
}

export const armazenamentoPlugin = fp(pluginArmazenamento, { name: 'armazenamento' });
