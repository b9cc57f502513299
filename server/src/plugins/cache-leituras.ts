/**
 * Answers of heavy reads (dashboards, reports, the day's closing) kept ready, for routes that opt in
 * with `config: { emCache: true }`. An answer is reused only while nothing in the database changed
 * (carimboDoBanco), for the same user, route, parameters and business day, so it is never stale: the same request
 * would compute the same bytes. Authentication and role checks still run on every request (onRequest);
 * only the handler and the serialization are skipped. Large answers are also kept gzipped (compressed
 * once, not per request) and sent that way to clients that accept it: the admin's daily closing is
 * a quarter of a megabyte of JSON and a tenth of that compressed.
 */
import { gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hoje } from '../../../shared/dates';
import { carimboDoBanco, type Db } from '../db';

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

interface Guardada {
  carimbo: string;
  corpo: string;
  /** The same bytes gzipped, for answers worth compressing. */
  gzip: Buffer | null;
  bytes: number;
}

/** Answers below this go as they are: compressing them saves less than the header costs. */
const MINIMO_PARA_COMPRIMIR = 1024;

/** Whether the client takes gzip (`Accept-Encoding: gzip, deflate, br`; `gzip;q=0` refuses it). */
export function aceitaGzip(cabecalho: string | string[] | undefined): boolean {
  if (typeof cabecalho !== 'string') return false;
  for (const parte of cabecalho.split(',')) {
    const [nome, ...parametros] = parte.trim().split(';');
    if (nome?.trim().toLowerCase() !== 'gzip' && nome?.trim() !== '*') continue;
    const q = parametros.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return !q || Number(q.slice(2)) > 0;
  }
  return false;
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
 * `?x=1` or a cache-busting `?_=123` reach the same answer (issue 18: any extra parameter used to skip
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

  app.addHook('preHandler', (request, reply, feito) => {
    if (request.method !== 'GET' || !request.routeOptions.config.emCache) return feito();
    const chave = `${request.usuario?.id ?? 0}|${diaAtual()}|${chaveDaConsulta(request)}`;
    const carimbo = carimboDoBanco(db);
    const g = guardadas.get(chave);
    if (g && g.carimbo === carimbo) {
      // Most recently used goes last: eviction takes from the front.
      guardadas.delete(chave);
      guardadas.set(chave, g);
      reply.type('application/json; charset=utf-8').header('vary', 'accept-encoding');
      if (g.gzip && aceitaGzip(request.headers['accept-encoding'])) reply.header('content-encoding', 'gzip').send(g.gzip);
      else reply.send(g.corpo);
      return;
    }
    if (g) remover(chave);
    (request as ComGuardar)[GUARDAR] = { chave, carimbo };
    feito();
  });

  app.addHook('onSend', (request, reply, payload, feito) => {
    const guardar = (request as ComGuardar)[GUARDAR];
    if (!guardar || reply.statusCode !== 200 || typeof payload !== 'string') return feito(null, payload);
    const gzip = payload.length >= MINIMO_PARA_COMPRIMIR ? gzipSync(payload) : null;
    const tamanho = payload.length * 2 + (gzip?.length ?? 0);
    if (tamanho <= maximoBytes / 8) {
      guardadas.set(guardar.chave, { carimbo: guardar.carimbo, corpo: payload, gzip, bytes: tamanho });
      bytes += tamanho;
      for (const chave of guardadas.keys()) {
        if (bytes <= maximoBytes) break;
        remover(chave);
      }
    }
    reply.header('vary', 'accept-encoding');
    if (gzip && aceitaGzip(request.headers['accept-encoding'])) {
      reply.header('content-encoding', 'gzip');
      return feito(null, gzip);
    }
    feito(null, payload);
  });
}

export default fp(cacheLeituras, { name: 'cache-de-leituras' });
