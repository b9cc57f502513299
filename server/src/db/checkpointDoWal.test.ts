/**
 * WAL checkpoints in a thread of their own (for sync throughput): the app's COMMITs stop paying
 * for them, the worker copies the WAL into the file as writes come, the WAL restarts from the top
 * after each one, nothing is lost, and a worker that cannot run gives the checkpoints back.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { MOTOR_DE_TESTE } from '../../test/bancoDeTeste';
import { carregarConfig } from '../config';
import { localizarTrabalhador, recursosDoProjeto } from '../recursos';
import { AUTOCHECKPOINT_DE_RESERVA_PAGINAS, iniciarCheckpointDoServidor, iniciarCheckpointDoWal, type CheckpointDoWal, type LogDoCheckpoint } from './checkpointDoWal';
import { abrirBanco, AUTOCHECKPOINT_PAGINAS, type Db } from './index';

const pastas: string[] = [];
const abertos: { db: Db; checkpoint: CheckpointDoWal | null }[] = [];

function logDeTeste() {
  const linhas: { nivel: string; msg: string; obj: object }[] = [];
  const log: LogDoCheckpoint = {
    info: (obj, msg) => linhas.push({ nivel: 'info', msg, obj }),
    warn: (obj, msg) => linhas.push({ nivel: 'warn', msg, obj }),
    debug: (obj, msg) => linhas.push({ nivel: 'debug', msg, obj }),
  };
  return { log, linhas };
}

function bancoNovo() {
  const pasta = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-checkpoint-'));
  pastas.push(pasta);
  const arquivo = path.join(pasta, 'app.db');
  const db = abrirBanco({ arquivo, pastaMigracoes: recursosDoProjeto().pastaMigracoes });
  db.$client.exec('create table paginas (id integer primary key, dados blob not null)');
  const aberto = { db, checkpoint: null as CheckpointDoWal | null };
  abertos.push(aberto);
  return { db, arquivo, aberto };
}

const trabalhador = () => localizarTrabalhador('checkpoint')!;
const autocheckpoint = (db: Db) => db.$client.pragma('wal_autocheckpoint', { simple: true }) as number;
const tamanhoDoWal = (arquivo: string) => fs.statSync(`${arquivo}-wal`).size;
const tamanhoDaPagina = (db: Db) => db.$client.pragma('page_size', { simple: true }) as number;

/** About one page each: `linhas` rows of 3,000 bytes, in one transaction. */
function escreverPaginas(db: Db, linhas: number) {
  db.$client
    .prepare('with recursive n(i) as (select 1 union all select i + 1 from n where i < ?) insert into paginas (dados) select randomblob(3000) from n')
    .run(linhas);
}

afterEach(async () => {
  for (const { db, checkpoint } of abertos.splice(0)) {
    await checkpoint?.parar();
    if (db.$client.open) db.$client.close();
  }
  for (const pasta of pastas.splice(0)) fs.rmSync(pasta, { recursive: true, force: true });
});

describe.skipIf(MOTOR_DE_TESTE === 'postgres')('checkpoint do WAL numa thread à parte', () => {
  it('com a thread no ar, os COMMITs do app não fazem o checkpoint: o WAL passa das 4.000 páginas em que o app o faria', async () => {
    const { db, arquivo, aberto } = bancoNovo();
    // Long enough that the worker does not run one during the test: what is left is the app's own.
    aberto.checkpoint = iniciarCheckpointDoWal(db, { trabalhador: trabalhador(), log: logDeTeste().log, intervaloMs: 600_000 });
    expect(await aberto.checkpoint.pronto).toBe(true);
    expect(autocheckpoint(db)).toBe(AUTOCHECKPOINT_DE_RESERVA_PAGINAS);

    for (let i = 0; i < 12; i++) escreverPaginas(db, 500);
    // Without the worker, the COMMIT crossing 4,000 pages copies the WAL into the file and the next one
    // starts it over from the top: it never grows much past 4,000 pages.
    expect(tamanhoDoWal(arquivo)).toBeGreaterThan(5_500 * tamanhoDaPagina(db));
  });

  it('a thread copia o WAL para o arquivo enquanto o app escreve, o WAL recomeça do topo, e nada se perde', async () => {
    const { db, arquivo, aberto } = bancoNovo();
    const { log, linhas } = logDeTeste();
    aberto.checkpoint = iniciarCheckpointDoWal(db, { trabalhador: trabalhador(), log, intervaloMs: 5 });
    expect(await aberto.checkpoint.pronto).toBe(true);
    expect(linhas).toContainEqual(expect.objectContaining({ nivel: 'info', msg: 'checkpoint do WAL numa thread à parte' }));

    for (let rodada = 0; rodada < 8; rodada++) {
      escreverPaginas(db, 1_000);
      // A checkpoint that left this round's 1,000 pages, all of the WAL, in the file (one that ran
      // before the write may still be on its way).
      for (let c = await aberto.checkpoint.proximoCheckpoint(); c.quadros < 1_000 || c.copiados < c.quadros; ) c = await aberto.checkpoint.proximoCheckpoint();
    }
    // 8,000 pages written, the WAL restarted after each round: never more than about one round in the file.
    expect(tamanhoDoWal(arquivo)).toBeLessThan(2_500 * tamanhoDaPagina(db));
    expect(aberto.checkpoint.checkpoints).toBeGreaterThanOrEqual(8);

    expect(db.$client.pragma('integrity_check', { simple: true })).toBe('ok');
    await aberto.checkpoint.parar();
    db.$client.close();
    const releitura = new Database(arquivo, { readonly: true });
    try {
      expect(releitura.prepare('select count(*) from paginas').pluck().get()).toBe(8_000);
    } finally {
      releitura.close();
    }
  });

  it('ao parar, a thread fecha a sua conexão e o checkpoint automático volta para o app', async () => {
    const { db, aberto } = bancoNovo();
    const { log, linhas } = logDeTeste();
    aberto.checkpoint = iniciarCheckpointDoWal(db, { trabalhador: trabalhador(), log, intervaloMs: 5 });
    expect(await aberto.checkpoint.pronto).toBe(true);
    await aberto.checkpoint.parar();
    expect(autocheckpoint(db)).toBe(AUTOCHECKPOINT_PAGINAS);
    // An ordinary stop is not a failure.
    expect(linhas.filter((l) => l.nivel === 'warn')).toEqual([]);
  });

  it('uma thread que não consegue rodar devolve os checkpoints para o app e diz por quê', async () => {
    const { db, aberto } = bancoNovo();
    const { log, linhas } = logDeTeste();
    const quebrado = path.join(path.dirname(db.$client.name), 'quebrado.cjs');
    fs.writeFileSync(quebrado, "throw new Error('addon do SQLite ausente');");
    aberto.checkpoint = iniciarCheckpointDoWal(db, { trabalhador: { arquivo: quebrado, registroTsx: null }, log });
    expect(await aberto.checkpoint.pronto).toBe(false);
    expect(autocheckpoint(db)).toBe(AUTOCHECKPOINT_PAGINAS);
    await aberto.checkpoint.terminou;
    expect(linhas.filter((l) => l.nivel === 'warn')).toEqual([
      expect.objectContaining({ msg: 'checkpoint do WAL: a thread parou; os checkpoints voltam para as requisições', obj: { erro: expect.stringContaining('addon do SQLite ausente') } }),
    ]);
  });

  it('no servidor: só no arquivo SQLite e com a cópia contínua desligada (ela é dona dos checkpoints quando ligada)', async () => {
    const { db, aberto } = bancoNovo();
    const { log } = logDeTeste();
    const comCopia = carregarConfig({
      COPIA_S3_BUCKET: 'copias',
      COPIA_S3_ENDPOINT: 'http://127.0.0.1:9',
      COPIA_S3_REGION: 'us-east-1',
      COPIA_S3_ACCESS_KEY_ID: 'a',
      COPIA_S3_SECRET_ACCESS_KEY: 'b',
    });
    expect(comCopia.copia).not.toBeNull();
    expect(iniciarCheckpointDoServidor(comCopia, db, log)).toBeNull();
    expect(autocheckpoint(db)).toBe(AUTOCHECKPOINT_PAGINAS);

    const memoria = abrirBanco({ arquivo: ':memory:', pastaMigracoes: recursosDoProjeto().pastaMigracoes });
    try {
      expect(iniciarCheckpointDoServidor(carregarConfig({}), memoria, log)).toBeNull();
    } finally {
      memoria.$client.close();
    }

    aberto.checkpoint = iniciarCheckpointDoServidor(carregarConfig({}), db, log);
    expect(aberto.checkpoint).not.toBeNull();
    expect(await aberto.checkpoint!.pronto).toBe(true);
    expect(autocheckpoint(db)).toBe(AUTOCHECKPOINT_DE_RESERVA_PAGINAS);
  });
});
