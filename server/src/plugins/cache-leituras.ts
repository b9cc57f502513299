/**
 * Answers of heavy reads (dashboards, reports, the day's closing) kept ready, for routes that opt in
 * with `config: { emCache: true }`. An answer is reused only while nothing in the database changed
 * (carimboDoBanco), for the same user, route, parameters and business day, so it is never stale: the same request
 * would compute the same bytes. Authentication and role checks still run on every request (onRequest);
 * only the handler and the serialization are skipped. Large answers are also kept compressed (brotli
 * and gzip, each made once at its first request, never per request) and sent in the encoding the
 * client prefers: a page of the admin's expenses is 13 KB of JSON and 1.5 KB in brotli.
 * Every kept answer carries a weak ETag (a hash of its JSON): a client that sends it back in
 * If-None-Match gets 304 with no body.
 */
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hoje } from '../../../shared/dates';
import { carimboDaRequisicao, type Db } from '../db';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The GET's 200 answer may be reused until the data changes (see plugins/cache-leituras.ts). */
    emCache?: boolean;
  }
}

export interface OpcoesCacheLeituras {
  db: Db;
  fuso: string;
  /** Upper bound of the cached bytes; the oldest answers leave first. */
  maximoBytes?: number;
}

type Codificacao = 'br' | 'gzip';

interface Guardada {
  carimbo: string;
  corpo: string;
  etag: string;
  /** The same bytes compressed, made at the first request that takes each encoding (answers worth compressing only). */
  br?: Buffer;
  gzip?: Buffer;
  bytes: number;
}

/** Answers below this go as they are: compressing them saves less than the header costs. */
const MINIMO_PARA_COMPRIMIR = 1024;

/**
 * The encoding to send, by the client's Accept-Encoding: brotli when it takes it at least as gladly
 * as gzip (browsers send 'gzip, deflate, br, zstd': brotli is ~20% smaller), else gzip, else none.
 */
export function codificacaoPreferida(cabecalho: string | string[] | undefined): Codificacao | null {
  if (typeof cabecalho !== 'string') return null;
  const pesos: Record<string, number> = {};
  for (const parte of cabecalho.split(',')) {
    const [nome, ...parametros] = parte.trim().split(';');
    const q = parametros.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const peso = q ? Number(q.slice(2)) : 1;
    pesos[nome!.trim().toLowerCase()] = Number.isFinite(peso) ? peso : 0;
  }
  const peso = (c: Codificacao) => pesos[c] ?? pesos['*'] ?? 0;
  if (peso('br') > 0 && peso('br') >= peso('gzip')) return 'br';
  return peso('gzip') > 0 ? 'gzip' : null;
}

function comprimir(corpo: string, codificacao: Codificacao): Buffer {
  // Brotli at quality 5: ~1 ms for 50 KB of JSON and smaller than gzip -9; 11 (the default) costs 30x more.
  if (codificacao === 'br') return brotliCompressSync(corpo, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(corpo) } });
  return gzipSync(corpo);
}

/** A weak validator of the JSON's bytes: equal texts, equal tags (whoever asked). */
function etagDe(corpo: string): string {
  return `W/"${createHash('sha1').update(corpo).digest('base64url')}"`;
}

/** Whether If-None-Match names this tag (weak comparison, as RFC 9110 asks for If-None-Match). */
function naoMudou(cabecalho: string | string[] | undefined, etag: string): boolean {
  if (typeof cabecalho !== 'string') return false;
  const semW = (t: string) => t.trim().replace(/^W\//, '');
  return cabecalho.split(',').some((t) => t.trim() === '*' || semW(t) === semW(etag));
}

/** JSON with object keys sorted, so `{a, b}` and `{b, a}` are the same text. */
function normalizado(valor: unknown): string {
  return JSON.stringify(valor, (_chave, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

/**
 * What identifies a read: the route, its path parameters and its query as the route's schema parsed
 * it (preHandler runs after validation). Parameters the schema does not know were dropped by it, so
 * `?x=1` or a cache-busting `?_=123` reach the same answer (any extra parameter used to skip
 * the cache, and a client could make every read a miss); so do `rota_id=03` and another order. A
 * route without a query schema keys on its raw query, sorted.
 */
export function chaveDaConsulta(request: FastifyRequest): string {
  return `${request.routeOptions.url ?? request.url.split('?')[0]}|${normalizado(request.params ?? {})}|${normalizado(request.query ?? {})}`;
}

const GUARDAR = Symbol('cacheLeituras.guardar');
type ComGuardar = FastifyRequest & { [GUARDAR]?: { chave: string; carimbo: string } };

async function cacheLeituras(app: FastifyInstance, { db, fuso, maximoBytes = 32 * 1024 * 1024 }: OpcoesCacheLeituras) {
  const guardadas = new Map<string, Guardada>();
  let bytes = 0;

  // Today's date in the business time zone, recomputed at most once a second (Intl is not free).
  let dia = hoje(fuso);
  let diaEm = Date.now();
  const diaAtual = () => {
    const agora = Date.now();
    if (agora - diaEm >= 1000) {
      dia = hoje(fuso);
      diaEm = agora;
    }
    return dia;
  };

  const remover = (chave: string) => {
    const g = guardadas.get(chave);
    if (!g) return;
    bytes -= g.bytes;
    guardadas.delete(chave);
  };

  /** A kept answer as this request takes it: 304 when the client has it, else compressed if it takes that. */
  const enviar = (request: FastifyRequest, reply: FastifyReply, g: Guardada) => {
    reply.header('vary', 'accept-encoding').header('etag', g.etag).header('cache-control', 'private, no-cache');
    if (naoMudou(request.headers['if-none-match'], g.etag)) return reply.code(304).send();
    reply.type('application/json; charset=utf-8');
    const codificacao = g.corpo.length >= MINIMO_PARA_COMPRIMIR ? codificacaoPreferida(request.headers['accept-encoding']) : null;
    if (!codificacao) return reply.send(g.corpo);
    let comprimido = g[codificacao];
    if (!comprimido) {
      comprimido = g[codificacao] = comprimir(g.corpo, codificacao);
      const chave = chaves.get(g);
      if (chave !== undefined && guardadas.get(chave) === g) {
        g.bytes += comprimido.length;
        bytes += comprimido.length;
      }
    }
    return reply.header('content-encoding', codificacao).send(comprimido);
  };
  /** The key each kept answer is under (its compressed copies count in the budget only while it is kept). */
  const chaves = new WeakMap<Guardada, string>();

  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'GET' || !request.routeOptions.config.emCache) return;
    const chave = `${request.usuario?.id ?? 0}|${diaAtual()}|${chaveDaConsulta(request)}`;
    const carimbo = await carimboDaRequisicao(db, request);
    const g = guardadas.get(chave);
    if (g && g.carimbo === carimbo) {
      // Most recently used goes last: eviction takes from the front.
      guardadas.delete(chave);
      guardadas.set(chave, g);
      enviar(request, reply, g);
      return reply;
    }
    if (g) remover(chave);
    (request as ComGuardar)[GUARDAR] = { chave, carimbo };
  });

  app.addHook('onSend', (request, reply, payload, feito) => {
    const guardar = (request as ComGuardar)[GUARDAR];
    if (!guardar || reply.statusCode !== 200 || typeof payload !== 'string') return feito(null, payload);
    const g: Guardada = { carimbo: guardar.carimbo, corpo: payload, etag: etagDe(payload), bytes: payload.length * 2 };
    if (g.bytes <= maximoBytes / 8) {
      guardadas.set(guardar.chave, g);
      chaves.set(g, guardar.chave);
      bytes += g.bytes;
    }
    // The first answer goes exactly as the kept ones will (same headers, same compressed bytes).
    reply.header('vary', 'accept-encoding').header('etag', g.etag).header('cache-control', 'private, no-cache');
    let enviado: string | Buffer = payload;
    if (naoMudou(request.headers['if-none-match'], g.etag)) {
      reply.code(304);
      enviado = '';
    } else {
      const codificacao = payload.length >= MINIMO_PARA_COMPRIMIR ? codificacaoPreferida(request.headers['accept-encoding']) : null;
      if (codificacao) {
        const comprimido = (g[codificacao] = comprimir(payload, codificacao));
        if (chaves.has(g)) {
          g.bytes += comprimido.length;
          bytes += comprimido.length;
        }
        reply.header('content-encoding', codificacao);
        enviado = comprimido;
      }
    }
    for (const chave of guardadas.keys()) {
      if (bytes <= maximoBytes) break;
      remover(chave);
    }
    feito(null, enviado);
  });
}

export default fp(cacheLeituras, { name: 'cache-de-leituras' });
