/**
 * The login limit per address, counted in the database so every app process counts the same
 * attempts (the two-process proof is server/test/multiprocesso/doisProcessos.test.ts).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { carimboDoBanco, linha } from '../db';
import { criarAppDeTeste, type AppDeTeste } from '../../test/helper';
import { contarTentativaDeLogin, esquecerJanelasVencidas, tentativasNaJanela } from './limiteLogin';

let t: AppDeTeste;
beforeAll(async () => {
  t = await criarAppDeTeste({ env: { LOGIN_RATE_LIMIT: '3', TRUST_PROXY: 'true' }, cidades: false });
});
afterAll(() => t.fechar());

const login = (endereco: string) =>
  t.chamar({ method: 'POST', url: '/api/auth/login', remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': endereco }, payload: { email: 'ninguem@teste.com.br', senha: 'errada-1' } });

describe('limite de login por endereço', () => {
  it('conta no banco; no limite recusa sem escrever nada (uma enxurrada de logins não vira uma enxurrada de escritas)', async () => {
    for (let i = 0; i < 3; i++) expect((await login('203.0.113.50')).statusCode).toBe(401);
    expect(await tentativasNaJanela(t.db, '203.0.113.50', 60_000)).toMatchObject({ tentativas: 3 });
    const antes = await carimboDoBanco(t.db);
    const recusada = await login('203.0.113.50');
    expect(recusada.statusCode).toBe(429);
    expect(await carimboDoBanco(t.db)).toBe(antes);
    expect(await tentativasNaJanela(t.db, '203.0.113.50', 60_000)).toMatchObject({ tentativas: 3 });
  });

  it('a janela acaba: a próxima tentativa começa de um; janelas vencidas são esquecidas', async () => {
    const agora = 1_000_000_000_000;
    expect(await contarTentativaDeLogin(t.db, '198.51.100.9', 60_000, agora)).toEqual({ tentativas: 1, restamMs: 60_000 });
    expect(await contarTentativaDeLogin(t.db, '198.51.100.9', 60_000, agora + 59_000)).toEqual({ tentativas: 2, restamMs: 1_000 });
    expect(await contarTentativaDeLogin(t.db, '198.51.100.9', 60_000, agora + 60_000)).toEqual({ tentativas: 1, restamMs: 60_000 });
    expect(await tentativasNaJanela(t.db, '198.51.100.9', 60_000, agora + 120_000)).toBeNull();
    expect(await esquecerJanelasVencidas(t.db, 60_000, agora + 120_000)).toBeGreaterThanOrEqual(1);
    expect(await linha(t.db, sql`select count(*) as n from tentativas_login_endereco where endereco = '198.51.100.9'`)).toEqual({ n: 0 });
  });
});
