/**
 * The server measured by bench/uploads.ts, in its own process (its peak RSS is the figure):
 * - `--base`: the baseline, a bare Fastify route with @fastify/multipart streaming every file part to
 *   /dev/null (the least any multipart upload can cost);
 * - otherwise the app (POST /api/sync/lote) on an empty temporary DATA_DIR, from the tree given by
 *   `--raiz <folder>` (default: this one; the benchmark also points it at a copy of the code before
 *   issue 18), with one employee on an active route and a quota out of reach.
 * Prints one JSON line with the port, token and ids, then serves until killed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

const indice = process.argv.indexOf('--raiz');
const raiz = path.resolve(indice >= 0 ? process.argv[indice + 1]! : '.');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-bench-uploads-'));

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
  const src = path.join(raiz, 'server', 'src');
  const { criarApp } = await import(path.join(src, 'app.ts'));
  const { carregarConfig } = await import(path.join(src, 'config.ts'));
  const { abrirBanco } = await import(path.join(src, 'db', 'index.ts'));
  const { gravarEstadosECidades } = await import(path.join(src, 'cidades', 'repositorio.ts'));
  const { UFS } = await import(path.join(src, 'cidades', 'ufs.ts'));
  const { garantirPrimeiroAdmin } = await import(path.join(src, 'usuarios', 'primeiro-admin.ts'));
  const config = carregarConfig({
    DATA_DIR: dataDir,
    ADMIN_EMAIL: 'admin@bench.com.br',
    ADMIN_PASSWORD: 'admin12345',
    JWT_SECRET: 'segredo-do-benchmark-com-mais-de-32-caracteres',
    LOG_LEVEL: 'silent',
    LOGIN_RATE_LIMIT: '10000',
    LIMITE_REQUISICOES_POR_MINUTO: '100000',
    // Out of reach: this measures memory, not the quota.
    COTA_COMPROVANTES_MB: '100000',
  });
  const db = abrirBanco({ arquivo: path.join(dataDir, 'app.db'), pastaMigracoes: path.join(raiz, 'server', 'src', 'db', 'migrations') });
  const cidade = 5208707;
  gravarEstadosECidades(db, UFS, [{ id: cidade, nome: 'Goiânia', uf: 'GO' }]);
  await garantirPrimeiroAdmin(db, config, { info() {}, warn() {} });
  const app = await criarApp({ config, db, segredoJwt: config.jwtSecret!, pastaCliente: null });
  const json = async (method: string, url: string, payload: unknown, token?: string) => {
    const r = await app.inject({ method, url, payload, headers: token ? { authorization: `Bearer ${token}` } : {} });
    if (r.statusCode >= 300) throw new Error(`${method} ${url}: ${r.statusCode} ${r.body}`);
    return r.json();
  };
  const admin = (await json('POST', '/api/auth/login', { email: 'admin@bench.com.br', senha: 'admin12345' })).token as string;
  const func = (await json('POST', '/api/usuarios', { nome: 'Pessoa do Bench', email: 'func@bench.com.br', senha: 'senha12345', tipo: 'funcionario' }, admin)).usuario.id as number;
  const rota = (
    await json(
      'POST',
      '/api/rotas',
      { nome: 'Rota do bench', funcionario_id: func, tem_secretario: false, valor_aluguel: 0, data_inicio: '2026-01-01', data_fim: '2026-12-31', observacoes: '', cidades: [cidade] },
      admin,
    )
  ).rota.id as number;
  const token = (await json('POST', '/api/auth/login', { email: 'func@bench.com.br', senha: 'senha12345' })).token as string;
  await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    porta: (app.server.address() as { port: number }).port,
    fechar: async () => {
      await app.close();
      db.$client.close();
    },
    extra: { token, rota, cidade },
  };
}

const servidor = process.argv.includes('--base') ? await base() : await aplicacao();
console.log(JSON.stringify({ pronto: true, porta: servidor.porta, ...servidor.extra }));

const encerrar = async () => {
  await servidor.fechar();
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGTERM', () => void encerrar());
process.on('SIGINT', () => void encerrar());
