/**
 * A table's content summed up the same way on SQLite and on PostgreSQL, so `migrate-to-postgres` can say
 * both sides hold the same rows, not only as many: the row count and a checksum of the rows.
 *
 * Each row is read through its engine's table declaration (drizzle maps both to the same JS values:
 * numbers, text, booleans, null), written as JSON with its columns in name order, and hashed (SHA-256);
 * the table's checksum is the sum of the rows' first 128 bits, modulo 2^128. A sum does not depend on the
 * order the rows come in, so each side reads in its own cheapest order (SQLite by rowid, PostgreSQL by
 * primary key), and text collations that sort differently do not matter.
 */
import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import { and, eq, getTableColumns, gt, or, sql, type SQL } from 'drizzle-orm';
import { drizzle as drizzleSqlite } from 'drizzle-orm/better-sqlite3';
import { getTableConfig as configPg, type PgColumn, type PgTable } from 'drizzle-orm/pg-core';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { DbPostgres } from '../db/postgres';

export interface ResumoDaTabela {
  linhas: number;
  /** The sum of the rows' hashes, 32 hex digits. */
  soma: string;
}

const LOTE = 1_000;
const MODULO = 1n << 128n;

/** One column's value as both engines' rows give it, in a form JSON keeps exactly. */
function valorCanonico(valor: unknown): unknown {
  if (valor === undefined || valor === null) return null;
  if (valor instanceof Date) return valor.toISOString();
  if (Buffer.isBuffer(valor)) return `bytes:${valor.toString('hex')}`;
  if (typeof valor === 'bigint') return valor.toString();
  return valor;
}

/** The row's hash as a number below 2^128 (the first 16 bytes of its SHA-256). */
export function hashDaLinha(linha: Record<string, unknown>): bigint {
  const canonica = JSON.stringify(
    Object.keys(linha)
      .sort()
      .map((coluna) => [coluna, valorCanonico(linha[coluna])]),
  );
  return BigInt(`0x${createHash('sha256').update(canonica).digest('hex').slice(0, 32)}`);
}

class Somador {
  linhas = 0;
  private soma = 0n;
  somar(linha: Record<string, unknown>): void {
    this.linhas += 1;
    this.soma = (this.soma + hashDaLinha(linha)) % MODULO;
  }
  resumo(): ResumoDaTabela {
    return { linhas: this.linhas, soma: this.soma.toString(16).padStart(32, '0') };
  }
}

/** The SQLite table's summary, read in rowid batches on `conexao` (inside its open snapshot, if any). */
export function resumoNoSqlite(conexao: Database.Database, tabela: SQLiteTable): ResumoDaTabela {
  const somador = new Somador();
  for (const lote of lotesDoSqlite(conexao, tabela)) for (const linha of lote) somador.somar(linha);
  return somador.resumo();
}

/** A SQLite table's rows in rowid order, LOTE at a time: one pass over the table, whatever its primary key is. */
export function* lotesDoSqlite(conexao: Database.Database, tabela: SQLiteTable): Generator<Record<string, unknown>[]> {
  const db = drizzleSqlite(conexao);
  let ultimo = 0;
  for (;;) {
    const lote = db
      .select({ rowid: sql<number>`rowid`, linha: tabela })
      .from(tabela)
      .where(gt(sql`rowid`, ultimo))
      .orderBy(sql`rowid`)
      .limit(LOTE)
      .all() as { rowid: number; linha: Record<string, unknown> }[];
    if (lote.length === 0) return;
    ultimo = lote[lote.length - 1]!.rowid;
    yield lote.map((l) => l.linha);
  }
}

/** The primary key's columns (a single-column key, or the table's composite one). */
function colunasDaChave(tabela: PgTable): PgColumn[] {
  const config = configPg(tabela);
  const simples = config.columns.filter((c) => c.primary);
  if (simples.length > 0) return simples;
  const composta = config.primaryKeys[0]?.columns ?? [];
  if (composta.length === 0) throw new Error(`tabela ${config.name} sem chave primária`);
  return composta;
}

/** Rows after `ultima` in key order: (a > x) or (a = x and b > y) ... for a key (a, b, ...). */
function depoisDe(chave: PgColumn[], ultima: Record<string, unknown>, nomes: string[]): SQL {
  const alternativas: SQL[] = [];
  for (let i = 0; i < chave.length; i++) {
    const iguais = chave.slice(0, i).map((c, j) => eq(c, ultima[nomes[j]!]));
    alternativas.push(and(...iguais, gt(chave[i]!, ultima[nomes[i]!]))!);
  }
  return or(...alternativas)!;
}

/** The PostgreSQL table's summary, read in primary-key batches (keyset, not OFFSET: one pass). */
export async function resumoNoPostgres(pg: DbPostgres, tabela: PgTable): Promise<ResumoDaTabela> {
  const chave = colunasDaChave(tabela);
  // The JS property name of each key column in the rows drizzle answers.
  const propriedades = Object.entries(getTableColumns(tabela));
  const nomes = chave.map((c) => propriedades.find(([, coluna]) => coluna.name === c.name)![0]);
  const somador = new Somador();
  let ultima: Record<string, unknown> | null = null;
  for (;;) {
    const lote = (await pg
      .select()
      .from(tabela)
      .where(ultima ? depoisDe(chave, ultima, nomes) : undefined)
      .orderBy(...chave)
      .limit(LOTE)) as Record<string, unknown>[];
    if (lote.length === 0) break;
    ultima = lote[lote.length - 1]!;
    for (const linha of lote) somador.somar(linha);
  }
  return somador.resumo();
}
