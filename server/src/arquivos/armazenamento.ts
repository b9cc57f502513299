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
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { FastifyBaseLogger } from 'fastify';
import fp from 'fastify-plugin';
import type { ConfigS3 } from '../config';
import { caminhoCupom, colocarCupom, mesmoConteudo, nomeCupomValido, pastaUploads, removerCupom, type CupomRecebido } from '../despesas/cupons';
import { arquivosGuardados } from '../despesas/repositorio';
import { ErroApp } from '../errors';
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

type Log = Pick<FastifyBaseLogger, 'debug' | 'info' | 'warn' | 'error'>;

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


const esperar = (ms: number) => new Promise((resolver) => setTimeout(resolver, ms));

/** Not there (as opposed to the bucket not answering, or a bucket that does not exist). */
function ehAusente(erro: unknown): boolean {
  const nome = (erro as { name?: unknown }).name;
  return nome === 'NoSuchKey' || nome === 'NotFound';
}

/** Worth another try: no answer at all (refused, reset, timed out), or the server's own 5xx / throttling. */
function ehTransitorio(erro: unknown): boolean {
  const e = erro as { $metadata?: { httpStatusCode?: number }; $retryable?: unknown };
  const status = e.$metadata?.httpStatusCode;
  return e.$retryable !== undefined || status === undefined || status >= 500 || status === 429;
}

async function sha256(fluxo: Readable): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(fluxo, hash);
  return hash.digest('hex');
}

/** A private bucket of an S3-compatible storage (AWS S3, MinIO, Garage, Ceph...), through @aws-sdk/client-s3. */
export class ArmazenamentoS3 implements ArmazenamentoCupons {
  readonly tipo = 's3' as const;
  private readonly cliente: S3Client;
  private readonly bucket: string;
  /**
   * Every receipt's key starts with this (S3_PREFIX, 'cupons/' by default): the bucket may hold other
   * things (backups, another installation's receipts), never listed or touched here.
   */
  private readonly prefixo: string;

  constructor(
    config: ConfigS3,
    private readonly log: Log,
    /** Tries per call (the first and the retries of a transient failure), and the pause before each retry. */
    private readonly tentativas = { vezes: 3, pausaMs: 200 },
  ) {
    this.bucket = config.bucket;
    this.prefixo = config.prefixo;
    this.cliente = new S3Client({
      endpoint: config.endpoint,
      region: config.region,
      forcePathStyle: config.forcePathStyle,
      credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
      // Retries are ours (`tentar`): an upload's body is a file stream, which the SDK cannot rewind for a retry.
      maxAttempts: 1,
      // Only the checksums a request requires: self-hosted servers do not all read the SDK's default
      // trailing CRC32 on a streamed upload (aws-chunked), and the length is known anyway.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // A bucket that stops answering fails the request instead of holding it (and the phone) forever.
      requestHandler: { connectionTimeout: 5_000, requestTimeout: 30_000 },
      // The SDK's own notes (e.g. 'non-retryable streaming request', which `tentar` does retry) go to the app's log, not the console.
      logger: {
        debug: () => undefined,
        info: () => undefined,
        warn: (...partes: unknown[]) => log.debug({ sdk: partes }, 'aviso do cliente S3'),
        error: (...partes: unknown[]) => log.debug({ sdk: partes }, 'erro do cliente S3'),
      },
    });
  }

  private chave(nome: string): string {
    return `${this.prefixo}${nome}`;
  }

  /** Runs `fazer` (which builds its request afresh, so a file stream is opened again) until it works or fails for good. */
  private async tentar<T>(fazer: () => Promise<T>): Promise<T> {
    for (let tentativa = 1; ; tentativa++) {
      try {
        return await fazer();
      } catch (erro) {
        if (tentativa >= this.tentativas.vezes || ehAusente(erro) || !ehTransitorio(erro)) throw erro;
        await esperar(this.tentativas.pausaMs * tentativa);
      }
    }
  }

  /** The bucket failed: the details go to the log, the caller gets a pt-BR 503 (the phone tries again later). */
  private indisponivel(erro: unknown, acao: string, mensagem: string): ErroApp {
    this.log.error({ err: erro, acao, bucket: this.bucket }, 'armazenamento de comprovantes indisponível');
    return new ErroApp(503, 'indisponivel', mensagem);
  }

  private enviar(cupom: CupomRecebido, nome: string) {
    return this.tentar(() =>
      this.cliente.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: this.chave(nome),
          Body: fs.createReadStream(cupom.caminhoTemporario),
          ContentLength: cupom.tamanho,
          ContentType: cupom.mime,
        }),
      ),
    );
  }

  async preparar(cupons: readonly CupomRecebido[], nomes: readonly string[]): Promise<string[]> {
    const enviados: string[] = [];
    for (const [i, cupom] of cupons.entries()) {
      const nome = nomes[i]!;
      try {
        await this.enviar(cupom, nome);
      } catch (erro) {
        // The one that failed too: its PUT may have landed with the answer lost.
        await this.desfazer([...enviados, nome]);
        throw this.indisponivel(erro, 'enviar', MENSAGEM_ARMAZENAMENTO_INDISPONIVEL);
      }
      enviados.push(nome);
    }
    return enviados;
  }

  colocar(): void {}

  private async apagar(nome: string, motivo: string): Promise<void> {
    if (!nomeCupomValido(nome)) return;
    try {
      await this.tentar(() => this.cliente.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.chave(nome) })));
    } catch (erro) {
      // No row names it (or none will): the sweep deletes it within the hour after it is old enough.
      this.log.warn({ err: erro, arquivo: nome, motivo }, 'comprovante não apagado do armazenamento; a varredura o apaga depois');
    }
  }

  async desfazer(nomes: readonly string[]): Promise<void> {
    for (const nome of nomes) await this.apagar(nome, 'escrita não concluída');
  }

  async remover(nome: string | null | undefined): Promise<void> {
    if (nome) await this.apagar(nome, 'removido');
  }

  private async obter(nome: string) {
    return this.tentar(() => this.cliente.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.chave(nome) })));
  }

  async mesmoConteudo(nome: string | null, cupom: CupomRecebido): Promise<boolean> {
    if (!nome || !nomeCupomValido(nome)) return false;
    let resposta;
    try {
      resposta = await this.obter(nome);
    } catch (erro) {
      if (ehAusente(erro)) return false;
      throw this.indisponivel(erro, 'comparar', MENSAGEM_ARMAZENAMENTO_INDISPONIVEL);
    }
    const corpo = resposta.Body as Readable;
    if (resposta.ContentLength !== cupom.tamanho) {
      corpo.destroy();
      return false;
    }
    try {
      const [guardado, recebido] = await Promise.all([sha256(corpo), sha256(fs.createReadStream(cupom.caminhoTemporario))]);
      return guardado === recebido;
    } catch (erro) {
      throw this.indisponivel(erro, 'comparar', MENSAGEM_ARMAZENAMENTO_INDISPONIVEL);
    }
  }

  async abrir(nome: string): Promise<CupomAberto | null> {
    if (!nomeCupomValido(nome)) return null;
    let resposta;
    try {
      resposta = await this.obter(nome);
    } catch (erro) {
      if (ehAusente(erro)) return null;
      throw this.indisponivel(erro, 'ler', MENSAGEM_LEITURA_INDISPONIVEL);
    }
    const corpo = resposta.Body as Readable;
    return { tamanho: resposta.ContentLength ?? 0, fluxo: () => corpo, descartar: () => corpo.destroy() };
  }

  async varrerOrfaos(guardados: (nomes: string[]) => Set<string>, agora = Date.now()): Promise<number> {
    let removidos = 0;
    let continuacao: string | undefined;
    do {
      const pagina = await this.tentar(() =>
        this.cliente.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.prefixo, ...(continuacao ? { ContinuationToken: continuacao } : {}) })),
      );
      const antigos = (pagina.Contents ?? [])
        .filter((o) => o.Key && o.LastModified && agora - o.LastModified.getTime() > IDADE_MINIMA_ORFAO_MS)
        .map((o) => o.Key!.slice(this.prefixo.length))
        .filter(nomeCupomValido);
      const vivos = antigos.length > 0 ? guardados(antigos) : new Set<string>();
      for (const nome of antigos) {
        if (vivos.has(nome)) continue;
        await this.tentar(() => this.cliente.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.chave(nome) })));
        removidos += 1;
      }
      continuacao = pagina.IsTruncated ? pagina.NextContinuationToken : undefined;
    } while (continuacao);
    return removidos;
  }

  fechar(): void {
    this.cliente.destroy();
  }
}

/** The storage the configuration asks for: S3 when every S3_* variable is set, else DATA_DIR/uploads. */
export function criarArmazenamento(config: { s3: ConfigS3 | null }, pastaLocal: string, log: Log): ArmazenamentoCupons {
  return config.s3 ? new ArmazenamentoS3(config.s3, log) : new ArmazenamentoLocal(pastaLocal);
}

/** How often the S3 sweep runs (besides at start). */
export const VARREDURA_A_CADA_MS = 60 * 60 * 1000;

/**
 * Decorates the app with its storage (`app.armazenamento`, one S3 client for all routes) and, on S3,
 * sweeps orphans at start and every hour, never holding the start or a request: a bucket that does
 * not answer is told in the log and tried again at the next round.
 */
async function pluginArmazenamento(app: App) {
  const armazenamento = criarArmazenamento(app.config, pastaUploads(app.config.dataDir), app.log);
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
