/**
 * The operation log (operacoes_aplicadas): what makes every queued write exactly-once. An operation
 * is recorded in the same transaction as its effect; a replay finds it here and is answered with the
 * recorded outcome without running (docs/decisions/sincronizacao.md, 'Exatamente uma vez').
 */
import { inArray, sql } from 'drizzle-orm';
import { ehPostgres, insercaoPosicional, preparadaDireta, type Db } from '../db';
import type { Talvez } from '../db/talvez';
import { operacoesAplicadas } from '../db/tabelas';

export interface OperacaoAplicada {
  id: string;
  usuarioId: number;
  clienteId: string;
  seq: number;
  tipo: string;
  status: number;
  recebidoEm: string | null;
}

const colunasAplicada = () => ({
  id: operacoesAplicadas.id,
  usuarioId: operacoesAplicadas.usuarioId,
  clienteId: operacoesAplicadas.clienteId,
  seq: operacoesAplicadas.seq,
  tipo: operacoesAplicadas.tipo,
  status: operacoesAplicadas.status,
  recebidoEm: operacoesAplicadas.recebidoEm,
});

/** The recorded operations among `ids` (one query for a whole batch; an id given twice is found once). */
export async function buscarAplicadas(db: Db, ids: string[]): Promise<Map<string, OperacaoAplicada>> {
  const encontradas = new Map<string, OperacaoAplicada>();
  if (ids.length === 0) return encontradas;
  if (ehPostgres(db)) {
    // PostgreSQL finds each id of the list by the primary key: the plain query, in both engines' SQL.
    for (const a of await db.select(colunasAplicada()).from(operacoesAplicadas).where(inArray(operacoesAplicadas.id, ids))) encontradas.set(a.id, a);
    return encontradas;
  }
  const comando = preparadaDireta(db, 'operacoes.aplicadas', () =>
    db
      .select(colunasAplicada())
      // SQLite: driven by the batch's ids (one parameter, one statement prepared once), each found by
      // the primary key. Not `id in (select value from json_each(...))`: SQLite built a temporary
      // index of the list for that, ~4x the time. json_each is SQLite's, hence the branch.
      .from(sql`json_each(${sql.placeholder('ids')}) as lista`)
      .innerJoin(operacoesAplicadas, sql`${operacoesAplicadas.id} = lista.value`),
  );
  for (const linha of await comando.todas({ ids: JSON.stringify(ids) })) {
    const [id, usuarioId, clienteId, seq, tipo, status, recebidoEm] = linha as [string, number, string, number, string, number, string | null];
    encontradas.set(id, { id, usuarioId, clienteId, seq, tipo, status, recebidoEm });
  }
  return encontradas;
}

/** The log's columns, in the order registrarAplicadaSqlite takes them. */
const COLUNAS_APLICADA = ['id', 'usuarioId', 'clienteId', 'seq', 'tipo', 'status', 'recebidoEm'] as const satisfies readonly (keyof OperacaoAplicada)[];

function insercaoDaAplicada(tx: Db) {
  const valores = Object.fromEntries(COLUNAS_APLICADA.map((coluna) => [coluna, sql.placeholder(coluna)])) as unknown as typeof operacoesAplicadas.$inferInsert;
  return tx.insert(operacoesAplicadas).values(valores);
}

/**
 * Records an applied operation; must run inside the transaction of its effect (`tx`). At once on SQLite
 * (db/talvez.ts): every queued operation passes here.
 */
export function registrarAplicada(tx: Db, op: OperacaoAplicada): Talvez<unknown> {
  return preparadaDireta(tx, 'operacoes.registrar', () => insercaoDaAplicada(tx)).run(op as unknown as Record<string, unknown>);
}

/** registrarAplicada for the batch's direct path on SQLite (vendas/vendasNovasDoLote.ts): the values in order, no object. */
export function registrarAplicadaSqlite(tx: Db, id: string, usuarioId: number, clienteId: string, seq: number, tipo: string, status: number, recebidoEm: string | null): void {
  insercaoPosicional(tx, 'operacoes.registrar', COLUNAS_APLICADA, () => insercaoDaAplicada(tx))(id, usuarioId, clienteId, seq, tipo, status, recebidoEm);
}

/** A log row's values, as registrarAplicadaSqlite takes them after the handle. */
export const VALORES_POR_APLICADA = COLUNAS_APLICADA.length;

/**
 * Rows per statement of registrarAplicadasSqlite. One insert of 50 rows costs ~30% less per row than 50
 * inserts (0.29 against 0.42 ms for 200 rows with the app's schema): the statement's own cost, paid once.
 */
export const APLICADAS_POR_COMANDO = 50;

/** The placeholders of an insert of APLICADAS_POR_COMANDO rows: each column's name with its row ('id_0' ...). */
const NOMES_DAS_APLICADAS = Array.from({ length: APLICADAS_POR_COMANDO }, (_, linha) => COLUNAS_APLICADA.map((coluna) => `${coluna}_${linha}`)).flat();

/**
 * APLICADAS_POR_COMANDO rows in one statement, SQLite only (vendas/vendasNovasDoLote.ts): `valores` holds
 * each row's values in registrarAplicadaSqlite's order, one row after another. Inside the transaction of
 * their effects, like every record.
 */
export function registrarAplicadasSqlite(tx: Db, valores: readonly unknown[]): void {
  if (valores.length !== NOMES_DAS_APLICADAS.length) throw new Error(`registrarAplicadasSqlite: ${APLICADAS_POR_COMANDO} linhas por comando.`);
  insercaoPosicional(tx, 'operacoes.registrarVarias', NOMES_DAS_APLICADAS, () =>
    tx.insert(operacoesAplicadas).values(
      Array.from(
        { length: APLICADAS_POR_COMANDO },
        (_, linha) => Object.fromEntries(COLUNAS_APLICADA.map((coluna) => [coluna, sql.placeholder(`${coluna}_${linha}`)])) as unknown as typeof operacoesAplicadas.$inferInsert,
      ),
    ),
  )(...valores);
}
