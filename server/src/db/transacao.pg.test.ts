/**
 * The async transaction on a real PostgreSQL (issue 21, item 1): many app connections at once, each a
 * check-then-write (read the last value, write the next), all commit and the result is as if they had
 * run one at a time — PostgreSQL aborts the ones that collided (SERIALIZABLE) and emTransacao runs them
 * again. A throw rolls back, a savepoint rolls back only its part, hand-written SQL answers rows.
 */
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { iniciarPostgres, temPostgres, type PostgresDeTeste } from '../../test/postgres';
import { emSavepoint, emTransacao, executar, linha, linhas, type Db } from '.';
import { abrirBancoPostgresDoApp } from './postgres';

describe.skipIf(!temPostgres)('emTransacao (PostgreSQL)', () => {
  let servidor: PostgresDeTeste;
  let db: Db;

  beforeAll(async () => {
    servidor = await iniciarPostgres();
    db = await abrirBancoPostgresDoApp({ url: servidor.url });
  }, 120_000);

  afterAll(async () => {
    await (db?.$client as unknown as pg.Pool | undefined)?.end();
    await servidor?.parar();
  }, 120_000);

  const proximoCodigo = async (tx: Db) =>
    ((await linha<{ ultimo: number }>(tx, sql`select coalesce(max(codigo_ibge), 0) as ultimo from estados`))!.ultimo) + 1;

  it('dez verificações-e-escritas ao mesmo tempo: todas gravam, e em sequência, como se fossem uma de cada vez', async () => {
    // Every transaction reads before any writes: without SERIALIZABLE all ten would read the same last code.
    let leram = 0;
    let soltar!: () => void;
    const todasLeram = new Promise<void>((ok) => (soltar = ok));
    const uma = async (i: number) =>
      emTransacao(db, async (tx) => {
        const codigo = await proximoCodigo(tx);
        if (++leram === 10) soltar();
        await todasLeram;
        await executar(tx, sql`insert into estados (uf, codigo_ibge, nome) values (${`T${i}`}, ${codigo}, ${`Estado ${i}`})`);
        return codigo;
      });
    const codigos = await Promise.all(Array.from({ length: 10 }, (_, i) => uma(i)));
    expect([...codigos].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const gravados = await linhas<{ codigo_ibge: number }>(db, sql`select codigo_ibge from estados order by codigo_ibge`);
    // Numbers, not strings: bigint and count(*) are read as the app's numbers.
    expect(gravados.map((l) => l.codigo_ibge)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(await linha(db, sql`select count(*) as n from estados`)).toEqual({ n: 10 });
  });

  it('uma falha desfaz a transação; um savepoint desfaz só a sua parte', async () => {
    await expect(
      emTransacao(db, async (tx) => {
        await executar(tx, sql`insert into estados (uf, codigo_ibge, nome) values ('XA', 901, 'Desfeito')`);
        throw new Error('desiste');
      }),
    ).rejects.toThrow('desiste');
    await emTransacao(db, async (tx) => {
      await executar(tx, sql`insert into estados (uf, codigo_ibge, nome) values ('XB', 902, 'Fica')`);
      await expect(
        emSavepoint(tx, async (sp) => {
          await executar(sp, sql`insert into estados (uf, codigo_ibge, nome) values ('XC', 903, 'Só esta parte sai')`);
          throw new Error('parte');
        }),
      ).rejects.toThrow('parte');
    });
    const ufs = (await linhas<{ uf: string }>(db, sql`select uf from estados where codigo_ibge > 900 order by uf`)).map((l) => l.uf);
    expect(ufs).toEqual(['XB']);
    expect(await executar(db, sql`update estados set nome = 'Outro' where codigo_ibge > 900`)).toBe(1);
  });
});
