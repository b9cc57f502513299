/**
 * The continuous off-site copy against a real S3-compatible server (s3rver): rows
 * written as the app writes them (WAL, synchronous NORMAL), the data folder deleted (the lost disk), the
 * copy restored into a new folder and every row committed before `aguardarCopia()` resolved found
 * there: across a checkpoint of ours (a new WAL index), a restart of the replicator (a new generation),
 * a segment cut mid-frame, a bucket that stops answering; receipts too. No sleeps: cycles run when
 * asked (`aguardarCopia`), the interval is far longer than any test.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { iniciarServidorS3, type ServidorS3 } from '../../test/s3';
import type { ConfigS3 } from '../config';
import { iniciarCopiaContinua, type CopiaContinuaIniciada, type LogDaCopia } from './copiaContinua';
import { restaurarCopiaContinua } from './copiaContinuaRestauracao';

const silencioso: LogDaCopia = { info: () => undefined, warn: () => undefined, error: () => undefined };

let s3: ServidorS3;
let raiz: string;
let dados: string;
let arquivoBanco: string;
let app: Database.Database;
let bucket: ConfigS3;
const copias: CopiaContinuaIniciada[] = [];

beforeEach(async () => {
  s3 = await iniciarServidorS3('copia-teste');
  raiz = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-copia-'));
  dados = path.join(raiz, 'dados');
  fs.mkdirSync(path.join(dados, 'uploads'), { recursive: true });
  arquivoBanco = path.join(dados, 'app.db');
  app = abrirComoOApp();
  app.exec('create table vendas (id integer primary key, valor integer not null, obs text)');
  bucket = {
    endpoint: s3.env.S3_ENDPOINT!,
    bucket: s3.bucket,
    region: 'us-east-1',
    accessKeyId: s3.env.S3_ACCESS_KEY_ID!,
    secretAccessKey: s3.env.S3_SECRET_ACCESS_KEY!,
    forcePathStyle: true,
    prefixo: 'copia-continua/',
  };
});

afterEach(async () => {
  for (const c of copias.splice(0)) {
    await c.replicador?.parar(200);
    await c.parar();
  }
  if (app.open) app.close();
  await s3.fechar();
  fs.rmSync(raiz, { recursive: true, force: true });
});

/** The app's connection, with the settings of db/index.ts. */
function abrirComoOApp(): Database.Database {
  const db = new Database(arquivoBanco);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('wal_autocheckpoint = 4000');
  return db;
}

function iniciar(opcoes: { limiteWalBytes?: number; limiteAtrasoWalBytes?: number; retencaoMs?: number } = {}): CopiaContinuaIniciada {
  const c = iniciarCopiaContinua({
    arquivoBanco,
    pastaComprovantes: path.join(dados, 'uploads'),
    bucket,
    log: silencioso,
    // As the server starts it: the app's connection untouched (its automatic checkpoint stays on).
    intervaloMs: 3_600_000,
    ...opcoes,
  });
  copias.push(c);
  return c;
}

let proximoId = 1;
/** `n` rows, each its own transaction; their ids. */
function gravar(n: number, obs = 'x'): number[] {
  const ids: number[] = [];
  const inserir = app.prepare('insert into vendas (id, valor, obs) values (?, ?, ?)');
  for (let i = 0; i < n; i++) {
    const id = proximoId++;
    inserir.run(id, id * 100, obs);
    ids.push(id);
  }
  return ids;
}

async function copiado(c: CopiaContinuaIniciada): Promise<void> {
  const r = await c.aguardarCopia(10_000);
  expect(r.copiado).toBe(true);
}

/** The lost disk: the whole data folder gone, the app's connection with it. */
function perderODisco(): void {
  app.close();
  fs.rmSync(dados, { recursive: true, force: true });
}

async function restaurar() {
  const destino = path.join(raiz, 'restaurado', 'app.db');
  const r = await restaurarCopiaContinua(bucket, destino);
  const db = new Database(destino, { readonly: true });
  const ids = (db.prepare('select id from vendas order by id').pluck().all() as number[]);
  db.close();
  return { r, ids, destino };
}

beforeEach(() => {
  proximoId = 1;
});

describe('cópia contínua', () => {
  it('cada escrita confirmada antes de aguardarCopia() resolver está na restauração, também depois de um checkpoint (novo WAL)', async () => {
    const c = iniciar({ limiteWalBytes: 64 * 1024 });
    const confirmados = gravar(20);
    await copiado(c);
    // ~40 pages of text: past the limit, so the cycle checkpoints and the next writes go to WAL index 1.
    confirmados.push(...gravar(40, 'y'.repeat(3000)));
    await copiado(c);
    expect(c.replicador!.estado().checkpoints).toBeGreaterThanOrEqual(1);
    confirmados.push(...gravar(15));
    await copiado(c);
    expect(c.replicador!.estado().indice).toBeGreaterThanOrEqual(1);
    const naoConfirmados = gravar(5); // committed locally, never waited for

    perderODisco();
    const { r, ids } = await restaurar();

    expect(ids).toEqual(expect.arrayContaining(confirmados));
    // Whatever else came back is a whole prefix of the history, never a hole.
    expect(ids).toEqual(Array.from({ length: ids.length }, (_, i) => i + 1));
    expect(ids.length).toBeLessThanOrEqual(confirmados.length + naoConfirmados.length);
    expect(r.indices).toBeGreaterThanOrEqual(2);
    expect(r.interrompido).toBeNull();
  });

  it('checkpoints de outra conexão (o automático de outro processo) não reiniciam o WAL debaixo da cópia: mesma geração, nada perdido', async () => {
    const c = iniciar();
    app.pragma('busy_timeout = 50');
    const confirmados = gravar(1);
    await copiado(c); // the generation began (its snapshot holds that row): what follows is in the WAL
    confirmados.push(...gravar(10, 'w'.repeat(1000)));
    await copiado(c);
    // PASSIVE copies what it may; RESTART/TRUNCATE would also start the WAL over, and must find the copy's reader in the way.
    app.pragma('wal_checkpoint(PASSIVE)');
    expect(app.pragma('wal_checkpoint(TRUNCATE)')).toEqual([expect.objectContaining({ busy: 1 })]);
    confirmados.push(...gravar(10));
    await copiado(c);
    expect(c.replicador!.estado().geracoesIniciadas).toBe(1);

    perderODisco();
    const { ids } = await restaurar();
    expect(ids).toEqual(confirmados);
  });

  it('um WAL cuja continuidade não se pode provar (cabeçalho trocado por fora) começa uma nova geração no mesmo ciclo, sem perder nada', async () => {
    const c = iniciar();
    const confirmados = gravar(1);
    await copiado(c);
    confirmados.push(...gravar(3));
    await copiado(c);
    // Salt-1 of the WAL's header changed behind SQLite's back: the frames read so far no longer chain to it.
    const fd = fs.openSync(`${arquivoBanco}-wal`, 'r+');
    fs.writeSync(fd, Buffer.from([0xde, 0xad]), 0, 2, 16);
    fs.closeSync(fd);
    confirmados.push(...gravar(3));
    await copiado(c);
    expect(c.replicador!.estado().geracoesIniciadas).toBe(2);

    perderODisco();
    const { ids } = await restaurar();
    expect(ids).toEqual(confirmados);
  });

  it('uma transação do app aberta (a trava de escrita com ele) não trava o ciclo: o checkpoint fica para depois, o confirmado sobe', async () => {
    const c = iniciar({ limiteWalBytes: 16 * 1024 });
    const confirmados = gravar(1);
    await copiado(c);
    confirmados.push(...gravar(10, 'k'.repeat(2000))); // past the 16 KB: the next cycle wants to checkpoint
    app.exec('BEGIN IMMEDIATE');
    app.prepare('insert into vendas (id, valor) values (?, ?)').run(1000, 1);
    expect((await c.aguardarCopia(2_000)).copiado).toBe(true);
    expect(c.replicador!.estado().checkpoints).toBe(0);
    app.exec('COMMIT');
    confirmados.push(1000);
    await copiado(c);
    expect(c.replicador!.estado().checkpoints).toBe(1);

    perderODisco();
    const { ids } = await restaurar();
    expect(ids).toEqual(confirmados);
  });

  it('outro processo gravando sem parar enquanto a cópia faz checkpoints: nada se perde', async () => {
    const c = iniciar({ limiteWalBytes: 32 * 1024 });
    gravar(1);
    await copiado(c);
    const filho = spawn(
      process.execPath,
      [
        '-e',
        `const D = require(${JSON.stringify(createRequire(import.meta.url).resolve('better-sqlite3'))});
         const db = new D(${JSON.stringify(arquivoBanco)}); db.pragma('busy_timeout = 5000');
         const ins = db.prepare('insert into vendas (valor, obs) values (?, ?)');
         for (let i = 0; i < 1500; i++) {
           if (i % 7 === 0) db.transaction(() => { for (let k = 0; k < 5; k++) ins.run(i, 'f'.repeat(500)); })();
           else ins.run(i, 'g');
         }
         db.close();`,
      ],
      { stdio: 'inherit' },
    );
    const terminou = new Promise<number | null>((resolver) => filho.once('exit', resolver));
    let vivo = true;
    void terminou.then(() => (vivo = false));
    app.pragma('busy_timeout = 5000');
    const inserir = app.prepare('insert into vendas (valor, obs) values (?, ?)');
    while (vivo) {
      inserir.run(-1, 'h'.repeat(800));
      await c.aguardarCopia(5_000);
    }
    expect(await terminou).toBe(0);
    await copiado(c);
    const todos = app.prepare('select id from vendas order by id').pluck().all() as number[];
    expect(c.replicador!.estado().checkpoints).toBeGreaterThan(0);

    perderODisco();
    const { ids } = await restaurar();
    expect(ids).toEqual(todos);
  }, 60_000);

  it('uma espera serve a todas: várias aguardarCopia() juntas, um envio só', async () => {
    const c = iniciar();
    gravar(3);
    await copiado(c);
    const antes = (await s3.chaves()).filter((k) => k.endsWith('.seg.gz')).length;
    gravar(2);
    const esperas = await Promise.all([c.aguardarCopia(), c.aguardarCopia(), c.aguardarCopia(), c.aguardarCopia()]);
    expect(esperas.every((e) => e.copiado)).toBe(true);
    const depois = (await s3.chaves()).filter((k) => k.endsWith('.seg.gz')).length;
    expect(depois - antes).toBe(1);
  });

  it('esperas seguidas (um lote atrás do outro) não ficam para o próximo intervalo: cada uma tem o seu ciclo', async () => {
    const c = iniciar(); // the interval is an hour: only a cycle the wait itself asks for can serve it
    for (let lote = 0; lote < 20; lote++) {
      gravar(2);
      expect((await c.aguardarCopia(2_000)).copiado).toBe(true);
    }
  });

  it('reiniciar o replicador começa uma nova geração, e a restauração usa a mais nova com tudo o que foi confirmado', async () => {
    const primeira = iniciar();
    const confirmados = gravar(10);
    await copiado(primeira);
    await primeira.parar();
    confirmados.push(...gravar(7)); // written while no replicator ran: the new generation's snapshot has them

    const segunda = iniciar();
    confirmados.push(...gravar(6));
    await copiado(segunda);
    const geracoes = new Set((await s3.chaves()).map((k) => k.split('/')[2]));
    expect(geracoes.size).toBe(2);

    perderODisco();
    const { r, ids } = await restaurar();
    expect(ids).toEqual(confirmados);
    expect(r.geracao).toBe(segunda.replicador!.estado().geracao);
  });

  it('gerações mais velhas que a retenção são apagadas, menos a anterior à atual; a restauração continua com tudo', async () => {
    const confirmados: number[] = [];
    for (let vez = 0; vez < 3; vez++) {
      const c = iniciar({ retencaoMs: 0 });
      confirmados.push(...gravar(2));
      await copiado(c);
      await c.parar();
    }
    const c = iniciar({ retencaoMs: 0 });
    confirmados.push(...gravar(2));
    await copiado(c);
    const geracoes = [...new Set((await s3.chaves()).map((k) => k.split('/')[2]))];
    expect(geracoes).toHaveLength(2);
    expect(geracoes).toContain(c.replicador!.estado().geracao);

    perderODisco();
    const { ids } = await restaurar();
    expect(ids).toEqual(confirmados);
  });

  it('um trecho cortado no meio de um quadro (queda durante o envio) não é aplicado além da última transação completa', async () => {
    const c = iniciar();
    const antes = gravar(5);
    await copiado(c);
    const [a] = gravar(1);
    const [b] = gravar(1, 'z'.repeat(2000));
    await copiado(c);
    const ultimo = (await s3.chaves()).filter((k) => k.endsWith('.seg.gz')).at(-1)!;
    const inteiro = gunzipSync(await s3.bytes(ultimo));
    // The last transaction (row b) torn inside its last frame: its COMMIT frame fails the checksum.
    await s3.gravar(ultimo, gzipSync(inteiro.subarray(0, inteiro.length - 700)));

    perderODisco();
    const { r, ids } = await restaurar();
    expect(ids).toEqual([...antes, a]);
    expect(ids).not.toContain(b);
    expect(r.interrompido).toMatch(/não aplicados/);
  });

  it('com o bucket fora do ar o app continua gravando, a espera termina no limite com o atraso, e a cópia se põe em dia quando ele volta', async () => {
    const c = iniciar();
    const confirmados = gravar(4);
    await copiado(c);
    await s3.parar();

    const durante = gravar(8); // the app's writes are not held by the copy
    expect(app.prepare('select count(*) from vendas').pluck().get()).toBe(12);
    const espera = await c.aguardarCopia(300);
    expect(espera.copiado).toBe(false);
    expect(espera.atrasoMs).toBeGreaterThanOrEqual(0);
    const estado = c.replicador!.estado();
    expect(estado.erro).not.toBeNull();
    expect(estado.falhasSeguidas).toBeGreaterThanOrEqual(1);

    await s3.iniciar();
    // Back: the retry (backoff from 1 s) brings it up to date; each wait is bounded.
    let r = await c.aguardarCopia(15_000);
    for (let i = 0; i < 3 && !r.copiado; i++) r = await c.aguardarCopia(15_000);
    expect(r.copiado).toBe(true);
    expect(c.replicador!.estado().erro).toBeNull();
    confirmados.push(...durante);

    perderODisco();
    const { ids } = await restaurar();
    expect(ids).toEqual(confirmados);
  }, 60_000);

  it('com o bucket fora do ar por tempo demais o WAL não enche o disco: é aplicado ao banco, e uma geração nova leva tudo quando o bucket volta', async () => {
    const c = iniciar({ limiteAtrasoWalBytes: 64 * 1024 });
    const confirmados = gravar(1);
    await copiado(c);
    await s3.parar();
    confirmados.push(...gravar(30, 'p'.repeat(3000))); // ~30 pages: past the 64 KB allowed to wait for the bucket
    for (let i = 0; i < 100 && c.replicador!.estado().falhasSeguidas === 0; i++) await c.aguardarCopia(50);
    expect(c.replicador!.estado().falhasSeguidas).toBeGreaterThanOrEqual(1);
    expect(c.replicador!.estado().geracao).toBeNull();
    expect(fs.statSync(`${arquivoBanco}-wal`).size).toBe(0);
    expect(app.prepare('select count(*) from vendas').pluck().get()).toBe(31); // the app never noticed

    await s3.iniciar();
    let r = await c.aguardarCopia(15_000);
    for (let i = 0; i < 3 && !r.copiado; i++) r = await c.aguardarCopia(15_000);
    expect(r.copiado).toBe(true);
    expect(c.replicador!.estado().geracoesIniciadas).toBe(2);

    perderODisco();
    const { ids } = await restaurar();
    expect(ids).toEqual(confirmados);
  }, 60_000);

  it('comprovantes da pasta local: novos enviados, removidos apagados do bucket, restaurados em uploads/ ao lado do banco', async () => {
    const c = iniciar();
    const pasta = path.join(dados, 'uploads');
    fs.writeFileSync(path.join(pasta, 'aaaa.jpg'), Buffer.from('foto A'));
    fs.writeFileSync(path.join(pasta, 'bbbb.pdf'), Buffer.from('nota B'));
    gravar(1);
    await copiado(c);
    expect((await s3.chaves()).filter((k) => k.includes('/uploads/'))).toEqual(['copia-continua/uploads/aaaa.jpg', 'copia-continua/uploads/bbbb.pdf']);
    fs.rmSync(path.join(pasta, 'bbbb.pdf'));
    fs.writeFileSync(path.join(pasta, 'cccc.png'), Buffer.from('foto C'));
    await copiado(c);
    expect((await s3.chaves()).filter((k) => k.includes('/uploads/'))).toEqual(['copia-continua/uploads/aaaa.jpg', 'copia-continua/uploads/cccc.png']);

    perderODisco();
    const { r, destino } = await restaurar();
    const restaurados = path.join(path.dirname(destino), 'uploads');
    expect(r.pastaComprovantes).toBe(restaurados);
    expect(fs.readdirSync(restaurados).sort()).toEqual(['aaaa.jpg', 'cccc.png']);
    expect(fs.readFileSync(path.join(restaurados, 'cccc.png'), 'utf8')).toBe('foto C');
  });

  it('a restauração recusa sobrescrever um arquivo existente', async () => {
    const c = iniciar();
    gravar(1);
    await copiado(c);
    const destino = path.join(raiz, 'existente.db');
    fs.writeFileSync(destino, 'não mexa');
    await expect(restaurarCopiaContinua(bucket, destino)).rejects.toThrow(/já existe/);
    expect(fs.readFileSync(destino, 'utf8')).toBe('não mexa');
  });

  it('outro processo no mesmo DATA_DIR não replica junto (a trava é de quem começou primeiro), e a espera dele acompanha o estado publicado', async () => {
    const primeira = iniciar();
    expect(primeira.replicador).not.toBeNull();
    gravar(1);
    await copiado(primeira);
    // The lock as another live process holds it (the one that started this test runner).
    fs.writeFileSync(path.join(dados, 'copia-continua.trava'), `${process.ppid} outro`);
    const segunda = iniciarCopiaContinua({ arquivoBanco, pastaComprovantes: null, bucket, log: silencioso });
    copias.push(segunda);
    expect(segunda.replicador).toBeNull();

    gravar(1);
    let resolvida = false;
    const espera = segunda.aguardarCopia(10_000).then((r) => {
      resolvida = true;
      return r;
    });
    // Resolved only by a cycle of the replicating process that began after the call.
    for (let i = 0; i < 200 && !resolvida; i++) await copiado(primeira);
    expect((await espera).copiado).toBe(true);
  });
});
