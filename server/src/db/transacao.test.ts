/**
 * The async transaction of the data functions on SQLite: transactions of concurrent
 * requests run one after the other, never inside each other; a throw rolls back only its own
 * transaction; a handle that is a transaction joins it; a savepoint rolls back only its part; and hand-
 * written SQL runs through linhas/executar.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recursosDoProjeto } from '../recursos';
import { abrirBanco, carimboDaRequisicao, carimboDoBanco, emSavepoint, MENSAGEM_TRANSACAO_ATRAVESSOU, emTransacao, estaEmTransacao, executar, linha, linhas, type Db } from '.';

let pasta: string;
let db: Db;

beforeEach(() => {
  pasta = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-transacao-'));
  db = abrirBanco({ arquivo: path.join(pasta, 'app.db'), pastaMigracoes: recursosDoProjeto().pastaMigracoes });
});

afterEach(() => {
  db.$client.close();
  fs.rmSync(pasta, { recursive: true, force: true });
});

const inserirEstado = (handle: Db, codigo: number, sigla: string) =>
  executar(handle, sql`insert into estados (codigo_ibge, uf, nome) values (${codigo}, ${sigla}, ${`Estado ${sigla}`})`);
const siglas = async (handle: Db) => (await linhas<{ sigla: string }>(handle, sql`select uf as sigla from estados order by uf`)).map((l) => l.sigla);

describe('emTransacao (SQLite)', () => {
  it('duas transações ao mesmo tempo rodam uma depois da outra: a segunda não entra na primeira', async () => {
    let soltarPrimeira!: () => void;
    const primeiraPodeTerminar = new Promise<void>((ok) => (soltarPrimeira = ok));
    const ordem: string[] = [];
    const primeira = emTransacao(db, async (tx) => {
      ordem.push('primeira começou');
      await inserirEstado(tx, 91, 'XA');
      await primeiraPodeTerminar;
      ordem.push('primeira terminou');
      throw new Error('a primeira desiste');
    });
    const segunda = emTransacao(db, async (tx) => {
      ordem.push('segunda começou');
      await inserirEstado(tx, 92, 'XB');
    });
    // The second waits in line (not spinning: the event loop runs this test meanwhile).
    await new Promise((ok) => setImmediate(ok));
    expect(ordem).toEqual(['primeira começou']);
    soltarPrimeira();
    await expect(primeira).rejects.toThrow('a primeira desiste');
    await segunda;
    expect(ordem).toEqual(['primeira começou', 'primeira terminou', 'segunda começou']);
    // The first's rollback took only its own row.
    expect(await siglas(db)).toContain('XB');
    expect(await siglas(db)).not.toContain('XA');
  });

  it('com o handle de uma transação, junta-se a ela: uma falha de fora desfaz o que a de dentro fez', async () => {
    await expect(
      emTransacao(db, async (tx) => {
        expect(estaEmTransacao(tx)).toBe(true);
        await emTransacao(tx, (mesma) => inserirEstado(mesma, 93, 'XC'));
        throw new Error('desfaz tudo');
      }),
    ).rejects.toThrow('desfaz tudo');
    expect(await siglas(db)).not.toContain('XC');
    expect(estaEmTransacao(db)).toBe(false);
  });

  it('um savepoint desfaz só a sua parte, e a transação continua', async () => {
    const r = await emTransacao(db, async (tx) => {
      await inserirEstado(tx, 94, 'XD');
      await expect(
        emSavepoint(tx, async (sp) => {
          await inserirEstado(sp, 95, 'XE');
          throw new Error('só esta parte');
        }),
      ).rejects.toThrow('só esta parte');
      await emSavepoint(tx, (sp) => inserirEstado(sp, 96, 'XF'));
      return 'feito';
    });
    expect(r).toBe('feito');
    const depois = await siglas(db);
    expect(depois).toEqual(expect.arrayContaining(['XD', 'XF']));
    expect(depois).not.toContain('XE');
  });

  it('savepoint fora de uma transação é um erro de programação', async () => {
    await expect(emSavepoint(db, () => 1)).rejects.toThrow(/transação aberta/);
  });

  it('linha e executar: a primeira linha, e quantas linhas a instrução mudou', async () => {
    await inserirEstado(db, 97, 'XG');
    expect(await linha<{ nome: string }>(db, sql`select nome from estados where uf = ${'XG'}`)).toEqual({ nome: 'Estado XG' });
    expect(await linha(db, sql`select nome from estados where uf = ${'ZZ'}`)).toBeUndefined();
    expect(await executar(db, sql`update estados set nome = ${'Outro'} where uf = ${'XG'}`)).toBe(1);
  });

  it('com uma transação aberta, o carimbo do cache nunca se repete: o que se lê antes do commit (ou de um rollback) não é guardado', async () => {
    const antes = await carimboDoBanco(db);
    expect(await carimboDoBanco(db)).toBe(antes);
    let durante: string[] = [];
    await expect(
      emTransacao(db, async (tx) => {
        await inserirEstado(tx, 98, 'XH');
        durante = [await carimboDoBanco(db), await carimboDoBanco(db)];
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(durante[0]).not.toBe(durante[1]);
    expect(durante).not.toContain(antes);
    expect(durante).not.toContain(await carimboDoBanco(db));
  });

  it('uma transação que espera algo além do banco (uma volta do laço de eventos) é recusada nos testes e desfeita', async () => {
    await expect(
      emTransacao(db, async (tx) => {
        await inserirEstado(tx, 99, 'XI');
        await new Promise((ok) => setImmediate(ok)); // e.g. a file written inside the transaction
      }),
    ).rejects.toThrow(MENSAGEM_TRANSACAO_ATRAVESSOU);
    expect(await siglas(db)).not.toContain('XI');
  });

  it('o carimbo de uma requisição é tomado uma vez (antes das leituras dela); a próxima requisição vê a mudança', async () => {
    const primeira = {};
    const antes = await carimboDaRequisicao(db, primeira);
    await inserirEstado(db, 89, 'XJ');
    expect(await carimboDaRequisicao(db, primeira)).toBe(antes);
    expect(await carimboDaRequisicao(db, {})).not.toBe(antes);
    expect(await carimboDaRequisicao(db, {})).toBe(await carimboDoBanco(db));
  });
});
