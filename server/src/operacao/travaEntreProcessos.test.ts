/**
 * The lock the parts of one resumable upload take across app processes: held by a
 * live process, the next one waits; left by a dead process or for longer than any request, taken over.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as esperar } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { comTravaEntreProcessos } from './travaEntreProcessos';

let pasta: string;
let trava: string;
beforeEach(() => {
  pasta = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-trava-'));
  trava = path.join(pasta, 'envio.dados.trava');
});
afterEach(() => fs.rmSync(pasta, { recursive: true, force: true }));

describe('comTravaEntreProcessos', () => {
  it('espera enquanto outro processo vivo segura a trava, e roda quando ela é solta', async () => {
    // Held by the process that started this test runner: alive for the whole test.
    fs.writeFileSync(trava, `${process.ppid} de-outro-processo`);
    const ordem: string[] = [];
    const segundo = comTravaEntreProcessos(trava, async () => void ordem.push('segundo'), { intervaloMs: 5 });
    await esperar(50);
    expect(ordem).toEqual([]);
    ordem.push('primeiro terminou');
    fs.rmSync(trava);
    await segundo;
    expect(ordem).toEqual(['primeiro terminou', 'segundo']);
    expect(fs.existsSync(trava)).toBe(false);
  });

  it('dentro da trava o arquivo existe com o pid deste processo; ao terminar (até com erro) ele some', async () => {
    await expect(
      comTravaEntreProcessos(trava, async () => {
        expect(fs.readFileSync(trava, 'utf8').split(' ')[0]).toBe(String(process.pid));
        throw new Error('falhou no meio');
      }),
    ).rejects.toThrow('falhou no meio');
    expect(fs.existsSync(trava)).toBe(false);
  });

  it('a trava de um processo que morreu é tomada na hora', async () => {
    const morto = spawnSync(process.execPath, ['-e', '0']).pid;
    fs.writeFileSync(trava, `${morto} abandonada`);
    expect(await comTravaEntreProcessos(trava, async () => 'rodou', { intervaloMs: 60_000 })).toBe('rodou');
  });

  it('a trava vazia (a partida anterior parou com o disco cheio), ilegível ou sem pid de processo é tomada na hora', async () => {
    // '' read as pid 0, and process.kill(0, 0) succeeds (it names this process group): the next start waited
    // for the lock to grow old. None of these names a process that could be holding it.
    for (const conteudo of ['', '\n', 'lixo sem pid', '0 zero', '-1 todos', '1.5 fracao', ' 12 espaco', 'NaN x']) {
      fs.writeFileSync(trava, conteudo);
      expect(await comTravaEntreProcessos(trava, async () => 'rodou', { intervaloMs: 60_000, abandonadaMs: 60 * 60_000 }), JSON.stringify(conteudo)).toBe('rodou');
      expect(fs.existsSync(trava)).toBe(false);
    }
  });

  it('com o disco cheio a tentativa falha sem deixar trava (nem arquivo nenhum) para a próxima partida', async () => {
    // A full disk: the file is created (a directory entry still fits) but its bytes are not written.
    const gravar = vi.spyOn(fs, 'writeFileSync').mockImplementationOnce((caminho) => {
      fs.closeSync(fs.openSync(caminho as string, 'wx'));
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    });
    try {
      await expect(comTravaEntreProcessos(trava, async () => 'não devia rodar')).rejects.toMatchObject({ code: 'ENOSPC' });
    } finally {
      gravar.mockRestore();
    }
    expect(fs.readdirSync(pasta)).toEqual([]);
    expect(await comTravaEntreProcessos(trava, async () => 'rodou', { intervaloMs: 60_000, abandonadaMs: 60 * 60_000 })).toBe('rodou');
  });

  it('a trava mais velha que qualquer requisição é tomada, mesmo com o dono vivo (pid reaproveitado)', async () => {
    fs.writeFileSync(trava, `${process.ppid} antiga`);
    const passado = new Date(Date.now() - 10 * 60_000);
    fs.utimesSync(trava, passado, passado);
    expect(await comTravaEntreProcessos(trava, async () => 'rodou', { intervaloMs: 60_000, abandonadaMs: 120_000 })).toBe('rodou');
  });

  it('cria a pasta do envio quando ela ainda não existe', async () => {
    const dentro = path.join(pasta, 'partes', '7', 'envio.dados.trava');
    expect(await comTravaEntreProcessos(dentro, async () => fs.existsSync(dentro))).toBe(true);
  });
});
