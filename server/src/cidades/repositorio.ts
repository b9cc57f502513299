/** Table access for states and cities. */
import { and, asc, eq, sql } from 'drizzle-orm';
import { normalizarBusca } from '../../../shared/texto';
import { emTransacaoSincrona, type Db } from '../db';
import { cidades, estados } from '../db/schema';
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

export function listarEstados(db: Db): { uf: string; nome: string }[] {
  // pt-BR order ('Paraíba' before 'Paraná'); SQLite orders bytes.
  return ordenarPorNome(db.select({ uf: estados.uf, nome: estados.nome }).from(estados).orderBy(asc(estados.nome)).all(), (e) => e.nome);
}

export function listarCidades(db: Db, uf?: string): Cidade[] {
  const q = db.select({ id: cidades.id, nome: cidades.nome, uf: cidades.uf }).from(cidades);
  return (uf ? q.where(eq(cidades.uf, uf)) : q).orderBy(asc(cidades.nomeBusca), asc(cidades.uf)).all();
}

/** Escapes LIKE wildcards so '%' or '_' typed by a person match literally. */
function escaparLike(texto: string): string {
  return texto.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Accent- and case-insensitive search; names starting with the text come first. */
export function buscarCidades(db: Db, texto: string, uf: string | undefined, limite: number): Cidade[] {
  const termo = escaparLike(normalizarBusca(texto));
  const contem = sql`${cidades.nomeBusca} like ${`%${termo}%`} escape '\\'`;
  return db
    .select({ id: cidades.id, nome: cidades.nome, uf: cidades.uf })
    .from(cidades)
    .where(uf ? and(eq(cidades.uf, uf), contem) : contem)
    .orderBy(sql`case when ${cidades.nomeBusca} like ${`${termo}%`} escape '\\' then 0 else 1 end`, asc(cidades.nomeBusca), asc(cidades.uf))
    .limit(limite)
    .all();
}

export function contarCidades(db: Db): number {
  return db.select({ n: sql<number>`count(*)` }).from(cidades).get()!.n;
}

export function cidadesExistentes(db: Db, ids: number[]): Cidade[] {
  if (ids.length === 0) return [];
  return db
    .select({ id: cidades.id, nome: cidades.nome, uf: cidades.uf })
    .from(cidades)
    .where(sql`${cidades.id} in (select value from json_each(${JSON.stringify(ids)}))`)
    .all();
}

/** Inserts or updates states and cities by their IBGE ids, in one transaction (idempotent). */
export function gravarEstadosECidades(db: Db, ufs: readonly Uf[], lista: readonly CidadeImportada[]): { estados: number; cidades: number } {
  return emTransacaoSincrona(db, () => {
    for (const e of ufs) {
      db.insert(estados)
        .values({ uf: e.uf, codigoIbge: e.codigo, nome: e.nome })
        .onConflictDoUpdate({ target: estados.uf, set: { nome: e.nome, codigoIbge: e.codigo } })
        .run();
    }
    for (const cidade of lista) {
      const nomeBusca = normalizarBusca(cidade.nome);
      db.insert(cidades)
        .values({ id: cidade.id, nome: cidade.nome, nomeBusca, uf: cidade.uf })
        .onConflictDoUpdate({ target: cidades.id, set: { nome: cidade.nome, nomeBusca, uf: cidade.uf } })
        .run();
    }
    return { estados: ufs.length, cidades: lista.length };
  });
}

