/**
 * Two app processes behind a round-robin proxy on one PostgreSQL: the same
 * scenario as on SQLite — one secret and one admin at a simultaneous start, each sale once when the same
 * batch reaches both, the read cache of one process seeing the other's write, sessions, login limits and
 * lockouts counted in the database, the phone's report, a resumable upload.
 */
import pg from 'pg';
import { expect } from 'vitest';
import { iniciarPostgres, temPostgres, type PostgresDeTeste } from '../postgres';
import { descreverDoisProcessos } from './cenarioDoisProcessos';

let servidor: PostgresDeTeste | undefined;

descreverDoisProcessos({
  nome: 'PostgreSQL',
  disponivel: temPostgres,
  preparar: async () => {
    servidor = await iniciarPostgres('sg_dois_processos');
    return { DATABASE_URL: servidor.url };
  },
  parar: async () => {
    if (servidor) {
      // The sales the scenario's batches wrote are in PostgreSQL (not in a SQLite file in DATA_DIR).
      const cliente = new pg.Client({ connectionString: servidor.url });
      await cliente.connect();
      const { rows } = await cliente.query<{ n: number }>('select count(*)::int as n from vendas');
      await cliente.end();
      expect(rows[0]!.n).toBeGreaterThanOrEqual(6);
    }
    await servidor?.parar();
  },
});
