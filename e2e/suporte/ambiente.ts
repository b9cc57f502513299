/**
 * What a browser-test file opens once for all its tests: the real server and, when asked, one
 * browser and a scratch folder (phone profiles, downloads). Opened in beforeAll, closed in afterAll.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { abrirNavegador } from './navegador';
import { iniciarServidor, type ServidorDeTeste } from './servidor';

export interface OpcoesAmbiente {
  /** Server settings (e.g. VERSAO_MINIMA_APP). */
  env?: Record<string, string>;
  /** One shared browser for `novaPagina` (tests on persistent profiles open their own). */
  navegador?: boolean;
  /** Prefix of a scratch folder under the system's temp folder. */
  pasta?: string;
}

export type Ambiente<O extends OpcoesAmbiente> = { servidor: ServidorDeTeste } & (O['navegador'] extends true ? { navegador: Browser } : unknown) &
  (O['pasta'] extends string ? { raiz: string } : unknown);

/** For beforeAll: `({ servidor, navegador } = await abrirAmbiente({ navegador: true }))`. */
export async function abrirAmbiente<const O extends OpcoesAmbiente>(opcoes: O): Promise<Ambiente<O>> {
  const servidor = await iniciarServidor(opcoes.env);
  let navegador: Browser | undefined;
  try {
    if (opcoes.navegador) navegador = await abrirNavegador();
    const raiz = opcoes.pasta ? fs.mkdtempSync(path.join(os.tmpdir(), opcoes.pasta)) : undefined;
    return { servidor, navegador, raiz } as Ambiente<O>;
  } catch (erro) {
    // The caller never gets what was opened so far: close it here, or it outlives the test file.
    await fecharAmbiente({ servidor, navegador });
    throw erro;
  }
}

/**
 * For afterAll: closes whatever is there (a beforeAll that failed half way leaves some of it
 * undefined), the browser before the server it talks to, the folder last.
 */
export async function fecharAmbiente({ servidor, navegador, raiz }: { servidor?: ServidorDeTeste; navegador?: Browser; raiz?: string }): Promise<void> {
  await navegador?.close();
  await servidor?.fechar();
  if (raiz) fs.rmSync(raiz, { recursive: true, force: true, maxRetries: 10 }); // a browser still closing may write into its profile: retry ENOTEMPTY
}
