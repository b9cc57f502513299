/**
 * DATA_DIR/servidor-<pid>.pid marks a running server process, so `restore` can refuse to swap the
 * database under it. One file per process: several app processes may serve one DATA_DIR behind a
 * proxy, and one of them stopping must not unmark the others. A pid file left by a
 * crash is recognised (no such process) and ignored. `servidor.pid` (one file for the only process,
 * from before several could share a DATA_DIR) is still read, for a server of the older version running during an upgrade.
 */
import fs from 'node:fs';
import path from 'node:path';

const ANTIGO = 'servidor.pid';
const arquivoDoProcesso = (pid: number) => `servidor-${pid}.pid`;
const ehArquivoDePid = (nome: string) => nome === ANTIGO || /^servidor-\d+\.pid$/.test(nome);

/** Whether a process with this pid exists (EPERM: it does, owned by someone else). */
export function vivo(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (erro) {
    return (erro as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid of a server running on this data folder (another process than this one), or null. */
export function servidorRodando(dataDir: string): number | null {
  let nomes: string[];
  try {
    nomes = fs.readdirSync(dataDir).filter(ehArquivoDePid);
  } catch {
    return null;
  }
  for (const nome of nomes) {
    try {
      const pid = Number(fs.readFileSync(path.join(dataDir, nome), 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && vivo(pid)) return pid;
    } catch {
      // removed meanwhile
    }
  }
  return null;
}

/** Writes this process's pid file; the returned function removes it (on shutdown). */
export function registrarProcesso(dataDir: string): () => void {
  const arquivo = path.join(dataDir, arquivoDoProcesso(process.pid));
  fs.writeFileSync(arquivo, `${process.pid}\n`);
  return () => fs.rmSync(arquivo, { force: true });
}
