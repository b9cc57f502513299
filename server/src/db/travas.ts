/**
 * The locks a PostgreSQL write transaction takes first (decisions.md, "PostgreSQL: uma trava por
 * funcionário"). Transactions run at READ COMMITTED: each statement sees what was committed before it
 * began, so a check-then-write (the ledger's last movement, a route's figures, the operation log's
 * "applied before?") is safe when everyone who writes the same data holds the same lock around it.
 *
 * Two transaction-scoped advisory locks, released by the commit or the rollback (after the commit is
 * visible to the next holder's statements):
 * - one per user: every write on a user's data (their sales, expenses, ledger, routes, phones, operation
 *   log) holds it, whether the phone's batch or an admin's credit, acerto or approval; two users' writes
 *   never wait for each other;
 * - one for everything: a user's lock also takes it shared, and a write that names no user (a new user,
 *   a route moved to someone else, the cities) takes it exclusively, so it runs alone, as under SQLite.
 *   That is the default: a write path nobody named is correct, only not concurrent.
 * SQLite ignores all of this: its single writer already runs one transaction at a time.
 */
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { Db } from './index';

/** Which data a transaction changes, and so which lock it takes first. */
export type Trava =
  /** Everything (the default): alone against every other write. */
  | 'geral'
  /** Reads only: one snapshot (REPEATABLE READ, READ ONLY), no lock. */
  | 'leitura'
  /** One user's data, the user known up front. */
  | { usuario: number }
  /**
   * One user's data, the user read in the transaction (whose expense, whose route): read under the
   * shared lock for everything, which a change of owner needs exclusively, so the answer holds.
   * Null: nobody's (the row does not exist); the transaction then refuses as it would.
   */
  | { usuarioDe: (tx: Db) => Promise<number | null> };

export const TRAVA_GERAL: Trava = 'geral';
export const TRAVA_LEITURA: Trava = 'leitura';

/**
 * The keys (two int4 each: a class, then an id). The class is fixed for this app so that another
 * application's advisory locks on the same database do not collide with these.
 */
const CLASSE_GERAL = 0x53470001;
const CLASSE_USUARIO = 0x53470002;

interface Travadas {
  geral: boolean;
  usuarios: Set<number>;
}

const travadasPorTransacao = new WeakMap<Db, Travadas>();

async function rodar(tx: Db, consulta: ReturnType<typeof sql>): Promise<void> {
  await (tx as unknown as PgDatabase<PgQueryResultHKT>).execute(consulta);
}

/** The first statement of a PostgreSQL transaction opened by emTransacao. */
export async function travarNoComeco(tx: Db, trava: Trava): Promise<void> {
  const travadas: Travadas = { geral: false, usuarios: new Set() };
  travadasPorTransacao.set(tx, travadas);
  if (trava === 'leitura') return;
  if (trava === 'geral') {
    await rodar(tx, sql`select pg_advisory_xact_lock(${CLASSE_GERAL}::int, 0)`);
    travadas.geral = true;
    return;
  }
  if ('usuario' in trava) {
    // One round trip: the shared lock for everything, then the user's (evaluated in that order).
    await rodar(tx, sql`select pg_advisory_xact_lock_shared(${CLASSE_GERAL}::int, 0), pg_advisory_xact_lock(${CLASSE_USUARIO}::int, ${trava.usuario}::int)`);
    travadas.usuarios.add(trava.usuario);
    return;
  }
  await rodar(tx, sql`select pg_advisory_xact_lock_shared(${CLASSE_GERAL}::int, 0)`);
  const usuario = await trava.usuarioDe(tx);
  if (usuario !== null) await travarUsuario(tx, usuario);
}

/**
 * A transaction joined by code that names its data (emTransacao given a `trava`): the locks it lacks are
 * taken now. Widening can deadlock with a transaction that widens the other way; PostgreSQL then aborts
 * one, and emTransacao runs it again.
 */
export async function ampliarTrava(tx: Db, trava: Trava | undefined): Promise<void> {
  if (trava === undefined || trava === 'leitura') return;
  const travadas = travadasPorTransacao.get(tx);
  if (trava === 'geral') {
    if (travadas?.geral) return;
    await rodar(tx, sql`select pg_advisory_xact_lock(${CLASSE_GERAL}::int, 0)`);
    if (travadas) travadas.geral = true;
    return;
  }
  await travarUsuario(tx, 'usuario' in trava ? trava.usuario : await trava.usuarioDe(tx));
}

/**
 * The user's lock in the open transaction `tx`, unless it already holds it (or the lock for everything).
 * The ledger calls it before reading an employee's last movement, whoever opened the transaction.
 * Nothing on SQLite.
 */
export async function travarUsuario(tx: Db, usuario: number | null): Promise<void> {
  if (usuario === null) return;
  const travadas = travadasPorTransacao.get(tx);
  if (!travadas) return; // SQLite, or not a transaction emTransacao opened on PostgreSQL
  if (travadas.geral || travadas.usuarios.has(usuario)) return;
  await rodar(tx, sql`select pg_advisory_xact_lock(${CLASSE_USUARIO}::int, ${usuario}::int)`);
  travadas.usuarios.add(usuario);
}
