/**
 * Two connections on one SQLite file, as two app processes behind a proxy have:
 * the database stamp the caches key on sees the other connection's commit at the very next look,
 * and a write transaction holds the write lock from its start.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { abrirBanco, carimboDoBanco, emTransacao, type Db } from '../../src/db';
import { recursosDoProjeto } from '../../src/recursos';

let pasta: string;
let a: Db;
let b: Db;

beforeAll(() => {
  pasta = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-dois-bancos-'));
  const opcoes = { arquivo: path.join(pasta, 'app.db'), pastaMigracoes: recursosDoProjeto().pastaMigracoes };
  a = abrirBanco(opcoes);
  b = abrirBanco(opcoes);
});
afterAll(() => {
  a.$client.close();
  b.$client.close();
  fs.rmSync(pasta, { recursive: true, force: true });
});

const inserirEstado = (db: Db, codigo: number, uf: string) => db.$client.prepare('insert into estados (codigo_ibge, uf, nome) values (?, ?, ?)').run(codigo, uf, `Estado ${uf}`);

describe('duas conexões no mesmo arquivo', () => {
  it('o carimbo do banco muda na primeira olhada depois de um commit da outra conexão', async () => {
    const antes = await carimboDoBanco(a);
    expect(await carimboDoBanco(a)).toBe(antes);
    inserirEstado(b, 91, 'XA');
    expect(await carimboDoBanco(a)).not.toBe(antes);
  });

  it('uma transação de escrita segura a trava desde o começo: o que ela leu ainda vale quando ela escreve', async () => {
    b.$client.pragma('busy_timeout = 0');
    try {
      await emTransacao(a, (tx) => {
        tx.$client.prepare('select count(*) from estados').get();
        // The other process cannot slip a commit between this read and the write below.
        expect(() => inserirEstado(b, 92, 'XB')).toThrow(/database is locked/);
        inserirEstado(tx, 93, 'XC');
      });
    } finally {
      b.$client.pragma('busy_timeout = 5000');
    }
    expect(b.$client.prepare('select uf from estados where codigo_ibge in (92, 93)').pluck().all()).toEqual(['XC']);
  });
});
