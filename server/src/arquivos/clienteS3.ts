/**
 * The S3 client of every bucket the server talks to (receipts: armazenamentoS3.ts; the continuous copy:
 * operacao/copiaContinuaBucket.ts), built one way from the S3_* / COPIA_S3_* configuration.
 */
import { S3Client } from '@aws-sdk/client-s3';
import type { ConfigS3 } from '../config';

export function criarClienteS3(
  config: ConfigS3,
  opcoes: {
    /**
     * How long one request may take before it fails (a bucket that stops answering must not hold the
     * caller): connecting (at most 5 s of it), being answered, and any silence on the connection after.
     */
    limiteRequisicaoMs: number;
    /** The SDK's own warnings and errors, for the app's log (not the console). */
    aoAvisar: (partes: unknown[]) => void;
  },
): S3Client {
  return new S3Client({
    endpoint: config.endpoint,
    region: config.region,
    forcePathStyle: config.forcePathStyle,
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    // Retries are the callers' own: an upload's body is a file stream, which the SDK cannot rewind for a retry.
    maxAttempts: 1,
    // Only the checksums a request requires: self-hosted servers do not all read the SDK's default trailing
    // CRC32 on a streamed upload (aws-chunked), and the length is known anyway.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // throwOnRequestTimeout: without it the SDK only logs a request past requestTimeout and keeps waiting
    // (a bucket that accepts the connection and never answers held an upload for good). socketTimeout
    // ends a body that stops flowing halfway (a receipt being read), which requestTimeout no longer watches.
    requestHandler: {
      connectionTimeout: Math.min(5_000, opcoes.limiteRequisicaoMs),
      requestTimeout: opcoes.limiteRequisicaoMs,
      throwOnRequestTimeout: true,
      socketTimeout: opcoes.limiteRequisicaoMs,
    },
    logger: { debug: () => undefined, info: () => undefined, warn: (...p: unknown[]) => opcoes.aoAvisar(p), error: (...p: unknown[]) => opcoes.aoAvisar(p) },
  });
}
