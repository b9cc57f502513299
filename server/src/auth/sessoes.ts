/**
 * Server-side sessions (issue 18): one row per login. The JWT carries its id (`sid`); a session
 * ends when it is revoked (logout, password change, deactivation, the admin's 'Encerrar sessões')
 * or when it expires (JWT_TTL after the login, so an employee offline for days keeps it).
 * The only module that reads or writes `sessoes`.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, asc, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm';
import { preparada, type Db } from '../db';
import { sessoes } from '../db/schema';

export type LinhaSessao = typeof sessoes.$inferSelect;

/** What signed in, for the record: the browser's User-Agent, shortened. */
const DESCRICAO_MAXIMA = 200;

export function criarSessao(db: Db, usuarioId: number, ttlSegundos: number, descricao: string, agora = Date.now()): LinhaSessao {
  const agoraIso = new Date(agora).toISOString();
  // Expired rows of this user are of no use to anyone: forget them as the new one starts.
  db.delete(sessoes).where(and(eq(sessoes.usuarioId, usuarioId), lt(sessoes.expiraEm, agoraIso))).run();
  return db
    .insert(sessoes)
    .values({
      id: randomBytes(24).toString('base64url'),
      usuarioId,
      criadaEm: agoraIso,
      expiraEm: new Date(agora + ttlSegundos * 1000).toISOString(),
      descricao: descricao.slice(0, DESCRICAO_MAXIMA),
    })
    .returning()
    .get();
}

export function buscarSessao(db: Db, id: string): LinhaSessao | undefined {
  // Read on authenticated requests whose cached copy went stale: prepared once.
  return preparada(db, 'sessaoPorId', () =>
    db.select().from(sessoes).where(eq(sessoes.id, sql.placeholder('id'))).prepare(),
  ).get({ id });
}

/** Ends one session of this user (logout). False when there was none still open. */
export function revogarSessao(db: Db, id: string, usuarioId: number): boolean {
  const r = db
    .update(sessoes)
    .set({ revogadaEm: new Date().toISOString() })
    .where(and(eq(sessoes.id, id), eq(sessoes.usuarioId, usuarioId), isNull(sessoes.revogadaEm)))
    .run();
  return r.changes > 0;
}

/** Ends every open session of a user, except `exceto` (the one asking, when it is theirs). Returns how many. */
export function revogarSessoesDoUsuario(db: Db, usuarioId: number, exceto?: string): number {
  const filtro = and(
    eq(sessoes.usuarioId, usuarioId),
    isNull(sessoes.revogadaEm),
    sql`${sessoes.expiraEm} > ${new Date().toISOString()}`,
    exceto === undefined ? undefined : ne(sessoes.id, exceto),
  );
  return db.update(sessoes).set({ revogadaEm: new Date().toISOString() }).where(filtro).run().changes;
}

/** The public name of a session (the admin's list): a hash of its id, which stays a secret. */
export const refDaSessao = (id: string): string => createHash('sha256').update(id).digest('hex').slice(0, 16);

/** The user's sessions still open (not revoked, not expired), oldest first. */
export function sessoesAbertas(db: Db, usuarioId: number): LinhaSessao[] {
  return db
    .select()
    .from(sessoes)
    .where(and(eq(sessoes.usuarioId, usuarioId), isNull(sessoes.revogadaEm), gt(sessoes.expiraEm, new Date().toISOString())))
    .orderBy(asc(sessoes.criadaEm), asc(sessoes.id))
    .all();
}

/** Is this session still good for this user at this instant? */
export function sessaoValida(sessao: LinhaSessao | undefined, usuarioId: number, agora = Date.now()): boolean {
  return !!sessao && sessao.usuarioId === usuarioId && sessao.revogadaEm === null && Date.parse(sessao.expiraEm) > agora;
}
