/**
 * The server measured by bench/uploads.ts, in its own process (its peak RSS is the figure):
 * - `--base`: the baseline, a bare Fastify route with @fastify/multipart streaming every file part to
 *   /dev/null (the least any multipart upload can cost);
 * - otherwise the app (POST /api/sync/lote) on an empty temporary DATA_DIR, from the tree given by
 *   `--raiz <folder>` (default: this one; the benchmark also points it at a copy of the code before
 *   uploads were streamed to disk), with one employee on an active route and a quota out of reach.
 * Prints one JSON line with the port, token and ids, then serves until killed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { ADMIN_DO_BENCH, subirAppDoBench } from './app-do-bench';

const indice = process.argv.indexOf('--raiz');
const raiz = path.resolve(indice >= 0 ? process.argv[indice + 1]! : '.');

interface Servidor {
  porta: number;
  fechar(): Promise<void>;
  extra: Record<string, unknown>;
}

async function base(): Promise<Servidor> {
  const { default: Fastify } = await import(path.join(raiz, 'node_modules', 'fastify', 'fastify.js'));
  const { default: multipart } = await import(path.join(raiz, 'node_modules', '@fastify', 'multipart', 'index.js'));
  const app = Fastify();
  await app.register(multipart, { limits: { fileSize: 20 * 1024 * 1024, files: 10, fields: 5, fieldSize: 8 * 1024 * 1024 } });
  app.post('/api/sync/lote', async (request: { parts(): AsyncIterable<{ type: string; file?: NodeJS.ReadableStream }> }) => {
    let arquivos = 0;
    for await (const parte of request.parts()) {
      if (parte.type === 'file') {
        await pipeline(parte.file!, fs.createWriteStream('/dev/null'));
        arquivos += 1;
      }
    }
    return { arquivos };
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { porta: (app.server.address() as { port: number }).port, fechar: () => app.close(), extra: { token: '', rota: 0, cidade: 0 } };
}

async function aplicacao(): Promise<Servidor> {
  const cidade = 5208707;
  const { chamar, porta, entrar, app, db, dataDir } = await subirAppDoBench({
    prefixo: 'sg-bench-uploads-',
    raiz,
    // Out of reach: this measures memory, not the quota.
    env: { LIMITE_REQUISICOES_POR_MINUTO: '100000', COTA_COMPROVANTES_MB: '100000' },
    cidades: [{ id: cidade, nome: 'Goiânia', uf: 'GO' }],
  });
  const admin = await entrar(ADMIN_DO_BENCH.email, ADMIN_DO_BENCH.senha);
  const func = (await chamar('POST', '/api/usuarios', admin, { nome: 'Pessoa do Bench', email: 'func@bench.com.br', senha: 'senha12345', tipo: 'funcionario' })).usuario.id as number;
  const rota = (
    await chamar('POST', '/api/rotas', admin, { nome: 'Rota do bench', funcionario_id: func, tem_secretario: false, valor_aluguel: 0, data_inicio: '2026-01-01', data_fim: '2026-12-31', observacoes: '', cidades: [cidade] })
  ).rota.id as number;
  const token = await entrar('func@bench.com.br', 'senha12345');
  return {
    porta,
    fechar: async () => {
      await app.close();
      db.$client.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
    extra: { token, rota, cidade },
  };
}

const servidor = process.argv.includes('--base') ? await base() : await aplicacao();
console.log(JSON.stringify({ pronto: true, porta: servidor.porta, ...servidor.extra }));

const encerrar = async () => {
  await servidor.fechar();
  process.exit(0);
};
process.on('SIGTERM', () => void encerrar());
process.on('SIGINT', () => void encerrar());
