/**
 * Lockout that lifts by itself and counts atomically, one answer for blocked / wrong / unknown, server-side sessions (logout, password change,
 * deactivation and the admin's 'Encerrar sessões' end them), tokens without `sid` or `exp`
 * refused, the employee's own password change, scrypt at OWASP's cost with old hashes upgraded at
 * login, and cookie-only writes from another site refused.
 */
import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ADMIN, criarAppDeTeste, esperarRecusa, type AppDeTeste } from '../../test/helper';
import { movimentacoesSaldo, sessoes, usuarios } from '../db/tabelas';
import * as senha from './senha';

// Every password check goes through here: the lockout test counts the ones against a real account's hash.
vi.mock('./senha', async (original) => {
  const real = await original<typeof import('./senha')>();
  return { ...real, conferirSenha: vi.fn(real.conferirSenha) };
});

const MENSAGEM_UNICA = 'Email ou senha inválidos. Após 5 tentativas erradas, o acesso fica bloqueado por 15 minutos.';
const ENCERRADA = 'Sessão encerrada. Faça login novamente.';
/** An admin's act ended it (a password the admin set, 'Encerrar sessões'): the person is told so. */
const ENCERRADA_PELO_ADMIN = 'Sua sessão foi encerrada pelo administrador.';

let t: AppDeTeste;
beforeAll(async () => {
  t = await criarAppDeTeste({ cidades: false });
});
afterAll(() => t.fechar());

const login = (email: string, s: string) => t.chamar({ method: 'POST', url: '/api/auth/login', payload: { email, senha: s } });
const me = (token: string) => t.chamar({ method: 'GET', url: '/api/auth/me', token });
const meCookie = (token: string) => t.chamar({ method: 'GET', url: '/api/auth/me', headers: { cookie: `token=${token}` } });
const linhaDe = async (id: number) => (await t.db.select().from(usuarios).where(eq(usuarios.id, id)).limit(1))[0]!;
const cookieDe = (r: LightMyRequestResponse) => r.cookies.find((c) => c.name === 'token')!.value;

function jwt(payload: object): string {
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const corpo = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(payload)}`;
  return `${corpo}.${createHmac('sha256', t.config.jwtSecret!).update(corpo).digest('base64url')}`;
}
const payloadDe = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;

describe('bloqueio por tentativas', () => {
  const conferir = vi.mocked(senha.conferirSenha);
  beforeEach(() => {
    conferir.mockClear();
  });

  it('40 palpites em paralelo: no máximo 5 conferem a senha, a conta fica bloqueada e nem a senha certa entra', async () => {
    const f = await t.criarFuncionario();
    const hashReal = (await linhaDe(f.id)).senhaHash;
    conferir.mockClear();
    const respostas = await Promise.all(Array.from({ length: 40 }, (_, i) => login(f.email, `palpite-${i}`)));
    const contraAConta = conferir.mock.calls.filter(([, hash]) => hash === hashReal).length;
    expect(contraAConta).toBeLessThanOrEqual(5);
    expect(contraAConta).toBeGreaterThan(0);
    for (const r of respostas) esperarRecusa(r, 401, 'credenciais_invalidas', MENSAGEM_UNICA);
    expect(await linhaDe(f.id)).toMatchObject({ bloqueado: true, tentativasLogin: 5 });
    expect((await linhaDe(f.id)).bloqueadoEm).not.toBeNull();

    conferir.mockClear();
    esperarRecusa(await login(f.email, f.senha), 401, 'credenciais_invalidas', MENSAGEM_UNICA);
    // Blocked: the right password is not even compared with the account's hash.
    expect(conferir.mock.calls.filter(([, hash]) => hash === hashReal)).toHaveLength(0);
  });

  it('conta bloqueada, senha errada e email desconhecido: a mesma resposta (status, código e texto)', async () => {
    const bloqueada = await t.criarFuncionario();
    for (let i = 0; i < 5; i++) await login(bloqueada.email, 'errada');
    const normal = await t.criarFuncionario();
    const respostas = [
      await login(bloqueada.email, bloqueada.senha),
      await login(normal.email, 'errada'),
      await login('ninguem@teste.com.br', 'qualquer'),
    ];
    for (const r of respostas) {
      esperarRecusa(r, 401, 'credenciais_invalidas', MENSAGEM_UNICA);
      expect(r.headers['set-cookie']).toBeUndefined();
    }
    expect(new Set(respostas.map((r) => r.body)).size).toBe(1);
  });

  it('o admin também é bloqueado, mas o bloqueio passa sozinho depois dos minutos (sem esperar: bloqueado_em no passado)', async () => {
    const outroAdmin = await t.chamar({
      method: 'POST',
      url: '/api/usuarios',
      token: await t.tokenAdmin(),
      payload: { nome: 'Segundo Admin', email: 'admin2@teste.com.br', senha: 'senha-admin-2', tipo: 'admin' },
    });
    const id = outroAdmin.json().usuario.id as number;
    for (let i = 0; i < 5; i++) await login('admin2@teste.com.br', 'errada');
    esperarRecusa(await login('admin2@teste.com.br', 'senha-admin-2'), 401, 'credenciais_invalidas');

    // The admin's list says when it lifts by itself.
    const lista = await t.chamar({ method: 'GET', url: '/api/usuarios', token: await t.tokenAdmin() });
    const visto = lista.json().usuarios.find((u: { id: number }) => u.id === id);
    expect(visto.bloqueado).toBe(true);
    const inicio = Date.parse((await linhaDe(id)).bloqueadoEm!);
    expect(Date.parse(visto.bloqueado_ate)).toBe(inicio + 15 * 60_000);

    // 14 minutes later: still blocked.
    await t.db.update(usuarios).set({ bloqueadoEm: new Date(Date.now() - 14 * 60_000).toISOString() }).where(eq(usuarios.id, id));
    esperarRecusa(await login('admin2@teste.com.br', 'senha-admin-2'), 401, 'credenciais_invalidas');
    // 15 minutes later: it lifted; the right password enters and the count starts again.
    await t.db.update(usuarios).set({ bloqueadoEm: new Date(Date.now() - 15 * 60_000 - 1000).toISOString() }).where(eq(usuarios.id, id));
    const depois = (await t.chamar({ method: 'GET', url: '/api/usuarios', token: await t.tokenAdmin() })).json().usuarios.find((u: { id: number }) => u.id === id);
    expect(depois).toMatchObject({ bloqueado: false, bloqueado_ate: null });
    const r = await login('admin2@teste.com.br', 'senha-admin-2');
    expect(r.statusCode, r.body).toBe(200);
    expect(await linhaDe(id)).toMatchObject({ bloqueado: false, tentativasLogin: 0, bloqueadoEm: null });
  });

  it('depois de o bloqueio passar, uma senha errada é a 1ª de uma nova série (não bloqueia de novo na hora)', async () => {
    const f = await t.criarFuncionario();
    for (let i = 0; i < 5; i++) await login(f.email, 'errada');
    await t.db.update(usuarios).set({ bloqueadoEm: new Date(Date.now() - 16 * 60_000).toISOString() }).where(eq(usuarios.id, f.id));
    await login(f.email, 'errada');
    expect(await linhaDe(f.id)).toMatchObject({ bloqueado: false, tentativasLogin: 1 });
    expect((await login(f.email, f.senha)).statusCode).toBe(200);
  });

  it('LOGIN_BLOQUEIO_MINUTOS muda a duração e o texto', async () => {
    const curto = await criarAppDeTeste({ cidades: false, env: { LOGIN_BLOQUEIO_MINUTOS: '3' } });
    try {
      const r = await curto.chamar({ method: 'POST', url: '/api/auth/login', payload: { email: 'x@teste.com.br', senha: 'y' } });
      esperarRecusa(r, 401, 'credenciais_invalidas', 'Email ou senha inválidos. Após 5 tentativas erradas, o acesso fica bloqueado por 3 minutos.');
    } finally {
      await curto.fechar();
    }
  });
});

describe('sessões no servidor', () => {
  it('o login cria uma sessão e o token leva o id dela (sid) e um exp', async () => {
    const f = await t.criarFuncionario();
    const p = payloadDe(f.token);
    expect(typeof p.sid).toBe('string');
    expect(typeof p.exp).toBe('number');
    const linha = (await t.db.select().from(sessoes).where(eq(sessoes.id, p.sid as string)).limit(1))[0]!;
    expect(linha).toMatchObject({ usuarioId: f.id, revogadaEm: null });
    expect(Date.parse(linha.expiraEm) - Date.parse(linha.criadaEm)).toBe(t.config.jwtTtlSegundos * 1000);
  });

  it('logout pelo cabeçalho encerra a sessão: o mesmo token (cabeçalho ou cookie) deixa de valer', async () => {
    const r = await login(ADMIN.email, ADMIN.senha);
    const token = r.json().token as string;
    expect((await me(token)).statusCode).toBe(200);
    expect((await t.chamar({ method: 'POST', url: '/api/auth/logout', token })).statusCode).toBe(200);
    esperarRecusa(await me(token), 401, 'sessao_invalida', ENCERRADA);
    esperarRecusa(await meCookie(cookieDe(r)), 401, 'sessao_invalida', ENCERRADA);
  });

  it('logout só com o cookie também encerra; outras sessões do mesmo usuário seguem', async () => {
    const f = await t.criarFuncionario();
    const r = await login(f.email, f.senha);
    const cookie = cookieDe(r);
    const sair = await t.chamar({ method: 'POST', url: '/api/auth/logout', headers: { cookie: `token=${cookie}` } });
    expect(sair.statusCode).toBe(200);
    esperarRecusa(await meCookie(cookie), 401, 'sessao_invalida', ENCERRADA);
    expect((await me(f.token)).statusCode).toBe(200);
  });

  it('senha trocada pelo admin e desativação encerram todas as sessões; reativar não as traz de volta', async () => {
    const f = await t.criarFuncionario();
    const segunda = await t.login(f.email, f.senha);
    const admin = await t.tokenAdmin();
    expect((await t.chamar({ method: 'PATCH', url: `/api/usuarios/${f.id}/senha`, token: admin, payload: { novaSenha: 'nova-senha-1' } })).statusCode).toBe(200);
    for (const token of [f.token, segunda]) esperarRecusa(await me(token), 401, 'sessao_invalida', ENCERRADA_PELO_ADMIN);

    const nova = await t.login(f.email, 'nova-senha-1');
    expect((await me(nova)).statusCode).toBe(200);
    await t.chamar({ method: 'PATCH', url: `/api/usuarios/${f.id}/desativar`, token: admin });
    await t.chamar({ method: 'PATCH', url: `/api/usuarios/${f.id}/ativar`, token: admin });
    esperarRecusa(await me(nova), 401, 'sessao_invalida', ENCERRADA);
    expect((await login(f.email, 'nova-senha-1')).statusCode).toBe(200);
  });

  it("'Encerrar sessões' (admin): todas as sessões do usuário acabam; só admin pode", async () => {
    const f = await t.criarFuncionario();
    const outra = await t.login(f.email, f.senha);
    esperarRecusa(await t.chamar({ method: 'POST', url: `/api/usuarios/${f.id}/encerrar-sessoes`, token: f.token }), 403, 'sem_permissao');
    const r = await t.chamar({ method: 'POST', url: `/api/usuarios/${f.id}/encerrar-sessoes`, token: await t.tokenAdmin() });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toEqual({ message: '2 sessões encerradas.', encerradas: 2 });
    for (const token of [f.token, outra]) esperarRecusa(await me(token), 401, 'sessao_invalida', ENCERRADA_PELO_ADMIN);
    esperarRecusa(await t.chamar({ method: 'POST', url: '/api/usuarios/999999/encerrar-sessoes', token: await t.tokenAdmin() }), 404, 'nao_encontrado');
  });

  it('o admin que encerra as próprias sessões continua na que pediu', async () => {
    const admin = await t.tokenAdmin();
    const outra = await t.login(ADMIN.email, ADMIN.senha);
    const id = (await me(admin)).json().usuario.id as number;
    expect((await t.chamar({ method: 'POST', url: `/api/usuarios/${id}/encerrar-sessoes`, token: admin })).statusCode).toBe(200);
    expect((await me(admin)).statusCode).toBe(200);
    esperarRecusa(await me(outra), 401, 'sessao_invalida', ENCERRADA_PELO_ADMIN);
  });

  it('token de antes das sessões (sem sid), de sessão inexistente ou de outro usuário: 401', async () => {
    const f = await t.criarFuncionario();
    const agora = Math.floor(Date.now() / 1000);
    const base = { sub: String(f.id), tipo: 'funcionario', iat: agora, exp: agora + 600 };
    esperarRecusa(await me(jwt(base)), 401, 'sessao_invalida', ENCERRADA);
    esperarRecusa(await me(jwt({ ...base, sid: 'nao-existe' })), 401, 'sessao_invalida', ENCERRADA);
    const outro = await t.criarFuncionario();
    esperarRecusa(await me(jwt({ ...base, sid: payloadDe(outro.token).sid })), 401, 'sessao_invalida', ENCERRADA);
    // Control: the same claims with its own session are accepted.
    expect((await me(jwt({ ...base, sid: payloadDe(f.token).sid }))).statusCode).toBe(200);
  });

  it('token sem exp (nunca expiraria) é recusado, mesmo com uma sessão válida', async () => {
    const f = await t.criarFuncionario();
    const semExp = jwt({ sub: String(f.id), tipo: 'funcionario', sid: payloadDe(f.token).sid, iat: Math.floor(Date.now() / 1000) });
    esperarRecusa(await me(semExp), 401, 'sessao_invalida');
    esperarRecusa(await meCookie(semExp), 401, 'sessao_invalida');
  });

  it('sessão vencida no servidor (expira_em no passado): 401', async () => {
    const f = await t.criarFuncionario();
    await t.db.update(sessoes).set({ expiraEm: new Date(Date.now() - 1000).toISOString() }).where(eq(sessoes.id, payloadDe(f.token).sid as string));
    esperarRecusa(await me(f.token), 401, 'sessao_invalida', ENCERRADA);
  });
});

describe('troca da própria senha', () => {
  const trocar = (token: string, payload: object) => t.chamar({ method: 'PUT', url: '/api/auth/senha', token, payload });

  it('com a senha atual certa: troca, a sessão atual segue, as outras acabam, a nova senha entra', async () => {
    const f = await t.criarFuncionario();
    const outra = await t.login(f.email, f.senha);
    const r = await trocar(f.token, { senhaAtual: f.senha, novaSenha: 'minha-nova' });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toEqual({ message: 'Senha alterada com sucesso.' });
    expect((await me(f.token)).statusCode).toBe(200);
    esperarRecusa(await me(outra), 401, 'sessao_invalida', ENCERRADA);
    esperarRecusa(await login(f.email, f.senha), 401, 'credenciais_invalidas');
    expect((await login(f.email, 'minha-nova')).statusCode).toBe(200);
  });

  it('recusas em português: senha atual errada (conta como tentativa), nova curta, igual à atual, sem sessão', async () => {
    const f = await t.criarFuncionario();
    const antes = (await linhaDe(f.id)).senhaHash;
    esperarRecusa(await trocar(f.token, { senhaAtual: 'errada', novaSenha: 'outra-senha' }), 422, 'regra_de_negocio', 'Senha atual incorreta.');
    expect((await linhaDe(f.id)).tentativasLogin).toBe(1);
    esperarRecusa(await trocar(f.token, { senhaAtual: f.senha, novaSenha: '12345' }), 400, 'dados_invalidos', 'Nova senha deve ter pelo menos 6 caracteres.');
    esperarRecusa(await trocar(f.token, { novaSenha: 'outra-senha' }), 400, 'dados_invalidos', 'Senha atual é obrigatória.');
    esperarRecusa(await trocar(f.token, { senhaAtual: f.senha, novaSenha: f.senha }), 422, 'regra_de_negocio', 'A nova senha deve ser diferente da atual.');
    esperarRecusa(await t.chamar({ method: 'PUT', url: '/api/auth/senha', payload: { senhaAtual: f.senha, novaSenha: 'outra-senha' } }), 401, 'nao_autenticado');
    expect((await linhaDe(f.id)).senhaHash).toBe(antes);
  });

  it('5 senhas atuais erradas bloqueiam como no login; a 6ª tentativa é 429 sem conferir', async () => {
    const f = await t.criarFuncionario();
    for (let i = 0; i < 5; i++) esperarRecusa(await trocar(f.token, { senhaAtual: `errada-${i}`, novaSenha: 'outra-senha' }), 422, 'regra_de_negocio');
    esperarRecusa(await trocar(f.token, { senhaAtual: f.senha, novaSenha: 'outra-senha' }), 429, 'muitas_tentativas', /^Muitas tentativas com a senha atual errada\./);
    expect((await linhaDe(f.id)).bloqueado).toBe(true);
  });
});

describe('scrypt', () => {
  it('o custo de produção é um dos da OWASP (N=2^14, r=8, p=5: 16 MiB por hash) e um hash a 2^17 ainda é conferido', async () => {
    expect(senha.CUSTO_OWASP).toEqual({ N: 16384, r: 8, p: 5 });
    // Made here at the production cost, whatever the suite uses.
    const { scryptSync, randomBytes } = await import('node:crypto');
    const sal = randomBytes(16);
    const chave = scryptSync('senha-de-producao', sal, 64, { N: 2 ** 17, r: 8, p: 1, maxmem: 128 * 2 ** 17 * 8 + 1024 * 1024 });
    const hash = `scrypt$131072$8$1$${sal.toString('base64')}$${chave.toString('base64')}`;
    expect(await senha.conferirSenha('senha-de-producao', hash)).toBe(true);
    expect(await senha.conferirSenha('outra', hash)).toBe(false);
  });

  it('um hash com N absurdo (linha adulterada) é recusado sem calcular', async () => {
    expect(await senha.conferirSenha('x', 'scrypt$1073741824$8$1$AAAA$AAAA')).toBe(false);
    expect(await senha.conferirSenha('x', 'scrypt$1000$8$1$AAAA$AAAA')).toBe(false);
  });

  it('o hash antigo (N=16384) é trocado pelo do custo atual no próximo login certo; o errado não mexe', async () => {
    const f = await t.criarFuncionario();
    const { scryptSync, randomBytes } = await import('node:crypto');
    const sal = randomBytes(16);
    const antigo = `scrypt$16384$8$1$${sal.toString('base64')}$${scryptSync(f.senha.normalize('NFKC'), sal, 64, { N: 16384, r: 8, p: 1 }).toString('base64')}`;
    await t.db.update(usuarios).set({ senhaHash: antigo }).where(eq(usuarios.id, f.id));
    await login(f.email, 'errada');
    expect((await linhaDe(f.id)).senhaHash).toBe(antigo);
    expect((await login(f.email, f.senha)).statusCode).toBe(200);
    const novo = (await linhaDe(f.id)).senhaHash;
    expect(novo).not.toBe(antigo);
    expect(senha.precisaRefazerHash(novo)).toBe(false);
    expect((await login(f.email, f.senha)).statusCode).toBe(200);
    expect((await linhaDe(f.id)).senhaHash).toBe(novo);
  });
});

describe('pedidos de outro site', () => {
  let cookie: string;
  let funcionarioId: number;
  beforeAll(async () => {
    const f = await t.criarFuncionario();
    funcionarioId = f.id;
    cookie = cookieDe(await login(ADMIN.email, ADMIN.senha));
  });
  // An admin-only write with an observable effect.
  const editar = (headers: Record<string, string>, nome: string) =>
    t.chamar({ method: 'PATCH', url: `/api/usuarios/${funcionarioId}`, headers: { host: 'app.exemplo.com.br', ...headers }, payload: { nome } });

  it('só o cookie, Origin de outro site: 403 em português e nada muda', async () => {
    const r = await editar({ cookie: `token=${cookie}`, origin: 'https://malicioso.example' }, 'Invadido');
    esperarRecusa(r, 403, 'sem_permissao', /^Requisição recusada: ela não veio de uma página deste sistema\./);
    expect((await linhaDe(funcionarioId)).nome).not.toBe('Invadido');
  });

  it('só o cookie, sem Origin e com Referer de outro site, ou sem nenhum dos dois: 403', async () => {
    esperarRecusa(await editar({ cookie: `token=${cookie}`, referer: 'https://malicioso.example/pagina' }, 'Invadido'), 403, 'sem_permissao');
    esperarRecusa(await editar({ cookie: `token=${cookie}` }, 'Invadido'), 403, 'sem_permissao');
    esperarRecusa(await editar({ cookie: `token=${cookie}`, origin: 'null' }, 'Invadido'), 403, 'sem_permissao');
    // Same name, another port or scheme is another origin.
    esperarRecusa(await editar({ cookie: `token=${cookie}`, origin: 'https://app.exemplo.com.br:8443' }, 'Invadido'), 403, 'sem_permissao');
    expect((await linhaDe(funcionarioId)).nome).not.toBe('Invadido');
  });

  it('só o cookie, da própria origem (Origin ou Referer): aceito', async () => {
    expect((await editar({ cookie: `token=${cookie}`, origin: 'https://app.exemplo.com.br' }, 'Nome Um')).statusCode).toBe(200);
    expect((await editar({ cookie: `token=${cookie}`, referer: 'https://app.exemplo.com.br/usuarios' }, 'Nome Dois')).statusCode).toBe(200);
    expect((await linhaDe(funcionarioId)).nome).toBe('Nome Dois');
  });

  it('com Authorization: Bearer a origem não importa; leituras só com o cookie também não', async () => {
    const r = await t.chamar({
      method: 'PATCH',
      url: `/api/usuarios/${funcionarioId}`,
      token: await t.tokenAdmin(),
      headers: { origin: 'https://outro.example' },
      payload: { nome: 'Pelo Cabeçalho' },
    });
    expect(r.statusCode).toBe(200);
    const leitura = await t.chamar({ method: 'GET', url: '/api/usuarios', headers: { cookie: `token=${cookie}`, origin: 'https://outro.example' } });
    expect(leitura.statusCode).toBe(200);
  });

  it('cookie com um Authorization que não é Bearer (Basic): o cookie é que autentica, e a Origin de outro site é recusada', async () => {
    // The session comes from the cookie whenever the header is not a Bearer token, so the header must not
    // exempt the request from the Origin check: a page elsewhere can make a browser send Basic credentials.
    const adicionar = (headers: Record<string, string>) =>
      t.chamar({
        method: 'POST',
        url: '/api/saldo/adicionar',
        headers: { host: 'app.exemplo.com.br', cookie: `token=${cookie}`, ...headers },
        payload: { funcionario_id: funcionarioId, valor: 75, descricao: 'Crédito forjado' },
      });
    const creditos = async () => (await t.db.select().from(movimentacoesSaldo).where(eq(movimentacoesSaldo.funcionarioId, funcionarioId))).length;
    const antes = await creditos();
    const basic = `Basic ${Buffer.from('alguem:qualquer').toString('base64')}`;
    esperarRecusa(await adicionar({ authorization: basic, origin: 'https://malicioso.example' }), 403, 'sem_permissao', /^Requisição recusada/);
    esperarRecusa(await adicionar({ authorization: 'Token abc', referer: 'https://malicioso.example/pagina' }), 403, 'sem_permissao');
    esperarRecusa(await adicionar({ authorization: '', origin: 'https://malicioso.example' }), 403, 'sem_permissao');
    expect(await creditos()).toBe(antes);
    // From the app's own page the same request goes through: the header changes nothing either way.
    expect((await adicionar({ authorization: basic, origin: 'https://app.exemplo.com.br' })).statusCode).toBe(201);
    expect(await creditos()).toBe(antes + 1);
  });

  it('com TRUST_PROXY, vale o X-Forwarded-Host do proxy; sem ele, o X-Forwarded-Host é ignorado', async () => {
    const comProxy = await criarAppDeTeste({ cidades: false, env: { TRUST_PROXY: 'true' } });
    try {
      const c = cookieDe(await comProxy.chamar({ method: 'POST', url: '/api/auth/login', payload: ADMIN }));
      const doProxy = { host: '127.0.0.1:3000', 'x-forwarded-host': 'gestao.exemplo.com.br', 'x-forwarded-proto': 'https' };
      expect((await comProxy.chamar({ method: 'PATCH', url: '/api/usuarios/1', headers: { cookie: `token=${c}`, origin: 'https://gestao.exemplo.com.br', ...doProxy }, payload: { nome: 'Administrador' } })).statusCode).toBe(200);
      // Behind the proxy the Host is the proxy's own address: an Origin naming it is not the app's.
      esperarRecusa(
        await comProxy.chamar({ method: 'PATCH', url: '/api/usuarios/1', headers: { cookie: `token=${c}`, origin: 'https://127.0.0.1:3000', ...doProxy }, payload: { nome: 'Administrador' } }),
        403,
        'sem_permissao',
      );
    } finally {
      await comProxy.fechar();
    }
    // Without TRUST_PROXY a client-sent X-Forwarded-Host cannot vouch for a foreign Origin.
    esperarRecusa(await editar({ cookie: `token=${cookie}`, origin: 'https://malicioso.example', 'x-forwarded-host': 'malicioso.example' }, 'Invadido'), 403, 'sem_permissao');
  });
});
