/**
 * Authenticated routes are limited per user (not per address): one user's flood is
 * refused with 429, a pt-BR message that says how long to wait and Retry-After, while another
 * user on the same address, and /api/health, go on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { criarAppDeTeste, esperarRecusa, type AppDeTeste } from '../test/helper';

const LIMITE = 12;
let t: AppDeTeste;
let ana: { token: string };
let beto: { token: string };

beforeAll(async () => {
  t = await criarAppDeTeste({ env: { LIMITE_REQUISICOES_POR_MINUTO: String(LIMITE) } });
  ana = await t.criarFuncionario({ nome: 'Ana Limite' });
  beto = await t.criarFuncionario({ nome: 'Beto Limite' });
});
afterAll(() => t.fechar());

describe('limite de requisições por usuário', () => {
  it(`depois de ${LIMITE} requisições no minuto o mesmo usuário recebe 429 com quanto esperar; outro usuário não é afetado`, async () => {
    for (let i = 0; i < LIMITE; i++) {
      const r = await t.chamar({ method: 'GET', url: '/api/rotas', token: ana.token });
      expect(r.statusCode, `requisição ${i + 1}`).toBe(200);
    }
    const recusada = await t.chamar({ method: 'GET', url: '/api/rotas', token: ana.token });
    esperarRecusa(recusada, 429, 'muitas_tentativas');
    const segundos = Number(recusada.headers['retry-after']);
    expect(segundos).toBeGreaterThan(0);
    expect(segundos).toBeLessThanOrEqual(60);
    expect(recusada.json().error).toBe(`Muitas requisições em pouco tempo. Aguarde ${segundos} segundos e tente novamente.`);
    // Any authenticated route counts, cached reads too.
    expect((await t.chamar({ method: 'GET', url: '/api/vendas/fechamento-diario', token: ana.token })).statusCode).toBe(429);

    // Same address (inject), another user: unaffected. Health and login are not authenticated routes.
    expect((await t.chamar({ method: 'GET', url: '/api/rotas', token: beto.token })).statusCode).toBe(200);
    expect((await t.chamar({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });

  it('uma requisição sem sessão continua sendo 401, não 429', async () => {
    esperarRecusa(await t.chamar({ method: 'GET', url: '/api/rotas' }), 401, 'nao_autenticado');
  });
});
