/**
 * Limits an attacker leans on. Login: the per-address rate limit (auth.test.ts checks the basic
 * 429 and another address) and the per-account lockout (auth.test.ts checks the count from one
 * address); here what those leave open: the lockout counted across addresses, a rate-limited try
 * not counted as a wrong password, a forged X-Forwarded-For not buying new tries (with and without
 * a reverse proxy). Bodies: too large, too deep, with fields the client may not set, and text that
 * looks like SQL. Nothing here may be a 500, and a refusal changes nothing.
 */
import { eq, sql } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoje, somarDias } from '../../../shared/dates';
import { linha } from '../../src/db';
import { usuarios } from '../../src/db/tabelas';
import { ANAPOLIS, CALDAS_NOVAS, GOIANIA, criarRotaAtiva, formulario } from '../despesas';
import { ADMIN, criarAppDeTeste, type AppDeTeste } from '../helper';
import { esperarCorpoDeErro, fotografia } from './suporte';

const LIMITE = /^Muitas tentativas de login a partir deste endereço\. Aguarde \d+ segundos e tente novamente\.$/;
// A blocked account answers like a wrong password: nothing tells an attacker it is blocked.
const BLOQUEADO = /^Email ou senha inválidos\. Após 5 tentativas erradas, o acesso fica bloqueado por \d+ minutos\.$/;
const ONTEM = () => somarDias(hoje('America/Sao_Paulo'), -1);

/** The attempts and the block as stored (read straight from the database: no API call spends a try). */
async function contaDe(t: AppDeTeste, id: number) {
  const u = (await usuarioDoBanco(t, id))!;
  return { tentativas: u.tentativasLogin, bloqueado: u.bloqueado };
}

async function usuarioDoBanco(t: AppDeTeste, id: number) {
  const [u] = await t.db.select().from(usuarios).where(eq(usuarios.id, id)).limit(1);
  return u;
}

const login = (t: AppDeTeste, email: string, senha: string, extra: Partial<InjectOptions> = {}) =>
  t.chamar({ method: 'POST', url: '/api/auth/login', payload: { email, senha }, ...extra });

describe('login: limite por endereço e bloqueio por conta', () => {
  let t: AppDeTeste;
  let vitima: { id: number; email: string; senha: string };
  let outra: { id: number; email: string; senha: string };
  beforeAll(async () => {
    t = await criarAppDeTeste({ env: { LOGIN_RATE_LIMIT: '5' }, cidades: false });
    // Setup logs in from inject's default address; every attempt below comes from its own.
    vitima = await t.criarFuncionario({ nome: 'Vera Vítima' });
    outra = await t.criarFuncionario({ nome: 'Otávio Outro' });
  });
  afterAll(() => t?.fechar());

  it('a 6ª tentativa do mesmo endereço no minuto é 429 em português, com Retry-After, mesmo com a senha certa', async () => {
    const de = { remoteAddress: '198.51.100.1' };
    for (let i = 0; i < 5; i++) esperarCorpoDeErro(await login(t, 'ninguem@teste.com.br', 'x', de), 'credenciais_invalidas');
    const r = await login(t, ADMIN.email, ADMIN.senha, de);
    expect(r.statusCode).toBe(429);
    esperarCorpoDeErro(r, 'muitas_tentativas');
    expect(r.json().error).toMatch(LIMITE);
    expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    expect(r.headers['set-cookie']).toBeUndefined();
  });

  it('uma tentativa barrada pelo limite não conta como senha errada da conta', async () => {
    const de = { remoteAddress: '198.51.100.2' };
    for (let i = 0; i < 5; i++) await login(t, 'ninguem@teste.com.br', 'x', de);
    for (let i = 0; i < 8; i++) expect((await login(t, vitima.email, `errada-${i}`, de)).statusCode).toBe(429);
    expect(await contaDe(t, vitima.id)).toEqual({ tentativas: 0, bloqueado: false });
    expect((await login(t, vitima.email, vitima.senha, { remoteAddress: '198.51.100.3' })).statusCode).toBe(200);
  });

  it('sem TRUST_PROXY, trocar o X-Forwarded-For a cada tentativa não compra tentativas novas', async () => {
    const tentar = (i: number) => login(t, 'ninguem@teste.com.br', 'x', { remoteAddress: '198.51.100.4', headers: { 'x-forwarded-for': `203.0.113.${i}` } });
    for (let i = 0; i < 5; i++) expect((await tentar(i)).statusCode).toBe(401);
    for (let i = 5; i < 8; i++) expect((await tentar(i)).statusCode).toBe(429);
  });

  it('o bloqueio conta por conta, de qualquer endereço e com o e-mail escrito de qualquer jeito', async () => {
    const grafias = [outra.email, outra.email.toUpperCase(), `  ${outra.email} `, outra.email, outra.email];
    for (let i = 0; i < 4; i++) {
      const r = await login(t, grafias[i]!, `errada-${i}`, { remoteAddress: `192.0.2.${10 + i}` });
      esperarCorpoDeErro(r, 'credenciais_invalidas');
    }
    expect(await contaDe(t, outra.id)).toEqual({ tentativas: 4, bloqueado: false });
    const quinta = await login(t, grafias[4]!, 'errada-4', { remoteAddress: '192.0.2.14' });
    expect(quinta.statusCode).toBe(401);
    expect(quinta.json().error).toMatch(BLOQUEADO);
    // Blocked: the right password from a fresh address does not get in either.
    const certa = await login(t, outra.email, outra.senha, { remoteAddress: '192.0.2.15' });
    expect(certa.statusCode).toBe(401);
    esperarCorpoDeErro(certa, 'credenciais_invalidas');
    expect(await contaDe(t, outra.id)).toEqual({ tentativas: 5, bloqueado: true });
    expect(certa.headers['set-cookie']).toBeUndefined();
  });

  it('e-mails que não existem não gravam nada nem bloqueiam ninguém', async () => {
    const antes = await fotografia(t);
    for (let i = 0; i < 3; i++) await login(t, `fantasma${i}@teste.com.br`, 'x', { remoteAddress: '192.0.2.50' });
    expect(await fotografia(t)).toEqual(antes);
  });
});

describe('atrás de um proxy reverso (TRUST_PROXY=true)', () => {
  let t: AppDeTeste;
  // The proxy connects from loopback and appends the address it saw to X-Forwarded-For.
  const pelaProxy = (cliente: string, forjado?: string) => ({
    remoteAddress: '127.0.0.1',
    headers: { 'x-forwarded-for': forjado ? `${forjado}, ${cliente}` : cliente },
  });
  beforeAll(async () => {
    t = await criarAppDeTeste({ env: { LOGIN_RATE_LIMIT: '5', TRUST_PROXY: 'true' }, cidades: false });
  });
  afterAll(() => t?.fechar());

  it('cada cliente tem o seu limite (o endereço vem do proxy, não da conexão)', async () => {
    for (let i = 0; i < 5; i++) expect((await login(t, 'ninguem@teste.com.br', 'x', pelaProxy('203.0.113.10'))).statusCode).toBe(401);
    expect((await login(t, 'ninguem@teste.com.br', 'x', pelaProxy('203.0.113.10'))).statusCode).toBe(429);
    expect((await login(t, ADMIN.email, ADMIN.senha, pelaProxy('203.0.113.11'))).statusCode).toBe(200);
  });

  it('um X-Forwarded-For forjado pelo cliente (à esquerda do que o proxy anexou) não compra tentativas', async () => {
    for (let i = 0; i < 5; i++) await login(t, 'ninguem@teste.com.br', 'x', pelaProxy('203.0.113.20', `10.9.9.${i}`));
    for (let i = 5; i < 8; i++) {
      const r = await login(t, 'ninguem@teste.com.br', 'x', pelaProxy('203.0.113.20', `10.9.9.${i}`));
      expect(r.statusCode).toBe(429);
    }
  });
});

describe('corpos', () => {
  let t: AppDeTeste;
  let tokenAdmin: string;
  let ana: { id: number; email: string; senha: string; token: string };
  let bruno: { id: number; token: string };
  let rotaAna: number;
  beforeAll(async () => {
    t = await criarAppDeTeste();
    tokenAdmin = await t.tokenAdmin();
    ana = await t.criarFuncionario({ nome: 'Ana Corpo' });
    bruno = await t.criarFuncionario({ nome: 'Bruno Corpo' });
    rotaAna = await criarRotaAtiva(t, ana.id, [GOIANIA, ANAPOLIS], 'Rota da Ana');
    await criarRotaAtiva(t, bruno.id, [CALDAS_NOVAS]);
  });
  afterAll(() => t?.fechar());

  /** Sends a raw JSON text; a refusal must be clean and change nothing. */
  async function enviarJson(pedido: InjectOptions & { token?: string }, corpo: string): Promise<LightMyRequestResponse> {
    const antes = await fotografia(t);
    const r = await t.chamar({ ...pedido, payload: corpo, headers: { 'content-type': 'application/json' } });
    if (r.statusCode >= 400) {
      esperarCorpoDeErro(r);
      expect(await fotografia(t)).toEqual(antes);
    }
    return r;
  }

  const venda = () => ({ id: uuidv7(), rota_id: rotaAna, cidade_id: GOIANIA, data_venda: ONTEM(), valor_dinheiro: 10 });
  const rotaCompleta = () => ({
    nome: 'Rota da Ana',
    funcionario_id: ana.id,
    tem_secretario: false,
    valor_aluguel: 0,
    data_inicio: '2026-01-01',
    data_fim: '2026-12-31',
    observacoes: '',
    cidades: [GOIANIA, ANAPOLIS],
  });

  describe('JSON acima de 1 MB: 413 antes de qualquer efeito', () => {
    const MAIS_DE_1MB = 'x'.repeat(1024 * 1024 + 10);
    it.each([
      ['POST /api/vendas (funcionário)', () => ({ method: 'POST', url: '/api/vendas', token: ana.token }), () => ({ ...venda(), observacoes: MAIS_DE_1MB })],
      ['PUT /api/rotas/:id (admin)', () => ({ method: 'PUT', url: `/api/rotas/${rotaAna}`, token: tokenAdmin }), () => ({ ...rotaCompleta(), observacoes: MAIS_DE_1MB })],
      [
        'POST /api/usuarios (admin)',
        () => ({ method: 'POST', url: '/api/usuarios', token: tokenAdmin }),
        () => ({ nome: 'Grande', email: 'grande@teste.com.br', senha: 'senha123', tipo: 'funcionario', lixo: MAIS_DE_1MB }),
      ],
      ['uma lista de 200 mil cidades', () => ({ method: 'PUT', url: `/api/rotas/${rotaAna}`, token: tokenAdmin }), () => ({ ...rotaCompleta(), cidades: Array(200_000).fill(GOIANIA) })],
    ] as const)('%s', async (_caso, pedido, corpo) => {
      const r = await enviarJson(pedido() as InjectOptions, JSON.stringify(corpo()));
      expect(r.statusCode).toBe(413);
      expect(r.json()).toEqual({ error: 'A requisição é grande demais.', codigo: 'arquivo_grande' });
    });

    it('anônimo com 2 MB numa rota protegida: 401 (o corpo nem é lido)', async () => {
      const r = await enviarJson({ method: 'POST', url: '/api/vendas' }, JSON.stringify({ ...venda(), observacoes: MAIS_DE_1MB.repeat(2) }));
      expect(r.statusCode).toBe(401);
    });
  });

  describe('JSON muito aninhado (abaixo de 1 MB): 400, nunca 500', () => {
    const objetos = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
    const listas = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    type Alvo = { method: 'POST' | 'PUT'; url: string; quem?: 'ana' | 'admin' };
    const casos: [string, Alvo, () => string, number][] = [
      ['100 mil objetos no login', { method: 'POST', url: '/api/auth/login' }, () => objetos(100_000), 400],
      ['400 mil listas no login', { method: 'POST', url: '/api/auth/login' }, () => listas(400_000), 400],
      ['no campo email do login', { method: 'POST', url: '/api/auth/login' }, () => `{"email":${listas(200_000)},"senha":"x"}`, 400],
      ['num campo desconhecido do login (ignorado)', { method: 'POST', url: '/api/auth/login' }, () => `{"email":"ninguem@teste.com.br","senha":"x","x":${objetos(100_000)}}`, 401],
      ['nas observações de uma venda', { method: 'POST', url: '/api/vendas', quem: 'ana' }, () => JSON.stringify(venda()).replace('}', `,"observacoes":${listas(200_000)}}`), 400],
      [
        'nas cidades de uma rota',
        { method: 'PUT', url: '/api/rotas/ROTA', quem: 'admin' },
        () => JSON.stringify(rotaCompleta()).replace(/"cidades":\[[^\]]*\]/, `"cidades":${listas(200_000)}`),
        400,
      ],
      ['num campo desconhecido de um crédito', { method: 'POST', url: '/api/saldo/adicionar', quem: 'admin' }, () => `{"funcionario_id":"x","valor":1,"extra":${objetos(100_000)}}`, 400],
    ];
    it.each(casos)('%s', async (_caso, alvo, corpo, status) => {
      const token = alvo.quem === 'ana' ? ana.token : alvo.quem === 'admin' ? tokenAdmin : undefined;
      const texto = corpo();
      expect(texto.length).toBeLessThan(1024 * 1024);
      const r = await enviarJson({ method: alvo.method, url: alvo.url.replace('ROTA', String(rotaAna)), token }, texto);
      expect(r.statusCode, r.body).toBe(status);
    });
  });

  describe('consultas malformadas: 400, nunca 500', () => {
    it.each([
      '/api/despesas?page=1e308',
      // limit=100000 is clamped to a 1,000-row page (server/src/vendas/paginacao.test.ts); zero is refused.
      '/api/despesas?limit=0',
      '/api/despesas?page=-1',
      '/api/despesas?rota_id=1&rota_id=2',
      '/api/vendas?data=2026-02-30',
      '/api/vendas?funcionario_id=1%00',
      `/api/vendas?cidade_id=${Array(400).fill(GOIANIA).join(',')}`,
      `/api/cidades/search?q=${'a'.repeat(5000)}`,
      '/api/saldo/movimentacoes?page=NaN',
      '/api/rotas/1e3',
      '/api/rotas/-1',
      '/api/rotas/99999999999999999999999',
      '/api/relatorios/rotas/exportar?formato=html',
    ])('%s', async (url) => {
      const r = await t.chamar({ method: 'GET', url, token: tokenAdmin });
      expect(r.statusCode, r.body).toBe(400);
      esperarCorpoDeErro(r, 'dados_invalidos');
    });
  });

  describe('campos que o cliente não pode definir são ignorados', () => {
    it('criar usuário: id, ativo, bloqueio, tentativas, versão da sessão, hash e data vêm do servidor', async () => {
      const r = await t.chamar({
        method: 'POST',
        url: '/api/usuarios',
        token: tokenAdmin,
        payload: {
          nome: 'Íris Intrusa',
          email: 'iris@teste.com.br',
          senha: 'senha-da-iris',
          tipo: 'funcionario',
          id: 999,
          ativo: false,
          bloqueado: true,
          tentativas_login: 4,
          sessao_versao: 9,
          senha_hash: 'scrypt$1$1$1$AAAA$AAAA',
          senhaHash: 'scrypt$1$1$1$AAAA$AAAA',
          data_criacao: '2000-01-01',
        },
      });
      expect(r.statusCode, r.body).toBe(201);
      const u = r.json().usuario;
      expect(u).toMatchObject({ ativo: true, bloqueado: false, tentativas_login: 0 });
      expect(u.id).not.toBe(999);
      expect(u.data_criacao).not.toMatch(/^2000/);
      const linha = (await usuarioDoBanco(t, u.id))!;
      expect(linha.sessaoVersao).toBe(0);
      // Made by the server (the suite hashes at a low cost; production at OWASP's, auth/senha.ts).
      expect(linha.senhaHash).toMatch(/^scrypt\$\d+\$8\$1\$/);
      expect(linha.senhaHash).not.toContain('AAAA$AAAA');
      expect((await login(t, 'iris@teste.com.br', 'senha-da-iris')).statusCode).toBe(200);
    });

    it('editar usuário: senha, hash, bloqueio e tentativas no corpo não mudam nada além do nome', async () => {
      const antes = (await usuarioDoBanco(t, ana.id))!;
      const r = await t.chamar({
        method: 'PATCH',
        url: `/api/usuarios/${ana.id}`,
        token: tokenAdmin,
        payload: { nome: 'Ana Corpo', senha: 'invadida', novaSenha: 'invadida', senhaHash: 'x', bloqueado: true, tentativas_login: 5, sessaoVersao: 3 },
      });
      expect(r.statusCode, r.body).toBe(200);
      const depois = (await usuarioDoBanco(t, ana.id))!;
      expect({ ...depois, atualizadoEm: antes.atualizadoEm }).toEqual(antes);
      // Her session (version 0) still works: no password changed.
      expect((await t.chamar({ method: 'GET', url: '/api/auth/me', token: ana.token })).statusCode).toBe(200);
    });

    it('venda: o dono é quem está logado, nunca o funcionario_id do corpo', async () => {
      const r = await t.chamar({ method: 'POST', url: '/api/vendas', token: ana.token, payload: { ...venda(), funcionario_id: bruno.id, funcionario_nome: 'Bruno' } });
      expect(r.statusCode, r.body).toBe(201);
      expect(r.json().venda).toMatchObject({ funcionario_id: ana.id, funcionario_nome: 'Ana Corpo' });
    });

    it('despesa: dono, aprovação e o arquivo do cupom não vêm do formulário', async () => {
      const id = uuidv7();
      const corpo = await formulario({
        id,
        rota_id: rotaAna,
        cidade_id: GOIANIA,
        data_despesa: ONTEM(),
        tipo: 'alimentacao',
        valor: '10',
        funcionario_id: bruno.id,
        status_aprovacao: 'aprovada',
        aprovada: 'true',
        arquivo_cupom: '../../app.db',
        cupom_mime: 'text/html',
        cupom_url: '/api/despesas/x/cupom',
      });
      const r = await t.chamar({ method: 'POST', url: '/api/despesas', token: ana.token, ...corpo });
      expect(r.statusCode, r.body).toBe(201);
      expect(r.json().despesa).toMatchObject({ funcionario_id: ana.id, status_aprovacao: 'pendente', aprovada: false, arquivo_cupom: null, cupom_mime: null, cupom_url: null });
      esperarCorpoDeErro(await t.chamar({ method: 'GET', url: `/api/despesas/${id}/cupom`, token: tokenAdmin }), 'nao_encontrado');
    });

    it('rota: status e criador no corpo da edição são ignorados', async () => {
      const r = await t.chamar({ method: 'PUT', url: `/api/rotas/${rotaAna}`, token: tokenAdmin, payload: { ...rotaCompleta(), status: 'finalizada', criado_por: bruno.id } });
      expect(r.statusCode, r.body).toBe(200);
      expect(r.json().rota.status).toBe('ativa');
    });

    it('crédito: tipo e saldos no corpo são ignorados (o livro-razão calcula)', async () => {
      const r = await t.chamar({
        method: 'POST',
        url: '/api/saldo/adicionar',
        token: tokenAdmin,
        payload: { funcionario_id: bruno.id, valor: 25, rota_id: null, tipo: 'debito', saldo_anterior: 1_000_000, saldo_novo: 2_000_000 },
      });
      expect(r.statusCode, r.body).toBe(201);
      expect(r.json().movimentacao).toMatchObject({ tipo: 'credito', valor: 25, saldo_anterior: 0, saldo_novo: 25 });
    });

    it('__proto__ no corpo: 400 (o parser recusa), e nenhum objeto ganha a propriedade', async () => {
      const r = await enviarJson({ method: 'PATCH', url: `/api/usuarios/${ana.id}`, token: tokenAdmin }, '{"nome":"Ana Corpo","__proto__":{"tipo":"admin"}}');
      expect(r.statusCode).toBe(400);
      expect(({} as Record<string, unknown>).tipo).toBeUndefined();
    });

    it('constructor.prototype no corpo: ignorado como qualquer campo desconhecido; nada muda de tipo', async () => {
      const r = await enviarJson(
        { method: 'PATCH', url: `/api/usuarios/${ana.id}`, token: tokenAdmin },
        '{"nome":"Ana Corpo","constructor":{"prototype":{"tipo":"admin","ativo":false}}}',
      );
      expect(r.statusCode, r.body).toBe(200);
      expect(r.json().usuario).toMatchObject({ tipo: 'funcionario', ativo: true });
      expect(({} as Record<string, unknown>).tipo).toBeUndefined();
    });

    it('um parâmetro de consulta desconhecido (rota_id[]) é ignorado, não vira filtro', async () => {
      const todas = await t.chamar({ method: 'GET', url: '/api/despesas', token: ana.token });
      const r = await t.chamar({ method: 'GET', url: '/api/despesas?rota_id[]=999999&funcionario_id=1', token: ana.token });
      expect(r.statusCode).toBe(200);
      expect(r.json().total).toBe(todas.json().total);
    });
  });

  describe('texto que parece SQL é guardado e devolvido literalmente', () => {
    const TEXTOS = ["'; DROP TABLE vendas; --", 'Robert"); DELETE FROM usuarios WHERE ("1"="1', "' OR '1'='1' /*", '1; UPDATE usuarios SET tipo=\'admin\'', '%_\\%'];

    it('observações de venda, descrição de despesa, nome de rota', async () => {
      const contar = async () => (await linha<{ v: number; u: number }>(t.db, sql`select (select count(*) from vendas) as v, (select count(*) from usuarios) as u`))!;
      const antes = await contar();
      for (const [i, texto] of TEXTOS.entries()) {
        // A new (route, city, date) each: a second sale on the same day would update the first.
        const dia = somarDias(ONTEM(), -1 - i);
        const v = await t.chamar({ method: 'POST', url: '/api/vendas', token: ana.token, payload: { ...venda(), cidade_id: ANAPOLIS, data_venda: dia, observacoes: texto } });
        expect(v.statusCode, v.body).toBe(201);
        expect(v.json().venda.observacoes).toBe(texto);
        const d = await t.chamar({
          method: 'POST',
          url: '/api/despesas',
          token: ana.token,
          ...(await formulario({ id: uuidv7(), rota_id: rotaAna, cidade_id: GOIANIA, data_despesa: ONTEM(), tipo: 'outro', tipo_outro: texto.slice(0, 40), valor: '1', descricao: texto })),
        });
        expect(d.statusCode, d.body).toBe(201);
        expect(d.json().despesa).toMatchObject({ descricao: texto, tipo_outro: texto.slice(0, 40) });
      }
      const r = await t.chamar({ method: 'PUT', url: `/api/rotas/${rotaAna}`, token: tokenAdmin, payload: { ...rotaCompleta(), nome: TEXTOS[0] } });
      expect(r.json().rota.nome).toBe(TEXTOS[0]);
      const depois = await contar();
      expect(depois).toEqual({ v: antes.v + TEXTOS.length, u: antes.u });
      // What was stored comes back the same in the lists too.
      const lista = await t.chamar({ method: 'GET', url: `/api/vendas?rota_id=${rotaAna}`, token: tokenAdmin });
      const observacoes = (lista.json().vendas as { observacoes: string }[]).map((x) => x.observacoes);
      expect(observacoes).toEqual(expect.arrayContaining(TEXTOS));
    });

    it.each(["' OR '1'='1", '%%', '__', 'go%', "goi' --"])('busca de cidades por %j não vira curinga nem erro', async (q) => {
      const r = await t.chamar({ method: 'GET', url: `/api/cidades/search?q=${encodeURIComponent(q)}`, token: ana.token });
      expect(r.statusCode).toBe(200);
      expect(r.json().cidades).toEqual([]);
    });

    it('login com SQL no e-mail ou na senha: 400 ou 401, nada gravado', async () => {
      const antes = await fotografia(t);
      for (const [email, senha] of [
        [`${ADMIN.email}' --`, 'x'],
        [ADMIN.email, "' OR '1'='1"],
        ["' OR 1=1 --@x.com", 'x'],
      ]) {
        const r = await login(t, email!, senha!);
        expect([400, 401]).toContain(r.statusCode);
        esperarCorpoDeErro(r);
      }
      // The admin's failed count went up by one (the wrong password), nothing else changed.
      const depois = await fotografia(t);
      expect({ ...depois, tabelas: { ...depois.tabelas, usuarios: [] } }).toEqual({ ...antes, tabelas: { ...antes.tabelas, usuarios: [] } });
    });
  });
});
