/**
 * One user's parallel requests run at most two at a time, the rest wait in line
 * and run in order, a full line is refused with 429, and other users (and unauthenticated routes
 * such as the health check) are never held behind them.
 */
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import errosPlugin from './erros';
import vezPorUsuario, { MENSAGEM_FILA_CHEIA } from './vezPorUsuario';
import type { App } from '../tipos';

/** A route whose requests stay in flight until the test lets each one go. */
async function montar() {
  const app = Fastify() as unknown as App;
  await app.register(errosPlugin);
  app.decorateRequest('usuario', null as unknown as App['usuario' & keyof App]);
  app.addHook('onRequest', async (request) => {
    const id = Number(request.headers['x-usuario']);
    if (id) (request as { usuario: unknown }).usuario = { id, nome: '', email: '', tipo: 'admin' };
  });
  await app.register(vezPorUsuario, { emAndamento: 2, filaMaxima: 2 });
  const dentro: string[] = [];
  const soltar = new Map<string, () => void>();
  app.get('/lento/:nome', async (request) => {
    const { nome } = request.params as { nome: string };
    dentro.push(nome);
    await new Promise<void>((resolve) => soltar.set(nome, resolve));
    return { nome };
  });
  app.get('/saude', async () => ({ ok: true }));
  await app.ready();
  const pedir = (nome: string, usuario?: number) =>
    app.inject({ method: 'GET', url: `/lento/${nome}`, headers: usuario ? { 'x-usuario': String(usuario) } : {} });
  /** Waits (by state, not by clock) until the handler has started for these names. */
  const esperarDentro = async (...nomes: string[]) => {
    for (let i = 0; i < 10_000 && !nomes.every((n) => dentro.includes(n)); i++) await new Promise((r) => setImmediate(r));
    expect(dentro).toEqual(expect.arrayContaining(nomes));
  };
  /** Lets the event loop turn enough for anything runnable to have started. */
  const girar = async () => {
    for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
  };
  return { app, dentro, soltar: (nome: string) => soltar.get(nome)!(), pedir, esperarDentro, girar };
}

let fechar: (() => Promise<void>) | undefined;
afterEach(async () => {
  await fechar?.();
  fechar = undefined;
});

describe('vez por usuário', () => {
  it('a terceira requisição do mesmo usuário espera; outro usuário e rotas sem sessão passam na frente', async () => {
    const t = await montar();
    fechar = () => t.app.close();
    const a1 = t.pedir('a1', 1);
    const a2 = t.pedir('a2', 1);
    const a3 = t.pedir('a3', 1);
    await t.esperarDentro('a1', 'a2');
    await t.girar();
    expect(t.dentro).not.toContain('a3');

    // Another user is not held behind the first one's line, nor is a route without a session.
    const b1 = t.pedir('b1', 2);
    await t.esperarDentro('b1');
    expect((await t.app.inject({ method: 'GET', url: '/saude' })).statusCode).toBe(200);
    expect(t.dentro).not.toContain('a3');

    // When one of the first two ends, the one in line runs.
    t.soltar('a1');
    expect((await a1).statusCode).toBe(200);
    await t.esperarDentro('a3');
    for (const nome of ['a2', 'a3', 'b1']) t.soltar(nome);
    expect((await a2).json()).toEqual({ nome: 'a2' });
    expect((await a3).json()).toEqual({ nome: 'a3' });
    expect((await b1).statusCode).toBe(200);
  });

  it('a fila cheia recebe 429 com mensagem em português; as que esperavam rodam em ordem', async () => {
    const t = await montar();
    fechar = () => t.app.close();
    const emVoo = ['x1', 'x2', 'x3', 'x4'].map((n) => t.pedir(n, 7));
    await t.esperarDentro('x1', 'x2');
    const recusada = await t.pedir('x5', 7);
    expect(recusada.statusCode).toBe(429);
    expect(recusada.json()).toMatchObject({ error: MENSAGEM_FILA_CHEIA });
    expect(recusada.headers['retry-after']).toBe('5');

    t.soltar('x1');
    await t.esperarDentro('x3');
    await t.girar();
    expect(t.dentro).toEqual(['x1', 'x2', 'x3']);
    t.soltar('x2');
    await t.esperarDentro('x4');
    t.soltar('x3');
    t.soltar('x4');
    expect((await Promise.all(emVoo)).map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);

    // Everything given back: two new requests run at once again.
    const novas = [t.pedir('y1', 7), t.pedir('y2', 7)];
    await t.esperarDentro('y1', 'y2');
    t.soltar('y1');
    t.soltar('y2');
    await Promise.all(novas);
  });
});
