/**
 * A CSV written as it is read: the BOM and header first, then each page of rows as the consumer asks
 * for more (a byte stream: it is read only as fast as the client, or the ZIP around it, takes the bytes),
 * through the one CSV writer (shared/csv.ts). Nothing is read before the first byte is wanted.
 */
import { Readable } from 'node:stream';
import { inicioCsv, linhaCsv } from '../../../shared/csv';
import type { ColunasCsv } from './colunas';

/** Pages of rows, each read after the previous one was written. */
export type Paginas<T> = AsyncIterable<readonly T[]>;

export function csvEmFluxo<T>(colunas: ColunasCsv<T>, paginas: Paginas<T>): Readable {
  async function* partes(): AsyncGenerator<Buffer> {
    yield Buffer.from(inicioCsv(colunas.cabecalho), 'utf8');
    for await (const pagina of paginas) {
      if (pagina.length === 0) continue;
      yield Buffer.from(pagina.map((l) => linhaCsv(colunas.celulas(l))).join(''), 'utf8');
    }
  }
  return Readable.from(partes(), { objectMode: false });
}

/**
 * Pages read one after the other by `ler(cursor)`, each after the last row of the one before, until a
 * page comes back shorter than `limite`.
 */
export async function* porCursor<T, C>(ler: (cursor: C | null) => Promise<T[]>, cursorDe: (ultima: T) => C, limite: number): AsyncGenerator<T[]> {
  let cursor: C | null = null;
  for (;;) {
    const pagina = await ler(cursor);
    if (pagina.length > 0) yield pagina;
    if (pagina.length < limite) return;
    cursor = cursorDe(pagina.at(-1)!);
  }
}
