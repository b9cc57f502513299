/**
 * Server-side sessions: one row per login. The JWT carries its id (`sid`); a session
 * ends when it is revoked (logout, password change, deactivation, the admin's 'Encerrar sessões')
 * or when it expires (JWT_TTL after the login, so an employee offline for days keeps it).
 * The only module that reads or writes `sessoes`.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, asc, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm';
import { alteradas, preparada, type Db } from '../db';
import { sessoes } from '../db/tabelas';
import { prepararComNome } from '../usuarios/repositorio';

export type LinhaSessao = typeof sessoes.$inferSelect;

/** What signed in, for the record: the browser's User-Agent, shortened. */
const DESCRICAO_MAXIMA = 200;

export async function criarSessao(db: Db, usuarioId: number, ttlSegundos: number, descricao: string, agora = Date.now()): Promise<LinhaSessao> {
  const agoraIso = new Date(agora).toISOString();
  // Expired rows of this user are of no use to anyone: forget them as the new one starts.
  await db.delete(sessoes).where(and(eq(sessoes.usuarioId, usuarioId), lt(sessoes.expiraEm, agoraIso)));
  const [criada] = await db
    .insert(sessoes)
    .values({
      id: randomBytes(24).toString('base64url'),
      usuarioId,
      criadaEm: agoraIso,
      expiraEm: new Date(agora + ttlSegundos * 1000).toISOString(),
      descricao: descricao.slice(0, DESCRICAO_MAXIMA),
    })
    .returning();
  return criada!;
}

export async function buscarSessao(db: Db, id: string): Promise<LinhaSessao | undefined> {
  // Read on authenticated requests whose cached copy went stale: prepared once.
  const consulta = preparada(db, 'sessaoPorId', () =>
    prepararComNome(db.select().from(sessoes).where(eq(sessoes.id, sql.placeholder('id'))), 'sessaoPorId'),
  );
  return (await consulta.execute({ id }))[0];
}

/** Ends one session of this user (logout). False when there was none still open. */
export async function revogarSessao(db: Db, id: string, usuarioId: number): Promise<boolean> {
  const r = await db
    .update(sessoes)
    .set({ revogadaEm: new Date().toISOString() })
    .where(and(eq(sessoes.id, id), eq(sessoes.usuarioId, usuarioId), isNull(sessoes.revogadaEm)));
  return alteradas(r) > 0;
}

/** Ends every open session of a user, except `exceto` (the one asking, when it is theirs). Returns how many. */
export async function revogarSessoesDoUsuario(db: Db, usuarioId: number, exceto?: string): Promise<number> {
  const filtro = and(
    eq(sessoes.usuarioId, usuarioId),
    isNull(sessoes.revogadaEm),
    sql`${sessoes.expiraEm} > ${new Date().toISOString()}`,
    exceto === undefined ? undefined : ne(sessoes.id, exceto),
  );
  return alteradas(await db.update(sessoes).set({ revogadaEm: new Date().toISOString() }).where(filtro));
}

/** The public name of a session (the admin's list): a hash of its id, which stays a secret. */
export const refDaSessao = (id: string): string => createHash('sha256').update(id).digest('hex').slice(0, 16);

/** The user's sessions still open (not revoked, not expired), oldest first. */
export async function sessoesAbertas(db: Db, usuarioId: number): Promise<LinhaSessao[]> {
  return db
    .select()
    .from(sessoes)
    .where(and(eq(sessoes.usuarioId, usuarioId), isNull(sessoes.revogadaEm), gt(sessoes.expiraEm, new Date().toISOString())))
    .orderBy(asc(sessoes.criadaEm), asc(sessoes.id));
}

/** Is this session still good for this user at this instant? */
export function sessaoValida(sessao: LinhaSessao | undefined, usuarioId: number, agora = Date.now()): boolean {
  return !!sessao && sessao.usuarioId === usuarioId && sessao.revogadaEm === null && Date.parse(sessao.expiraEm) > agora;
}
