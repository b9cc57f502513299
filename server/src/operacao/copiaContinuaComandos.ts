/**
 * The continuous off-site copy as the executable uses it: started after `serve`
 * listens (when COPIA_S3_BUCKET is set), waited for by whoever must not answer before a write is off-site
 * (`aguardarCopiaContinua`, one per process), and restored by `restore-continuous DESTINO`.
 * The replicator and the S3 SDK are loaded only when the copy is on (`import()`): the SDK costs about
 * 140 ms and 20 MB to load (arquivos/armazenamentoS3.ts), which a server without the copy should not pay.
 */
import path from 'node:path';
import type { Config } from '../config';
import { ErroDeCopia } from './copia';
import type { CopiaContinuaIniciada, LogDaCopia, ResultadoDaEspera } from './copiaContinua';

let ativa: Promise<CopiaContinuaIniciada | null> | null = null;
/** The same once started (read synchronously by /api/health). */
let iniciada: CopiaContinuaIniciada | null = null;

/**
 * Starts the replicator of DATA_DIR/app.db (and DATA_DIR/uploads unless the receipts are in S3 already);
 * false when the copy is off. Its read transaction keeps the app's automatic checkpoints from
 * restarting the WAL, so the app's connection needs no change. Never throws: a failure to start is logged.
 */
export function iniciarCopiaContinuaDoServidor(
  config: Config,
  log: LogDaCopia,
  nativeBinding?: unknown,
  /** Tests: the interval between cycles (a wait still starts one at once). */
  ajustes: { intervaloMs?: number } = {},
): boolean {
  const copia = config.copia;
  if (!copia) return false;
  ativa ??= import('./copiaContinua')
    .then(({ iniciarCopiaContinua }) =>
      iniciarCopiaContinua({
        arquivoBanco: path.join(config.dataDir, 'app.db'),
        pastaComprovantes: config.s3 ? null : path.join(config.dataDir, 'uploads'),
        bucket: copia,
        log,
        nativeBinding,
        ...ajustes,
      }),
    )
    .then((c) => (iniciada = c))
    .catch((erro: unknown) => {
      log.error({ erro: String(erro) }, 'cópia contínua: não foi possível iniciar; o servidor segue sem ela');
      return null;
    });
  return true;
}

/**
 * Resolves once everything this process committed before the call is in the copy's bucket, or at
 * `limiteMs` with `copiado: false`; at once with `ligada: false` when the copy is off. Never rejects.
 */
export async function aguardarCopiaContinua(limiteMs = 5_000): Promise<ResultadoDaEspera & { ligada: boolean }> {
  const c = ativa ? await ativa : null;
  if (!c) return { ligada: false, copiado: false, atrasoMs: 0 };
  return { ligada: true, ...(await c.aguardarCopia(limiteMs)) };
}

/** Last cycle and the lock released (on SIGTERM, before the database closes). */
export async function pararCopiaContinua(): Promise<void> {
  const c = ativa;
  ativa = null;
  iniciada = null;
  await (await c)?.parar();
}

/**
 * Whether the copy is failing now (for /api/health): on, and its last cycle failed (or, in a process that
 * leaves the copy to another, no complete cycle published lately). Null while the copy is off or starting.
 */
export function falhaDaCopiaContinua(): string | null {
  return iniciada?.falha() ?? null;
}

/** `restore-continuous DESTINO`: the newest copy into a new file, receipts into uploads/ beside it; prints what it restored. */
export async function restaurarCopiaContinuaDoComando(config: Config, destino: string | undefined, nativeBinding?: unknown): Promise<void> {
  if (!destino) throw new ErroDeCopia('Informe o arquivo de destino: restore-continuous DESTINO (um arquivo novo, como /var/lib/sistema-de-gestao-novo/app.db)');
  if (!config.copia) {
    throw new ErroDeCopia('A cópia contínua não está configurada: defina COPIA_S3_BUCKET (e COPIA_S3_ENDPOINT, COPIA_S3_REGION e as chaves, ou as S3_*) como no servidor.');
  }
  const { descreverRestauracao, restaurarCopiaContinua } = await import('./copiaContinuaRestauracao');
  const r = await restaurarCopiaContinua(config.copia, destino, nativeBinding);
  console.log(descreverRestauracao(r));
}
