/**
 * Where the migrations (SQLite's and PostgreSQL's) and the built PWA are, for each way the server runs:
 * - bundled (`build/server.cjs`): next to the bundle, in build/migrations, build/migrations-pg and build/public;
 * - from source (tsx server/src/main.ts, tests): in the project tree.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import trabalhadores from './trabalhadores.json' with { type: 'json' };

export interface Recursos {
  pastaMigracoes: string;
  /** drizzle-kit's PostgreSQL migrations, for DATABASE_URL. */
  pastaMigracoesPg: string;
  pastaCliente: string;
}

export function raizDoProjeto(): string {
  return process.cwd();
}

export function recursosDoProjeto(raiz: string = raizDoProjeto()): Recursos {
  return {
    pastaMigracoes: path.join(raiz, 'server', 'src', 'db', 'migrations'),
    pastaMigracoesPg: path.join(raiz, 'server', 'src', 'db', 'migrations-pg'),
    pastaCliente: path.join(raiz, 'build', 'public'),
  };
}

export function localizarRecursos(entrada: string | undefined = process.argv[1]): Recursos {
  const pasta = entrada ? path.dirname(path.resolve(entrada)) : process.cwd();
  if (fs.existsSync(path.join(pasta, 'migrations'))) {
    return { pastaMigracoes: path.join(pasta, 'migrations'), pastaMigracoesPg: path.join(pasta, 'migrations-pg'), pastaCliente: path.join(pasta, 'public') };
  }
  return recursosDoProjeto(path.resolve(pasta, '..', '..'));
}

/**
 * The worker threads' entries (the export's, the WAL checkpoint's): their source under server/src and
 * the bundle's name. One list, also read by scripts/build-server.mjs and scripts/build-binary.mjs.
 */
export const TRABALHADORES = trabalhadores;

export type NomeDoTrabalhador = keyof typeof TRABALHADORES;

/** A worker's entry: a bundled file, or the source with tsx's require hook to load it. */
export interface ArquivoDeTrabalhador {
  arquivo: string;
  /** tsx's CommonJS register (`tsx/cjs/api`), for the TypeScript source; null for the bundle. */
  registroTsx: string | null;
  /** SQLite's addon for the worker's better-sqlite3 (the executable's extracted one); absent: node_modules'. */
  nativeBinding?: string;
}

let doExecutavel: Record<NomeDoTrabalhador, ArquivoDeTrabalhador> | null = null;

/** The workers the single executable extracted at start (server/src/executavel.ts): found before any other. */
export function usarTrabalhadoresDoExecutavel(trabalhadores: Record<NomeDoTrabalhador, ArquivoDeTrabalhador>): void {
  doExecutavel = trabalhadores;
}

/**
 * Where a worker's entry is: beside the bundle (build/trabalhador-*.cjs, written by
 * scripts/build-server.mjs), or the TypeScript source run through tsx (tests, `npm run dev:server`);
 * in the single executable, the bundle it extracted (usarTrabalhadoresDoExecutavel). null when none exists.
 */
export function localizarTrabalhador(nome: NomeDoTrabalhador, entrada: string | undefined = process.argv[1]): ArquivoDeTrabalhador | null {
  if (doExecutavel) return doExecutavel[nome];
  const { empacotado, fonte: partes } = TRABALHADORES[nome];
  const pasta = entrada ? path.dirname(path.resolve(entrada)) : process.cwd();
  const aoLado = path.join(pasta, empacotado);
  if (fs.existsSync(aoLado)) return { arquivo: aoLado, registroTsx: null };
  const fonte = path.join(raizDoProjeto(), 'server', 'src', ...partes.split('/'));
  if (!fs.existsSync(fonte)) return null;
  try {
    // A worker's --import hooks come too late for its own entry on Node 20: tsx's require hook is registered first instead.
    return { arquivo: fonte, registroTsx: createRequire(path.join(raizDoProjeto(), 'package.json')).resolve('tsx/cjs/api') };
  } catch {
    return null;
  }
}

/** Starts the worker at `trabalhador` with `workerData` (the TypeScript source through tsx's require hook). */
export function novoTrabalhador(trabalhador: ArquivoDeTrabalhador, workerData: unknown): Worker {
  const { arquivo, registroTsx } = trabalhador;
  return registroTsx
    ? new Worker(`require(${JSON.stringify(registroTsx)}).register(); require(${JSON.stringify(arquivo)});`, { eval: true, workerData })
    : new Worker(arquivo, { workerData });
}
