/** Table access for states and cities. */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { normalizarBusca } from '../../../shared/texto';
import { emTransacao, type Db } from '../db';
import { cidades, estados } from '../db/tabelas';
import type { Uf } from './ufs';
import { ordenarPorNome } from '../../../shared/texto';

export interface CidadeImportada {
  id: number;
  nome: string;
  uf: string;
}

export interface Cidade {
  id: number;
  nome: string;
  uf: string;
}

export async function listarEstados(db: Db): Promise<{ uf: string; nome: string }[]> {
  // pt-BR order ('Paraíba' before 'Paraná'); both engines order bytes.
  return ordenarPorNome(await db.select({ uf: estados.uf, nome: estados.nome }).from(estados).orderBy(asc(estados.nome)), (e) => e.nome);
}

export async function listarCidades(db: Db, uf?: string): Promise<Cidade[]> {
  const q = db.select({ id: cidades.id, nome: cidades.nome, uf: cidades.uf }).from(cidades);
  return (uf ? q.where(eq(cidades.uf, uf)) : q).orderBy(asc(cidades.nomeBusca), asc(cidades.uf));
}

/** Escapes LIKE wildcards so '%' or '_' typed by a person match literally. */
function escaparLike(texto: string): string {
  return texto.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Accent- and case-insensitive search (on the normalized name, so LIKE's case rules do not matter); names starting with the text come first. */
export async function buscarCidades(db: Db, texto: string, uf: string | undefined, limite: number): Promise<Cidade[]> {
  const termo = escaparLike(normalizarBusca(texto));
  const contem = sql`${cidades.nomeBusca} like ${`%${termo}%`} escape '\\'`;
  return db
    .select({ id: cidades.id, nome: cidades.nome, uf: cidades.uf })
    .from(cidades)
    .where(uf ? and(eq(cidades.uf, uf), contem) : contem)
    .orderBy(sql`case when ${cidades.nomeBusca} like ${`${termo}%`} escape '\\' then 0 else 1 end`, asc(cidades.nomeBusca), asc(cidades.uf))
    .limit(limite);
}

export async function contarCidades(db: Db): Promise<number> {
  const [contagem] = await db.select({ n: sql<number>`count(*)` }).from(cidades);
  return contagem!.n;
}

export async function cidadesExistentes(db: Db, ids: number[]): Promise<Cidade[]> {
  if (ids.length === 0) return [];
  return db.select({ id: cidades.id, nome: cidades.nome, uf: cidades.uf }).from(cidades).where(inArray(cidades.id, ids));
}

/** Rows per insert statement: few round trips for Brazil's 5,570 cities, far below either engine's parameter limit. */
const CIDADES_POR_COMANDO = 500;

/** Inserts or updates states and cities by their IBGE ids, in one transaction (idempotent). */
export async function gravarEstadosECidades(db: Db, ufs: readonly Uf[], lista: readonly CidadeImportada[]): Promise<{ estados: number; cidades: number }> {
  return emTransacao(db, async (tx) => {
    for (const e of ufs) {
      await tx
        .insert(estados)
        .values({ uf: e.uf, codigoIbge: e.codigo, nome: e.nome })
        .onConflictDoUpdate({ target: estados.uf, set: { nome: e.nome, codigoIbge: e.codigo } });
    }
    // The last of two rows with one id wins, as one insert per row did (a statement may not touch a row twice).
    const porId = new Map(lista.map((c) => [c.id, c]));
    const linhas = [...porId.values()].map((c) => ({ id: c.id, nome: c.nome, nomeBusca: normalizarBusca(c.nome), uf: c.uf }));
    for (let i = 0; i < linhas.length; i += CIDADES_POR_COMANDO) {
      await tx
        .insert(cidades)
        .values(linhas.slice(i, i + CIDADES_POR_COMANDO))
        .onConflictDoUpdate({
          target: cidades.id,
          set: { nome: sql`excluded.nome`, nomeBusca: sql`excluded.nome_busca`, uf: sql`excluded.uf` },
        });
    }
    return { estados: ufs.length, cidades: lista.length };
  });
}
