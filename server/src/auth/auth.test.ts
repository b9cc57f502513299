import { createHmac } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN, criarAppDeTeste, esperarRecusa, type AppDeTeste } from '../../test/helper';

// One answer for a wrong password, an unknown e-mail and a blocked account.
const CREDENCIAIS = 'Email ou senha inválidos. Após 5 tentativas erradas, o acesso fica bloqueado por 15 minutos.';
const INATIVO = 'Usuário inativo. Procure um administrador.';

let t: AppDeTeste;
beforeAll(async () => {
  t = await criarAppDeTeste();
});
afterAll(() => t.fechar());

const login = (email: unknown, senha: unknown) =>
  t.chamar({ method: 'POST', url: '/api/auth/login', payload: { email, senha } });
const me = (opcoes: { token?: string; cookie?: string } = {}) =>
  t.chamar({ method: 'GET', url: '/api/auth/me', token: opcoes.token, headers: opcoes.cookie ? { cookie: opcoes.cookie } : {} });

/** The user as the admin's user list shows it (attempts, blocked flag). */
async function comoAdminVe(id: number) {
  const r = await t.chamar({ method: 'GET', url: '/api/usuarios', token: await t.tokenAdmin() });
  expect(r.statusCode).toBe(200);
  return (r.json().usuarios as { id: number; tentativas_login: number; bloqueado: boolean; ativo: boolean }[]).find((u) => u.id === id)!;
}

function cookieDaSessao(r: LightMyRequestResponse) {
  return r.cookies.find((c) => c.name === 'token');
}

/** A compact JWT signed with HMAC-SHA256, built by hand so the server's own signer is not trusted. */
function jwtAssinado(payload: object, segredo: string, cabecalho: object = { alg: 'HS256', typ: 'JWT' }): string {
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const corpo = `${b64(cabecalho)}.${b64(payload)}`;
  return `${corpo}.${createHmac('sha256', segredo).update(corpo).digest('base64url')}`;
}
const agoraEmSegundos = () => Math.floor(Date.now() / 1000);

describe('POST /api/auth/login', () => {
  it('devolve token, usuário sem senha e o cookie httpOnly SameSite no caminho /api', async () => {
    const r = await login(ADMIN.email, ADMIN.senha);
    expect(r.statusCode).toBe(200);
    const corpo = r.json();
    expect(corpo.token).toMatch(/^ey[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(corpo.usuario).toMatchObject({ email: ADMIN.email, tipo: 'admin', ativo: true, bloqueado: false, tentativas_login: 0 });
    expect(Object.keys(corpo.usuario).sort()).toEqual(['ativo', 'bloqueado', 'bloqueado_ate', 'data_criacao', 'email', 'id', 'nome', 'tentativas_login', 'tipo']);
    expect(r.body).not.toMatch(/senha|hash|scrypt/i);
    expect(r.body).not.toContain(ADMIN.senha);
    const cookie = String(r.headers['set-cookie']);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    const c = cookieDaSessao(r)!;
    expect(c.value).toBe(corpo.token);
    expect(c.path).toBe('/api');
    expect(c.httpOnly).toBe(true);
    expect(c.maxAge).toBe(t.config.jwtTtlSegundos);
  });

  it('o token devolvido abre a sessão', async () => {
    const { token } = (await login(ADMIN.email, ADMIN.senha)).json();
    const r = await me({ token });
    expect(r.statusCode).toBe(200);
    expect(r.json().usuario.email).toBe(ADMIN.email);
  });

  it('aceita o email em maiúsculas e com espaços em volta', async () => {
    const r = await login(`  ${ADMIN.email.toUpperCase()} `, ADMIN.senha);
    expect(r.statusCode).toBe(200);
    expect(r.json().usuario.email).toBe(ADMIN.email);
  });

  it('senha errada: 401 com a mensagem genérica, sem cookie', async () => {
    const r = await login(ADMIN.email, 'senha-errada');
    esperarRecusa(r, 401, 'credenciais_invalidas', CREDENCIAIS);
    expect(r.headers['set-cookie']).toBeUndefined();
  });

  it('email desconhecido: 401 com a mesma mensagem (não revela quem existe)', async () => {
    esperarRecusa(await login('ninguem@teste.com.br', ADMIN.senha), 401, 'credenciais_invalidas', CREDENCIAIS);
  });

  it('a senha diferencia maiúsculas', async () => {
    esperarRecusa(await login(ADMIN.email, ADMIN.senha.toUpperCase()), 401, 'credenciais_invalidas', CREDENCIAIS);
  });

  it.each([
    ['sem email', { senha: 'x' }, 'Email é obrigatório.'],
    ['email em branco', { email: '   ', senha: 'x' }, 'Email é obrigatório.'],
    ['email sem @', { email: 'admin', senha: 'x' }, 'Email inválido.'],
    ['email numérico', { email: 42, senha: 'x' }, 'Email deve ser um texto.'],
    ['sem senha', { email: ADMIN.email }, 'Senha é obrigatória.'],
    ['senha vazia', { email: ADMIN.email, senha: '' }, 'Senha é obrigatória.'],
    ['senha numérica', { email: ADMIN.email, senha: 123456 }, 'Senha deve ser um texto.'],
  ])('%s: 400 com a mensagem em português', async (_caso, payload, mensagem) => {
    const r = await t.chamar({ method: 'POST', url: '/api/auth/login', payload });
    esperarRecusa(r, 400, 'dados_invalidos', mensagem);
  });

  it('corpo ausente ou que não é objeto: 400', async () => {
    esperarRecusa(await t.chamar({ method: 'POST', url: '/api/auth/login' }), 400, 'dados_invalidos');
    esperarRecusa(
      await t.chamar({ method: 'POST', url: '/api/auth/login', payload: '[]', headers: { 'content-type': 'application/json' } }),
      400,
      'dados_invalidos',
      'Dados da requisição inválidos.',
    );
  });

  it('erros de validação não contam como tentativa', async () => {
    const f = await t.criarFuncionario();
    await t.chamar({ method: 'POST', url: '/api/auth/login', payload: { email: f.email } });
    expect((await comoAdminVe(f.id)).tentativas_login).toBe(0);
  });
});

describe('bloqueio por tentativas', () => {
  it('4 falhas ainda são 401; a 5ª bloqueia (a mesma resposta); bloqueado, nem a senha certa entra; o admin desbloqueia', async () => {
    const f = await t.criarFuncionario();
    for (let i = 1; i <= 4; i++) {
      esperarRecusa(await login(f.email, `errada-${i}`), 401, 'credenciais_invalidas', CREDENCIAIS);
      expect(await comoAdminVe(f.id)).toMatchObject({ tentativas_login: i, bloqueado: false });
    }
    esperarRecusa(await login(f.email, 'errada-5'), 401, 'credenciais_invalidas', CREDENCIAIS);
    expect(await comoAdminVe(f.id)).toMatchObject({ tentativas_login: 5, bloqueado: true });

    const certa = await login(f.email, f.senha);
    esperarRecusa(certa, 401, 'credenciais_invalidas', CREDENCIAIS);
    expect(certa.headers['set-cookie']).toBeUndefined();
    // A blocked account is not even checked, so guessing on stops counting.
    expect((await comoAdminVe(f.id)).tentativas_login).toBe(5);

    const d = await t.chamar({ method: 'PATCH', url: `/api/usuarios/${f.id}/desbloquear`, token: await t.tokenAdmin() });
    expect(d.statusCode).toBe(200);
    expect(d.json().usuario).toMatchObject({ bloqueado: false, bloqueado_ate: null, tentativas_login: 0 });

    const depois = await login(f.email, f.senha);
    expect(depois.statusCode).toBe(200);
    expect(depois.json().usuario).toMatchObject({ bloqueado: false, tentativas_login: 0 });
  });

  it('um login certo zera a contagem de falhas', async () => {
    const f = await t.criarFuncionario();
    for (let i = 0; i < 3; i++) await login(f.email, 'errada');
    expect((await comoAdminVe(f.id)).tentativas_login).toBe(3);
    const r = await login(f.email, f.senha);
    expect(r.statusCode).toBe(200);
    expect(r.json().usuario.tentativas_login).toBe(0);
    expect((await comoAdminVe(f.id)).tentativas_login).toBe(0);
    // The count starts again from zero: 4 more failures do not block.
    for (let i = 0; i < 4; i++) esperarRecusa(await login(f.email, 'errada'), 401, 'credenciais_invalidas');
    expect((await login(f.email, f.senha)).statusCode).toBe(200);
  });
});

describe('usuário inativo', () => {
  it('com a senha certa: 403 "Usuário inativo"; com a errada: 401 genérico; reativado, entra', async () => {
    const f = await t.criarFuncionario();
    const admin = await t.tokenAdmin();
    expect((await t.chamar({ method: 'PATCH', url: `/api/usuarios/${f.id}/desativar`, token: admin })).statusCode).toBe(200);
    const r = await login(f.email, f.senha);
    esperarRecusa(r, 403, 'usuario_inativo', INATIVO);
    expect(r.headers['set-cookie']).toBeUndefined();
    esperarRecusa(await login(f.email, 'errada'), 401, 'credenciais_invalidas', CREDENCIAIS);
    expect((await t.chamar({ method: 'PATCH', url: `/api/usuarios/${f.id}/ativar`, token: admin })).statusCode).toBe(200);
    expect((await login(f.email, f.senha)).statusCode).toBe(200);
  });

  it('o token que ele já tinha para de valer na hora e não volta quando reativado (a sessão foi encerrada)', async () => {
    const f = await t.criarFuncionario();
    const admin = await t.tokenAdmin();
    expect((await me({ token: f.token })).statusCode).toBe(200);
    await t.chamar({ method: 'PATCH', url: `/api/usuarios/${f.id}/desativar`, token: admin });
    esperarRecusa(await me({ token: f.token }), 401, 'sessao_invalida', INATIVO);
    esperarRecusa(await t.chamar({ method: 'GET', url: '/api/estados', token: f.token }), 401, 'sessao_invalida');
    await t.chamar({ method: 'PATCH', url: `/api/usuarios/${f.id}/ativar`, token: admin });
    esperarRecusa(await me({ token: f.token }), 401, 'sessao_invalida', 'Sessão encerrada. Faça login novamente.');
    expect((await login(f.email, f.senha)).statusCode).toBe(200);
  });
});

describe('GET /api/auth/me', () => {
  it('com o bearer: devolve o usuário atual, sem senha', async () => {
    const f = await t.criarFuncionario({ nome: 'Maria da Silva' });
    const r = await me({ token: f.token });
    expect(r.statusCode).toBe(200);
    expect(r.json().usuario).toMatchObject({ id: f.id, nome: 'Maria da Silva', email: f.email, tipo: 'funcionario' });
    expect(r.body).not.toMatch(/senha|hash|scrypt/i);
  });

  it('só com o cookie do login (sem Authorization) também funciona', async () => {
    const l = await login(ADMIN.email, ADMIN.senha);
    const c = cookieDaSessao(l)!;
    const r = await me({ cookie: `${c.name}=${c.value}` });
    expect(r.statusCode).toBe(200);
    expect(r.json().usuario.email).toBe(ADMIN.email);
  });

  it('reflete mudanças feitas depois do login (relê o usuário)', async () => {
    const f = await t.criarFuncionario();
    await t.chamar({ method: 'PATCH', url: `/api/usuarios/${f.id}`, token: await t.tokenAdmin(), payload: { nome: 'Nome Novo' } });
    expect((await me({ token: f.token })).json().usuario.nome).toBe('Nome Novo');
  });

  it('sem token nem cookie: 401 nao_autenticado', async () => {
    esperarRecusa(await me(), 401, 'nao_autenticado', 'Não autenticado. Faça login para continuar.');
  });

  it('Authorization que não é Bearer, ou Bearer vazio: 401', async () => {
    const basico = await t.chamar({ method: 'GET', url: '/api/auth/me', headers: { authorization: 'Basic YWRtaW46YWRtaW4=' } });
    esperarRecusa(basico, 401, 'nao_autenticado');
    const vazio = await t.chamar({ method: 'GET', url: '/api/auth/me', headers: { authorization: 'Bearer ' } });
    esperarRecusa(vazio, 401, 'sessao_invalida');
  });

  it('token que não é JWT: 401 sessao_invalida', async () => {
    esperarRecusa(await me({ token: 'nao-e-um-jwt' }), 401, 'sessao_invalida');
    esperarRecusa(await me({ cookie: 'token=lixo' }), 401, 'sessao_invalida');
  });

  describe('tokens forjados', () => {
    let funcionario: { id: number; token: string };
    let adminId: number;
    /** The session the employee's real token names: a hand-made token needs one. */
    let sid: string;
    beforeAll(async () => {
      funcionario = await t.criarFuncionario();
      sid = JSON.parse(Buffer.from(funcionario.token.split('.')[1]!, 'base64url').toString()).sid;
      adminId = (await login(ADMIN.email, ADMIN.senha)).json().usuario.id;
    });

    it('o token feito à mão com o segredo certo é aceito (controle dos testes abaixo)', async () => {
      const token = jwtAssinado({ sub: String(funcionario.id), tipo: 'funcionario', sid, iat: agoraEmSegundos(), exp: agoraEmSegundos() + 600 }, t.config.jwtSecret!);
      expect((await me({ token })).statusCode).toBe(200);
    });

    it('payload alterado (troca do sub para o admin) com a assinatura original: 401', async () => {
      const [cabecalho, payload, assinatura] = funcionario.token.split('.');
      const dados = JSON.parse(Buffer.from(payload!, 'base64url').toString());
      const alterado = Buffer.from(JSON.stringify({ ...dados, sub: String(adminId), tipo: 'admin' })).toString('base64url');
      const token = `${cabecalho}.${alterado}.${assinatura}`;
      esperarRecusa(await me({ token }), 401, 'sessao_invalida');
      esperarRecusa(await t.chamar({ method: 'GET', url: '/api/usuarios', token }), 401, 'sessao_invalida');
    });

    it('assinatura alterada: 401', async () => {
      const token = funcionario.token.slice(0, -4) + (funcionario.token.endsWith('AAAA') ? 'BBBB' : 'AAAA');
      esperarRecusa(await me({ token }), 401, 'sessao_invalida');
    });

    it('assinado com outro segredo: 401', async () => {
      const token = jwtAssinado({ sub: String(adminId), tipo: 'admin', iat: agoraEmSegundos(), exp: agoraEmSegundos() + 600 }, 'outro-segredo-de-mais-de-32-caracteres!!');
      esperarRecusa(await me({ token }), 401, 'sessao_invalida');
      esperarRecusa(await me({ cookie: `token=${token}` }), 401, 'sessao_invalida');
    });

    it('alg "none" sem assinatura: 401', async () => {
      const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
      const payload = b64({ sub: String(adminId), tipo: 'admin', iat: agoraEmSegundos(), exp: agoraEmSegundos() + 600 });
      esperarRecusa(await me({ token: `${b64({ alg: 'none', typ: 'JWT' })}.${payload}.` }), 401, 'sessao_invalida');
      esperarRecusa(await me({ cookie: `token=${b64({ alg: 'none', typ: 'JWT' })}.${payload}.` }), 401, 'sessao_invalida');
    });

    it('HS512 com o segredo certo (algoritmo fora da lista): 401', async () => {
      const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
      const corpo = `${b64({ alg: 'HS512', typ: 'JWT' })}.${b64({ sub: String(adminId), tipo: 'admin', iat: agoraEmSegundos(), exp: agoraEmSegundos() + 600 })}`;
      const token = `${corpo}.${createHmac('sha512', t.config.jwtSecret!).update(corpo).digest('base64url')}`;
      esperarRecusa(await me({ token }), 401, 'sessao_invalida');
    });

    it('expirado: 401 "Sessão expirada"', async () => {
      const token = jwtAssinado({ sub: String(adminId), tipo: 'admin', iat: agoraEmSegundos() - 7200, exp: agoraEmSegundos() - 60 }, t.config.jwtSecret!);
      esperarRecusa(await me({ token }), 401, 'sessao_invalida', 'Sessão expirada. Faça login novamente.');
    });

    it('válido, mas de um usuário que não existe: 401', async () => {
      const token = jwtAssinado({ sub: '999999', tipo: 'admin', iat: agoraEmSegundos(), exp: agoraEmSegundos() + 600 }, t.config.jwtSecret!);
      esperarRecusa(await me({ token }), 401, 'sessao_invalida');
      const semSub = jwtAssinado({ tipo: 'admin', iat: agoraEmSegundos(), exp: agoraEmSegundos() + 600 }, t.config.jwtSecret!);
      esperarRecusa(await me({ token: semSub }), 401, 'sessao_invalida');
    });

    it('o "tipo" escrito no token não dá poder: vale o que está no banco', async () => {
      const token = jwtAssinado({ sub: String(funcionario.id), tipo: 'admin', sid, iat: agoraEmSegundos(), exp: agoraEmSegundos() + 600 }, t.config.jwtSecret!);
      esperarRecusa(await t.chamar({ method: 'GET', url: '/api/usuarios', token }), 403, 'sem_permissao');
    });
  });
});

describe('o token verificado uma vez', () => {
  /** @fastify/jwt's verification, as every request reaches it (Fastify's request class). */
  function espiarVerificacao() {
    const simbolo = Object.getOwnPropertySymbols(t.app).find((s) => s.description === 'fastify.Request')!;
    const Requisicao = (t.app as unknown as Record<symbol, { prototype: { jwtVerify: () => Promise<unknown> } }>)[simbolo]!;
    return vi.spyOn(Requisicao.prototype, 'jwtVerify');
  }

  it('o mesmo token, em quatro requisições, passa pela verificação uma vez; vencido, é recusado como expirado', async () => {
    const f = await t.criarFuncionario();
    const verificacao = espiarVerificacao();
    try {
      expect((await me({ token: f.token })).statusCode).toBe(200);
      const umaVerificacao = verificacao.mock.calls.length;
      expect(umaVerificacao).toBeGreaterThan(0);
      for (let i = 0; i < 3; i++) expect((await me({ token: f.token })).statusCode).toBe(200);
      expect(verificacao).toHaveBeenCalledTimes(umaVerificacao);
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + (t.config.jwtTtlSegundos + 1) * 1000);
      esperarRecusa(await me({ token: f.token }), 401, 'sessao_invalida', 'Sessão expirada. Faça login novamente.');
      expect(verificacao).toHaveBeenCalledTimes(2 * umaVerificacao);
    } finally {
      vi.useRealTimers();
      verificacao.mockRestore();
    }
  });

  it('um token já verificado para de valer na hora do logout, pelo bearer e pelo cookie', async () => {
    const l = await login(ADMIN.email, ADMIN.senha);
    const token = l.json().token as string;
    expect((await me({ token })).statusCode).toBe(200);
    expect((await me({ cookie: `token=${token}` })).statusCode).toBe(200);
    expect((await t.chamar({ method: 'POST', url: '/api/auth/logout', token })).statusCode).toBeLessThan(300);
    esperarRecusa(await me({ token }), 401, 'sessao_invalida');
    esperarRecusa(await me({ cookie: `token=${token}` }), 401, 'sessao_invalida');
  });
});

describe('POST /api/auth/logout', () => {
  it('apaga o cookie da sessão (expirado, no caminho /api)', async () => {
    // Its own session: logout ends it on the server too.
    const r = await t.chamar({ method: 'POST', url: '/api/auth/logout', token: await t.login(ADMIN.email, ADMIN.senha) });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ message: 'Logout realizado com sucesso.' });
    const c = cookieDaSessao(r)!;
    expect(c).toBeDefined();
    expect(c.value).toBe('');
    expect(c.path).toBe('/api');
    const expirou = c.maxAge === 0 || (c.expires !== undefined && c.expires.getTime() <= Date.now());
    expect(expirou).toBe(true);
  });

  it('funciona sem sessão (sair nunca falha)', async () => {
    expect((await t.chamar({ method: 'POST', url: '/api/auth/logout' })).statusCode).toBe(200);
  });
});

describe('limite de tentativas de login por endereço', () => {
  let limitado: AppDeTeste;
  beforeAll(async () => {
    limitado = await criarAppDeTeste({ env: { LOGIN_RATE_LIMIT: '3' }, cidades: false });
  });
  afterAll(() => limitado.fechar());

  it('a 4ª tentativa no mesmo minuto é 429 em português, mesmo com a senha certa', async () => {
    for (let i = 0; i < 3; i++) {
      const r = await limitado.chamar({ method: 'POST', url: '/api/auth/login', payload: { email: 'x@teste.com.br', senha: 'errada' } });
      esperarRecusa(r, 401, 'credenciais_invalidas');
    }
    const r = await limitado.chamar({ method: 'POST', url: '/api/auth/login', payload: ADMIN });
    esperarRecusa(r, 429, 'muitas_tentativas', /^Muitas tentativas de login a partir deste endereço\. Aguarde \d+ segundos e tente novamente\.$/);
    expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    // Other routes are not limited.
    expect((await limitado.chamar({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });

  it('outro endereço não é afetado', async () => {
    const r = await limitado.chamar({ method: 'POST', url: '/api/auth/login', payload: ADMIN, remoteAddress: '10.0.0.7' });
    expect(r.statusCode).toBe(200);
  });
});
