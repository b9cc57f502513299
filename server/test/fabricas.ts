/**
 * Rows written straight to the database for tests that need history (sales, visits, expenses,
 * balance movements) without going through those domains' APIs. The ledger chain is kept right.
 */
import { desc, eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Db } from '../src/db';
import { despesas, movimentacoesSaldo, vendas, visitas } from '../src/db/schema';

export interface ValoresVenda {
  dinheiro?: number;
  pix?: number;
  cartao?: number;
  link?: number;
  boletos?: number;
}

/** A sale (values in centavos) and the visit it implies. */
export function inserirVenda(db: Db, rotaId: number, funcionarioId: number, cidadeId: number, data: string, v: ValoresVenda): string {
  const id = uuidv7();
  db.insert(vendas)
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
    })
    .run();
  inserirVisita(db, rotaId, funcionarioId, cidadeId, data);
  return id;
}

export function inserirVisita(db: Db, rotaId: number, funcionarioId: number, cidadeId: number, data: string): void {
  db.insert(visitas).values({ id: uuidv7(), rotaId, cidadeId, funcionarioId, data, registradoEm: new Date().toISOString() }).onConflictDoNothing().run();
}

export function inserirDespesa(
  db: Db,
  rotaId: number,
  funcionarioId: number,
  cidadeId: number,
  data: string,
  valorCentavos: number,
  extra: Partial<typeof despesas.$inferInsert> = {},
): string {
  const id = uuidv7();
  db.insert(despesas)
    .values({ id, rotaId, cidadeId, funcionarioId, dataDespesa: data, tipo: 'alimentacao', valorCentavos, registradoEm: new Date().toISOString(), ...extra })
    .run();
  return id;
}

/** Appends a movement chained to the employee's last one. */
export function inserirMovimento(
  db: Db,
  funcionarioId: number,
  tipo: 'credito' | 'debito' | 'devolucao',
  valorCentavos: number,
  rotaId: number | null,
): void {
  const ultimo = db
    .select({ saldo: movimentacoesSaldo.saldoNovoCentavos })
    .from(movimentacoesSaldo)
    .where(eq(movimentacoesSaldo.funcionarioId, funcionarioId))
    .orderBy(desc(movimentacoesSaldo.id))
    .limit(1)
    .get();
  const anterior = ultimo?.saldo ?? 0;
  const novo = anterior + (tipo === 'debito' ? -valorCentavos : valorCentavos);
  db.insert(movimentacoesSaldo).values({ funcionarioId, tipo, valorCentavos, saldoAnteriorCentavos: anterior, saldoNovoCentavos: novo, rotaId }).run();
}
