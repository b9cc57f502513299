/**
 * Which records of a table a piece of code read back with their values from IndexedDB (a DBCore
 * layer under Dexie). Key-only reads (primaryKeys, index keys) do not count: they do not bring the
 * records' contents to the main thread, which is the cost these tests guard.
 */
import type Dexie from 'dexie';

export async function anotarLeiturasDeValores(banco: Dexie, tabela: string, chaveDe: (valor: object) => string): Promise<string[]> {
  const lidos: string[] = [];
  banco.close();
  banco.use({
    stack: 'dbcore',
    name: `leituras-de-${tabela}`,
    create: (abaixo) => ({
      ...abaixo,
      table: (nome) => {
        const original = abaixo.table(nome);
        if (nome !== tabela) return original;
        const anotar = (valor: unknown) => {
          if (valor && typeof valor === 'object') lidos.push(chaveDe(valor));
        };
        return {
          ...original,
          get: async (req) => {
            const r = await original.get(req);
            anotar(r);
            return r;
          },
          getMany: async (req) => {
            const r = await original.getMany(req);
            r.forEach(anotar);
            return r;
          },
          query: async (req) => {
            const r = await original.query(req);
            if (req.values) r.result.forEach(anotar);
            return r;
          },
          openCursor: async (req) => {
            const cursor = await original.openCursor(req);
            if (!cursor || !req.values) return cursor;
            // Each step of a value cursor brings one record.
            const continuar = cursor.start.bind(cursor);
            return Object.assign(cursor, {
              start: (aCada: () => void) => continuar(() => {
                anotar(cursor.value);
                aCada();
              }),
            });
          },
        };
      },
    }),
  });
  await banco.open();
  return lidos;
}
