/** The `dispositivos` table: each phone's last report of its queue, per install and employee. */
import { and, desc, eq, gt, lt, sql } from 'drizzle-orm';
import { preparada, type Db } from '../db';
import { dispositivos, usuarios } from '../db/schema';

export type LinhaDispositivo = typeof dispositivos.$inferSelect;

export function buscarDispositivo(db: Db, dispositivoId: string, usuarioId: number): LinhaDispositivo | undefined {
  return preparada(db, 'dispositivoPorChave', () =>
    db
      .select()
      .from(dispositivos)
      .where(and(eq(dispositivos.dispositivoId, sql.placeholder('dispositivoId')), eq(dispositivos.usuarioId, sql.placeholder('usuarioId'))))
      .prepare(),
  ).get({ dispositivoId, usuarioId });
}

/** Insert or replace the report of (device, employee): the row is always the caller's own. */
export function gravarDispositivo(db: Db, linha: LinhaDispositivo): void {
  const { dispositivoId: _d, usuarioId: _u, ...valores } = linha;
  db.insert(dispositivos)
    .values(linha)
    .onConflictDoUpdate({ target: [dispositivos.dispositivoId, dispositivos.usuarioId], set: valores })
    .run();
}

const filaTotal = sql`${dispositivos.filaVendas} + ${dispositivos.filaVisitas} + ${dispositivos.filaDespesas} + ${dispositivos.filaRotas}`;

/**
 * Forgets the phones last seen before `vistoAntesDe` with nothing waiting (an install replaced or
 * wiped): the table grows with installs, and those rows no longer tell anyone anything. A phone that
 * still reports a queue is kept however long it stays silent: the admin must keep seeing it.
 */
export function esquecerDispositivosParados(db: Db, vistoAntesDe: string): number {
  return db.delete(dispositivos).where(and(lt(dispositivos.vistoEm, vistoAntesDe), eq(filaTotal, 0))).run().changes;
}

export interface DispositivoComFila extends LinhaDispositivo {
  funcionarioNome: string;
}

/** Every phone that last said something is waiting on it, oldest waiting first. */
export function dispositivosComFila(db: Db): DispositivoComFila[] {
  return db
    .select({
      dispositivoId: dispositivos.dispositivoId,
      usuarioId: dispositivos.usuarioId,
      versao: dispositivos.versao,
      filaVendas: dispositivos.filaVendas,
      filaVisitas: dispositivos.filaVisitas,
      filaDespesas: dispositivos.filaDespesas,
      filaRotas: dispositivos.filaRotas,
      maisAntigoEm: dispositivos.maisAntigoEm,
      ultimaSyncEm: dispositivos.ultimaSyncEm,
      vistoEm: dispositivos.vistoEm,
      funcionarioNome: usuarios.nome,
    })
    .from(dispositivos)
    .innerJoin(usuarios, eq(usuarios.id, dispositivos.usuarioId))
    .where(and(gt(filaTotal, 0), eq(usuarios.tipo, 'funcionario')))
    .orderBy(sql`${dispositivos.maisAntigoEm} is null`, dispositivos.maisAntigoEm, desc(dispositivos.vistoEm))
    .all();
}
