/**
 * The JWT signing secret: JWT_SECRET when set; otherwise generated once and kept in
 * DATA_DIR/jwt-secret (mode 600), so restarts keep everyone's session.
 * Several processes may start at once on an empty DATA_DIR: the file is made
 * complete under a name of this process, then linked to its final name, which fails if another
 * process got there first. Every process then uses the one secret the file holds.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

function lerSegredo(arquivo: string): string | null {
  try {
    const existente = fs.readFileSync(arquivo, 'utf8').trim();
    return existente.length >= 32 ? existente : null;
  } catch (erro) {
    if ((erro as NodeJS.ErrnoException).code !== 'ENOENT') throw erro;
    return null;
  }
}

export function obterSegredoJwt(dataDir: string, configurado: string | undefined): string {
  if (configurado) return configurado;
  const arquivo = path.join(dataDir, 'jwt-secret');
  const existente = lerSegredo(arquivo);
  if (existente) return existente;
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const novo = randomBytes(48).toString('base64url');
  const temporario = `${arquivo}.${process.pid}.${randomBytes(6).toString('hex')}`;
  fs.writeFileSync(temporario, `${novo}\n`, { mode: 0o600 });
  try {
    try {
      fs.linkSync(temporario, arquivo);
      return novo;
    } catch (erro) {
      if ((erro as NodeJS.ErrnoException).code === 'EEXIST') {
        // Another process linked its secret first: that one is everyone's.
        const doOutro = lerSegredo(arquivo);
        if (doOutro) return doOutro;
      }
      // A file too short to be a secret (hand-edited or truncated), or a file system without hard
      // links (the start lock in main.ts still keeps two processes from getting here at once): replaced.
    }
    fs.renameSync(temporario, arquivo);
    fs.chmodSync(arquivo, 0o600);
    return novo;
  } finally {
    fs.rmSync(temporario, { force: true });
  }
}
