/** A real server for browser tests: the built PWA and the API on a temporary database, on loopback. */
import fs from 'node:fs';
import path from 'node:path';
import { criarAppDeTeste, type AppDeTeste } from '../../server/test/helper';

/** E2E_PASTA_CLIENTE: another build of the client (people working in parallel each build their own). */
export const PASTA_CLIENTE = process.env.E2E_PASTA_CLIENTE ?? path.join(process.cwd(), 'build', 'public');

export interface ServidorDeTeste extends AppDeTeste {
  url: string;
}

/** `pastaCliente`: another copy of the built client (a test that ships a "new version" changes its copy). */
export async function iniciarServidor(env: Record<string, string> = {}, pastaCliente = PASTA_CLIENTE): Promise<ServidorDeTeste> {
  if (!fs.existsSync(path.join(pastaCliente, 'index.html'))) {
    throw new Error('Cliente não compilado: rode `npm run build:client` (o `npm test` já faz isso).');
  }
  const t = await criarAppDeTeste({ pastaCliente, env });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = t.app.server.address() as { port: number };
  return Object.assign(t, { url: `http://127.0.0.1:${port}` });
}

/**
 * The server as its own process (`serve` from the sources), so a test can kill it mid-request and
 * start it again on the same data folder and port, as a VPS restarting after a crash.
 */
export interface ServidorProcesso {
  url: string;
  porta: number;
  dataDir: string;
  processo: import('node:child_process').ChildProcess;
  /** stdout lines (JSON logs) seen so far. */
  linhas: string[];
  /** Resolves at the first log line that matches. */
  esperarLinha(padrao: RegExp, limiteMs?: number): Promise<string>;
  matar(sinal?: NodeJS.Signals): Promise<void>;
}

export async function portaLivre(): Promise<number> {
  const net = await import('node:net');
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** `argsDoNode`: flags for node itself (a heap cap: '--max-old-space-size=256'). */
export async function iniciarServidorProcesso(dataDir: string, porta: number, env: Record<string, string> = {}, argsDoNode: string[] = []): Promise<ServidorProcesso> {
  const { spawn } = await import('node:child_process');
  const processo = spawn(process.execPath, [...argsDoNode, '--import', 'tsx', path.join('server', 'src', 'main.ts'), 'serve'], {
    cwd: process.cwd(),
    env: {
      PATH: process.env.PATH,
      DATA_DIR: dataDir,
      PORT: String(porta),
      HOST: '127.0.0.1',
      JWT_SECRET: 'segredo-de-teste-com-mais-de-32-caracteres',
      LOG_LEVEL: 'info',
      LOGIN_RATE_LIMIT: '1000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const linhas: string[] = [];
  const esperas: { padrao: RegExp; resolver: (l: string) => void }[] = [];
  let resto = '';
  processo.stdout!.on('data', (parte: Buffer) => {
    resto += parte.toString();
    const completas = resto.split('\n');
    resto = completas.pop()!;
    for (const l of completas) {
      linhas.push(l);
      for (const e of [...esperas]) {
        if (e.padrao.test(l)) {
          esperas.splice(esperas.indexOf(e), 1);
          e.resolver(l);
        }
      }
    }
  });
  const esperarLinha = (padrao: RegExp, limiteMs = 60_000) =>
    new Promise<string>((resolve, reject) => {
      const achada = linhas.find((l) => padrao.test(l));
      if (achada) return resolve(achada);
      const t = setTimeout(() => reject(new Error(`o servidor não registrou ${padrao} em ${limiteMs} ms`)), limiteMs);
      esperas.push({ padrao, resolver: (l) => (clearTimeout(t), resolve(l)) });
    });
  await esperarLinha(/Server listening/);
  return {
    url: `http://127.0.0.1:${porta}`,
    porta,
    dataDir,
    processo,
    linhas,
    esperarLinha,
    matar: (sinal = 'SIGKILL') =>
      new Promise<void>((resolve) => {
        if (processo.exitCode !== null || processo.signalCode !== null) return resolve();
        processo.once('exit', () => resolve());
        processo.kill(sinal);
      }),
  };
}
