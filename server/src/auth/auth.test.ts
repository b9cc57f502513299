import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, criarAppDeTeste, type AppDeTeste } from '../../test/helper';

let t: AppDeTeste;
beforeAll(async () => {
  t = await criarAppDeTeste();
});
afterAll(() => t.fechar());

describe('POST /api/auth/login', () => {
  it('devolve token, usuário sem senha e o cookie httpOnly', async () => {
    const r = await t.chamar({ method: 'POST', url: '/api/auth/login', payload: { email: ADMIN.email, senha: ADMIN.senha } });
    expect(r.statusCode).toBe(200);
    const corpo = r.json();
    expect(corpo.token).toMatch(/^ey/);
    expect(corpo.usuario).toMatchObject({ email: ADMIN.email, tipo: 'admin', ativo: true, bloqueado: false });
    expect(JSON.stringify(corpo)).not.toMatch(/senha|hash/i);
    const cookie = String(r.headers['set-cookie']);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
  });
});
