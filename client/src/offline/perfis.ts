/**
 * Who owns the writes queued on this device, by name. The login screen's rescue ('Exportar
 * pendências' with no session: a deactivated employee is logged out and cannot sign in again) must
 * name the employee in the file (id, nome, email) after the session is gone.
 *
 * One row per person in `meta` ('perfil:<id>'), written at each sign-in and session restore, beside
 * the queue it describes: logging out clears the session ('token', 'user') but not this, and
 * clearing the site's data clears both. Read back through a check (a row from another version or a
 * corrupt one counts as no profile).
 */
import type { BancoLocal } from './db';
import { itensDoUsuario } from './outbox';
import { compararTexto } from '../../../shared/texto';

export interface PerfilLocal {
  id: number;
  nome: string;
  email: string;
}

export const PREFIXO_PERFIL = 'perfil:';

export const chaveDoPerfil = (usuarioId: number) => `${PREFIXO_PERFIL}${usuarioId}`;

export function perfilValido(valor: unknown): PerfilLocal | null {
  const p = valor as Partial<PerfilLocal> | null;
  if (!p || typeof p !== 'object') return null;
  if (typeof p.id !== 'number' || !Number.isSafeInteger(p.id) || typeof p.nome !== 'string' || typeof p.email !== 'string') return null;
  if (!p.nome.trim() || !p.email.trim()) return null;
  return { id: p.id, nome: p.nome, email: p.email };
}

/** Keeps the signed-in person's profile; writes only when it changed (each write wakes every live query on `meta`). */
export async function guardarPerfil(banco: BancoLocal, usuario: Partial<PerfilLocal>): Promise<void> {
  const novo = perfilValido(usuario);
  if (!novo) return;
  await banco.transaction('rw', banco.meta, async () => {
    const atual = perfilValido((await banco.meta.get(chaveDoPerfil(novo.id)))?.valor);
    if (atual && atual.nome === novo.nome && atual.email === novo.email) return;
    await banco.meta.put({ chave: chaveDoPerfil(novo.id), valor: novo });
  });
}

export async function lerPerfil(banco: BancoLocal, usuarioId: number): Promise<PerfilLocal | null> {
  const perfil = perfilValido((await banco.meta.get(chaveDoPerfil(usuarioId)))?.valor);
  return perfil && perfil.id === usuarioId ? perfil : null;
}

export interface PendenciasDoUsuario {
  usuarioId: number;
  /** Waiting and refused items: what 'Exportar pendências' puts in the file. */
  quantidade: number;
  /** Null when this person has not signed in here since profiles are kept (the file cannot name them). */
  perfil: PerfilLocal | null;
}

/** Everyone with writes still on this device, by name (the unnamed last). */
export async function pendenciasDoAparelho(banco: BancoLocal): Promise<PendenciasDoUsuario[]> {
  const ids = (await banco.outbox.orderBy('usuarioId').uniqueKeys()).filter((id): id is number => typeof id === 'number');
  const lista: PendenciasDoUsuario[] = [];
  for (const usuarioId of ids) {
    const quantidade = (await itensDoUsuario(banco, usuarioId)).length;
    if (quantidade > 0) lista.push({ usuarioId, quantidade, perfil: await lerPerfil(banco, usuarioId) });
  }
  return lista.sort((a, b) => {
    if (!a.perfil || !b.perfil) return (a.perfil ? 0 : 1) - (b.perfil ? 0 : 1) || a.usuarioId - b.usuarioId;
    return compararTexto(a.perfil.nome, b.perfil.nome);
  });
}
