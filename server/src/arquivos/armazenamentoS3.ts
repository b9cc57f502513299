/**
 * The S3 half of arquivos/armazenamento.ts: a private bucket of an S3-compatible storage through
 * @aws-sdk/client-s3. Its own module, loaded only when S3_* are set: the SDK costs about 140 ms and
 * 20 MB to load, which a server on the local folder (the default) should not pay.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { ConfigS3 } from '../config';
import { nomeCupomValido, type CupomRecebido } from '../despesas/cupons';
import { ErroApp } from '../errors';
import { criarClienteS3 } from './clienteS3';
import { IDADE_MINIMA_ORFAO_MS, MENSAGEM_ARMAZENAMENTO_INDISPONIVEL, MENSAGEM_LEITURA_INDISPONIVEL, type ArmazenamentoCupons, type CupomAberto, type Log } from './armazenamento';

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

  constructor(
    config: ConfigS3,
    private readonly log: Log,
    /** Tries per call (the first and the retries of a transient failure), and the pause before each retry. */
    private readonly tentativas = { vezes: 3, pausaMs: 200 },
  ) {
    this.bucket = config.bucket;
    this.prefixo = config.prefixo;
    // A bucket that stops answering fails the request instead of holding it (and the phone) forever. The
    // SDK's own notes (e.g. 'non-retryable streaming request', which `tentar` does retry) go to the log at debug.
    this.cliente = criarClienteS3(config, { limiteRequisicaoMs: 30_000, aoAvisar: (partes: unknown[]) => log.debug({ sdk: partes }, 'aviso do cliente S3') });
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

  async varrerOrfaos(guardados: (nomes: string[]) => Promise<Set<string>>, agora = Date.now()): Promise<number> {
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
      const vivos = antigos.length > 0 ? await guardados(antigos) : new Set<string>();
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
