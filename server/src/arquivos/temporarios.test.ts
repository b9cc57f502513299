/**
 * The request's temporary files (temporarios.ts): a part whose stream fails leaves no file behind.
 * Seen in a loaded CI run as a `.part` left for good after the 400 of a body cut mid-file: busboy had
 * already failed the part, pipeline() settled at once, the temporary file was removed before it had
 * been created, and the write stream's open, still in libuv's pool, created it afterwards.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Temporarios } from './temporarios';

let pasta: string;
beforeEach(() => {
  pasta = fs.mkdtempSync(path.join(os.tmpdir(), 'temporarios-'));
});
afterEach(() => {
  vi.restoreAllMocks();
  fs.rmSync(pasta, { recursive: true, force: true });
});

/** A part busboy has already failed: some bytes buffered, then destroyed with the parser's error. */
function parteJaCortada(): PassThrough {
  const parte = new PassThrough();
  parte.on('error', () => undefined); // @fastify/multipart listens too: the error is not uncaught
  parte.write(Buffer.alloc(70_000, 0x41));
  parte.destroy(new Error('Unexpected end of multipart data'));
  return parte;
}

/**
 * Holds every callback-style fs.open of a file in the folder (what a write stream opened by path uses)
 * until `soltar`, which runs them and resolves once they are done: the slow thread of a loaded machine,
 * made certain.
 */
function segurarAberturas() {
  const presas: (() => Promise<void>)[] = [];
  const abrirDeVerdade = fs.open.bind(fs) as (...args: unknown[]) => void;
  vi.spyOn(fs, 'open').mockImplementation(((...args: unknown[]) => {
    if (!String(args[0]).startsWith(pasta)) return abrirDeVerdade(...args);
    const avisar = args.pop() as (...resultado: unknown[]) => void;
    presas.push(
      () =>
        new Promise<void>((pronto) =>
          abrirDeVerdade(...args, (...resultado: unknown[]) => {
            avisar(...resultado);
            pronto();
          }),
        ),
    );
  }) as typeof fs.open);
  return { soltar: () => Promise.all(presas.splice(0).map((abrir) => abrir())) };
}

/** Waits for `promessa`, at most `voltas` turns of the event loop; true when it settled. */
async function assentou(promessa: Promise<unknown>, voltas = 50): Promise<boolean> {
  let pronto = false;
  void promessa.then(
    () => (pronto = true),
    () => (pronto = true),
  );
  for (let i = 0; i < voltas && !pronto; i++) await new Promise((ok) => setImmediate(ok));
  return pronto;
}

describe('Temporarios.receber com a parte já cortada', () => {
  it('a promessa falha e, mesmo com a abertura do arquivo atrasada, nenhum arquivo fica na pasta', async () => {
    const aberturas = segurarAberturas();
    const temporarios = new Temporarios(pasta);
    const recebendo = temporarios.receber(parteJaCortada());
    const falha = expect(recebendo).rejects.toThrow('Unexpected end of multipart data');
    // Released once the copy settled (or after a bounded wait, if it waits for the open itself).
    await assentou(recebendo);
    await aberturas.soltar();
    await falha;
    await temporarios.limpar();
    expect(fs.readdirSync(pasta)).toEqual([]);
  });
});
