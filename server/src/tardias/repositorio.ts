/** Table access for the writes that reached a route after its employee finished it (operacoes_tardias). */
import { and, asc, count, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db';
import { operacoesTardias } from '../db/tabelas';

export type LinhaTardia = typeof operacoesTardias.$inferSelect;
export type NovaLinhaTardia = typeof operacoesTardias.$inferInsert;

/** A held receipt: stored under its own name until the admin decides (the storage's sweep leaves it alone). */
export interface ArquivoTardio {
  nome: string;
  mime: string;
  extensao: string;
  nome_original: string;
  tamanho: number;
}

export async function inserirTardia(db: Db, linha: NovaLinhaTardia): Promise<void> {
  await db.insert(operacoesTardias).values(linha);
}

export async function contarTardiasPendentes(db: Db, rotaId: number): Promise<number> {
  const [r] = await db
    .select({ n: count() })
    .from(operacoesTardias)
    .where(and(eq(operacoesTardias.rotaId, rotaId), eq(operacoesTardias.situacao, 'pendente')));
  return Number(r?.n ?? 0);
}

/** A route's held writes in the order they arrived (a phone's own order within a batch). */
export async function tardiasDaRota(db: Db, rotaId: number): Promise<LinhaTardia[]> {
  return db.select().from(operacoesTardias).where(eq(operacoesTardias.rotaId, rotaId)).orderBy(asc(operacoesTardias.recebidaEm), asc(operacoesTardias.clienteId), asc(operacoesTardias.seq));
}

export async function buscarTardia(db: Db, operacaoId: string): Promise<LinhaTardia | undefined> {
  const [l] = await db.select().from(operacoesTardias).where(eq(operacoesTardias.operacaoId, operacaoId)).limit(1);
  return l;
}

/** Decides a pending one; false when it was decided meanwhile (another admin). */
export async function decidirTardia(db: Db, operacaoId: string, decisao: { situacao: 'aceita' | 'recusada'; motivo: string | null; adminId: number }): Promise<boolean> {
  const alteradas = await db
    .update(operacoesTardias)
    .set({ situacao: decisao.situacao, motivo: decisao.motivo, decididaPor: decisao.adminId, decididaEm: new Date().toISOString() })
    .where(and(eq(operacoesTardias.operacaoId, operacaoId), eq(operacoesTardias.situacao, 'pendente')))
    .returning({ id: operacoesTardias.operacaoId });
  return alteradas.length > 0;
}

export function arquivosDaTardia(l: Pick<LinhaTardia, 'arquivos'>): ArquivoTardio[] {
  try {
    const lidos = JSON.parse(l.arquivos) as unknown;
    return Array.isArray(lidos) ? (lidos as ArquivoTardio[]) : [];
  } catch {
    return [];
  }
}

/** Which of `nomes` are receipts of held writes still pending (kept from the storage's sweep). */
export async function arquivosDeTardiasPendentes(db: Db, nomes: readonly string[]): Promise<Set<string>> {
  const procurados = new Set(nomes);
  const guardados = new Set<string>();
  if (procurados.size === 0) return guardados;
  const pendentes = await db.select({ arquivos: operacoesTardias.arquivos }).from(operacoesTardias).where(inArray(operacoesTardias.situacao, ['pendente']));
  for (const p of pendentes) for (const a of arquivosDaTardia(p)) if (procurados.has(a.nome)) guardados.add(a.nome);
  return guardados;
}
