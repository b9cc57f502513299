/**
 * Where the migrations and the built PWA are, for each way the server runs:
 * - bundled (`build/server.cjs`): next to the bundle, in build/migrations and build/public;
 * - from source (tsx server/src/main.ts, tests): in the project tree.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface Recursos {
  pastaMigracoes: string;
  pastaCliente: string;
}

export function raizDoProjeto(): string {
  return process.cwd();
}

export function recursosDoProjeto(raiz: string = raizDoProjeto()): Recursos {
  return {
    pastaMigracoes: path.join(raiz, 'server', 'src', 'db', 'migrations'),
    pastaCliente: path.join(raiz, 'build', 'public'),
  };
}

export function localizarRecursos(entrada: string | undefined = process.argv[1]): Recursos {
  const pasta = entrada ? path.dirname(path.resolve(entrada)) : process.cwd();
  if (fs.existsSync(path.join(pasta, 'migrations'))) {
    return { pastaMigracoes: path.join(pasta, 'migrations'), pastaCliente: path.join(pasta, 'public') };
  }
  return recursosDoProjeto(path.resolve(pasta, '..', '..'));
}
