/** Starts a TypeScript entry in a child process and waits for its one-line JSON "ready" message. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export interface Filho<T> {
  processo: ChildProcess;
  info: T;
  parar(): Promise<void>;
}

/** `pasta`: the checkout to run it from (default: this one), e.g. an older commit's extracted with git archive. */
export function iniciarFilho<T>(arquivo: string, args: string[] = [], limiteMs = 180_000, pasta = process.cwd()): Promise<Filho<T>> {
  // BENCH_PERFIL=1: each child writes a CPU profile to bench/.results/perfil (open it in Chrome DevTools).
  const perfil = process.env.BENCH_PERFIL ? ['--cpu-prof', `--cpu-prof-dir=${path.join('bench', '.results', 'perfil')}`] : [];
  const processo = spawn(process.execPath, [...perfil, '--import', 'tsx', path.join('bench', arquivo), ...args], {
    cwd: pasta,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let buffer = '';
    const limite = setTimeout(() => {
      processo.kill('SIGKILL');
      reject(new Error(`${arquivo} não ficou pronto em ${limiteMs} ms`));
    }, limiteMs);
    processo.stdout!.on('data', (parte: Buffer) => {
      buffer += parte.toString();
      const linha = buffer.split('\n').find((l) => l.includes('"pronto":true'));
      if (!linha) return;
      clearTimeout(limite);
      resolve({
        processo,
        info: JSON.parse(linha) as T,
        parar: () =>
          new Promise<void>((fim) => {
            processo.once('exit', () => fim());
            processo.kill('SIGTERM');
          }),
      });
    });
    processo.once('exit', (codigo) => {
      clearTimeout(limite);
      reject(new Error(`${arquivo} terminou com código ${codigo} antes de ficar pronto`));
    });
  });
}
