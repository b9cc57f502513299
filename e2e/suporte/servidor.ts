/** A real server for browser tests: the built PWA and the API on a temporary database, on loopback. */
import fs from 'node:fs';
import path from 'node:path';
import { criarAppDeTeste, type AppDeTeste } from '../../server/test/helper';

export const PASTA_CLIENTE = path.join(process.cwd(), 'build', 'public');

export interface ServidorDeTeste extends AppDeTeste {
  url: string;
}

export async function iniciarServidor(env: Record<string, string> = {}): Promise<ServidorDeTeste> {
  if (!fs.existsSync(path.join(PASTA_CLIENTE, 'index.html'))) {
    throw new Error('Cliente não compilado: rode `npm run build:client` (o `npm test` já faz isso).');
  }
  const t = await criarAppDeTeste({ pastaCliente: PASTA_CLIENTE, env });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = t.app.server.address() as { port: number };
  return Object.assign(t, { url: `http://127.0.0.1:${port}` });
}
