/**
 * At most EXPORTACOES_EM_FLUXO streamed exports at once in a server (the accountant's ZIP, a list's
 * whole CSV): each holds a response open for as long as the client takes the bytes, and reads the
 * database page after page meanwhile. The ones beyond get 503 with Retry-After, never a queue without
 * bound (the same rule as the reports' exports, relatorios/foraDaThread.ts).
 */
import type { FastifyReply } from 'fastify';
import { ErroApp } from '../errors';
import { LimiteDeExportacoes } from '../relatorios/foraDaThread';
import type { App } from '../tipos';

export const EXPORTACOES_EM_FLUXO = 2;
export const MENSAGEM_EXPORTACOES_EM_FLUXO = `Já há ${EXPORTACOES_EM_FLUXO} exportações em andamento. Tente novamente em alguns segundos.`;

const limites = new WeakMap<App, LimiteDeExportacoes>();

/** Takes a slot for this response (given back when it ends, however it ends), or throws the 503. */
export function ocuparVaga(app: App, reply: FastifyReply): void {
  let limite = limites.get(app);
  if (!limite) limites.set(app, (limite = new LimiteDeExportacoes(EXPORTACOES_EM_FLUXO)));
  const liberar = limite.ocupar();
  if (!liberar) {
    void reply.header('Retry-After', '5');
    throw new ErroApp(503, 'indisponivel', MENSAGEM_EXPORTACOES_EM_FLUXO);
  }
  reply.raw.once('finish', liberar);
  reply.raw.once('close', liberar);
}
