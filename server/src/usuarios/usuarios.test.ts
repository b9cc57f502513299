import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, criarAppDeTeste, esperarRecusa, type AppDeTeste } from '../../test/helper';
import { rotas, usuarios } from '../db/tabelas';
import { ErroApp } from '../errors';
import { contarUsuarios } from './repositorio';
import { editarUsuario } from './servico';

const SO_ADMIN = 'Acesso restrito a administradores.';
const EMAIL_EM_USO = 'Já existe um usuário com este email.';
const NAO_ENCONTRADO = 'Usuário não encontrado.';
const ID_INVALIDO = 'Identificador inválido.';
const CEM_KB = 'x'.repeat(100 * 1024);

interface Usuario {
  id: number;
  nome: string;
  email: string;
  tipo: 'admin' | 'funcionario';
  ativo: boolean;
  bloqueado: boolean;
  tentativas_login: number;
  data_criacao: string;
}
interface Pessoa {
  id: number;
  email: string;
  senha: string;
  token: string;
}

let t: AppDeTeste;
let tokenAdmin: string;
let adminId: number;
let funcionario: Pessoa;

/** Every body this file receives, checked at the end for passwords and hashes. */
const corpos: string[] = [];
/** Every password this file sets: none may ever come back in a response. */
const senhasUsadas = new Set<string>([ADMIN.senha]);

async function chamar(opcoes: InjectOptions & { token?: string }): Promise<LightMyRequestResponse> {
  const r = await t.chamar(opcoes);
  corpos.push(r.body);
  return r;
}
const comoAdmin = (opcoes: InjectOptions) => chamar({ ...opcoes, token: tokenAdmin });

let sequencia = 0;
/** Creates a user through the API (one password hash; no login). */
async function novoUsuario(dados: Partial<{ nome: string; email: string; senha: string; tipo: string }> = {}): Promise<Usuario & { senha: string }> {
  sequencia += 1;
  const senha = dados.senha ?? `senha-${sequencia}`;
  senhasUsadas.add(senha);
  const r = await comoAdmin({
    method: 'POST',
    url: '/api/usuarios',
    payload: { nome: `Pessoa ${sequencia}`, email: `pessoa${sequencia}@teste.com.br`, tipo: 'funcionario', ...dados, senha },
  });
  expect(r.statusCode, r.body).toBe(201);
  return { ...(r.json().usuario as Usuario), senha };
}

async function listar(consulta = ''): Promise<Usuario[]> {
  const r = await comoAdmin({ method: 'GET', url: `/api/usuarios${consulta}` });
  expect(r.statusCode, r.body).toBe(200);
  return r.json().usuarios;
}
const buscar = async (id: number) => (await listar()).find((u) => u.id === id);

const loginStatus = async (email: string, senha: string) =>
  (await chamar({ method: 'POST', url: '/api/auth/login', payload: { email, senha } })).statusCode;

async function inserirRota(funcionarioId: number, status: 'ativa' | 'finalizada' | 'cancelada' = 'ativa') {
  await t.db
    .insert(rotas)
    .values({ nome: `Rota de ${funcionarioId}`, funcionarioId, dataInicio: '2026-11-01', dataFim: '2026-11-30', status });
}

beforeAll(async () => {
  t = await criarAppDeTeste({ cidades: false });
  tokenAdmin = await t.tokenAdmin();
  adminId = (await chamar({ method: 'GET', url: '/api/auth/me', token: tokenAdmin })).json().usuario.id;
  funcionario = await t.criarFuncionario({ nome: 'Carlos Funcionário', senha: 'carlos-123' });
  senhasUsadas.add(funcionario.senha);
});
afterAll(() => t.fechar());

/** Each endpoint of /api/usuarios with a valid request aimed at user `id`. */
const ENDPOINTS = (id: number): (InjectOptions & { method: string; url: string })[] => [
  { method: 'GET', url: '/api/usuarios' },
  { method: 'GET', url: '/api/usuarios?emRota=true' },
  { method: 'GET', url: '/api/usuarios/funcionarios' },
  { method: 'POST', url: '/api/usuarios', payload: { nome: 'Intruso', email: 'intruso@teste.com.br', senha: 'intruso-1', tipo: 'admin' } },
  { method: 'PATCH', url: `/api/usuarios/${id}`, payload: { tipo: 'admin' } },
  { method: 'PATCH', url: `/api/usuarios/${id}/senha`, payload: { novaSenha: 'tomada-123' } },
  { method: 'PATCH', url: `/api/usuarios/${id}/ativar` },
  { method: 'PATCH', url: `/api/usuarios/${id}/desativar` },
  { method: 'PATCH', url: `/api/usuarios/${id}/desbloquear` },
];

describe('acesso', () => {
  it('anônimo recebe 401 em todos os endpoints, mesmo com corpo ou id inválidos', async () => {
    for (const e of ENDPOINTS(funcionario.id)) {
      esperarRecusa(await chamar(e), 401, 'nao_autenticado');
      // Authentication comes before validation: a stranger learns nothing about the schema.
      const invalido = { ...e, url: e.url.replace(String(funcionario.id), 'abc'), ...(e.payload ? { payload: {} } : {}) };
      esperarRecusa(await chamar(invalido), 401, 'nao_autenticado');
    }
  });

  it('funcionário recebe 403 "Acesso restrito a administradores." e nada muda', async () => {
    const antes = await contarUsuarios(t.db);
    for (const e of ENDPOINTS(funcionario.id)) {
      esperarRecusa(await chamar({ ...e, token: funcionario.token }), 403, 'sem_permissao', SO_ADMIN);
      esperarRecusa(await chamar({ ...e, token: funcionario.token, url: e.url.replace(String(funcionario.id), 'abc'), ...(e.payload ? { payload: {} } : {}) }), 403, 'sem_permissao', SO_ADMIN);
    }
    expect(await contarUsuarios(t.db)).toBe(antes);
    const eu = await buscar(funcionario.id);
    expect(eu).toMatchObject({ tipo: 'funcionario', ativo: true });
    // The password the employee tried to set did not take.
    expect(await loginStatus(funcionario.email, 'tomada-123')).toBe(401);
    expect(await loginStatus(funcionario.email, funcionario.senha)).toBe(200);
  });
});

describe('GET /api/usuarios', () => {
  it('lista todos, ordenados por nome, sem senha', async () => {
    const lista = await listar();
    expect(lista.map((u) => u.id)).toEqual(expect.arrayContaining([adminId, funcionario.id]));
    const nomes = lista.map((u) => u.nome);
    expect(nomes).toEqual([...nomes].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const f = lista.find((u) => u.id === funcionario.id)!;
    expect(f).toEqual({
      id: funcionario.id,
      nome: 'Carlos Funcionário',
      email: funcionario.email,
      tipo: 'funcionario',
      ativo: true,
      bloqueado: false,
      bloqueado_ate: null,
      tentativas_login: 0,
      data_criacao: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/),
    });
  });

  it('?emRota=true só traz funcionários com rota ativa; ?emRota=false, os funcionários sem', async () => {
    const emRota = await novoUsuario({ nome: 'Em Rota' });
    const rotaFinalizada = await novoUsuario({ nome: 'Rota Finalizada' });
    const semRota = await novoUsuario({ nome: 'Sem Rota' });
    await inserirRota(emRota.id, 'ativa');
    await inserirRota(rotaFinalizada.id, 'finalizada');
    await inserirRota(rotaFinalizada.id, 'cancelada');

    const sim = (await listar('?emRota=true')).map((u) => u.id);
    expect(sim).toContain(emRota.id);
    expect(sim).not.toContain(rotaFinalizada.id);
    expect(sim).not.toContain(semRota.id);
    expect(sim).not.toContain(adminId);

    const nao = (await listar('?emRota=false')).map((u) => u.id);
    expect(nao).toEqual(expect.arrayContaining([rotaFinalizada.id, semRota.id]));
    expect(nao).not.toContain(emRota.id);
    expect(nao).not.toContain(adminId); // admins are never "sem rota": they do not travel

    // Together they are every employee, once.
    const funcionarios = (await listar()).filter((u) => u.tipo === 'funcionario').map((u) => u.id).sort();
    expect([...sim, ...nao].sort()).toEqual(funcionarios);
  });

  it('?tipo=admin só traz os administradores (o filtro da Auditoria); um tipo que não existe é 400', async () => {
    const outroAdmin = await novoUsuario({ nome: 'Outra Admin', tipo: 'admin' });
    const admins = await listar('?tipo=admin');
    expect(admins.map((u) => u.id)).toEqual(expect.arrayContaining([adminId, outroAdmin.id]));
    expect(admins.every((u) => u.tipo === 'admin')).toBe(true);
    expect((await listar('?tipo=funcionario')).every((u) => u.tipo === 'funcionario')).toBe(true);
    const r = await comoAdmin({ method: 'GET', url: '/api/usuarios?tipo=gerente' });
    expect(r.statusCode).toBe(400);
    expect(r.json().error).toMatch(/Tipo/);
  });

  it.each(['sim', '1', 'TRUE', ''])('?emRota=%s: 400', async (valor) => {
    const r = await comoAdmin({ method: 'GET', url: `/api/usuarios?emRota=${valor}` });
    esperarRecusa(r, 400, 'dados_invalidos', "emRota deve ser 'true' ou 'false'.");
  });
});

describe('GET /api/usuarios/funcionarios', () => {
  it('só funcionários ativos; admins e inativos ficam de fora', async () => {
    const inativo = await novoUsuario({ nome: 'Funcionário Inativo' });
    const outroAdmin = await novoUsuario({ nome: 'Outra Admin', tipo: 'admin' });
    await comoAdmin({ method: 'PATCH', url: `/api/usuarios/${inativo.id}/desativar` });
    const r = await comoAdmin({ method: 'GET', url: '/api/usuarios/funcionarios' });
    expect(r.statusCode).toBe(200);
    const lista: Usuario[] = r.json().funcionarios;
    expect(lista.map((u) => u.id)).toContain(funcionario.id);
    expect(lista.map((u) => u.id)).not.toContain(inativo.id);
    expect(lista.map((u) => u.id)).not.toContain(outroAdmin.id);
    expect(lista.map((u) => u.id)).not.toContain(adminId);
    expect(lista.every((u) => u.tipo === 'funcionario' && u.ativo)).toBe(true);
  });
});

describe('POST /api/usuarios', () => {
  it('cria (201) com email normalizado; o novo usuário entra com a senha', async () => {
    const r = await comoAdmin({
      method: 'POST',
      url: '/api/usuarios',
      payload: { nome: '  Joana Souza  ', email: '  Joana.Souza@Teste.COM.br ', senha: 'joana-123', tipo: 'funcionario' },
    });
    senhasUsadas.add('joana-123');
    expect(r.statusCode).toBe(201);
    expect(r.json().usuario).toMatchObject({ nome: 'Joana Souza', email: 'joana.souza@teste.com.br', tipo: 'funcionario', ativo: true, bloqueado: false, tentativas_login: 0 });
    expect(await loginStatus('joana.souza@teste.com.br', 'joana-123')).toBe(200);
    expect((await listar()).some((u) => u.email === 'joana.souza@teste.com.br')).toBe(true);
  });

  it('um admin criado administra', async () => {
    const a = await novoUsuario({ tipo: 'admin' });
    expect(a.tipo).toBe('admin');
    const token = await t.login(a.email, a.senha);
    expect((await chamar({ method: 'GET', url: '/api/usuarios', token })).statusCode).toBe(200);
  });

  it.each([
    ['sem nome', { nome: undefined }, 'Nome é obrigatório.'],
    ['nome de 1 letra', { nome: ' A ' }, 'Nome deve ter pelo menos 2 caracteres.'],
    ['nome numérico', { nome: 12345 }, 'Nome deve ser um texto.'],
    ['nome nulo', { nome: null }, 'Nome é obrigatório.'],
    ['nome em branco', { nome: '  ' }, 'Nome é obrigatório.'],
    ['nome de 121 letras', { nome: 'a'.repeat(121) }, 'Nome deve ter no máximo 120 caracteres.'],
    ['nome de 100 KB', { nome: CEM_KB }, 'Nome deve ter no máximo 120 caracteres.'],
    ['sem email', { email: undefined }, 'Email é obrigatório.'],
    ['email inválido', { email: 'joao@' }, 'Email inválido.'],
    ['email com espaço', { email: 'jo ao@teste.com' }, 'Email inválido.'],
    ['email numérico', { email: 5 }, 'Email deve ser um texto.'],
    ['email de 100 KB', { email: `${CEM_KB}@teste.com` }, 'Email inválido.'],
    ['sem senha', { senha: undefined }, 'Senha é obrigatória.'],
    ['senha de 5', { senha: '12345' }, 'Senha deve ter pelo menos 6 caracteres.'],
    ['senha numérica', { senha: 123456 }, 'Senha deve ser um texto.'],
    ['senha de 100 KB', { senha: CEM_KB }, 'Senha deve ter no máximo 128 caracteres.'],
    ['sem tipo', { tipo: undefined }, 'Tipo é obrigatório.'],
    ['tipo desconhecido', { tipo: 'superadmin' }, 'Tipo inválido.'],
    ['tipo numérico', { tipo: 1 }, 'Tipo inválido.'],
  ])('%s: 400 com a mensagem do campo e nada gravado', async (_caso, mudanca, mensagem) => {
    const antes = await contarUsuarios(t.db);
    const payload = { nome: 'Válido', email: `valido${Date.now()}@teste.com.br`, senha: 'valida-1', tipo: 'funcionario', ...mudanca };
    esperarRecusa(await comoAdmin({ method: 'POST', url: '/api/usuarios', payload }), 400, 'dados_invalidos', mensagem);
    expect(await contarUsuarios(t.db)).toBe(antes);
  });

  it.each([
    ['um array', '[]'],
    ['null', 'null'],
    ['um texto', '"nome"'],
  ])('corpo que é %s: 400', async (_caso, corpo) => {
    const r = await comoAdmin({ method: 'POST', url: '/api/usuarios', payload: corpo, headers: { 'content-type': 'application/json' } });
    esperarRecusa(r, 400, 'dados_invalidos', 'Dados da requisição inválidos.');
  });

  it('texto com cara de SQL é gravado literalmente e a tabela continua lá', async () => {
    const nome = "Robert'); DROP TABLE usuarios;--";
    const email = "o'brien+x@teste.com.br";
    const u = await novoUsuario({ nome, email, senha: '123456' });
    expect(u.nome).toBe(nome);
    expect(u.email).toBe(email);
    expect((await buscar(u.id))!.nome).toBe(nome);
    expect((await t.db.select({ n: sql<number>`count(*)` }).from(usuarios))[0]!.n).toBeGreaterThan(1);
    expect(await loginStatus(email, '123456')).toBe(200);
    const busca = await comoAdmin({ method: 'GET', url: `/api/usuarios?emRota=${encodeURIComponent("false' OR 1=1--")}` });
    esperarRecusa(busca, 400, 'dados_invalidos');
  });

  it('campos desconhecidos ou protegidos são ignorados', async () => {
    const r = await comoAdmin({
      method: 'POST',
      url: '/api/usuarios',
      payload: {
        nome: 'Campos Extras',
        email: 'extras@teste.com.br',
        senha: 'extras-123',
        tipo: 'funcionario',
        id: 999,
        bloqueado: true,
        tentativas_login: 9,
        ativo: false,
        senha_hash: 'scrypt$16384$8$1$AAAA$BBBB',
        senhaHash: 'scrypt$16384$8$1$AAAA$BBBB',
        data_criacao: '2000-01-01T00:00:00.000Z',
      },
    });
    senhasUsadas.add('extras-123');
    expect(r.statusCode).toBe(201);
    const u: Usuario = r.json().usuario;
    expect(u.id).not.toBe(999);
    expect(u).toMatchObject({ bloqueado: false, tentativas_login: 0, ativo: true });
    expect(u.data_criacao.startsWith('2000')).toBe(false);
    const linha = (await t.db.select().from(usuarios).where(eq(usuarios.id, u.id)).limit(1))[0]!;
    expect(linha.senhaHash).not.toContain('AAAA');
    expect(await loginStatus('extras@teste.com.br', 'extras-123')).toBe(200);
  });

  it('email repetido, também só com outra caixa: 409 e nada gravado', async () => {
    const antes = await contarUsuarios(t.db);
    for (const email of [funcionario.email, funcionario.email.toUpperCase(), ` ${ADMIN.email.replace('admin', 'ADMIN')} `]) {
      const r = await comoAdmin({ method: 'POST', url: '/api/usuarios', payload: { nome: 'Repetido', email, senha: 'repetido-1', tipo: 'funcionario' } });
      esperarRecusa(r, 409, 'conflito', EMAIL_EM_USO);
    }
    expect(await contarUsuarios(t.db)).toBe(antes);
  });
});

describe('PATCH /api/usuarios/:id', () => {
  let alvo: Usuario & { senha: string };
  beforeAll(async () => {
    alvo = await novoUsuario({ nome: 'Alvo Original', email: 'alvo@teste.com.br' });
  });

  it('altera nome, email, tipo e status; a lista mostra a mudança', async () => {
    const r = await comoAdmin({ method: 'PATCH', url: `/api/usuarios/${alvo.id}`, payload: { nome: ' Alvo Editado ', email: 'ALVO.NOVO@teste.com.br' } });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().usuario).toMatchObject({ id: alvo.id, nome: 'Alvo Editado', email: 'alvo.novo@teste.com.br', tipo: 'funcionario', ativo: true });
    expect(await buscar(alvo.id)).toMatchObject({ nome: 'Alvo Editado', email: 'alvo.novo@teste.com.br' });
    // The new e-mail signs in; the old one no longer exists.
    expect(await loginStatus('alvo.novo@teste.com.br', alvo.senha)).toBe(200);
    expect(await loginStatus('alvo@teste.com.br', alvo.senha)).toBe(401);

    const status = await comoAdmin({ method: 'PATCH', url: `/api/usuarios/${alvo.id}`, payload: { ativo: false } });
    expect(status.json().usuario.ativo).toBe(false);
    // Multipart-style strings are accepted for the boolean.
    const deVolta = await comoAdmin({ method: 'PATCH', url: `/api/usuarios/${alvo.id}`, payload: { ativo: 'true' } });
    expect(deVolta.json().usuario.ativo).toBe(true);

    const tipo = await comoAdmin({ method: 'PATCH', url: `/api/usuarios/${alvo.id}`, payload: { tipo: 'admin' } });
    expect(tipo.json().usuario.tipo).toBe('admin');
    const volta = await comoAdmin({ method: 'PATCH', url: `/api/usuarios/${alvo.id}`, payload: { tipo: 'funcionario' } });
    expect(volta.json().usuario.tipo).toBe('funcionario');
  });

  it('o próprio email com outra caixa não é conflito', async () => {
    const r = await comoAdmin({ method: 'PATCH', url: `/api/usuarios/${funcionario.id}`, payload: { email: funcionario.email.toUpperCase() } });
    expect(r.statusCode).toBe(200);
    expect(r.json().usuario.email).toBe(funcionario.email);
  });

  it('email de outro usuário (qualquer caixa): 409 e nada muda', async () => {
    for (const email of [ADMIN.email, ADMIN.email.toUpperCase()]) {
      esperarRecusa(await comoAdmin({ method: 'PATCH', url: `/api/usuarios/${funcionario.id}`, payload: { email, nome: 'Não Deve Mudar' } }), 409, 'conflito', EMAIL_EM_USO);
    }
    expect(await buscar(funcionario.id)).toMatchObject({ email: funcionario.email, nome: 'Carlos Funcionário' });
  });

  it.each([
    ['vazio', {}, 'Informe ao menos um campo para alterar.'],
    ['só campos desconhecidos', { bloqueado: true, tentativas_login: 3 }, 'Informe ao menos um campo para alterar.'],
    ['nome numérico', { nome: 123 }, 'Nome deve ser um texto.'],
    ['nome em branco', { nome: '   ' }, 'Nome é obrigatório.'],
    ['nome de 100 KB', { nome: CEM_KB }, 'Nome deve ter no máximo 120 caracteres.'],
    ['email inválido', { email: 'sem-arroba' }, 'Email inválido.'],
    ['ativo como texto', { ativo: 'sim' }, 'Status deve ser verdadeiro ou falso.'],
    ['ativo como número', { ativo: 1 }, 'Status deve ser verdadeiro ou falso.'],
    ['tipo desconhecido', { tipo: 'dono' }, 'Tipo inválido.'],
  ])('%s: 400 e nada muda', async (_caso, payload, mensagem) => {
    const [antes] = await t.db.select().from(usuarios).where(eq(usuarios.id, funcionario.id)).limit(1);
    esperarRecusa(await comoAdmin({ method: 'PATCH', url: `/api/usuarios/${funcionario.id}`, payload }), 400, 'dados_invalidos', mensagem);
    expect((await t.db.select().from(usuarios).where(eq(usuarios.id, funcionario.id)).limit(1))[0]).toEqual(antes);
  });

  it('campos desconhecidos ou protegidos junto de um válido: só o válido vale', async () => {
    const u = await novoUsuario({ nome: 'Protegido' });
    const r = await comoAdmin({
      method: 'PATCH',
      url: `/api/usuarios/${u.id}`,
      payload: { nome: 'Protegido Editado', id: 999, bloqueado: true, tentativas_login: 7, senha: 'hackeada-1', senha_hash: 'x', data_criacao: '2000-01-01' },
    });
    expect(r.statusCode).toBe(200);
    expect(r.json().usuario).toMatchObject({ id: u.id, nome: 'Protegido Editado', bloqueado: false, tentativas_login: 0, data_criacao: u.data_criacao });
    expect(await loginStatus(u.email, 'hackeada-1')).toBe(401);
    expect(await loginStatus(u.email, u.senha)).toBe(200);
  });

  it('id inexistente: 404; id que não é inteiro positivo: 400', async () => {
    esperarRecusa(await comoAdmin({ method: 'PATCH', url: '/api/usuarios/999999', payload: { nome: 'Fantasma' } }), 404, 'nao_encontrado', NAO_ENCONTRADO);
    for (const id of ['abc', '0', '-1', '1.5', '99999999999999999999', '1;DROP']) {
      esperarRecusa(await comoAdmin({ method: 'PATCH', url: `/api/usuarios/${id}`, payload: { nome: 'Fantasma' } }), 400, 'dados_invalidos', ID_INVALIDO);
    }
  });

  describe('regras de administração', () => {
    it('o admin não pode se desativar (422) nem pela edição nem por /desativar', async () => {
      esperarRecusa(await comoAdmin({ method: 'PATCH', url: `/api/usuarios/${adminId}`, payload: { ativo: false } }), 422, 'regra_de_negocio', 'Você não pode desativar o seu próprio usuário.');
      esperarRecusa(await comoAdmin({ method: 'PATCH', url: `/api/usuarios/${adminId}/desativar` }), 422, 'regra_de_negocio', 'Você não pode desativar o seu próprio usuário.');
      expect((await buscar(adminId))!.ativo).toBe(true);
    });

    it('o admin não pode mudar o próprio tipo (422), mas edita o próprio nome', async () => {
      esperarRecusa(await comoAdmin({ method: 'PATCH', url: `/api/usuarios/${adminId}`, payload: { tipo: 'funcionario' } }), 422, 'regra_de_negocio', 'Você não pode alterar o tipo do seu próprio usuário.');
      expect((await buscar(adminId))!.tipo).toBe('admin');
      const r = await comoAdmin({ method: 'PATCH', url: `/api/usuarios/${adminId}`, payload: { nome: 'Administrador Geral', tipo: 'admin', ativo: true } });
      expect(r.statusCode).toBe(200);
      expect(r.json().usuario).toMatchObject({ nome: 'Administrador Geral', tipo: 'admin', ativo: true });
    });

    it('com um segundo admin: desativar e rebaixar o outro funciona e vale na hora', async () => {
      const segundo = await novoUsuario({ nome: 'Segunda Admin', tipo: 'admin' });
      const tokenSegundo = await t.login(segundo.email, segundo.senha);

      const desativado = await comoAdmin({ method: 'PATCH', url: `/api/usuarios/${segundo.id}/desativar` });
      expect(desativado.json().usuario.ativo).toBe(false);
      esperarRecusa(await chamar({ method: 'GET', url: '/api/usuarios', token: tokenSegundo }), 401, 'sessao_invalida');

      await comoAdmin({ method: 'PATCH', url: `/api/usuarios/${segundo.id}/ativar` });
      // Deactivation ended that session for good: reactivated, a new login is needed.
      const tokenNovo = await t.login(segundo.email, segundo.senha);
      const rebaixado = await comoAdmin({ method: 'PATCH', url: `/api/usuarios/${segundo.id}`, payload: { tipo: 'funcionario' } });
      expect(rebaixado.json().usuario.tipo).toBe('funcionario');
      esperarRecusa(await chamar({ method: 'GET', url: '/api/usuarios', token: tokenNovo }), 403, 'sem_permissao', SO_ADMIN);
    });

    it('o último admin ativo não pode ser desativado nem rebaixado (409)', async () => {
      // Over HTTP the only caller who could try is that admin, and the self rule (422) answers first;
      // the rule itself is checked against the service with another actor.
      const adminsAtivos = async () => (await t.db.select().from(usuarios)).filter((u) => u.tipo === 'admin' && u.ativo);
      // While others remain, an admin can be deactivated...
      for (const outro of (await adminsAtivos()).filter((u) => u.id !== adminId)) {
        expect((await editarUsuario(t.db, adminId, outro.id, { ativo: false })).ativo).toBe(false);
      }
      expect((await adminsAtivos()).map((u) => u.id)).toEqual([adminId]);
      // ...but not the last one.
      // Any other existing user as the actor (the trail keeps who acted: it must be a real user).
      const outroAtor = (await t.db.select().from(usuarios)).find((u) => u.id !== adminId)!.id;
      for (const alteracao of [{ ativo: false }, { tipo: 'funcionario' as const }]) {
        let erro: unknown;
        try {
          await editarUsuario(t.db, outroAtor, adminId, alteracao);
        } catch (e) {
          erro = e;
        }
        expect(erro).toBeInstanceOf(ErroApp);
        expect(erro).toMatchObject({ statusCode: 409, codigo: 'conflito', message: 'É preciso manter pelo menos um administrador ativo.' });
      }
      expect((await adminsAtivos()).map((u) => u.id)).toEqual([adminId]);
    });

    it('funcionário com rota ativa não muda de tipo (409)', async () => {
      const u = await novoUsuario({ nome: 'Com Rota' });
      await inserirRota(u.id, 'ativa');
      const r = await comoAdmin({ method: 'PATCH', url: `/api/usuarios/${u.id}`, payload: { tipo: 'admin' } });
      esperarRecusa(r, 409, 'conflito', /rota ativa/);
      expect((await buscar(u.id))!.tipo).toBe('funcionario');
    });
  });
});

describe('PATCH /api/usuarios/:id/senha', () => {
  it('troca a senha: a nova entra, a antiga não', async () => {
    const u = await novoUsuario({ nome: 'Troca Senha' });
    const r = await comoAdmin({ method: 'PATCH', url: `/api/usuarios/${u.id}/senha`, payload: { novaSenha: 'nova-senha-456' } });
    senhasUsadas.add('nova-senha-456');
    expect(r.statusCode).toBe(200);
    expect(r.json().usuario.id).toBe(u.id);
    expect(await loginStatus(u.email, 'nova-senha-456')).toBe(200);
    expect(await loginStatus(u.email, u.senha)).toBe(401);
  });

  it('encerra as sessões abertas com a senha antiga; a nova sessão funciona', async () => {
    const u = await novoUsuario({ nome: 'Sessão Antiga' });
    const antigo = await t.login(u.email, u.senha);
    expect((await t.chamar({ method: 'GET', url: '/api/auth/me', token: antigo })).statusCode).toBe(200);
    await comoAdmin({ method: 'PATCH', url: `/api/usuarios/${u.id}/senha`, payload: { novaSenha: 'trocada-789' } });
    senhasUsadas.add('trocada-789');
    // The admin set it: the person is told who ended the session.
    esperarRecusa(await t.chamar({ method: 'GET', url: '/api/auth/me', token: antigo }), 401, 'sessao_invalida', 'Sua sessão foi encerrada pelo administrador.');
    const novo = await t.login(u.email, 'trocada-789');
    expect((await t.chamar({ method: 'GET', url: '/api/auth/me', token: novo })).statusCode).toBe(200);
  });

  it.each([
    ['sem novaSenha', {}, 'Nova senha é obrigatória.'],
    ['curta', { novaSenha: '12345' }, 'Nova senha deve ter pelo menos 6 caracteres.'],
    ['numérica', { novaSenha: 12345678 }, 'Nova senha deve ser um texto.'],
    ['de 100 KB', { novaSenha: CEM_KB }, 'Nova senha deve ter no máximo 128 caracteres.'],
  ])('%s: 400 e a senha antiga continua valendo', async (_caso, payload, mensagem) => {
    esperarRecusa(await comoAdmin({ method: 'PATCH', url: `/api/usuarios/${funcionario.id}/senha`, payload }), 400, 'dados_invalidos', mensagem);
  });

  it('a senha antiga do funcionário continua valendo depois das recusas', async () => {
    expect(await loginStatus(funcionario.email, funcionario.senha)).toBe(200);
  });

  it('id inexistente: 404; id inválido: 400', async () => {
    esperarRecusa(await comoAdmin({ method: 'PATCH', url: '/api/usuarios/999999/senha', payload: { novaSenha: 'qualquer-1' } }), 404, 'nao_encontrado', NAO_ENCONTRADO);
    esperarRecusa(await comoAdmin({ method: 'PATCH', url: '/api/usuarios/abc/senha', payload: { novaSenha: 'qualquer-1' } }), 400, 'dados_invalidos', ID_INVALIDO);
  });
});

describe('PATCH /api/usuarios/:id/ativar, /desativar, /desbloquear', () => {
  it('desativar e ativar mudam o status e repetir não é erro', async () => {
    const u = await novoUsuario({ nome: 'Liga Desliga' });
    for (let i = 0; i < 2; i++) {
      const r = await comoAdmin({ method: 'PATCH', url: `/api/usuarios/${u.id}/desativar` });
      expect(r.statusCode).toBe(200);
      expect(r.json().usuario).toMatchObject({ id: u.id, ativo: false });
    }
    expect((await buscar(u.id))!.ativo).toBe(false);
    for (let i = 0; i < 2; i++) {
      const r = await comoAdmin({ method: 'PATCH', url: `/api/usuarios/${u.id}/ativar` });
      expect(r.json().usuario).toMatchObject({ id: u.id, ativo: true });
    }
    expect((await buscar(u.id))!.ativo).toBe(true);
  });

  it('desbloquear zera as tentativas e libera o login', async () => {
    const u = await novoUsuario({ nome: 'Bloqueado' });
    await t.db.update(usuarios).set({ bloqueado: true, bloqueadoEm: new Date().toISOString(), tentativasLogin: 5 }).where(eq(usuarios.id, u.id));
    // Blocked answers like a wrong password.
    expect(await loginStatus(u.email, u.senha)).toBe(401);
    const r = await comoAdmin({ method: 'PATCH', url: `/api/usuarios/${u.id}/desbloquear` });
    expect(r.statusCode).toBe(200);
    expect(r.json().usuario).toMatchObject({ id: u.id, bloqueado: false, bloqueado_ate: null, tentativas_login: 0 });
    expect(await loginStatus(u.email, u.senha)).toBe(200);
    // Unlocking someone who is not blocked is harmless.
    expect((await comoAdmin({ method: 'PATCH', url: `/api/usuarios/${u.id}/desbloquear` })).statusCode).toBe(200);
  });

  it('sem corpo ou com Content-Type JSON e corpo vazio: funciona', async () => {
    const r = await comoAdmin({ method: 'PATCH', url: `/api/usuarios/${funcionario.id}/ativar`, headers: { 'content-type': 'application/json' }, payload: '' });
    expect(r.statusCode, r.body).toBe(200);
  });

  it.each(['ativar', 'desativar', 'desbloquear'])('/%s com id inexistente: 404; com id inválido: 400', async (acao) => {
    esperarRecusa(await comoAdmin({ method: 'PATCH', url: `/api/usuarios/999999/${acao}` }), 404, 'nao_encontrado', NAO_ENCONTRADO);
    esperarRecusa(await comoAdmin({ method: 'PATCH', url: `/api/usuarios/abc/${acao}` }), 400, 'dados_invalidos', ID_INVALIDO);
  });
});

describe('senhas nunca saem do servidor', () => {
  it('nenhuma resposta deste arquivo traz senha, hash ou campo de senha', () => {
    expect(corpos.length).toBeGreaterThan(50);
    for (const corpo of corpos) {
      expect(corpo).not.toMatch(/scrypt\$/);
      expect(corpo).not.toMatch(/"(senha|senha_hash|senhaHash|novaSenha|password)"\s*:/i);
      for (const senha of senhasUsadas) expect(corpo).not.toContain(senha);
    }
  });
});
