/**
 * Which bytes of a real WAL (written by SQLite here) are whole committed transactions: a WAL cut in the
 * middle of a frame, or with a frame's bytes changed, stops at the last COMMIT frame before the damage.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lerCabecalhoWal, quadrosConfirmados, TAMANHO_CABECALHO_QUADRO, TAMANHO_CABECALHO_WAL, type CabecalhoWal } from './copiaContinuaWal';

let pasta: string;
let wal: Buffer;
beforeEach(() => {
  pasta = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-wal-'));
  const arquivo = path.join(pasta, 'app.db');
  const db = new Database(arquivo);
  db.pragma('journal_mode = WAL');
  db.pragma('wal_autocheckpoint = 0');
  db.exec('create table t (x text)');
  // Three transactions after the create: 1 frame, 1 frame, then one of 3 rows of a page each (several frames).
  db.prepare('insert into t values (?)').run('a');
  db.prepare('insert into t values (?)').run('b');
  db.transaction(() => {
    for (let i = 0; i < 3; i++) db.prepare('insert into t values (?)').run('c'.repeat(3000));
  })();
  wal = fs.readFileSync(`${arquivo}-wal`);
  db.close();
});
afterEach(() => fs.rmSync(pasta, { recursive: true, force: true }));

function ler(dados: Buffer) {
  const cabecalho = lerCabecalhoWal(dados) as CabecalhoWal;
  return { cabecalho, r: quadrosConfirmados(dados.subarray(TAMANHO_CABECALHO_WAL), cabecalho, { offset: TAMANHO_CABECALHO_WAL, soma1: cabecalho.soma1, soma2: cabecalho.soma2 }) };
}

describe('WAL: transações confirmadas', () => {
  it('o WAL inteiro: todas as transações, até o fim do arquivo', () => {
    const { cabecalho, r } = ler(wal);
    expect(cabecalho.tamanhoPagina).toBe(4096);
    expect(r.transacoes).toBe(4);
    expect(r.ate.offset).toBe(wal.length);
  });

  it('cortado no meio de um quadro: para no fim da última transação inteira', () => {
    const tamanhoQuadro = TAMANHO_CABECALHO_QUADRO + 4096;
    const { r: inteiro } = ler(wal);
    const { r } = ler(wal.subarray(0, wal.length - 100));
    expect(r.transacoes).toBe(3);
    expect(r.ate.offset).toBeLessThan(wal.length - tamanhoQuadro);
    expect((r.ate.offset - TAMANHO_CABECALHO_WAL) % tamanhoQuadro).toBe(0);
    expect(inteiro.quadros).toBeGreaterThan(r.quadros + 1); // the last transaction had several frames, none kept
  });

  it('um byte trocado num quadro (checksum) para antes dele; um cabeçalho trocado não é um WAL', () => {
    const danificado = Buffer.from(wal);
    const tamanhoQuadro = TAMANHO_CABECALHO_QUADRO + 4096;
    const { r: inteiro } = ler(wal);
    // A byte in the page of the second-to-last frame of the file (inside the last transaction).
    danificado[wal.length - tamanhoQuadro - 10]! ^= 0xff;
    expect(ler(danificado).r.transacoes).toBe(inteiro.transacoes - 1);
    const cabecalhoRuim = Buffer.from(wal);
    cabecalhoRuim[9]! ^= 0x01;
    expect(lerCabecalhoWal(cabecalhoRuim)).toBeNull();
    expect(lerCabecalhoWal(wal.subarray(0, 20))).toBeNull();
  });
});
