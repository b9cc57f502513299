/** On an empty database, creates the first admin so someone can sign in at all. */
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Db } from '../db';
import { contarUsuarios } from './repositorio';
import { criarUsuario } from './servico';

export const EMAIL_ADMIN_PADRAO = 'admin@localhost';

export async function garantirPrimeiroAdmin(
  db: Db,
  config: Pick<Config, 'adminEmail' | 'adminPassword' | 'adminName'>,
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>,
): Promise<{ email: string; senhaGerada?: string } | null> {
  if ((await contarUsuarios(db)) > 0) return null;
  const email = config.adminEmail ?? EMAIL_ADMIN_PADRAO;
  const senhaGerada = config.adminPassword ? undefined : randomBytes(9).toString('base64url');
  await criarUsuario(db, { nome: config.adminName, email, senha: config.adminPassword ?? senhaGerada!, tipo: 'admin' });
  if (senhaGerada) {
    // Printed once: it is not stored anywhere in clear text.
    log.warn({ email, senha: senhaGerada }, `Primeiro administrador criado: ${email} / senha: ${senhaGerada} (anote agora; ela não será mostrada de novo)`);
  } else {
    log.info({ email }, 'Primeiro administrador criado com ADMIN_EMAIL/ADMIN_PASSWORD');
  }
  return { email, ...(senhaGerada ? { senhaGerada } : {}) };
}
