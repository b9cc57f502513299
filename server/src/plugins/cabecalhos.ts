/**
 * Security headers (helmet) on every answer. @fastify/helmet builds helmet's middleware again on each
 * request (parsing the whole Content-Security-Policy every time, a sixth of an API request's cost);
 * built once here, each answer costs only the header writes.
 *
 * Strict-Transport-Security only on answers to requests that came over HTTPS (request.protocol: the
 * socket, or with TRUST_PROXY the X-Forwarded-Proto of the proxy on this machine). Over plain HTTP
 * the header is meaningless, and pins HTTPS on a name that may have none (a LAN install, loopback).
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

async function cabecalhos(app: FastifyInstance, opcoes: HelmetOptions) {
  const comHsts = helmet(opcoes);
  // The options never set HSTS themselves (app.ts): helmet's default applies to HTTPS, and is turned off here.
  const semHsts = helmet({ ...opcoes, strictTransportSecurity: false } as HelmetOptions);
  app.addHook('onRequest', (request, reply, feito) => {
    const aplicar = request.protocol === 'https' ? comHsts : semHsts;
    aplicar(request.raw, reply.raw, (erro?: unknown) => feito(erro as Error | undefined));
  });
}

export default fp(cabecalhos, { name: 'cabecalhos-de-seguranca' });
