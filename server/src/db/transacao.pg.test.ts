/**
 * The async transaction on a real PostgreSQL: many app connections at once, each a check-then-write (read
 * the last value, write the next), all commit and the result is as if they had run one at a time — the
 * lock each transaction takes first (db/travas.ts) makes the later ones wait. Two employees' ledger
 * writes interleaved never wait for each other nor run twice; the same employee's wait for the first
 * to commit. A throw rolls back, a savepoint rolls back only its part, hand-written SQL answers rows.
 */
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { iniciarPostgres, temPostgres, type PostgresDeTeste } from '../../test/postgres';
import { emSavepoint, emTransacao, executar, linha, linhas, type Db } from '.';
import { inserirMovimentacao } from '../saldo/repositorio';
import { saldoAtual } from '../saldo/servico';
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
    // Every transaction would read before any writes without the lock for everything (the default):
    // all ten would read the same last code.
    const uma = async (i: number) =>
      emTransacao(db, async (tx) => {
        const codigo = await proximoCodigo(tx);
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

  describe('a corrente de saldos de cada funcionário', () => {
    let ana: number;
    let bruno: number;
    const novoFuncionario = async (nome: string) =>
      (await linha<{ id: number }>(db, sql`insert into usuarios (nome, email, senha_hash, tipo) values (${nome}, ${`${nome}@travas.teste`}, 'x', 'funcionario') returning id`))!.id;

    beforeAll(async () => {
      ana = await novoFuncionario('ana');
      bruno = await novoFuncionario('bruno');
    });

    /** One debit appended the way the ledger does it: read the last movement, write the next. */
    const debito = (tx: Db, funcionarioId: number, anterior: number, valor: number) =>
      inserirMovimentacao(tx, {
        funcionarioId,
        tipo: 'debito',
        valorCentavos: valor,
        saldoAnteriorCentavos: anterior,
        saldoNovoCentavos: anterior - valor,
        descricao: 'teste',
        dataMovimentacao: new Date().toISOString(),
      });

    it('dois funcionários lendo e gravando entrelaçados: nenhum espera o outro, nenhuma transação é refeita', async () => {
      // Both read their last movement before either writes (under SERIALIZABLE the index ranges they
      // read and write overlap, and PostgreSQL aborted one of them to run it again).
      let execucoes = 0;
      let leram = 0;
      let soltar!: () => void;
      const ambasLeram = new Promise<void>((ok) => (soltar = ok));
      const uma = (funcionarioId: number, valor: number) =>
        emTransacao(
          db,
          async (tx) => {
            execucoes += 1;
            const anterior = (await saldoAtual(tx, funcionarioId)).centavos;
            if (++leram === 2) soltar();
            await ambasLeram;
            return debito(tx, funcionarioId, anterior, valor);
          },
          { usuario: funcionarioId },
        );
      await Promise.all([uma(ana, 100), uma(bruno, 200)]);
      expect(execucoes).toBe(2);
      expect((await saldoAtual(db, ana)).centavos).toBe(-100);
      expect((await saldoAtual(db, bruno)).centavos).toBe(-200);
    });

    it('o mesmo funcionário em duas conexões: a segunda lê depois de a primeira confirmar, e a corrente segue', async () => {
      let entrouPrimeira!: () => void;
      const primeiraEntrou = new Promise<void>((ok) => (entrouPrimeira = ok));
      let liberar!: () => void;
      const liberada = new Promise<void>((ok) => (liberar = ok));
      const ordem: string[] = [];
      const primeira = emTransacao(
        db,
        async (tx) => {
          const anterior = (await saldoAtual(tx, ana)).centavos;
          entrouPrimeira();
          await liberada;
          await debito(tx, ana, anterior, 1_000);
          ordem.push('primeira gravou');
        },
        { usuario: ana },
      );
      await primeiraEntrou;
      const segunda = emTransacao(
        db,
        async (tx) => {
          ordem.push('segunda leu');
          const anterior = (await saldoAtual(tx, ana)).centavos;
          await debito(tx, ana, anterior, 10);
        },
        { usuario: ana },
      );
      // The second is waiting for Ana's lock, on its own connection: the lock shows as not granted.
      await expect.poll(async () => (await linha<{ n: number }>(db, sql`select count(*) as n from pg_locks where locktype = 'advisory' and not granted`))!.n).toBe(1);
      liberar();
      await Promise.all([primeira, segunda]);
      expect(ordem).toEqual(['primeira gravou', 'segunda leu']);
      const corrente = await linhas<{ saldo_anterior_centavos: number; saldo_novo_centavos: number }>(
        db,
        sql`select saldo_anterior_centavos, saldo_novo_centavos from movimentacoes_saldo where funcionario_id = ${ana} order by id`,
      );
      expect(corrente).toEqual([
        { saldo_anterior_centavos: 0, saldo_novo_centavos: -100 },
        { saldo_anterior_centavos: -100, saldo_novo_centavos: -1_100 },
        { saldo_anterior_centavos: -1_100, saldo_novo_centavos: -1_110 },
      ]);
    });
  });
});
