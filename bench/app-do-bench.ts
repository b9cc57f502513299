/**
 * The app as every benchmark server starts it (bench/servidor.ts, sync-servidor.ts,
 * leituras-admin-servidor.ts, uploads-servidor.ts): a temporary DATA_DIR, the benchmark's config (one
 * admin, a fixed JWT secret, silent logs, the login limit out of reach, plus each server's own
 * variables), the database migrated with the states and the given cities, the first admin, the app,
 * the WAL checkpoint thread as `serve` starts it, and a SIGTERM/SIGINT that closes it all and removes the folder.
 *
 * `raiz`: the checkout whose server code runs (default: this one; bench/uploads.ts also points it at a
 * copy of the code before uploads were streamed to disk). Its modules are imported from there, so an older commit's server
 * is started the same way. A script of this folder copied into an older checkout (git archive, as
 * bench/leituras-admin.ts and BENCH_SYNC_SERVIDOR_DE do) needs this file copied beside it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { OpcoesApp } from '../server/src/app';
import type { Config } from '../server/src/config';
import type { Db } from '../server/src/db';
import type { App } from '../server/src/tipos';

export const ADMIN_DO_BENCH = { email: 'admin@bench.com.br', senha: 'admin12345' };

const RAIZ = path.resolve(import.meta.dirname, '..');

export interface OpcoesAppDoBench {
  /** Prefix of the temporary DATA_DIR ('sg-bench-sync-' ...). */
  prefixo: string;
  /** This server's own config variables, over the common ones. */
  env?: Record<string, string>;
  /** Cities to load beside the states (each server's fixtures). */
  cidades?: { id: number; nome: string; uf: string }[];
  raiz?: string;
  /** Runs on the migrated database before the app is created (a year of data, fixtures). */
  preparar?: (db: Db, config: Config) => unknown;
  /** The rest of criarApp's options (config, db, secret and pastaCliente: null are given). */
  opcoesApp?: (config: Config) => Partial<OpcoesApp>;
  /** Runs on the app before it listens (hooks must be added before). */
  antesDeEscutar?: (app: App) => void;
}

export interface AppDoBench {
  app: App;
  db: Db;
  config: Config;
  dataDir: string;
  porta: number;
  /** Signs in through the app (inject) and gives the token. */
  entrar(email: string, senha: string): Promise<string>;
  /** `app.inject` as someone; throws on a status of 300 or more. */
  chamar(method: 'GET' | 'POST', url: string, token: string, payload?: object): Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** On SIGTERM/SIGINT: `antes` (other servers of the process), the app, the database, the folder; then exit. */
  encerrarAoSinal(antes?: () => Promise<void>): void;
}

export async function subirAppDoBench(opcoes: OpcoesAppDoBench): Promise<AppDoBench> {
  const src = path.join(opcoes.raiz ?? RAIZ, 'server', 'src');
  const { criarApp } = (await import(path.join(src, 'app.ts'))) as typeof import('../server/src/app');
  const { carregarConfig } = (await import(path.join(src, 'config.ts'))) as typeof import('../server/src/config');
  const { abrirBanco } = (await import(path.join(src, 'db', 'index.ts'))) as typeof import('../server/src/db');
  const { gravarEstadosECidades } = (await import(path.join(src, 'cidades', 'repositorio.ts'))) as typeof import('../server/src/cidades/repositorio');
  const { UFS } = (await import(path.join(src, 'cidades', 'ufs.ts'))) as typeof import('../server/src/cidades/ufs');
  const { garantirPrimeiroAdmin } = (await import(path.join(src, 'usuarios', 'primeiro-admin.ts'))) as typeof import('../server/src/usuarios/primeiro-admin');

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), opcoes.prefixo));
  const config = carregarConfig({
    DATA_DIR: dataDir,
    ADMIN_EMAIL: ADMIN_DO_BENCH.email,
    ADMIN_PASSWORD: ADMIN_DO_BENCH.senha,
    JWT_SECRET: 'segredo-do-benchmark-com-mais-de-32-caracteres',
    LOG_LEVEL: 'silent',
    LOGIN_RATE_LIMIT: '10000',
    ...opcoes.env,
  });
  const db = abrirBanco({ arquivo: path.join(dataDir, 'app.db'), pastaMigracoes: path.join(src, 'db', 'migrations') });
  await gravarEstadosECidades(db, UFS, opcoes.cidades ?? []);
  await garantirPrimeiroAdmin(db, config, { info() {}, warn() {} });
  await opcoes.preparar?.(db, config);
  const app = await criarApp({ config, db, segredoJwt: config.jwtSecret!, pastaCliente: null, ...opcoes.opcoesApp?.(config) });
  // The WAL checkpoint in its own thread, as `serve` runs it; an older checkout has none.
  const checkpointDoWal = fs.existsSync(path.join(src, 'db', 'checkpointDoWal.ts'))
    ? ((await import(path.join(src, 'db', 'checkpointDoWal.ts'))) as typeof import('../server/src/db/checkpointDoWal')).iniciarCheckpointDoServidor(config, db, app.log)
    : null;
  await checkpointDoWal?.pronto;
  opcoes.antesDeEscutar?.(app);
  await app.listen({ host: '127.0.0.1', port: 0 });

  const chamar: AppDoBench['chamar'] = async (method, url, token, payload) => {
    const r = await app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });
    if (r.statusCode >= 300) throw new Error(`${method} ${url}: ${r.statusCode} ${r.body}`);
    return r.json();
  };
  return {
    app,
    db,
    config,
    dataDir,
    porta: (app.server.address() as { port: number }).port,
    entrar: async (email, senha) => (await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, senha } })).json().token as string,
    chamar,
    encerrarAoSinal(antes) {
      const encerrar = async () => {
        await antes?.();
        await app.close();
        await checkpointDoWal?.parar();
        db.$client.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
        process.exit(0);
      };
      process.on('SIGTERM', () => void encerrar());
      process.on('SIGINT', () => void encerrar());
    },
  };
}
