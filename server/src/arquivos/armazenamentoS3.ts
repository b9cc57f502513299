/**
 * The S3 half of arquivos/armazenamento.ts: a private bucket of an S3-compatible storage through
 * @aws-sdk/client-s3. Its own module, loaded only when S3_* are set: the SDK costs about 140 ms and
 * 20 MB to load, which a server on the local folder (the default) should not pay.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as esperar } from 'node:timers/promises';
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { LIMITE_S3_PADRAO_MS, type ConfigS3 } from '../config';
import { nomeCupomValido, type CupomRecebido } from '../despesas/cupons';
import { indisponivel, type ErroApp } from '../errors';
import { criarClienteS3 } from './clienteS3';
import { IDADE_MINIMA_ORFAO_MS, MENSAGEM_ARMAZENAMENTO_INDISPONIVEL, MENSAGEM_LEITURA_INDISPONIVEL, type ArmazenamentoCupons, type CupomAberto, type Log } from './armazenamento';

/** The call's bound passed: not retried (a bucket that let it hang would let the retry hang too). */
class PrazoEsgotado extends Error {
  constructor(limiteMs: number) {
    super(`o armazenamento não respondeu em ${limiteMs} ms`);
    this.name = 'PrazoEsgotado';
  }
}

/** Not there (as opposed to the bucket not answering, or a bucket that does not exist). */
function ehAusente(erro: unknown): boolean {
  const nome = (erro as { name?: unknown }).name;
  return nome === 'NoSuchKey' || nome === 'NotFound';
}

/** The bucket let the call hang (the call's bound, or one try's own timeout in the SDK). */
function semResposta(erro: unknown): boolean {
  return erro instanceof PrazoEsgotado || (erro as { name?: unknown }).name === 'TimeoutError';
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

/** A private bucket of an S3-compatible storage (AWS S3, MinIO, Garage, Ceph...). */
export class ArmazenamentoS3 implements ArmazenamentoCupons {
  readonly tipo = 's3' as const;
  private readonly cliente: S3Client;
  private readonly bucket: string;
  /**
   * Every receipt's key starts with this (S3_PREFIX, 'cupons/' by default): the bucket may hold other
   * things (backups, another installation's receipts), never listed or touched here.
   */
  private readonly prefixo: string;
  /** Until when calls fail without trying (the bucket just let one hang). */
  private semRespostaAte = 0;

  constructor(
    config: ConfigS3,
    private readonly log: Log,
    /** Tries per call (the first and the retries of a transient failure), and the pause before each retry. */
    private readonly tentativas = { vezes: 3, pausaMs: 200 },
    /** One call as a whole, its retries included (S3_TIMEOUT_MS): past it the call fails. */
    private readonly limiteMs = LIMITE_S3_PADRAO_MS,
  ) {
    this.bucket = config.bucket;
    this.prefixo = config.prefixo;
    // A bucket that stops answering fails the request instead of holding it (and the phone) forever. The
    // SDK's own notes (e.g. 'non-retryable streaming request', which `tentar` does retry) go to the log at debug.
    this.cliente = criarClienteS3(config, { limiteRequisicaoMs: limiteMs, aoAvisar: (partes: unknown[]) => log.debug({ sdk: partes }, 'aviso do cliente S3') });
  }

  private chave(nome: string): string {
    return `${this.prefixo}${nome}`;
  }

  /**
   * One call to the bucket: `fazer` (which builds its request afresh, so a file stream is opened again)
   * until it works or fails for good, all of it within `limiteMs` (connecting, sending, the answer's
   * headers, the retries and their pauses). The SDK's own per-request timeouts (clienteS3.ts) end each
   * try; this signal ends the call, whatever state it is in.
   */
  private async tentar<T>(fazer: (sinal: AbortSignal) => Promise<T>): Promise<T> {
    // Right after a call the bucket let hang, the next ones fail at once: a batch with ten receipts would
    // otherwise wait the bound ten times, past what the phone waits for its answer.
    if (Date.now() < this.semRespostaAte) throw new PrazoEsgotado(this.limiteMs);
    const controle = new AbortController();
    const prazo = setTimeout(() => controle.abort(new PrazoEsgotado(this.limiteMs)), this.limiteMs);
    try {
      for (let tentativa = 1; ; tentativa++) {
        try {
          return await fazer(controle.signal);
        } catch (erro) {
          if (controle.signal.aborted || semResposta(erro)) this.semRespostaAte = Date.now() + this.limiteMs;
          if (controle.signal.aborted) throw controle.signal.reason as Error;
          if (tentativa >= this.tentativas.vezes || ehAusente(erro) || semResposta(erro) || !ehTransitorio(erro)) throw erro;
          await esperar(this.tentativas.pausaMs * tentativa, undefined, { signal: controle.signal }).catch(() => undefined);
          if (controle.signal.aborted) throw controle.signal.reason as Error;
        }
      }
    } finally {
      clearTimeout(prazo);
    }
  }

  /** The bucket failed: the details go to the log, the caller gets a pt-BR 503 with Retry-After (the phone tries again later). */
  private indisponivel(erro: unknown, acao: string, mensagem: string): ErroApp {
    this.log.error({ err: erro, acao, bucket: this.bucket }, 'armazenamento de comprovantes indisponível');
    return indisponivel(mensagem);
  }

  private enviar(cupom: CupomRecebido, nome: string) {
    return this.tentar((abortSignal) =>
      this.cliente.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: this.chave(nome),
          Body: fs.createReadStream(cupom.caminhoTemporario),
          ContentLength: cupom.tamanho,
          ContentType: cupom.mime,
        }),
        { abortSignal },
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
        // The one that failed too: its PUT may have landed with the answer lost. After a bucket that let
        // the upload hang, the deletes would hang as long: they go on without holding the answer (each
        // bounded; what they miss, no row names, and the hourly sweep removes it).
        const desfazer = this.desfazer([...enviados, nome]);
        if (!semResposta(erro)) await desfazer;
        throw this.indisponivel(erro, 'enviar', MENSAGEM_ARMAZENAMENTO_INDISPONIVEL);
      }
      enviados.push(nome);
    }
    return enviados;
  }

  private async apagar(nome: string, motivo: string): Promise<void> {
    if (!nomeCupomValido(nome)) return;
    try {
      await this.tentar((abortSignal) => this.cliente.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.chave(nome) }), { abortSignal }));
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

  /** Bounded until the answer's headers; a body that then stops flowing is ended by the client's socketTimeout. */
  private async obter(nome: string) {
    return this.tentar((abortSignal) => this.cliente.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.chave(nome) }), { abortSignal }));
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

  async varrerOrfaos(guardados: (nomes: string[]) => Promise<Set<string>>, agora = Date.now()): Promise<number> {
    let removidos = 0;
    let continuacao: string | undefined;
    do {
      const pagina = await this.tentar((abortSignal) =>
        this.cliente.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.prefixo, ...(continuacao ? { ContinuationToken: continuacao } : {}) }), {
          abortSignal,
        }),
      );
      const antigos = (pagina.Contents ?? [])
        .filter((o) => o.Key && o.LastModified && agora - o.LastModified.getTime() > IDADE_MINIMA_ORFAO_MS)
        .map((o) => o.Key!.slice(this.prefixo.length))
        .filter(nomeCupomValido);
      const vivos = antigos.length > 0 ? await guardados(antigos) : new Set<string>();
      for (const nome of antigos) {
        if (vivos.has(nome)) continue;
        await this.tentar((abortSignal) => this.cliente.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.chave(nome) }), { abortSignal }));
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
