/**
 * The bucket of the continuous off-site copy, through @aws-sdk/client-s3 built the
 * way arquivos/armazenamentoS3.ts builds it (path-style for MinIO/Garage, only the checksums a request
 * requires, bounded timeouts). Every key is under the copy's prefix. Retries are the caller's: the
 * replicator retries a whole cycle with backoff, the restore command a whole download.
 */
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { criarClienteS3 } from '../arquivos/clienteS3';
import type { ConfigS3 } from '../config';

export interface ObjetoDoBucket {
  /** The key without the copy's prefix. */
  nome: string;
  tamanho: number;
}

export class BucketDaCopia {
  private readonly cliente: S3Client;

  constructor(
    private readonly config: ConfigS3,
    aoAvisar: (partes: unknown[]) => void = () => undefined,
  ) {
    // A bucket that stops answering fails the cycle (retried with backoff) instead of holding it.
    this.cliente = criarClienteS3(config, { limiteRequisicaoMs: 60_000, aoAvisar });
  }

  get descricao(): string {
    return `${this.config.endpoint}/${this.config.bucket}/${this.config.prefixo}`;
  }

  private chave(nome: string): string {
    return `${this.config.prefixo}${nome}`;
  }

  async gravar(nome: string, corpo: Buffer): Promise<void> {
    await this.cliente.send(new PutObjectCommand({ Bucket: this.config.bucket, Key: this.chave(nome), Body: corpo, ContentLength: corpo.byteLength }));
  }

  /** A file streamed from disk (a snapshot, a receipt): its length is known, so nothing is held in memory. */
  async gravarArquivo(nome: string, arquivo: string): Promise<number> {
    const { size } = await fs.promises.stat(arquivo);
    await this.cliente.send(
      new PutObjectCommand({ Bucket: this.config.bucket, Key: this.chave(nome), Body: fs.createReadStream(arquivo), ContentLength: size }),
    );
    return size;
  }

  async ler(nome: string): Promise<Buffer> {
    const r = await this.cliente.send(new GetObjectCommand({ Bucket: this.config.bucket, Key: this.chave(nome) }));
    return Buffer.from(await r.Body!.transformToByteArray());
  }

  /** Streams an object into `destino` (created owner-only, never over an existing file). */
  async baixarPara(nome: string, destino: string): Promise<void> {
    const r = await this.cliente.send(new GetObjectCommand({ Bucket: this.config.bucket, Key: this.chave(nome) }));
    await pipeline(r.Body as Readable, fs.createWriteStream(destino, { flags: 'wx', mode: 0o600 }));
  }

  /** Every object under `subprefixo` (relative to the copy's prefix), in key order. */
  async listar(subprefixo: string): Promise<ObjetoDoBucket[]> {
    const objetos: ObjetoDoBucket[] = [];
    let continuacao: string | undefined;
    do {
      const r = await this.cliente.send(
        new ListObjectsV2Command({ Bucket: this.config.bucket, Prefix: this.chave(subprefixo), ...(continuacao ? { ContinuationToken: continuacao } : {}) }),
      );
      for (const o of r.Contents ?? []) objetos.push({ nome: o.Key!.slice(this.config.prefixo.length), tamanho: o.Size ?? 0 });
      continuacao = r.IsTruncated ? r.NextContinuationToken : undefined;
    } while (continuacao);
    return objetos.sort((a, b) => (a.nome < b.nome ? -1 : a.nome > b.nome ? 1 : 0));
  }

  /** The "folders" right under `subprefixo` (e.g. the generations under 'geracoes/'), without the trailing '/'. */
  async subpastas(subprefixo: string): Promise<string[]> {
    const nomes: string[] = [];
    let continuacao: string | undefined;
    do {
      const r = await this.cliente.send(
        new ListObjectsV2Command({
          Bucket: this.config.bucket,
          Prefix: this.chave(subprefixo),
          Delimiter: '/',
          ...(continuacao ? { ContinuationToken: continuacao } : {}),
        }),
      );
      for (const p of r.CommonPrefixes ?? []) nomes.push(p.Prefix!.slice(this.chave(subprefixo).length).replace(/\/$/, ''));
      continuacao = r.IsTruncated ? r.NextContinuationToken : undefined;
    } while (continuacao);
    return nomes.sort();
  }

  /** One request per object: DeleteObjects needs a Content-MD5 that not every S3-compatible server accepts from this SDK. */
  async remover(nomes: readonly string[]): Promise<void> {
    for (const nome of nomes) await this.cliente.send(new DeleteObjectCommand({ Bucket: this.config.bucket, Key: this.chave(nome) }));
  }

  fechar(): void {
    this.cliente.destroy();
  }
}
