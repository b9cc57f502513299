/**
 * A real S3-compatible server for the object-storage tests: s3rver from npm, on
 * 127.0.0.1 and a free port, keeping its objects in a temporary folder; the bucket is looked into with
 * the real @aws-sdk/client-s3, as the app talks to it. `parar` takes it down (connections refused) and
 * `iniciar` brings it back on the same port with the same objects.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

// s3rver's fixed credentials: it checks each request's signature against them.
const CHAVE = 'S3RVER';

export interface ServidorS3 {
  bucket: string;
  /** The S3_* variables that point the app at this server (criarAppDeTeste({ env })). */
  env: Record<string, string>;
  /** Every key in the bucket, sorted. */
  chaves(): Promise<string[]>;
  /** The bytes stored under a key. */
  bytes(chave: string): Promise<Buffer>;
  /** Puts bytes under a key, as something else sharing the bucket would. */
  gravar(chave: string, bytes: Buffer): Promise<void>;
  /** Stops answering: connections to its port are refused. */
  parar(): Promise<void>;
  /** Back on the same port, with the objects it had (nothing when it is running). */
  iniciar(): Promise<void>;
  /** Stopped for good, its folder removed. */
  fechar(): Promise<void>;
}

/** COPIA_S3_* pointing at this test server (the continuous copy's bucket, apart from the receipts' S3_*). */
export function envDaCopiaContinua(s3: ServidorS3): Record<string, string> {
  return {
    COPIA_S3_BUCKET: s3.bucket,
    COPIA_S3_ENDPOINT: s3.env.S3_ENDPOINT!,
    COPIA_S3_REGION: 'us-east-1',
    COPIA_S3_ACCESS_KEY_ID: s3.env.S3_ACCESS_KEY_ID!,
    COPIA_S3_SECRET_ACCESS_KEY: s3.env.S3_SECRET_ACCESS_KEY!,
    COPIA_S3_FORCE_PATH_STYLE: 'true',
  };
}

export async function iniciarServidorS3(bucket = 'comprovantes-teste'): Promise<ServidorS3> {
  const pasta = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-s3-'));
  let porta = 0;
  let servidor: S3rver | null = null;
  const iniciar = async () => {
    if (servidor) return;
    const s = new S3rver({ address: '127.0.0.1', port: porta, silent: true, directory: pasta, configureBuckets: [{ name: bucket }] });
    porta = (await s.run()).port;
    servidor = s;
  };
  const parar = async () => {
    if (!servidor) return;
    const fechado = servidor.close();
    // The app's client keeps connections open (keep-alive): cut them, or close waits for them.
    servidor.httpServer?.closeAllConnections();
    await fechado;
    servidor = null;
  };
  await iniciar();
  const endpoint = `http://127.0.0.1:${porta}`;
  const cliente = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: CHAVE, secretAccessKey: CHAVE },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return {
    bucket,
    env: { S3_ENDPOINT: endpoint, S3_BUCKET: bucket, S3_REGION: 'us-east-1', S3_ACCESS_KEY_ID: CHAVE, S3_SECRET_ACCESS_KEY: CHAVE, S3_FORCE_PATH_STYLE: 'true' },
    async chaves() {
      const chaves: string[] = [];
      let continuacao: string | undefined;
      do {
        const r = await cliente.send(new ListObjectsV2Command({ Bucket: bucket, ...(continuacao ? { ContinuationToken: continuacao } : {}) }));
        chaves.push(...(r.Contents ?? []).map((o) => o.Key!));
        continuacao = r.IsTruncated ? r.NextContinuationToken : undefined;
      } while (continuacao);
      return chaves.sort();
    },
    async bytes(chave) {
      const r = await cliente.send(new GetObjectCommand({ Bucket: bucket, Key: chave }));
      return Buffer.from(await r.Body!.transformToByteArray());
    },
    async gravar(chave, bytes) {
      await cliente.send(new PutObjectCommand({ Bucket: bucket, Key: chave, Body: bytes }));
    },
    parar,
    iniciar,
    async fechar() {
      cliente.destroy();
      await parar();
      fs.rmSync(pasta, { recursive: true, force: true });
    },
  };
}
