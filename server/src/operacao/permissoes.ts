/**
 * Files at rest are the owner's only: the database and its WAL, the receipts, the
 * backups and the JWT secret hold everyone's sales, documents and the key to every session. Under
 * the usual umask 022 they came out readable by every account on the machine.
 * - the process starts with umask 077 (main.ts), so whatever it creates (SQLite's files, receipts
 *   streamed to disk, temporary uploads, the extracted assets) is born owner-only;
 * - where this code creates a file or folder it also says so (MODO_ARQUIVO / MODO_PASTA), so the
 *   functions stay right when called from elsewhere (tests, another entry);
 * - at start, an older install (folder 755, app.db 644) is tightened: DATA_DIR and uploads/ to 700
 *   (which alone closes every receipt inside), the database files and the secret to 600.
 */
import fs from 'node:fs';
import path from 'node:path';

export const UMASK = 0o077;
export const MODO_ARQUIVO = 0o600;
export const MODO_PASTA = 0o700;

/** The process's umask to 077: everything it creates from now on is owner-only. */
export function restringirPermissoes(): void {
  process.umask(UMASK);
}

/** Creates the folder (and missing parents) owner-only; an existing one is left as it is. */
export function criarPastaPrivada(pasta: string): void {
  fs.mkdirSync(pasta, { recursive: true, mode: MODO_PASTA });
}

/**
 * Takes group and others' bits off `caminho` (to `modo`). False when that was not possible (not
 * the owner): the caller warns. A path that does not exist is fine.
 */
export function apertar(caminho: string, modo: number): boolean {
  try {
    if ((fs.statSync(caminho).mode & 0o777) !== modo) fs.chmodSync(caminho, modo);
    return true;
  } catch (erro) {
    return (erro as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/** The database's files (app.db, its WAL and shared memory) to 600. Returns those it could not change. */
export function protegerArquivosDoBanco(arquivoBanco: string): string[] {
  return [arquivoBanco, `${arquivoBanco}-wal`, `${arquivoBanco}-shm`].filter((a) => !apertar(a, MODO_ARQUIVO));
}

/**
 * DATA_DIR and DATA_DIR/uploads created or tightened to 700, the database files and the JWT secret
 * to 600. Returns the paths it could not change (owned by someone else), for a warning in the log.
 */
export function prepararPastaDeDados(dataDir: string): string[] {
  const falhas: string[] = [];
  for (const pasta of [dataDir, path.join(dataDir, 'uploads')]) {
    criarPastaPrivada(pasta);
    if (!apertar(pasta, MODO_PASTA)) falhas.push(pasta);
  }
  falhas.push(...protegerArquivosDoBanco(path.join(dataDir, 'app.db')));
  if (!apertar(path.join(dataDir, 'jwt-secret'), MODO_ARQUIVO)) falhas.push(path.join(dataDir, 'jwt-secret'));
  return falhas;
}
