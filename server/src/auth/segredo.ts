/**
 * The JWT signing secret: JWT_SECRET when set; otherwise generated once and kept in
 * DATA_DIR/jwt-secret (mode 600), so restarts keep everyone's session.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export function obterSegredoJwt(dataDir: string, configurado: string | undefined): string {
  if (configurado) return configurado;
  const arquivo = path.join(dataDir, 'jwt-secret');
  try {
    const existente = fs.readFileSync(arquivo, 'utf8').trim();
    if (existente.length >= 32) return existente;
  } catch (erro) {
    if ((erro as NodeJS.ErrnoException).code !== 'ENOENT') throw erro;
  }
  const novo = randomBytes(48).toString('base64url');
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  fs.writeFileSync(arquivo, `${novo}\n`, { mode: 0o600 });
  fs.chmodSync(arquivo, 0o600); // the mode above only applies to a new file, not to a bad one replaced
  return novo;
}
