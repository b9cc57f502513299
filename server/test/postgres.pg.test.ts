/**
 * The throwaway PostgreSQL itself (server/test/postgres.ts): it answers on the URL it hands back, and
 * `parar()` leaves nothing behind, neither a server on the port nor the folder.
 */
import fs from 'node:fs';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { iniciarPostgres, temPostgres } from './postgres';

describe.skipIf(!temPostgres)('o PostgreSQL descartável dos testes', () => {
  it('responde na URL entregue, só no loopback, e parar() o desliga e apaga a pasta', async () => {
    const servidor = await iniciarPostgres('sg_harness');
    try {
      expect(servidor.url).toMatch(/^postgres:\/\/\w+@127\.0\.0\.1:\d+\/sg_harness$/);
      const cliente = new pg.Client({ connectionString: servidor.url });
      await cliente.connect();
      const { rows } = await cliente.query<{ banco: string; escuta: string }>("select current_database() as banco, current_setting('listen_addresses') as escuta");
      await cliente.end();
      expect(rows[0]).toEqual({ banco: 'sg_harness', escuta: '127.0.0.1' });
      expect(fs.existsSync(servidor.pasta)).toBe(true);
    } finally {
      await servidor.parar();
    }
    expect(fs.existsSync(servidor.pasta)).toBe(false);
    const depois = new pg.Client({ connectionString: servidor.url, connectionTimeoutMillis: 5_000 });
    await expect(depois.connect()).rejects.toThrow(/ECONNREFUSED/);
    await servidor.parar();
  });
});
