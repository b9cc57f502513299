/**
 * Builds the Fastify application: plugins (errors, security headers, rate limit, sessions), then
 * the routes of each domain under /api, then the built PWA. Tests build it on a temporary
 * database and call `app.inject()`; the process entry (main.ts) builds it and listens.
 */
import fs from 'node:fs';
import path from 'node:path';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { armazenamentoPlugin } from './arquivos/armazenamento';
import authPlugin from './auth/plugin';
import rotasAuth from './auth/rotas';
import rotasCidades from './cidades/rotas';
import rotasRelatorios from './relatorios/rotas';
import rotasDespesas from './despesas/rotas';
import rotasRotas from './rotas/rotas';
import rotasAcerto from './acerto/rotas';
import rotasTardias from './tardias/rotas';
import rotasAuditoria from './auditoria/rotas';
import rotasExportarAuditoria from './auditoria/exportar';
import rotasExportacoes from './exportacoes/rotas';
import rotasSaldo from './saldo/rotas';
import type { Config } from './config';
import type { Db } from './db';
import { muitasTentativas, naoEncontrado } from './errors';
import cabecalhosPlugin from './plugins/cabecalhos';
import dispositivosPlugin from './dispositivos/plugin';
import rotasDispositivos from './dispositivos/rotas';
import cacheLeituras from './plugins/cache-leituras';
import caractereNuloPlugin, { anotarTextoJson } from './plugins/caractereNulo';
import origemPlugin from './plugins/origem';
import errosPlugin, { responderErroDeFramework } from './plugins/erros';
import vezPorUsuario from './plugins/vezPorUsuario';
import type { App } from './tipos';
import rotasUsuarios from './usuarios/rotas';
import rotasSync from './sync/rotas';
import { falhaDaCopiaContinua } from './operacao/copiaContinuaComandos';
import { erroSemParametros } from './saude/erroNoLog';
import rotasSaude from './saude/rotas';
import type { EstadoDaCopiaContinua } from './saude/verificacoes';
import rotasImportacao from './sync/importacao';
import rotasVendas from './vendas/rotas';
import { tabelaAoRedor, type TabelaDoFuso } from '../../shared/fusos';

export interface OpcoesApp {
  config: Config;
  db: Db;
  segredoJwt: string;
  /** Folder of the built PWA (vite build); null to serve only the API. */
  pastaCliente?: string | null;
  logger?: FastifyServerOptions['logger'];
  versao?: string;
  /** false: every read computed afresh (the benchmark's measure of the uncached cost). */
  cacheDeLeituras?: boolean;
  /** The continuous copy's state for /api/health (saude/verificacoes.ts); absent: the server has no copy. */
  copiaContinua?: EstadoDaCopiaContinua;
  /** Told of every route as it is registered: the permission tests check their table lists them all. */
  aoRegistrarRota?: (rota: { method: string | string[]; url: string }) => void;
}

/** A source map ('/assets/index-abc.js.map'): never served, not even as the app shell. */
const ehMapaDeCodigo = (caminho: string) => /\.map$/i.test(caminho);

/** Request bodies above this are refused with 413 (uploads have their own, larger limit). */
const LIMITE_CORPO_JSON = 1024 * 1024;

/** The logger's options with errors written without their query's parameters (saude/erroNoLog.ts). */
function semParametrosNoLog(logger: OpcoesApp['logger']): FastifyServerOptions['logger'] {
  if (!logger) return false;
  const opcoes = logger === true ? {} : logger;
  return { ...opcoes, serializers: { ...opcoes.serializers, err: (erro: Error) => erroSemParametros(erro) as { type: string; message: string; stack: string } } };
}

export async function criarApp(opcoes: OpcoesApp): Promise<App> {
  const { config, db } = opcoes;
  const app = Fastify({
    logger: semParametrosNoLog(opcoes.logger),
    // TRUST_PROXY means a reverse proxy on this machine: only loopback hops are trusted, so the client
    // is the address that proxy appended to X-Forwarded-For. Trusting every hop would let a client pick
    // its own address (and dodge the login limit) with a forged X-Forwarded-For the proxy passes along.
    trustProxy: config.trustProxy ? 'loopback' : false,
    bodyLimit: LIMITE_CORPO_JSON,
    // Clients on bad mobile links: give up on a silent connection rather than hold it forever.
    requestTimeout: 60_000,
    // A bad '%XX' in the path: the same pt-BR `{ error, codigo }` as every refusal (plugins/erros.ts).
    frameworkErrors: responderErroDeFramework,
  }).withTypeProvider<ZodTypeProvider>() as App;
  const aoRegistrarRota = opcoes.aoRegistrarRota;
  if (aoRegistrarRota) app.addHook('onRoute', (rota) => aoRegistrarRota({ method: rota.method, url: rota.url }));

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('db', db);
  app.decorate('config', config);

  // The API speaks JSON (and multipart for uploads): Fastify's built-in text/plain parser would hand a
  // string to a JSON route, refused as a vague 400 instead of 415 'Tipo de conteúdo não suportado.'.
  app.removeContentTypeParser('text/plain');

  // A JSON content type with an empty body (e.g. PATCH /usuarios/1/ativar) means "no body", not an error.
  const parserJsonPadrao = app.getDefaultJsonParser('error', 'ignore');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, corpo, feito) => {
    if (typeof corpo === 'string' && corpo.trim() === '') return feito(null, undefined);
    // Whether the text could carry U+0000 at all (plugins/caractereNulo.ts skips the parsed body's walk if not).
    anotarTextoJson(request, corpo as string);
    return parserJsonPadrao(request, corpo as string, feito);
  });

  await app.register(errosPlugin);
  // Receipt files: DATA_DIR/uploads, or the S3 bucket when S3_* are set.
  await app.register(armazenamentoPlugin);
  await app.register(cabecalhosPlugin, {
    contentSecurityPolicy: {
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        // React sets style attributes; no inline <style> or script is served.
        'style-src': ["'self'", "'unsafe-inline'"],
        // Receipt previews are blob: URLs built from IndexedDB while offline.
        'img-src': ["'self'", 'data:', 'blob:'],
        'media-src': ["'self'"],
        'font-src': ["'self'", 'data:'],
        'connect-src': ["'self'"],
        // Only the service worker (/sw.js): the image compressor runs on the page, no blob: workers.
        'worker-src': ["'self'"],
        // The receipt viewer shows PDFs in an <iframe>: the server's URL, or a blob: of one still on the device.
        'frame-src': ["'self'", 'blob:'],
        // No <object>/<embed> anywhere: plugins stay off.
        'object-src': ["'none'"],
        'manifest-src': ["'self'"],
        // HTTPS is the reverse proxy's job; upgrading here would break plain-HTTP loopback use.
        'upgrade-insecure-requests': null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  await app.register(rateLimit, { global: false });
  await app.register(authPlugin, { segredo: opcoes.segredoJwt, ttlSegundos: config.jwtTtlSegundos });
  // Writes authenticated only by the cookie must come from this app's own pages.
  await app.register(origemPlugin, { confiarNoProxy: config.trustProxy });
  // Text with U+0000 refused alike on both engines (PostgreSQL cannot store it).
  await app.register(caractereNuloPlugin);
  // Per-user limit on every authenticated route: keyed on the signed-in user, not the address
  // (an office behind one NAT is many people; one person on many networks is one). preValidation runs
  // after the routes' onRequest authentication and before the read cache, so cached reads count too.
  // Unauthenticated requests (login, health, config, the PWA) are not counted here.
  app.addHook(
    'preValidation',
    app.rateLimit({
      max: config.limiteRequisicoesPorMinuto,
      timeWindow: 60_000,
      keyGenerator: (request) => `usuario:${request.usuario?.id ?? 0}`,
      allowList: (request) => !request.usuario,
      errorResponseBuilder: (_request, contexto) =>
        muitasTentativas(`Muitas requisições em pouco tempo. Aguarde ${Math.max(1, Math.ceil(contexto.ttl / 1000))} segundos e tente novamente.`),
    }),
  );
  // One user's parallel requests run a few at a time, so their synchronous reads never hold everyone else.
  await app.register(vezPorUsuario, { emAndamento: config.requisicoesSimultaneasPorUsuario });
  if (opcoes.cacheDeLeituras !== false) await app.register(cacheLeituras, { db, fuso: config.appTz });
  // Phones' queue reports and the minimum app version for queued writes (after auth, before the cache).
  await app.register(dispositivosPlugin);

  // What the server stands on (database, disk, storage, continuous copy): 200, or 503 naming what fails. The copy
  // failing is also why batches are refused with 503 meanwhile (sync/rotas.ts).
  const estadoDaCopiaNoProcesso: EstadoDaCopiaContinua = () => {
    const falha = falhaDaCopiaContinua();
    return falha ? { ok: false, erro: falha } : { ok: true };
  };
  await app.register(rotasSaude, { prefix: '/api', copiaContinua: opcoes.copiaContinua ?? (config.copia ? estadoDaCopiaNoProcesso : undefined) });

  // Made once per UTC day (a few ms of Intl), not per request.
  let tabelaDoFuso: TabelaDoFuso | null = null;
  const tabelaDoFusoDeHoje = (): TabelaDoFuso => {
    const agora = Date.now();
    const meio = tabelaDoFuso ? (tabelaDoFuso.de + tabelaDoFuso.ate) / 2 : NaN;
    if (!tabelaDoFuso || Math.abs(agora - meio) >= 86_400_000) tabelaDoFuso = tabelaAoRedor(config.appTz, agora);
    return tabelaDoFuso;
  };

  app.get(
    '/api/config',
    {
      schema: {
        response: {
          200: z.object({
            centro_nome: z.string(),
            app_tz: z.string(),
            fuso_tabela: z.object({ fuso: z.string(), de: z.number(), ate: z.number(), trechos: z.array(z.tuple([z.number(), z.number()])) }),
            versao: z.string(),
            versao_minima_app: z.string(),
          }),
        },
      },
    },
    // versao_minima_app: a phone paused by a 426 asks here whether it may send again.
    // fuso_tabela: APP_TZ's offsets around today from this server's time-zone data, so the phone writes
    // dates without starting ICU (shared/fusos.ts).
    async () => ({
      centro_nome: config.centroNome,
      app_tz: config.appTz,
      fuso_tabela: tabelaDoFusoDeHoje(),
      versao: opcoes.versao ?? 'dev',
      versao_minima_app: config.versaoMinimaApp,
    }),
  );

  await app.register(rotasAuth, { prefix: '/api/auth' });
  await app.register(rotasUsuarios, { prefix: '/api/usuarios' });
  await app.register(rotasCidades, { prefix: '/api' });
  await app.register(rotasRotas, { prefix: '/api/rotas' });
  await app.register(rotasAcerto, { prefix: '/api/rotas' });
  await app.register(rotasTardias, { prefix: '/api/rotas' });
  await app.register(rotasRelatorios, { prefix: '/api/relatorios' });
  await app.register(rotasVendas, { prefix: '/api/vendas' });
  await app.register(rotasSync, { prefix: '/api/sync' });
  await app.register(rotasDispositivos, { prefix: '/api/dispositivos' });
  // The admin's import of an 'Exportar pendências' file: its own scope (admin only, larger upload).
  await app.register(rotasImportacao, { prefix: '/api/sync' });
  await app.register(rotasDespesas, { prefix: '/api/despesas' });
  await app.register(rotasSaldo, { prefix: '/api/saldo' });
  await app.register(rotasAuditoria, { prefix: '/api/auditoria' });
  await app.register(rotasExportarAuditoria, { prefix: '/api/auditoria' });
  // The accountant's ZIP of a period (expenses, sales, summary, receipts), streamed.
  await app.register(rotasExportacoes, { prefix: '/api/exportacoes' });

  const pastaCliente = opcoes.pastaCliente;
  const temCliente = !!pastaCliente && fs.existsSync(path.join(pastaCliente, 'index.html'));
  if (temCliente) {
    await app.register(fastifyStatic, {
      root: pastaCliente,
      wildcard: false,
      index: false,
      cacheControl: false,
      // The build writes a .br and a .gz next to each text file (scripts/comprimir.ts); the
      // copy the browser accepts goes out with Content-Encoding, its own Content-Length and
      // Vary: Accept-Encoding, the original's Content-Type; no copy accepted (or none written): the original.
      preCompressed: true,
      // Those copies are not addresses of their own (only ever sent as an encoding of the original).
      globIgnore: ['**/*.br', '**/*.gz'],
      // Source maps stay on disk for whoever runs the server, not on the web (they are the whole client source).
      allowedPath: (caminho) => !ehMapaDeCodigo(caminho),
      setHeaders(reply, caminho) {
        // Hashed build assets never change; the shell and the service worker must be revalidated.
        const imutavel = caminho.includes(`${path.sep}assets${path.sep}`);
        reply.header('Cache-Control', imutavel ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const caminho = request.url.split('?')[0]!;
    if (temCliente && (request.method === 'GET' || request.method === 'HEAD') && !caminho.startsWith('/api/') && caminho !== '/api' && !ehMapaDeCodigo(caminho)) {
      // Client-side routes (/dashboard, /vendas, ...) all load the app shell.
      return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
    }
    throw naoEncontrado('Recurso não encontrado.');
  });

  return app;
}
