/**
 * LOGIN_RATE_LIMIT: login attempts a minute from one client address (the proxy's X-Forwarded-For
 * under TRUST_PROXY). Counted in the database, not in a process's memory, so that N app processes
 * behind one proxy allow LOGIN_RATE_LIMIT attempts, not N times it. One upsert
 * per attempt: logins are rare and each one costs a scrypt hash far above it. A fixed window, as
 * @fastify/rate-limit's own store counted it before: the first attempt opens a minute, the
 * attempts in it are counted, the first after it opens the next.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { eq, lte, sql } from 'drizzle-orm';
import { alteradas, type Db } from '../db';
import { tentativasLoginPorEndereco as tentativas } from '../db/tabelas';
import { muitasTentativas } from '../errors';

export const JANELA_LOGIN_MS = 60_000;

export interface ContagemDoEndereco {
  /** Attempts in the current window, this one included. */
  tentativas: number;
  /** Until the window ends. */
  restamMs: number;
}

/** Counts one attempt from `endereco` (atomic: two processes counting at once both count). */
export async function contarTentativaDeLogin(db: Db, endereco: string, janelaMs: number, agora = Date.now()): Promise<ContagemDoEndereco> {
  const venceu = sql`${tentativas.inicioMs} + ${janelaMs} <= ${agora}`;
  const [linha] = await db
    .insert(tentativas)
    .values({ endereco, inicioMs: agora, tentativas: 1 })
    .onConflictDoUpdate({
      target: tentativas.endereco,
      // Both expressions read the row as it was before this update.
      set: {
        tentativas: sql`case when ${venceu} then 1 else ${tentativas.tentativas} + 1 end`,
        inicioMs: sql`case when ${venceu} then ${agora} else ${tentativas.inicioMs} end`,
      },
    })
    .returning();
  return { tentativas: linha!.tentativas, restamMs: Math.max(0, linha!.inicioMs + janelaMs - agora) };
}

/** The attempts counted in the current window, without counting one (null: none, or the window is over). */
export async function tentativasNaJanela(db: Db, endereco: string, janelaMs: number, agora = Date.now()): Promise<ContagemDoEndereco | null> {
  const [linha] = await db.select().from(tentativas).where(eq(tentativas.endereco, endereco)).limit(1);
  if (!linha || linha.inicioMs + janelaMs <= agora) return null;
  return { tentativas: linha.tentativas, restamMs: linha.inicioMs + janelaMs - agora };
}

/** Forgets the addresses whose window is over (their next attempt starts from one anyway). */
export async function esquecerJanelasVencidas(db: Db, janelaMs: number, agora = Date.now()): Promise<number> {
  return alteradas(await db.delete(tentativas).where(lte(tentativas.inicioMs, agora - janelaMs)));
}

export const mensagemLimiteLogin = (segundos: number) =>
  `Muitas tentativas de login a partir deste endereço. Aguarde ${segundos} segundos e tente novamente.`;

/** The login route's onRequest hook: beyond `maximo` attempts in the window, 429 with Retry-After. */
export function limitarLoginPorEndereco(db: Db, maximo: number, janelaMs = JANELA_LOGIN_MS) {
  let limpezaEm = 0;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const agora = Date.now();
    // Old windows go at most once a window per process: a delete on every attempt is a write for nothing.
    if (agora - limpezaEm >= janelaMs) {
      limpezaEm = agora;
      await esquecerJanelasVencidas(db, janelaMs, agora);
    }
    const recusar = (restamMs: number) => {
      const segundos = Math.max(1, Math.ceil(restamMs / 1000));
      reply.header('retry-after', String(segundos));
      return muitasTentativas(mensagemLimiteLogin(segundos));
    };
    // Already at the limit: refused without a write (a flood of logins would otherwise be a flood of
    // writes, each one emptying the read cache). Under it: counted atomically, and the count decides
    // (two processes that both read one below the limit cannot both let an attempt through).
    const jaContadas = await tentativasNaJanela(db, request.ip, janelaMs, agora);
    if (jaContadas && jaContadas.tentativas >= maximo) throw recusar(jaContadas.restamMs);
    const contagem = await contarTentativaDeLogin(db, request.ip, janelaMs, agora);
    if (contagem.tentativas > maximo) throw recusar(contagem.restamMs);
  };
}
