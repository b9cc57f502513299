/**
 * The copy as the executable runs it: configured only by COPIA_S3_* (the receipts stay
 * in DATA_DIR/uploads), started for DATA_DIR/app.db, waited for, then `restore-continuous DESTINO`
 * prints what it restored; with the copy off the wait answers at once and the command says how to turn it on.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { envDaCopiaContinua, iniciarServidorS3, type ServidorS3 } from '../../test/s3';
import { carregarConfig } from '../config';
import { ErroDeCopia } from './copia';
import { aguardarCopiaContinua, iniciarCopiaContinuaDoServidor, pararCopiaContinua, restaurarCopiaContinuaDoComando } from './copiaContinuaComandos';

const silencioso = { info: () => undefined, warn: () => undefined, error: () => undefined };
let s3: ServidorS3;
let raiz: string;

beforeEach(async () => {
  s3 = await iniciarServidorS3('copia-comando');
  raiz = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-copia-cmd-'));
});
afterEach(async () => {
  await pararCopiaContinua();
  vi.restoreAllMocks();
  await s3.fechar();
  fs.rmSync(raiz, { recursive: true, force: true });
});

describe('cópia contínua no executável', () => {
  it('ligada por COPIA_S3_*: o servidor espera a cópia, e restore-continuous traz banco e comprovantes e diz o que restaurou', async () => {
    const dataDir = path.join(raiz, 'dados');
    fs.mkdirSync(path.join(dataDir, 'uploads'), { recursive: true });
    const env = { DATA_DIR: dataDir, ...envDaCopiaContinua(s3) };
    const config = carregarConfig(env);
    expect(config.s3).toBeNull();
    const app = new Database(path.join(dataDir, 'app.db'));
    app.pragma('journal_mode = WAL');
    app.exec('create table vendas (id integer primary key)');
    iniciarCopiaContinuaDoServidor(config, silencioso);
    app.prepare('insert into vendas values (1), (2)').run();
    fs.writeFileSync(path.join(dataDir, 'uploads', 'abcd.jpg'), 'foto');
    expect(await aguardarCopiaContinua()).toMatchObject({ ligada: true, copiado: true });
    app.close();
    await pararCopiaContinua();
    fs.rmSync(dataDir, { recursive: true, force: true }); // the lost disk

    const saida = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const destino = path.join(raiz, 'novo', 'app.db');
    await restaurarCopiaContinuaDoComando(carregarConfig(env), destino);
    const texto = saida.mock.calls.map((c) => String(c[0])).join('\n');
    expect(texto).toContain(`Banco restaurado em ${destino}`);
    expect(texto).toContain('integridade ok');
    expect(texto).toContain(`1 comprovante(s) em ${path.join(raiz, 'novo', 'uploads')}`);
    const db = new Database(destino, { readonly: true });
    expect(db.prepare('select count(*) from vendas').pluck().get()).toBe(2);
    db.close();
  });

  it('desligada: a espera responde na hora, e o comando explica como ligar', async () => {
    const config = carregarConfig({ DATA_DIR: raiz });
    expect(iniciarCopiaContinuaDoServidor(config, silencioso)).toBe(false);
    expect(await aguardarCopiaContinua()).toEqual({ ligada: false, copiado: false, atrasoMs: 0 });
    await expect(restaurarCopiaContinuaDoComando(config, path.join(raiz, 'x.db'))).rejects.toThrow(ErroDeCopia);
    await expect(restaurarCopiaContinuaDoComando(config, path.join(raiz, 'x.db'))).rejects.toThrow(/defina COPIA_S3_BUCKET/);
  });
});
