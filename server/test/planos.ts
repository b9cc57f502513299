/**
 * EXPLAIN QUERY PLAN of the statements a function really runs: every statement prepared
 * while `fn` runs (awaited: the data functions are async) whose SQL matches `tabela` is explained with the
 * parameters it was run with. SQLite's planner only (the plans are SQLite's text): a test of them skips on
 * PostgreSQL (MOTOR_DE_TESTE in bancoDeTeste.ts).
 */
import { vi } from 'vitest';
import { ehPostgres, type Db } from '../src/db';

export async function planosDe(db: Db, tabela: RegExp, fn: () => unknown): Promise<string[][]> {
  if (ehPostgres(db)) throw new Error('planosDe lê os planos do SQLite (EXPLAIN QUERY PLAN): pule este teste no PostgreSQL.');
  const sqlite = db.$client;
  const preparar = sqlite.prepare.bind(sqlite);
  const resultado: string[][] = [];
  const espiao = vi.spyOn(sqlite, 'prepare').mockImplementation(((sql: string) => {
    const st = preparar(sql);
    if (!tabela.test(sql) || /^\s*(insert|update|delete)/i.test(sql)) return st;
    for (const metodo of ['all', 'get'] as const) {
      const original = st[metodo].bind(st) as (...a: unknown[]) => unknown;
      (st as unknown as Record<string, unknown>)[metodo] = (...a: unknown[]) => {
        resultado.push((preparar(`explain query plan ${sql}`).all(...a) as { detail: string }[]).map((l) => l.detail));
        return original(...a);
      };
    }
    return st;
  }) as typeof sqlite.prepare);
  try {
    await fn();
  } finally {
    espiao.mockRestore();
  }
  return resultado;
}
