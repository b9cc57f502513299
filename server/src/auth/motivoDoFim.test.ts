/**
 * A refused session says why it ended, so the phone's login screen can tell the person: ended by an
 * admin ('Encerrar sessões', one device's session, a password the admin set), the account deactivated,
 * or ended by the person's own password change elsewhere (no admin to name).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { criarAppDeTeste, type AppDeTeste } from '../../test/helper';

let t: AppDeTeste;
beforeAll(async () => {
  t = await criarAppDeTeste();
});
afterAll(() => t.fechar());

async function recusaDe(token: string) {
  const r = await t.chamar({ method: 'GET', url: '/api/auth/me', token });
  expect(r.statusCode).toBe(401);
  return r.json() as { error: string; codigo: string };
}

describe('o motivo de uma sessão recusada', () => {
  it("o admin encerrou as sessões: 'Sua sessão foi encerrada pelo administrador.'", async () => {
    const f = await t.criarFuncionario({ email: 'encerrada@escola.com.br' });
    const r = await t.chamar({ method: 'POST', url: `/api/usuarios/${f.id}/encerrar-sessoes`, token: await t.tokenAdmin() });
    expect(r.statusCode).toBe(200);
    expect(await recusaDe(f.token)).toEqual({ error: 'Sua sessão foi encerrada pelo administrador.', codigo: 'sessao_invalida' });
  });

  it('o admin trocou a senha: também foi o administrador', async () => {
    const f = await t.criarFuncionario({ email: 'senha-admin@escola.com.br' });
    const r = await t.chamar({ method: 'PATCH', url: `/api/usuarios/${f.id}/senha`, token: await t.tokenAdmin(), payload: { novaSenha: 'outra-senha-1' } });
    expect(r.statusCode).toBe(200);
    expect((await recusaDe(f.token)).error).toBe('Sua sessão foi encerrada pelo administrador.');
  });

  it('desativado: o motivo é a desativação', async () => {
    const f = await t.criarFuncionario({ email: 'inativo@escola.com.br' });
    const r = await t.chamar({ method: 'PATCH', url: `/api/usuarios/${f.id}`, token: await t.tokenAdmin(), payload: { ativo: false } });
    expect(r.statusCode).toBe(200);
    expect(await recusaDe(f.token)).toEqual({ error: 'Usuário inativo. Procure um administrador.', codigo: 'sessao_invalida' });
  });

  it('a própria pessoa trocou a senha em outro aparelho: não culpa o administrador', async () => {
    const f = await t.criarFuncionario({ email: 'propria@escola.com.br', senha: 'senha-antiga' });
    const outro = await t.login(f.email, 'senha-antiga');
    const r = await t.chamar({ method: 'PUT', url: '/api/auth/senha', token: outro, payload: { senhaAtual: 'senha-antiga', novaSenha: 'senha-nova-1' } });
    expect(r.statusCode).toBe(200);
    expect((await recusaDe(f.token)).error).toBe('Sessão encerrada. Faça login novamente.');
  });
});
