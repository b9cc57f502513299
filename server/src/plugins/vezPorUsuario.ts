/**
 * At most `emAndamento` requests of one signed-in user run at once; the next ones wait in line, in
 * order, and beyond `filaMaxima` waiting they get 429.
 *
 * Why: SQLite reads are synchronous, so while a request reads a page the whole process waits. Twelve
 * parallel reads of one admin used to queue the health check (and everyone else) behind all twelve;
 * in line, one user's flood holds the process for at most two reads at a time, and other users'
 * requests are served between them. The per-minute limit (app.ts) does not help here: twelve slow
 * reads stay far below it. A phone sends one sync batch at a time and an admin screen a handful of
 * reads, so the line is invisible in normal use.
 */
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { muitasTentativas } from '../errors';
import type { App } from '../tipos';

export interface OpcoesVez {
  emAndamento: number;
  filaMaxima: number;
}

export const VEZ_PADRAO: OpcoesVez = { emAndamento: 2, filaMaxima: 50 };

export const MENSAGEM_FILA_CHEIA = 'Muitas requisições ao mesmo tempo. Aguarde alguns segundos e tente novamente.';

interface VezDoUsuario {
  emAndamento: number;
  fila: Array<() => void>;
}

const OCUPA = Symbol('ocupaVez');
type ComVez = FastifyRequest & { [OCUPA]?: number };

async function vezPorUsuario(app: App, opcoes: Partial<OpcoesVez>) {
  const { emAndamento, filaMaxima } = { ...VEZ_PADRAO, ...opcoes };
  const usuarios = new Map<number, VezDoUsuario>();

  function liberar(request: ComVez) {
    const id = request[OCUPA];
    if (id === undefined) return;
    delete request[OCUPA];
    const vez = usuarios.get(id);
    if (!vez) return;
    const proxima = vez.fila.shift();
    // The slot passes straight to the next in line: nobody arriving meanwhile can jump ahead.
    if (proxima) proxima();
    else if (--vez.emAndamento === 0) usuarios.delete(id);
  }

  // preValidation: after the routes' onRequest authentication (request.usuario is known), before the read cache.
  app.addHook('preValidation', async (request: ComVez, reply) => {
    const id = request.usuario?.id;
    if (!id || request[OCUPA] !== undefined) return;
    let vez = usuarios.get(id);
    if (!vez) {
      vez = { emAndamento: 0, fila: [] };
      usuarios.set(id, vez);
    }
    if (vez.emAndamento < emAndamento) {
      vez.emAndamento += 1;
    } else {
      if (vez.fila.length >= filaMaxima) {
        reply.header('Retry-After', '5');
        throw muitasTentativas(MENSAGEM_FILA_CHEIA);
      }
      await new Promise<void>((resolve) => vez.fila.push(resolve));
    }
    request[OCUPA] = id;
    // The slot is given back however the request ends: answered (onResponse), or the connection
    // closed first (the response's 'close' fires for both; liberar runs once).
    reply.raw.once('close', () => liberar(request));
    // A client that gave up while waiting in line: give the slot on at once instead of doing its work.
    if (request.raw.destroyed) liberar(request);
  });
  app.addHook('onResponse', async (request: ComVez) => liberar(request));
}

export default fp(vezPorUsuario, { name: 'vez-por-usuario' });
