/**
 * Backups and restores of the SQLite database.
 * - backup: `VACUUM INTO` runs inside a read transaction, so the copy is one consistent snapshot
 *   even while the server keeps writing (WAL lets it write meanwhile).
 * - restore: only with the server stopped; the file is checked first, the current database is
 *   kept beside it, and the stale WAL files are removed (they belong to the old database).
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { apertar, criarPastaPrivada, MODO_ARQUIVO } from './permissoes';

export class ErroDeCopia extends Error {}

export function fazerCopia(arquivoBanco: string, destino: string, nativeBinding?: unknown): { bytes: number } {
  const alvo = path.resolve(destino);
  if (fs.existsSync(alvo)) throw new ErroDeCopia(`O arquivo ${alvo} já existe: escolha outro nome.`);
  if (!fs.existsSync(arquivoBanco)) throw new ErroDeCopia(`Banco não encontrado em ${arquivoBanco}.`);
  criarPastaPrivada(path.dirname(alvo));
  // Born owner-only (the copy holds everything): an empty file made with mode 600 that VACUUM INTO fills.
  fs.closeSync(fs.openSync(alvo, 'wx', MODO_ARQUIVO));
  const db = new Database(arquivoBanco, { readonly: true, fileMustExist: true, ...(nativeBinding ? { nativeBinding: nativeBinding as string } : {}) });
  try {
    db.pragma('busy_timeout = 10000');
    db.prepare('VACUUM INTO ?').run(alvo);
  } catch (erro) {
    fs.rmSync(alvo, { force: true });
    throw erro;
  } finally {
    db.close();
  }
  apertar(alvo, MODO_ARQUIVO);
  return { bytes: fs.statSync(alvo).size };
}

/** Throws unless `arquivo` is a healthy SQLite database of this application. */
export function validarCopia(arquivo: string, nativeBinding?: unknown): void {
  if (!fs.existsSync(arquivo)) throw new ErroDeCopia(`Arquivo não encontrado: ${arquivo}`);
  const cabecalho = Buffer.alloc(16);
  const fd = fs.openSync(arquivo, 'r');
  try {
    fs.readSync(fd, cabecalho, 0, 16, 0);
  } finally {
    fs.closeSync(fd);
  }
  if (cabecalho.toString('latin1') !== 'SQLite format 3\0') throw new ErroDeCopia(`${arquivo} não é um banco SQLite.`);
  const db = new Database(arquivo, { readonly: true, fileMustExist: true, ...(nativeBinding ? { nativeBinding: nativeBinding as string } : {}) });
  try {
    const integridade = db.pragma('integrity_check', { simple: true });
    if (integridade !== 'ok') throw new ErroDeCopia(`${arquivo} está corrompido (${String(integridade)}).`);
    const tabela = db.prepare("select name from sqlite_master where type = 'table' and name = 'usuarios'").get();
    if (!tabela) throw new ErroDeCopia(`${arquivo} não é uma cópia do Sistema de Gestão.`);
  } finally {
    db.close();
  }
}

/** Replaces DATA_DIR/app.db with the copy; returns where the previous database was kept. */
export function restaurarCopia(arquivoBanco: string, origem: string, nativeBinding?: unknown): { anterior: string | null } {
  const copia = path.resolve(origem);
  validarCopia(copia, nativeBinding);
  criarPastaPrivada(path.dirname(arquivoBanco));
  let anterior: string | null = null;
  if (fs.existsSync(arquivoBanco)) {
    anterior = `${arquivoBanco}.antes-da-restauracao-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    // Checkpoint first so the kept copy is complete without its WAL.
    const atual = new Database(arquivoBanco, nativeBinding ? { nativeBinding: nativeBinding as string } : {});
    try {
      atual.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      atual.close();
    }
    fs.renameSync(arquivoBanco, anterior);
    apertar(anterior, MODO_ARQUIVO);
  }
  for (const sufixo of ['-wal', '-shm']) fs.rmSync(`${arquivoBanco}${sufixo}`, { force: true });
  const temporario = `${arquivoBanco}.restaurando`;
  fs.copyFileSync(copia, temporario);
  // The copy keeps the mode of the file it came from, maybe readable by all.
  apertar(temporario, MODO_ARQUIVO);
  fs.renameSync(temporario, arquivoBanco);
  return { anterior };
}
