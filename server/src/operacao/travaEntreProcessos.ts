/**
 * A lock held across the app processes of one machine (issue 21, item 3): the parts of one resumable
 * upload may reach different processes behind the proxy, and two writers of the same file at once
 * (a part sent again while the first try is still being written elsewhere) would interleave a cut
 * and writes. The lock is a file created only if absent ('wx'), naming its holder. A holder that died
 * (no such process on this machine) or held it longer than any request may last is taken over.
 * The folder is on one machine's disk (DATA_DIR/uploads-tmp), which is what makes the pid meaningful.
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

/** Whether the lock file (holding `pid token`) belongs to nobody any more. */
function abandonada(arquivo: string, abandonadaMs: number): boolean {
  try {
    const [pid] = fs.readFileSync(arquivo, 'utf8').split(' ');
    const idade = Date.now() - fs.statSync(arquivo).mtimeMs;
    return idade > abandonadaMs || !Number.isInteger(Number(pid)) || !vivo(Number(pid));
  } catch {
    return false; // gone meanwhile: the next try creates it
  }
}

/** Runs `trabalho` holding the lock `arquivo`, waiting while another process holds it. */
export async function comTravaEntreProcessos<T>(arquivo: string, trabalho: () => Promise<T>, opcoes: OpcoesTrava = {}): Promise<T> {
  const { intervaloMs = 25, abandonadaMs = 120_000 } = opcoes;
  const marca = `${process.pid} ${randomBytes(8).toString('hex')}`;
  for (;;) {
    try {
      fs.writeFileSync(arquivo, marca, { flag: 'wx', mode: 0o600 });
      break;
    } catch (erro) {
      const code = (erro as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') {
        fs.mkdirSync(path.dirname(arquivo), { recursive: true, mode: 0o700 });
        continue;
      }
      if (code !== 'EEXIST') throw erro;
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
