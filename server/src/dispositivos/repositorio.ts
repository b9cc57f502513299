/** The `dispositivos` table: each phone's last report of its queue, per install and employee. */
import { and, desc, eq, gt, lt, sql } from 'drizzle-orm';
import { alteradas, emTransacao, preparada, type Db } from '../db';
import { dispositivos, usuarios } from '../db/tabelas';
import { prepararComNome } from '../usuarios/repositorio';

export type LinhaDispositivo = typeof dispositivos.$inferSelect;

export async function buscarDispositivo(db: Db, dispositivoId: string, usuarioId: number): Promise<LinhaDispositivo | undefined> {
  const consulta = preparada(db, 'dispositivoPorChave', () =>
    prepararComNome(
      db
        .select()
        .from(dispositivos)
        .where(and(eq(dispositivos.dispositivoId, sql.placeholder('dispositivoId')), eq(dispositivos.usuarioId, sql.placeholder('usuarioId')))),
      'dispositivoPorChave',
    ),
  );
  return (await consulta.execute({ dispositivoId, usuarioId }))[0];
}

/** Insert or replace the report of (device, employee): the row is always the caller's own. */
export async function gravarDispositivo(db: Db, linha: LinhaDispositivo): Promise<void> {
  const { dispositivoId: _d, usuarioId: _u, ...valores } = linha;
  await db
    .insert(dispositivos)
    .values(linha)
    .onConflictDoUpdate({ target: [dispositivos.dispositivoId, dispositivos.usuarioId], set: valores });
}

const filaTotal = sql`${dispositivos.filaVendas} + ${dispositivos.filaVisitas} + ${dispositivos.filaDespesas} + ${dispositivos.filaRotas}`;

/**
 * Forgets the phones last seen before `vistoAntesDe` (plugin.ts, DIAS_PARA_ESQUECER: an install
 * replaced, wiped, lost, or an invented id): the table grows with installs, and a report that old no
 * longer tells anyone anything the rescue file does not.
 */
export async function esquecerDispositivosParados(db: Db, vistoAntesDe: string): Promise<number> {
  return alteradas(await db.delete(dispositivos).where(lt(dispositivos.vistoEm, vistoAntesDe)));
}

export interface LimitesDoRelato {
  /** Whether the caller knows the row is already in the table (an update never counts against the limit). */
  existe: boolean;
  maximoPorUsuario: number;
  /** Rows seen before this are forgotten first (esquecerDispositivosParados). */
  vistoAntesDe: string;
}

export interface ResultadoDoRelato {
  gravado: boolean;
  /** The device id whose row gave its place to this one, if any. */
  substituido: string | null;
  esquecidos: number;
}

/**
 * Writes the report, keeping at most `maximoPorUsuario` phones per employee. A phone already in the
 * table is always updated. A new one beyond the limit takes the place of the employee's phone seen
 * longest ago **among those with nothing waiting** (the panel does not show them: nothing the admin
 * sees is lost); when all of them hold a queue, the new one is ignored. So invented ids cannot push out
 * the report of a real phone that has sales waiting, which is what the panel exists for; a real new
 * install left out gets in as soon as one of the others empties or goes stale. One transaction.
 */
export async function gravarDispositivoLimitado(db: Db, linha: LinhaDispositivo, limites: LimitesDoRelato): Promise<ResultadoDoRelato> {
  // Under the user's lock (db/travas.ts): their phones are counted and one may be replaced.
  return emTransacao(db, async (tx) => {
    const esquecidos = await esquecerDispositivosParados(tx, limites.vistoAntesDe);
    let substituido: string | null = null;
    const jaExiste = limites.existe && esquecidos === 0 ? true : (await buscarDispositivo(tx, linha.dispositivoId, linha.usuarioId)) !== undefined;
    if (!jaExiste) {
      const doUsuario = await tx
        .select({ dispositivoId: dispositivos.dispositivoId, total: sql<number>`${filaTotal}` })
        .from(dispositivos)
        .where(eq(dispositivos.usuarioId, linha.usuarioId))
        .orderBy(dispositivos.vistoEm);
      if (doUsuario.length >= limites.maximoPorUsuario) {
        const vaga = doUsuario.find((d) => d.total === 0);
        if (!vaga) return { gravado: false, substituido: null, esquecidos };
        await tx
          .delete(dispositivos)
          .where(and(eq(dispositivos.dispositivoId, vaga.dispositivoId), eq(dispositivos.usuarioId, linha.usuarioId)));
        substituido = vaga.dispositivoId;
      }
    }
    await gravarDispositivo(tx, linha);
    return { gravado: true, substituido, esquecidos };
  }, { usuario: linha.usuarioId });
}

export interface DispositivoComFila extends LinhaDispositivo {
  funcionarioNome: string;
}

/** Every phone that last said something is waiting on it (or only `usuarioId`'s), oldest waiting first. */
export async function dispositivosComFila(db: Db, usuarioId?: number): Promise<DispositivoComFila[]> {
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
    .where(and(gt(filaTotal, 0), eq(usuarios.tipo, 'funcionario'), usuarioId === undefined ? undefined : eq(dispositivos.usuarioId, usuarioId)))
    .orderBy(sql`${dispositivos.maisAntigoEm} is null`, dispositivos.maisAntigoEm, desc(dispositivos.vistoEm));
}
