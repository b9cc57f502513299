/**
 * Rows written straight to the database for tests that need history (sales, visits, expenses,
 * balance movements) without going through those domains' APIs. The ledger chain is kept right.
 * Async and through db/tabelas, so the same fixtures run on SQLite and PostgreSQL.
 */
import { desc, eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Db } from '../src/db';
import { despesas, movimentacoesSaldo, vendas, visitas } from '../src/db/tabelas';

export interface ValoresVenda {
  dinheiro?: number;
  pix?: number;
  cartao?: number;
  link?: number;
  boletos?: number;
}

/** A sale (values in centavos) and the visit it implies. */
export async function inserirVenda(db: Db, rotaId: number, funcionarioId: number, cidadeId: number, data: string, v: ValoresVenda): Promise<string> {
  const id = uuidv7();
  await db
    .insert(vendas)
    .values({
      id,
      rotaId,
      cidadeId,
      funcionarioId,
      dataVenda: data,
      dinheiroCentavos: v.dinheiro ?? 0,
      pixCentavos: v.pix ?? 0,
      cartaoCentavos: v.cartao ?? 0,
      linkCentavos: v.link ?? 0,
      boletos: v.boletos ?? 0,
      registradoEm: new Date().toISOString(),
    });
  await inserirVisita(db, rotaId, funcionarioId, cidadeId, data);
  return id;
}

export async function inserirVisita(db: Db, rotaId: number, funcionarioId: number, cidadeId: number, data: string): Promise<void> {
  await db.insert(visitas).values({ id: uuidv7(), rotaId, cidadeId, funcionarioId, data, registradoEm: new Date().toISOString() }).onConflictDoNothing();
}

export async function inserirDespesa(
  db: Db,
  rotaId: number,
  funcionarioId: number,
  cidadeId: number,
  data: string,
  valorCentavos: number,
  extra: Partial<typeof despesas.$inferInsert> = {},
): Promise<string> {
  const id = uuidv7();
  await db
    .insert(despesas)
    .values({ id, rotaId, cidadeId, funcionarioId, dataDespesa: data, tipo: 'alimentacao', valorCentavos, registradoEm: new Date().toISOString(), ...extra });
  return id;
}

/** Appends a movement chained to the employee's last one. */
export async function inserirMovimento(
  db: Db,
  funcionarioId: number,
  tipo: 'credito' | 'debito' | 'devolucao',
  valorCentavos: number,
  rotaId: number | null,
): Promise<void> {
  const [ultimo] = await db
    .select({ saldo: movimentacoesSaldo.saldoNovoCentavos })
    .from(movimentacoesSaldo)
    .where(eq(movimentacoesSaldo.funcionarioId, funcionarioId))
    .orderBy(desc(movimentacoesSaldo.id))
    .limit(1);
  const anterior = ultimo?.saldo ?? 0;
  const novo = anterior + (tipo === 'debito' ? -valorCentavos : valorCentavos);
  await db.insert(movimentacoesSaldo).values({ funcionarioId, tipo, valorCentavos, saldoAnteriorCentavos: anterior, saldoNovoCentavos: novo, rotaId });
}
