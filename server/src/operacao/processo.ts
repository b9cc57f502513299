/**
 * DATA_DIR/servidor.pid marks a running server, so `restore` can refuse to swap the database
 * under it. A pid file left by a crash is recognised (no such process) and ignored.
 */
import fs from 'node:fs';
import path from 'node:path';

const ARQUIVO = 'servidor.pid';

function vivo(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (erro) {
    return (erro as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid of a server running on this data folder, or null. */
export function servidorRodando(dataDir: string): number | null {
  try {
    const pid = Number(fs.readFileSync(path.join(dataDir, ARQUIVO), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 && pid !== process.pid && vivo(pid) ? pid : null;
  } catch {
    return null;
  }
}

/** Writes the pid file; the returned function removes it (on shutdown). */
export function registrarProcesso(dataDir: string): () => void {
  const arquivo = path.join(dataDir, ARQUIVO);
  fs.writeFileSync(arquivo, `${process.pid}\n`);
  return () => {
    try {
      if (fs.readFileSync(arquivo, 'utf8').trim() === String(process.pid)) fs.rmSync(arquivo);
    } catch {
      // already gone
    }
  };
}
