/**
 * A lock held across the app processes of one machine: the parts of one resumable
 * upload may reach different processes behind the proxy, and two writers of the same file at once
 * (a part sent again while the first try is still being written elsewhere) would interleave a cut
 * and writes. The same lock makes the app processes' starts take turns (main.ts, DATA_DIR/partida.trava).
 *
 * The lock is a file naming its holder (`pid token`). It appears whole: the text is written to a file of
 * this process's own, then hard-linked to the lock's name, which fails if the name exists. So a lock
 * file never lacks its pid, and a write that fails (a full disk) leaves no lock behind. A lock that
 * names no live process is stale at once: a holder that died, and a file that is empty or unreadable
 * (left by an older version whose write failed after creating it). One held longer than any request may
 * last is taken over too. The folder is on one machine's disk (DATA_DIR), which makes the pid meaningful.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as esperar } from 'node:timers/promises';
import { vivo } from './processo';

export interface OpcoesTrava {
  /** Between two looks at a held lock. */
  intervaloMs?: number;
  /** A lock older than this is abandoned whoever holds it (above the server's 60 s request timeout). */
  abandonadaMs?: number;
}

/**
 * The holder's pid, or null when the text names no process. Strict: '' and '0' would read as pid 0,
 * and '-1' as -1, which process.kill takes as "this process group" and "every process" (always alive).
 */
export function pidDaTrava(conteudo: string): number | null {
  const m = /^([1-9]\d{0,9}) /.exec(conteudo);
  return m ? Number(m[1]) : null;
}

/** Whether the lock file belongs to nobody any more. */
function abandonada(arquivo: string, abandonadaMs: number): boolean {
  try {
    const pid = pidDaTrava(fs.readFileSync(arquivo, 'utf8'));
    const idade = Date.now() - fs.statSync(arquivo).mtimeMs;
    return pid === null || !vivo(pid) || idade > abandonadaMs;
  } catch {
    return false; // gone meanwhile: the next try creates it
  }
}

/** Creates the lock with its text already in it; false when another holds it. */
function criar(arquivo: string, marca: string): boolean {
  const rascunho = `${arquivo}.${marca.replace(' ', '-')}.criando`;
  try {
    fs.writeFileSync(rascunho, marca, { flag: 'wx', mode: 0o600 });
    fs.linkSync(rascunho, arquivo);
    return true;
  } catch (erro) {
    if ((erro as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw erro;
  } finally {
    fs.rmSync(rascunho, { force: true });
  }
}

/** Runs `trabalho` holding the lock `arquivo`, waiting while another process holds it. */
export async function comTravaEntreProcessos<T>(arquivo: string, trabalho: () => Promise<T>, opcoes: OpcoesTrava = {}): Promise<T> {
  const { intervaloMs = 25, abandonadaMs = 120_000 } = opcoes;
  const marca = `${process.pid} ${randomBytes(8).toString('hex')}`;
  for (;;) {
    try {
      if (criar(arquivo, marca)) break;
    } catch (erro) {
      const code = (erro as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') {
        fs.mkdirSync(path.dirname(arquivo), { recursive: true, mode: 0o700 });
        continue;
      }
      throw erro;
    }
    if (abandonada(arquivo, abandonadaMs)) {
      fs.rmSync(arquivo, { force: true });
      continue;
    }
    await esperar(intervaloMs);
  }
  try {
    return await trabalho();
  } finally {
    // Only our own: a lock taken over from us (we outlived `abandonadaMs`) is the new holder's.
    try {
      if (fs.readFileSync(arquivo, 'utf8') === marca) fs.rmSync(arquivo, { force: true });
    } catch {
      // already gone
    }
  }
}
