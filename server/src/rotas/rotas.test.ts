/**
 * /api/rotas through the real app on a temporary database: every endpoint for anonymous callers,
 * two employees (B never sees nor changes A's routes) and the admin, bad input of every kind, and
 * the route's life (ativa -> finalizada | cancelada, deletion, visits, the day's totals).
 * Sales, expenses and balance movements are inserted with drizzle: their APIs live elsewhere.
 */
import { count, eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataNoFuso, hoje, somarDias } from '../../../shared/dates';
import type { Rota } from '../../../shared/schemas/rotas';
import { criarAppDeTeste, esperarRecusa, type AppDeTeste } from '../../test/helper';
import { despesas, movimentacoesSaldo, rotaCidades, rotas, vendas, visitas } from '../db/tabelas';

// Cities of the IBGE fixture (server/test/fixtures/ibge).
const GOIANIA = 5208707;
const ANAPOLIS = 5201108;
const CALDAS_NOVAS = 5204508;
const CATALAO = 5205109;
const BELO_HORIZONTE = 3106200;
const UBERLANDIA = 3170206;
const SAO_PAULO = 3550308;

const CEM_KB = 'x'.repeat(100 * 1024);
const SO_ADMIN = 'Acesso restrito a administradores.';
const SO_FUNCIONARIO = 'Acesso restrito a funcionários.';
const NAO_ENCONTRADA = 'Rota não encontrada.';
const NAO_ENCONTRADA_OU_EXCLUIDA = 'Rota não encontrada ou já foi excluída.';
const SEM_PERMISSAO_EXCLUIR = 'Você não tem permissão para excluir esta rota.';

interface Pessoa {
  id: number;
  token: string;
}

let t: AppDeTeste;
let tokenAdmin: string;
let adminId: number;
let hojeApp: string;

beforeAll(async () => {
  t = await criarAppDeTeste();
  tokenAdmin = await t.tokenAdmin();
  adminId = (await t.chamar({ method: 'GET', url: '/api/auth/me', token: tokenAdmin })).json().usuario.id;
  hojeApp = hoje(t.config.appTz);
});
afterAll(() => t.fechar());

const comoAdmin = (opcoes: InjectOptions) => t.chamar({ ...opcoes, token: tokenAdmin });

let sequencia = 0;
/** A new employee (each test that needs an active route gets its own: one active route per employee). */
async function novoFuncionario(nome?: string): Promise<Pessoa> {
  sequencia += 1;
  const f = await t.criarFuncionario({ nome: nome ?? `Vendedor ${sequencia}`, email: `vendedor${sequencia}@rotas.com.br` });
  return { id: f.id, token: f.token };
}

function dadosRota(funcionarioId: number, extra: Record<string, unknown> = {}) {
  return {
    nome: 'Rota Sul Goiano',
    funcionario_id: funcionarioId,
    tem_secretario: false,
    valor_aluguel: 350.5,
    data_inicio: '2026-11-01',
    data_fim: '2026-11-30',
    observacoes: 'Levar material novo.',
    cidades: [GOIANIA, ANAPOLIS, CALDAS_NOVAS],
    ...extra,
  };
}

async function criarRota(funcionarioId: number, extra: Record<string, unknown> = {}): Promise<Rota> {
  const r = await comoAdmin({ method: 'POST', url: '/api/rotas', payload: dadosRota(funcionarioId, extra) });
  expect(r.statusCode, r.body).toBe(201);
  return r.json().rota as Rota;
}

async function inserirVenda(rota: Rota, cidadeId: number, data: string, valores: Partial<{ dinheiro: number; pix: number; cartao: number; link: number; boletos: number }> = {}) {
  const id = uuidv7();
  await t.db
    .insert(vendas)
    .values({
      id,
      rotaId: rota.id,
      cidadeId,
      funcionarioId: rota.funcionario_id,
      dataVenda: data,
      dinheiroCentavos: valores.dinheiro ?? 0,
      pixCentavos: valores.pix ?? 0,
      cartaoCentavos: valores.cartao ?? 0,
      linkCentavos: valores.link ?? 0,
      boletos: valores.boletos ?? 0,
      registradoEm: new Date().toISOString(),
    });
  return id;
}

async function inserirDespesa(rota: Rota, cidadeId: number, data: string, valorCentavos: number, excluida = false) {
  const id = uuidv7();
  await t.db
    .insert(despesas)
    .values({
      id,
      rotaId: rota.id,
      cidadeId,
      funcionarioId: rota.funcionario_id,
      dataDespesa: data,
      tipo: 'alimentacao',
      valorCentavos,
      registradoEm: new Date().toISOString(),
      excluidaEm: excluida ? new Date().toISOString() : null,
    });
  return id;
}

const contarRotas = async () => (await t.db.select({ n: count() }).from(rotas))[0]!.n;
const contarRotaCidades = async () => (await t.db.select({ n: count() }).from(rotaCidades))[0]!.n;
const linhaRota = async (id: number) => (await t.db.select().from(rotas).where(eq(rotas.id, id)).limit(1))[0];

/**
 * Moves the moment a route closed `dias` days back and returns that day in APP_TZ: the last day of
 * the period it was active (shared/periodoRota.ts). Days before today, so the day after it is not in the future.
 */
async function fechadaHaDias(id: number, coluna: 'finalizadaEm' | 'canceladaEm', dias: number): Promise<string> {
  const instante = new Date(Date.now() - dias * 86_400_000).toISOString();
  await t.db.update(rotas).set({ [coluna]: instante }).where(eq(rotas.id, id));
  return dataNoFuso(new Date(instante), t.config.appTz);
}

/** Every endpoint with a valid request aimed at route `id` (city `cidade` on it). */
function endpoints(id: number | string, cidade = GOIANIA, funcionarioId = 1): (InjectOptions & { method: string; url: string })[] {
  return [
    { method: 'GET', url: '/api/rotas' },
    { method: 'GET', url: '/api/rotas/ativas' },
    { method: 'GET', url: '/api/rotas/funcionario' },
    { method: 'GET', url: '/api/rotas/ativas/funcionario' },
    { method: 'GET', url: '/api/rotas/finalizadas/funcionario' },
    { method: 'GET', url: `/api/rotas/${id}` },
    { method: 'GET', url: `/api/rotas/${id}/cidades` },
    { method: 'GET', url: `/api/rotas/${id}/cidades-status?data=${hojeApp}` },
    { method: 'POST', url: '/api/rotas', payload: dadosRota(funcionarioId) },
    { method: 'PUT', url: `/api/rotas/${id}`, payload: dadosRota(funcionarioId) },
    { method: 'DELETE', url: `/api/rotas/${id}` },
    { method: 'PATCH', url: `/api/rotas/${id}/finalizar` },
    { method: 'PATCH', url: `/api/rotas/${id}/cancelar` },
    { method: 'PATCH', url: `/api/rotas/${id}/reabrir` },
    { method: 'POST', url: `/api/rotas/${id}/cidades/${cidade}/visitar`, payload: { data: hojeApp } },
  ];
}

describe('acesso', () => {
  let a: Pessoa;
  let rotaA: Rota;
  beforeAll(async () => {
    a = await novoFuncionario('Ana Acesso');
    rotaA = await criarRota(a.id);
  });

  it('anônimo recebe 401 em todos os endpoints, antes de validar id ou corpo, e nada muda', async () => {
    const antes = await contarRotas();
    for (const e of endpoints(rotaA.id, GOIANIA, a.id)) {
      esperarRecusa(await t.chamar(e), 401, 'nao_autenticado');
      const invalido = { ...e, url: e.url.replace(String(rotaA.id), 'abc'), ...(e.payload ? { payload: { nome: 1 } } : {}) };
      esperarRecusa(await t.chamar(invalido), 401, 'nao_autenticado');
      esperarRecusa(await t.chamar({ ...e, token: 'token-falso' }), 401, 'sessao_invalida');
    }
    expect(await contarRotas()).toBe(antes);
    expect((await linhaRota(rotaA.id))?.status).toBe('ativa');
  });

  it('funcionário recebe 403 em criar, editar, cancelar e reabrir (antes da validação) e a mensagem da especificação ao excluir', async () => {
    const soDoAdmin = (x: { method: string; url: string }) =>
      (x.method === 'POST' && x.url === '/api/rotas') || x.method === 'PUT' || x.url.endsWith('/cancelar') || x.url.endsWith('/reabrir');
    for (const e of endpoints(rotaA.id, GOIANIA, a.id).filter(soDoAdmin)) {
      esperarRecusa(await t.chamar({ ...e, token: a.token }), 403, 'sem_permissao', SO_ADMIN);
      esperarRecusa(await t.chamar({ ...e, token: a.token, url: e.url.replace(String(rotaA.id), 'abc'), ...(e.payload ? { payload: {} } : {}) }), 403, 'sem_permissao', SO_ADMIN);
    }
    // Even on their own route, and on one that does not exist.
    esperarRecusa(await t.chamar({ method: 'DELETE', url: `/api/rotas/${rotaA.id}`, token: a.token }), 403, 'sem_permissao', SEM_PERMISSAO_EXCLUIR);
    esperarRecusa(await t.chamar({ method: 'DELETE', url: '/api/rotas/999999', token: a.token }), 403, 'sem_permissao', SEM_PERMISSAO_EXCLUIR);
    const linha = (await linhaRota(rotaA.id))!;
    expect(linha.status).toBe('ativa');
    expect(linha.nome).toBe('Rota Sul Goiano');
  });

  it('admin recebe 403 nas ações do funcionário: finalizar, visitar e as listas "minhas rotas"', async () => {
    for (const url of ['/api/rotas/funcionario', '/api/rotas/ativas/funcionario', '/api/rotas/finalizadas/funcionario']) {
      esperarRecusa(await comoAdmin({ method: 'GET', url }), 403, 'sem_permissao', SO_FUNCIONARIO);
    }
    esperarRecusa(await comoAdmin({ method: 'PATCH', url: `/api/rotas/${rotaA.id}/finalizar` }), 403, 'sem_permissao', SO_FUNCIONARIO);
    esperarRecusa(await comoAdmin({ method: 'POST', url: `/api/rotas/${rotaA.id}/cidades/${GOIANIA}/visitar` }), 403, 'sem_permissao', SO_FUNCIONARIO);
    expect((await linhaRota(rotaA.id))?.status).toBe('ativa');
    expect(await t.db.select().from(visitas).where(eq(visitas.rotaId, rotaA.id))).toHaveLength(0);
  });

  it('funcionário B nunca vê nem muda a rota de A: 404 como se ela não existisse', async () => {
    const b = await novoFuncionario('Bruno Outro');
    await criarRota(b.id, { nome: 'Rota de B', cidades: [SAO_PAULO] });
    for (const url of [`/api/rotas/${rotaA.id}`, `/api/rotas/${rotaA.id}/cidades`, `/api/rotas/${rotaA.id}/cidades-status`]) {
      esperarRecusa(await t.chamar({ method: 'GET', url, token: b.token }), 404, 'nao_encontrado', NAO_ENCONTRADA);
    }
    esperarRecusa(await t.chamar({ method: 'PATCH', url: `/api/rotas/${rotaA.id}/finalizar`, token: b.token }), 404, 'nao_encontrado', NAO_ENCONTRADA);
    esperarRecusa(
      await t.chamar({ method: 'POST', url: `/api/rotas/${rotaA.id}/cidades/${GOIANIA}/visitar`, token: b.token, payload: { id: uuidv7() } }),
      404,
      'nao_encontrado',
      NAO_ENCONTRADA,
    );
    // The lists: B's own only, whatever filter B sends.
    for (const url of ['/api/rotas', `/api/rotas?funcionario_id=${a.id}`, '/api/rotas/ativas', '/api/rotas/funcionario', '/api/rotas/ativas/funcionario']) {
      const r = await t.chamar({ method: 'GET', url, token: b.token });
      expect(r.statusCode, url).toBe(200);
      const lista = r.json().rotas as Rota[];
      expect(lista.map((x) => x.nome), url).toEqual(['Rota de B']);
    }
    expect((await linhaRota(rotaA.id))?.status).toBe('ativa');
    expect(await t.db.select().from(visitas).where(eq(visitas.rotaId, rotaA.id))).toHaveLength(0);
  });

  it('A vê a própria rota por id, suas cidades e o status do dia', async () => {
    const r = await t.chamar({ method: 'GET', url: `/api/rotas/${rotaA.id}`, token: a.token });
    expect(r.statusCode).toBe(200);
    expect(r.json().rota.id).toBe(rotaA.id);
    const c = await t.chamar({ method: 'GET', url: `/api/rotas/${rotaA.id}/cidades`, token: a.token });
    expect(c.json()).toEqual({
      cidades: [
        { id: GOIANIA, nome: 'Goiânia', uf: 'GO' },
        { id: ANAPOLIS, nome: 'Anápolis', uf: 'GO' },
        { id: CALDAS_NOVAS, nome: 'Caldas Novas', uf: 'GO' },
      ],
    });
    const s = await t.chamar({ method: 'GET', url: `/api/rotas/${rotaA.id}/cidades-status`, token: a.token });
    expect(s.json().data).toBe(hojeApp);
    expect(s.json().cidades).toHaveLength(3);
  });

  it('ids inválidos ou inexistentes: 400 e 404 com mensagens claras, nunca 500', async () => {
    for (const [url, metodo] of [
      ['/api/rotas/abc', 'GET'],
      ['/api/rotas/0', 'GET'],
      ['/api/rotas/-3/cidades', 'GET'],
      ['/api/rotas/1.5/cidades-status', 'GET'],
      ['/api/rotas/abc/cancelar', 'PATCH'],
      ['/api/rotas/abc/reabrir', 'PATCH'],
      ['/api/rotas/abc', 'DELETE'],
    ] as const) {
      esperarRecusa(await comoAdmin({ method: metodo, url }), 400, 'dados_invalidos', 'Identificador inválido.');
    }
    esperarRecusa(await t.chamar({ method: 'PATCH', url: '/api/rotas/abc/finalizar', token: a.token }), 400, 'dados_invalidos', 'Identificador inválido.');
    esperarRecusa(await t.chamar({ method: 'POST', url: `/api/rotas/abc/cidades/${GOIANIA}/visitar`, token: a.token }), 400, 'dados_invalidos', 'Rota inválida.');
    esperarRecusa(await t.chamar({ method: 'POST', url: `/api/rotas/${rotaA.id}/cidades/xyz/visitar`, token: a.token }), 400, 'dados_invalidos', 'Cidade inválida.');
    for (const e of [
      { method: 'GET', url: '/api/rotas/999999' },
      { method: 'GET', url: '/api/rotas/999999/cidades' },
      { method: 'GET', url: '/api/rotas/999999/cidades-status' },
      { method: 'PUT', url: '/api/rotas/999999', payload: dadosRota(a.id) },
      { method: 'PATCH', url: '/api/rotas/999999/cancelar' },
      { method: 'PATCH', url: '/api/rotas/999999/reabrir' },
    ] as const) {
      esperarRecusa(await comoAdmin(e), 404, 'nao_encontrado', NAO_ENCONTRADA);
    }
    esperarRecusa(await t.chamar({ method: 'PATCH', url: '/api/rotas/999999/finalizar', token: a.token }), 404, 'nao_encontrado', NAO_ENCONTRADA);
    esperarRecusa(await t.chamar({ method: 'POST', url: `/api/rotas/999999/cidades/${GOIANIA}/visitar`, token: a.token }), 404, 'nao_encontrado', NAO_ENCONTRADA);
  });
});

describe('criar rota', () => {
  it('cria com as cidades na ordem enviada, aluguel em reais e o nome do funcionário; campos desconhecidos são ignorados', async () => {
    const f = await novoFuncionario('Carla Criação');
    const antes = await contarRotas();
    const r = await comoAdmin({
      method: 'POST',
      url: '/api/rotas',
      payload: {
        ...dadosRota(f.id, { nome: '  Rota Triângulo  ', tem_secretario: true, secretario_nome: ' Sérgio ', valor_aluguel: 1234.56, cidades: [UBERLANDIA, GOIANIA, BELO_HORIZONTE, GOIANIA] }),
        status: 'finalizada',
        id: 4242,
        criado_por: 999,
        vendasHoje: 1000,
        secretario_id: 7,
      },
    });
    expect(r.statusCode, r.body).toBe(201);
    const rota = r.json().rota as Rota;
    expect(Object.keys(rota).sort()).toEqual(
      [
        'cidades',
        'criado_em',
        'data_fim',
        'data_inicio',
        'despesasHoje',
        'finalizada_em',
        'funcionario_id',
        'funcionario_nome',
        'id',
        'nome',
        'observacoes',
        'secretario_nome',
        'status',
        'tem_secretario',
        'valor_aluguel',
        'vendasHoje',
      ].sort(),
    );
    expect(rota).toMatchObject({
      nome: 'Rota Triângulo',
      funcionario_id: f.id,
      funcionario_nome: 'Carla Criação',
      tem_secretario: true,
      secretario_nome: 'Sérgio',
      valor_aluguel: 1234.56,
      data_inicio: '2026-11-01',
      data_fim: '2026-11-30',
      observacoes: 'Levar material novo.',
      status: 'ativa',
      vendasHoje: 0,
      despesasHoje: 0,
      finalizada_em: null,
    });
    expect(rota.id).not.toBe(4242);
    // The same city twice is kept once, in the order first sent.
    expect(rota.cidades).toEqual([
      { id: UBERLANDIA, nome: 'Uberlândia', uf: 'MG' },
      { id: GOIANIA, nome: 'Goiânia', uf: 'GO' },
      { id: BELO_HORIZONTE, nome: 'Belo Horizonte', uf: 'MG' },
    ]);
    expect(await contarRotas()).toBe(antes + 1);
    const linha = (await linhaRota(rota.id))!;
    expect(linha.valorAluguelCentavos).toBe(123456);
    expect(linha.criadoPor).toBe(adminId);
  });

  it('sem secretário o nome do secretário não é guardado; aluguel em branco vale 0 e aceita texto pt-BR', async () => {
    const f = await novoFuncionario();
    const rota = await criarRota(f.id, { tem_secretario: false, secretario_nome: 'Não deveria ficar', valor_aluguel: '1.250,75' });
    expect(rota.secretario_nome).toBeNull();
    expect(rota.valor_aluguel).toBe(1250.75);
    const g = await novoFuncionario();
    const semAluguel = await criarRota(g.id, { valor_aluguel: undefined, observacoes: null, secretario_nome: null });
    expect(semAluguel.valor_aluguel).toBe(0);
    expect(semAluguel.observacoes).toBe('');
  });

  it('campos faltando ou com tipo errado: 400 com a mensagem do campo, e nada é gravado', async () => {
    const f = await novoFuncionario();
    const base = dadosRota(f.id);
    const sem = (campo: keyof typeof base) => {
      const copia: Record<string, unknown> = { ...base };
      delete copia[campo];
      return copia;
    };
    const casos: [Record<string, unknown> | unknown, string][] = [
      [sem('nome'), 'O nome da rota é obrigatório e deve ter pelo menos 2 caracteres.'],
      [{ ...base, nome: ' a ' }, 'O nome da rota é obrigatório e deve ter pelo menos 2 caracteres.'],
      [{ ...base, nome: 42 }, 'O nome da rota é obrigatório e deve ter pelo menos 2 caracteres.'],
      [{ ...base, nome: 'x'.repeat(121) }, 'O nome da rota deve ter no máximo 120 caracteres.'],
      [sem('funcionario_id'), 'Funcionário é obrigatório.'],
      [{ ...base, funcionario_id: 'abc' }, 'Funcionário inválido.'],
      [{ ...base, funcionario_id: 1.5 }, 'Funcionário inválido.'],
      [{ ...base, funcionario_id: -1 }, 'Funcionário inválido.'],
      [sem('data_inicio'), 'Data de início é obrigatória.'],
      [sem('data_fim'), 'Data de fim é obrigatória.'],
      [{ ...base, data_inicio: '2026-02-30' }, 'Data de início inválida (use o formato aaaa-mm-dd).'],
      [{ ...base, data_inicio: '01/11/2026' }, 'Data de início inválida (use o formato aaaa-mm-dd).'],
      [{ ...base, data_fim: 20261130 }, 'Data de fim inválida.'],
      [{ ...base, data_fim: '' }, 'Data de fim é obrigatória.'],
      [{ ...base, tem_secretario: 'talvez' }, 'Secretário deve ser verdadeiro ou falso.'],
      [{ ...base, valor_aluguel: -10 }, 'Valor do aluguel não pode ser negativo.'],
      [{ ...base, valor_aluguel: 10.555 }, 'Valor do aluguel deve ter no máximo 2 casas decimais.'],
      [{ ...base, valor_aluguel: 'muito' }, 'Valor do aluguel deve ser um número.'],
      [sem('cidades'), 'Selecione pelo menos uma cidade para a rota.'],
      [{ ...base, cidades: [] }, 'Selecione pelo menos uma cidade para a rota.'],
      [{ ...base, cidades: 'Goiânia' }, 'Selecione pelo menos uma cidade para a rota.'],
      [{ ...base, cidades: ['abc'] }, 'Cidade inválida.'],
      [{ ...base, cidades: Array.from({ length: 301 }, (_, i) => i + 1) }, 'Uma rota pode ter no máximo 300 cidades.'],
      [{ ...base, observacoes: 5 }, 'Observações deve ser um texto.'],
      [[base], 'Dados da requisição inválidos.'],
    ];
    const antes = { rotas: await contarRotas(), cidades: await contarRotaCidades() };
    for (const [payload, mensagem] of casos) {
      esperarRecusa(await comoAdmin({ method: 'POST', url: '/api/rotas', payload: payload as object }), 400, 'dados_invalidos', mensagem);
    }
    esperarRecusa(await comoAdmin({ method: 'POST', url: '/api/rotas' }), 400, 'dados_invalidos');
    esperarRecusa(
      await comoAdmin({ method: 'POST', url: '/api/rotas', payload: '{"nome": ', headers: { 'content-type': 'application/json' } }),
      400,
      'dados_invalidos',
      'O corpo da requisição não é um JSON válido.',
    );
    expect({ rotas: await contarRotas(), cidades: await contarRotaCidades() }).toEqual(antes);
  });

  it('textos de 100 KB são recusados com 400, sem gravar', async () => {
    const f = await novoFuncionario();
    const antes = await contarRotas();
    for (const [campo, mensagem] of [
      ['nome', 'O nome da rota deve ter no máximo 120 caracteres.'],
      ['secretario_nome', 'Nome do secretário deve ter no máximo 120 caracteres.'],
      ['observacoes', 'Observações deve ter no máximo 2000 caracteres.'],
      ['data_inicio', 'Data de início inválida (use o formato aaaa-mm-dd).'],
    ] as const) {
      esperarRecusa(
        await comoAdmin({ method: 'POST', url: '/api/rotas', payload: dadosRota(f.id, { [campo]: CEM_KB, tem_secretario: true }) }),
        400,
        'dados_invalidos',
        mensagem,
      );
    }
    expect(await contarRotas()).toBe(antes);
  });

  it('regras de negócio: datas invertidas, cidade, funcionário inativo, admin ou inexistente são 422; segunda rota ativa é 409', async () => {
    const f = await novoFuncionario('Fábio Regras');
    const antes = { rotas: await contarRotas(), cidades: await contarRotaCidades() };
    esperarRecusa(
      await comoAdmin({ method: 'POST', url: '/api/rotas', payload: dadosRota(f.id, { data_inicio: '2026-11-30', data_fim: '2026-11-01' }) }),
      422,
      'regra_de_negocio',
      'A data de fim não pode ser anterior à data de início.',
    );
    esperarRecusa(
      await comoAdmin({ method: 'POST', url: '/api/rotas', payload: dadosRota(f.id, { cidades: [GOIANIA, 9999999, 1234567] }) }),
      422,
      'regra_de_negocio',
      'Cidades não encontradas: 9999999, 1234567.',
    );
    esperarRecusa(await comoAdmin({ method: 'POST', url: '/api/rotas', payload: dadosRota(adminId) }), 422, 'regra_de_negocio', 'Funcionário não encontrado.');
    esperarRecusa(await comoAdmin({ method: 'POST', url: '/api/rotas', payload: dadosRota(999999) }), 422, 'regra_de_negocio', 'Funcionário não encontrado.');
    const inativo = await novoFuncionario('Ivo Inativo');
    expect((await comoAdmin({ method: 'PATCH', url: `/api/usuarios/${inativo.id}/desativar` })).statusCode).toBe(200);
    esperarRecusa(
      await comoAdmin({ method: 'POST', url: '/api/rotas', payload: dadosRota(inativo.id) }),
      422,
      'regra_de_negocio',
      'Este funcionário está inativo e não pode receber rotas.',
    );
    expect({ rotas: await contarRotas(), cidades: await contarRotaCidades() }).toEqual(antes);

    // Same day start and end is fine.
    const primeira = await criarRota(f.id, { nome: 'Rota de um dia', data_inicio: '2026-11-10', data_fim: '2026-11-10' });
    const depois = { rotas: await contarRotas(), cidades: await contarRotaCidades() };
    esperarRecusa(
      await comoAdmin({ method: 'POST', url: '/api/rotas', payload: dadosRota(f.id, { nome: 'Outra' }) }),
      409,
      'conflito',
      'Este funcionário já tem uma rota ativa ("Rota de um dia"). Finalize ou cancele essa rota antes.',
    );
    expect({ rotas: await contarRotas(), cidades: await contarRotaCidades() }).toEqual(depois);

    // Once the first one is finished, a new route can be created.
    expect((await t.chamar({ method: 'PATCH', url: `/api/rotas/${primeira.id}/finalizar`, token: f.token })).statusCode).toBe(200);
    await criarRota(f.id, { nome: 'Segunda rota' });
  });
});

describe('listar rotas', () => {
  let x: Pessoa;
  let y: Pessoa;
  let ativaX: Rota;
  let finalizadaX: Rota;
  let canceladaX: Rota;
  let ativaY: Rota;
  beforeAll(async () => {
    x = await novoFuncionario('Xavier Lista');
    y = await novoFuncionario('Yara Lista');
    finalizadaX = await criarRota(x.id, { nome: 'X finalizada', data_inicio: '2026-09-01', data_fim: '2026-09-30' });
    await t.chamar({ method: 'PATCH', url: `/api/rotas/${finalizadaX.id}/finalizar`, token: x.token });
    canceladaX = await criarRota(x.id, { nome: 'X cancelada', data_inicio: '2026-10-01', data_fim: '2026-10-30' });
    await comoAdmin({ method: 'PATCH', url: `/api/rotas/${canceladaX.id}/cancelar` });
    ativaX = await criarRota(x.id, { nome: 'X ativa', data_inicio: '2026-08-01', data_fim: '2026-12-30' });
    ativaY = await criarRota(y.id, { nome: 'Y ativa' });
  });

  const nomes = async (url: string, token = tokenAdmin) => {
    const r = await t.chamar({ method: 'GET', url, token });
    expect(r.statusCode, r.body).toBe(200);
    return (r.json().rotas as Rota[]).map((rota) => rota.nome);
  };

  it('admin filtra por status e funcionário; ativas primeiro, depois as mais recentes', async () => {
    expect(await nomes(`/api/rotas?funcionario_id=${x.id}`)).toEqual(['X ativa', 'X cancelada', 'X finalizada']);
    expect(await nomes(`/api/rotas?funcionario_id=${x.id}&status=`)).toEqual(['X ativa', 'X cancelada', 'X finalizada']);
    expect(await nomes(`/api/rotas?funcionario_id=${x.id}&status=todas`)).toEqual(['X ativa', 'X cancelada', 'X finalizada']);
    expect(await nomes(`/api/rotas?funcionario_id=${x.id}&status=finalizada`)).toEqual(['X finalizada']);
    expect(await nomes(`/api/rotas?funcionario_id=${x.id}&status=cancelada`)).toEqual(['X cancelada']);
    expect(await nomes(`/api/rotas?status=ativa&funcionario_id=${y.id}`)).toEqual(['Y ativa']);
    const todas = await nomes('/api/rotas');
    expect(todas).toEqual(expect.arrayContaining(['X ativa', 'X cancelada', 'X finalizada', 'Y ativa']));
    const ativas = await nomes('/api/rotas?status=ativa');
    expect(ativas).toContain('X ativa');
    expect(ativas).not.toContain('X finalizada');
    expect(await nomes('/api/rotas/ativas')).toEqual(ativas);
    expect(await nomes(`/api/rotas?funcionario_id=999999`)).toEqual([]);
  });

  it('filtros inválidos: 400 com mensagem', async () => {
    esperarRecusa(await comoAdmin({ method: 'GET', url: '/api/rotas?status=Ativa' }), 400, 'dados_invalidos', 'Status inválido.');
    esperarRecusa(await comoAdmin({ method: 'GET', url: '/api/rotas?funcionario_id=abc' }), 400, 'dados_invalidos', 'Funcionário inválido.');
    esperarRecusa(await comoAdmin({ method: 'GET', url: `/api/rotas?status=${CEM_KB}` }), 400, 'dados_invalidos', 'Status inválido.');
  });

  it('o funcionário lista só as próprias: todas, ativas, finalizadas (nunca as de outro)', async () => {
    expect(await nomes('/api/rotas', x.token)).toEqual(['X ativa', 'X cancelada', 'X finalizada']);
    expect(await nomes(`/api/rotas?status=ativa&funcionario_id=${y.id}`, x.token)).toEqual(['X ativa']);
    expect(await nomes('/api/rotas/ativas', x.token)).toEqual(['X ativa']);
    expect(await nomes('/api/rotas/funcionario', x.token)).toEqual(['X ativa', 'X cancelada', 'X finalizada']);
    expect(await nomes('/api/rotas/ativas/funcionario', x.token)).toEqual(['X ativa']);
    expect(await nomes('/api/rotas/finalizadas/funcionario', x.token)).toEqual(['X finalizada']);
    expect(await nomes('/api/rotas/finalizadas/funcionario', y.token)).toEqual([]);
    expect(await nomes('/api/rotas/ativas/funcionario', y.token)).toEqual(['Y ativa']);
    expect(ativaX.status).toBe('ativa');
    expect(ativaY.funcionario_nome).toBe('Yara Lista');
  });

  it('a rota finalizada traz a hora da finalização', async () => {
    const r = await t.chamar({ method: 'GET', url: `/api/rotas/${finalizadaX.id}`, token: x.token });
    expect(r.json().rota.status).toBe('finalizada');
    expect(r.json().rota.finalizada_em).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect((await comoAdmin({ method: 'GET', url: `/api/rotas/${canceladaX.id}` })).json().rota.finalizada_em).toBeNull();
  });
});

describe('editar rota', () => {
  it('admin muda nome, datas, aluguel, secretário e cidades; status e funcionário ficam', async () => {
    const f = await novoFuncionario('Edu Edição');
    const rota = await criarRota(f.id);
    const r = await comoAdmin({
      method: 'PUT',
      url: `/api/rotas/${rota.id}`,
      payload: dadosRota(f.id, {
        nome: 'Rota Editada',
        data_fim: '2026-12-15',
        valor_aluguel: 99.9,
        tem_secretario: true,
        secretario_nome: 'Sônia',
        cidades: [CATALAO, GOIANIA, UBERLANDIA],
        status: 'cancelada',
      }),
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().rota).toMatchObject({
      id: rota.id,
      nome: 'Rota Editada',
      status: 'ativa',
      data_fim: '2026-12-15',
      valor_aluguel: 99.9,
      tem_secretario: true,
      secretario_nome: 'Sônia',
      cidades: [
        { id: CATALAO, nome: 'Catalão', uf: 'GO' },
        { id: GOIANIA, nome: 'Goiânia', uf: 'GO' },
        { id: UBERLANDIA, nome: 'Uberlândia', uf: 'MG' },
      ],
    });
    const lida = await t.chamar({ method: 'GET', url: `/api/rotas/${rota.id}/cidades`, token: f.token });
    expect(lida.json().cidades.map((c: { id: number }) => c.id)).toEqual([CATALAO, GOIANIA, UBERLANDIA]);
  });

  it('entrada inválida na edição: 400/422 e a rota fica como estava', async () => {
    const f = await novoFuncionario();
    const rota = await criarRota(f.id);
    esperarRecusa(await comoAdmin({ method: 'PUT', url: `/api/rotas/${rota.id}`, payload: dadosRota(f.id, { cidades: [] }) }), 400, 'dados_invalidos');
    esperarRecusa(await comoAdmin({ method: 'PUT', url: `/api/rotas/${rota.id}`, payload: dadosRota(f.id, { nome: CEM_KB }) }), 400, 'dados_invalidos');
    esperarRecusa(await comoAdmin({ method: 'PUT', url: `/api/rotas/${rota.id}`, payload: dadosRota(f.id, { cidades: [GOIANIA, 1111111] }) }), 422, 'regra_de_negocio', 'Cidade não encontrada: 1111111.');
    esperarRecusa(
      await comoAdmin({ method: 'PUT', url: `/api/rotas/${rota.id}`, payload: dadosRota(f.id, { data_inicio: '2026-12-01', data_fim: '2026-11-01' }) }),
      422,
      'regra_de_negocio',
      'A data de fim não pode ser anterior à data de início.',
    );
    const lida = (await comoAdmin({ method: 'GET', url: `/api/rotas/${rota.id}` })).json().rota;
    expect(lida).toEqual(rota);
  });

  it('troca de funcionário: permitida sem movimento; recusada (409) com visitas ou vendas, ou se o novo já tem rota ativa', async () => {
    const f = await novoFuncionario('Primeiro');
    const g = await novoFuncionario('Segundo');
    const h = await novoFuncionario('Terceiro');
    await criarRota(h.id, { nome: 'Rota do Terceiro' });
    const rota = await criarRota(f.id);
    esperarRecusa(
      await comoAdmin({ method: 'PUT', url: `/api/rotas/${rota.id}`, payload: dadosRota(h.id) }),
      409,
      'conflito',
      'Este funcionário já tem uma rota ativa ("Rota do Terceiro"). Finalize ou cancele essa rota antes.',
    );
    const trocada = await comoAdmin({ method: 'PUT', url: `/api/rotas/${rota.id}`, payload: dadosRota(g.id) });
    expect(trocada.statusCode, trocada.body).toBe(200);
    expect(trocada.json().rota).toMatchObject({ funcionario_id: g.id, funcionario_nome: 'Segundo' });
    // f has no route now; g sees it.
    expect((await t.chamar({ method: 'GET', url: `/api/rotas/${rota.id}`, token: f.token })).statusCode).toBe(404);

    expect((await t.chamar({ method: 'POST', url: `/api/rotas/${rota.id}/cidades/${GOIANIA}/visitar`, token: g.token })).statusCode).toBe(200);
    esperarRecusa(
      await comoAdmin({ method: 'PUT', url: `/api/rotas/${rota.id}`, payload: dadosRota(f.id) }),
      409,
      'conflito',
      'Não é possível trocar o funcionário: a rota já tem vendas, visitas, despesas ou saldo registrados.',
    );
    expect((await linhaRota(rota.id))?.funcionarioId).toBe(g.id);
  });

  it('não remove da rota uma cidade com venda, visita ou despesa (409), mas acrescenta cidades', async () => {
    const f = await novoFuncionario();
    const rota = await criarRota(f.id, { cidades: [GOIANIA, ANAPOLIS, CALDAS_NOVAS] });
    await inserirVenda(rota, GOIANIA, hojeApp, { dinheiro: 100 });
    await inserirDespesa(rota, ANAPOLIS, hojeApp, 500);
    esperarRecusa(
      await comoAdmin({ method: 'PUT', url: `/api/rotas/${rota.id}`, payload: dadosRota(f.id, { cidades: [CALDAS_NOVAS] }) }),
      409,
      'conflito',
      'Não é possível remover da rota Anápolis, Goiânia: já há vendas, visitas ou despesas registradas.',
    );
    expect((await comoAdmin({ method: 'GET', url: `/api/rotas/${rota.id}` })).json().rota.cidades).toHaveLength(3);
    const r = await comoAdmin({ method: 'PUT', url: `/api/rotas/${rota.id}`, payload: dadosRota(f.id, { cidades: [GOIANIA, ANAPOLIS, CATALAO] }) });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().rota.cidades.map((c: { id: number }) => c.id)).toEqual([GOIANIA, ANAPOLIS, CATALAO]);
  });

  it('edita a rota finalizada de um funcionário que depois foi desativado (sem trocar o funcionário)', async () => {
    const f = await novoFuncionario('Olga Saiu');
    const rota = await criarRota(f.id);
    await t.chamar({ method: 'PATCH', url: `/api/rotas/${rota.id}/finalizar`, token: f.token });
    expect((await comoAdmin({ method: 'PATCH', url: `/api/usuarios/${f.id}/desativar` })).statusCode).toBe(200);
    const r = await comoAdmin({ method: 'PUT', url: `/api/rotas/${rota.id}`, payload: dadosRota(f.id, { observacoes: 'Corrigido depois.' }) });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().rota).toMatchObject({ observacoes: 'Corrigido depois.', status: 'finalizada', funcionario_id: f.id });
    // Giving a route to an inactive employee is still refused.
    const g = await novoFuncionario();
    const outra = await criarRota(g.id);
    esperarRecusa(
      await comoAdmin({ method: 'PUT', url: `/api/rotas/${outra.id}`, payload: dadosRota(f.id) }),
      422,
      'regra_de_negocio',
      'Este funcionário está inativo e não pode receber rotas.',
    );
  });
});

describe('excluir rota', () => {
  it('exclui uma rota sem movimento (com as cidades e visitas); excluir de novo é 404 com a mensagem da especificação', async () => {
    const f = await novoFuncionario();
    const rota = await criarRota(f.id);
    expect((await t.chamar({ method: 'POST', url: `/api/rotas/${rota.id}/cidades/${GOIANIA}/visitar`, token: f.token })).statusCode).toBe(200);
    const r = await comoAdmin({ method: 'DELETE', url: `/api/rotas/${rota.id}` });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toEqual({ message: 'Rota excluída com sucesso!' });
    expect(await linhaRota(rota.id)).toBeUndefined();
    expect(await t.db.select().from(rotaCidades).where(eq(rotaCidades.rotaId, rota.id))).toHaveLength(0);
    expect(await t.db.select().from(visitas).where(eq(visitas.rotaId, rota.id))).toHaveLength(0);
    esperarRecusa(await comoAdmin({ method: 'DELETE', url: `/api/rotas/${rota.id}` }), 404, 'nao_encontrado', NAO_ENCONTRADA_OU_EXCLUIDA);
    esperarRecusa(await t.chamar({ method: 'GET', url: `/api/rotas/${rota.id}`, token: f.token }), 404, 'nao_encontrado', NAO_ENCONTRADA);
    // The employee is free for a new route.
    await criarRota(f.id);
  });

  it('rota finalizada (mesmo sem movimento) não é excluída: faz parte do histórico do funcionário (409)', async () => {
    const f = await novoFuncionario();
    const rota = await criarRota(f.id);
    expect((await t.chamar({ method: 'PATCH', url: `/api/rotas/${rota.id}/finalizar`, token: f.token })).statusCode).toBe(200);
    esperarRecusa(
      await comoAdmin({ method: 'DELETE', url: `/api/rotas/${rota.id}` }),
      409,
      'conflito',
      'Uma rota finalizada faz parte do histórico do funcionário e não pode ser excluída.',
    );
    expect(await linhaRota(rota.id)).toBeDefined();
  });

  it('rota com venda, despesa (mesmo excluída) ou saldo: 409 com mensagem clara, e nada é apagado', async () => {
    const mensagem = 'Esta rota tem vendas, despesas ou saldo registrados e não pode ser excluída. Finalize ou cancele a rota.';
    const casos: [string, (rota: Rota) => Promise<unknown>][] = [
      ['venda', (rota) => inserirVenda(rota, GOIANIA, hojeApp, { pix: 1 })],
      ['despesa', (rota) => inserirDespesa(rota, ANAPOLIS, hojeApp, 1)],
      ['despesa excluída', (rota) => inserirDespesa(rota, ANAPOLIS, hojeApp, 1, true)],
      [
        'saldo',
        (rota) =>
          t.db
            .insert(movimentacoesSaldo)
            .values({ funcionarioId: rota.funcionario_id, tipo: 'credito', valorCentavos: 5000, saldoAnteriorCentavos: 0, saldoNovoCentavos: 5000, adminId, rotaId: rota.id }),
      ],
    ];
    for (const [caso, registrar] of casos) {
      const f = await novoFuncionario();
      const rota = await criarRota(f.id);
      await registrar(rota);
      esperarRecusa(await comoAdmin({ method: 'DELETE', url: `/api/rotas/${rota.id}` }), 409, 'conflito', mensagem);
      expect(await linhaRota(rota.id), caso).toBeDefined();
      expect(await t.db.select().from(rotaCidades).where(eq(rotaCidades.rotaId, rota.id)), caso).toHaveLength(3);
    }
  });
});

describe('finalizar e cancelar', () => {
  it('o funcionário finaliza a própria rota; repetir devolve a mesma rota sem mudar a hora (reenvio da fila)', async () => {
    const f = await novoFuncionario();
    const rota = await criarRota(f.id);
    const r = await t.chamar({ method: 'PATCH', url: `/api/rotas/${rota.id}/finalizar`, token: f.token });
    expect(r.statusCode, r.body).toBe(200);
    const finalizada = r.json().rota as Rota;
    expect(finalizada.status).toBe('finalizada');
    expect(finalizada.finalizada_em).not.toBeNull();
    const deNovo = await t.chamar({ method: 'PATCH', url: `/api/rotas/${rota.id}/finalizar`, token: f.token, payload: { qualquer: 'coisa' } });
    expect(deNovo.statusCode).toBe(200);
    expect(deNovo.json().rota).toEqual(finalizada);
    // An admin cannot cancel it afterwards.
    esperarRecusa(await comoAdmin({ method: 'PATCH', url: `/api/rotas/${rota.id}/cancelar` }), 409, 'conflito', 'Uma rota finalizada não pode ser cancelada.');
    expect((await linhaRota(rota.id))?.status).toBe('finalizada');
  });

  it('o admin cancela uma rota ativa (guardando a hora); repetir devolve a rota sem mudar a hora; cancelada não pode ser finalizada', async () => {
    const f = await novoFuncionario();
    const rota = await criarRota(f.id);
    const antes = new Date().toISOString();
    const r = await comoAdmin({ method: 'PATCH', url: `/api/rotas/${rota.id}/cancelar` });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().rota).toMatchObject({ id: rota.id, status: 'cancelada', finalizada_em: null });
    const canceladaEm = (await linhaRota(rota.id))!.canceladaEm!;
    expect(canceladaEm >= antes && canceladaEm <= new Date().toISOString()).toBe(true);
    const deNovo = await comoAdmin({ method: 'PATCH', url: `/api/rotas/${rota.id}/cancelar` });
    expect(deNovo.statusCode).toBe(200);
    expect(deNovo.json().rota).toEqual(r.json().rota);
    expect((await linhaRota(rota.id))!.canceladaEm).toBe(canceladaEm);
    // The phone's queued 'Finalizar Rota' arrives after the admin cancelled: refused, saying why.
    esperarRecusa(
      await t.chamar({ method: 'PATCH', url: `/api/rotas/${rota.id}/finalizar`, token: f.token }),
      409,
      'conflito',
      'Esta rota foi cancelada pelo administrador e não pode ser finalizada. As vendas, visitas e despesas feitas até o dia do cancelamento continuam sendo aceitas.',
    );
    expect(await linhaRota(rota.id)).toMatchObject({ status: 'cancelada', finalizadaEm: null, canceladaEm });
  });

  it('finalizar uma rota que já foi finalizada (por outro aparelho) devolve a rota como está', async () => {
    const f = await novoFuncionario();
    const rota = await criarRota(f.id);
    const primeira = await t.chamar({ method: 'PATCH', url: `/api/rotas/${rota.id}/finalizar`, token: f.token });
    expect(primeira.statusCode).toBe(200);
    const segunda = await t.chamar({ method: 'PATCH', url: `/api/rotas/${rota.id}/finalizar`, token: f.token, payload: { id: uuidv7() } });
    expect(segunda.statusCode, segunda.body).toBe(200);
    expect(segunda.json().rota).toEqual(primeira.json().rota);
  });
});

describe('visitar cidade', () => {
  let a: Pessoa;
  let b: Pessoa;
  let rotaA: Rota;
  let rotaB: Rota;
  beforeAll(async () => {
    a = await novoFuncionario('Alice Visita');
    b = await novoFuncionario('Beto Visita');
    rotaA = await criarRota(a.id, { cidades: [GOIANIA, ANAPOLIS, CALDAS_NOVAS] });
    rotaB = await criarRota(b.id, { cidades: [GOIANIA, SAO_PAULO] });
  });

  const visitar = (rota: Rota, cidade: number, token: string, payload?: object) =>
    t.chamar({ method: 'POST', url: `/api/rotas/${rota.id}/cidades/${cidade}/visitar`, token, ...(payload ? { payload } : {}) });
  const visitasDaRota = (rota: Rota) => t.db.select().from(visitas).where(eq(visitas.rotaId, rota.id));

  it('sem corpo marca hoje (no fuso do negócio); de novo no mesmo dia devolve a mesma visita', async () => {
    const r = await visitar(rotaA, GOIANIA, a.token);
    expect(r.statusCode, r.body).toBe(200);
    const visita = r.json().visita;
    expect(visita).toMatchObject({ rota_id: rotaA.id, cidade_id: GOIANIA, data: hojeApp });
    expect(Object.keys(visita).sort()).toEqual(['cidade_id', 'data', 'id', 'recebido_em', 'rota_id']);
    const outra = await visitar(rotaA, GOIANIA, a.token, { id: uuidv7() });
    expect(outra.json().visita).toEqual(visita);
    expect(await visitasDaRota(rotaA)).toHaveLength(1);
  });

  it('com id e data: o reenvio com o mesmo id devolve a mesma visita; o mesmo id de outro usuário ou outra cidade é 409', async () => {
    const id = uuidv7();
    const ontem = somarDias(hojeApp, -1);
    const r = await visitar(rotaA, ANAPOLIS, a.token, { id, data: ontem, registrado_em: '2026-11-20T13:00:00.000Z', extra: 'ignorado' });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().visita).toMatchObject({ id, data: ontem, cidade_id: ANAPOLIS });
    const reenvio = await visitar(rotaA, ANAPOLIS, a.token, { id: id.toUpperCase(), data: ontem });
    expect(reenvio.statusCode).toBe(200);
    expect(reenvio.json().visita).toEqual(r.json().visita);
    const linha = (await t.db.select().from(visitas).where(eq(visitas.id, id)).limit(1))[0]!;
    expect(linha.registradoEm).toBe('2026-11-20T13:00:00.000Z');
    expect(linha.funcionarioId).toBe(a.id);

    esperarRecusa(await visitar(rotaB, GOIANIA, b.token, { id, data: ontem }), 409, 'conflito', 'Este identificador já foi usado por outro registro.');
    esperarRecusa(await visitar(rotaA, CALDAS_NOVAS, a.token, { id, data: ontem }), 409, 'conflito', 'Este identificador já foi usado por outro registro.');
    expect(await visitasDaRota(rotaB)).toHaveLength(0);
    expect(await t.db.select().from(visitas).where(eq(visitas.id, id))).toHaveLength(1);
  });

  it('entrada inválida: cidade fora da rota 422, data futura 422, data ou id malformados 400', async () => {
    esperarRecusa(await visitar(rotaA, SAO_PAULO, a.token), 422, 'regra_de_negocio', 'Esta cidade não faz parte da rota.');
    esperarRecusa(await visitar(rotaA, 9999999, a.token), 422, 'regra_de_negocio', 'Esta cidade não faz parte da rota.');
    esperarRecusa(await visitar(rotaA, CALDAS_NOVAS, a.token, { data: somarDias(hojeApp, 1) }), 422, 'regra_de_negocio', 'A data da visita não pode estar no futuro.');
    esperarRecusa(await visitar(rotaA, CALDAS_NOVAS, a.token, { data: '2026-13-01' }), 400, 'dados_invalidos', 'Data da visita inválida (use o formato aaaa-mm-dd).');
    esperarRecusa(await visitar(rotaA, CALDAS_NOVAS, a.token, { data: CEM_KB }), 400, 'dados_invalidos', 'Data da visita inválida (use o formato aaaa-mm-dd).');
    esperarRecusa(await visitar(rotaA, CALDAS_NOVAS, a.token, { id: 'nao-e-uuid' }), 400, 'dados_invalidos', 'Identificador da visita inválido.');
    esperarRecusa(await visitar(rotaA, CALDAS_NOVAS, a.token, { id: 123 }), 400, 'dados_invalidos', 'Identificador da visita inválido.');
    esperarRecusa(await visitar(rotaA, CALDAS_NOVAS, a.token, { registrado_em: 'ontem' }), 400, 'dados_invalidos', 'Hora de registro inválida.');
    expect(await t.db.select().from(visitas).where(eq(visitas.cidadeId, CALDAS_NOVAS))).toHaveLength(0);
  });

  it('a finalização do funcionário congela a rota: visita nova é 409 rota_finalizada, a reenviada é respondida; a cancelada aceita o período ativo', async () => {
    const f = await novoFuncionario();
    const rota = await criarRota(f.id, { data_inicio: somarDias(hojeApp, -10), data_fim: somarDias(hojeApp, 10) });
    const id = uuidv7();
    const primeira = await visitar(rota, GOIANIA, f.token, { id, data: hojeApp });
    expect(primeira.statusCode).toBe(200);
    expect((await t.chamar({ method: 'PATCH', url: `/api/rotas/${rota.id}/finalizar`, token: f.token })).statusCode).toBe(200);
    // Frozen at the finish: no new visit, of any date inside the period (a queued one is held by the batch instead).
    const congelada = 'Esta rota já foi finalizada e não aceita novos registros.';
    esperarRecusa(await visitar(rota, ANAPOLIS, f.token), 409, 'rota_finalizada', congelada);
    esperarRecusa(await visitar(rota, CALDAS_NOVAS, f.token, { id: uuidv7(), data: somarDias(hojeApp, -1) }), 409, 'rota_finalizada', congelada);
    const fim = await fechadaHaDias(rota.id, 'finalizadaEm', 3);
    esperarRecusa(await visitar(rota, ANAPOLIS, f.token, { data: somarDias(fim, 1) }), 409, 'rota_finalizada', congelada);
    // Before the route began: 422 naming the period, whatever the status.
    esperarRecusa(await visitar(rota, ANAPOLIS, f.token, { data: somarDias(hojeApp, -11) }), 422, 'regra_de_negocio', /^A data .* está fora do período da rota/);
    // The answer to the first send was lost; the queue sends it again: answered, whatever its date.
    const reenvio = await visitar(rota, GOIANIA, f.token, { id, data: hojeApp });
    expect(reenvio.statusCode, reenvio.body).toBe(200);
    expect(reenvio.json().visita).toEqual(primeira.json().visita);
    expect((await visitasDaRota(rota)).map((v) => v.data)).toEqual([hojeApp]);

    const g = await novoFuncionario();
    const cancelada = await criarRota(g.id, { data_inicio: somarDias(hojeApp, -10), data_fim: somarDias(hojeApp, 10) });
    await comoAdmin({ method: 'PATCH', url: `/api/rotas/${cancelada.id}/cancelar` });
    expect((await visitar(cancelada, GOIANIA, g.token)).statusCode).toBe(200);
    const fimCancelada = await fechadaHaDias(cancelada.id, 'canceladaEm', 3);
    esperarRecusa(await visitar(cancelada, ANAPOLIS, g.token, { data: somarDias(fimCancelada, 1) }), 409, 'conflito', 'Esta rota foi cancelada e não aceita novos registros.');
    expect((await visitar(cancelada, ANAPOLIS, g.token, { data: fimCancelada })).statusCode).toBe(200);
    expect((await visitasDaRota(cancelada)).map((v) => v.data).sort()).toEqual([fimCancelada, hojeApp].sort());
  });

  it('rota cancelada antes de a hora do cancelamento ser guardada: nenhuma visita nova (não se sabe até quando esteve ativa)', async () => {
    const f = await novoFuncionario();
    const rota = await criarRota(f.id, { data_inicio: somarDias(hojeApp, -10) });
    await comoAdmin({ method: 'PATCH', url: `/api/rotas/${rota.id}/cancelar` });
    await t.db.update(rotas).set({ canceladaEm: null }).where(eq(rotas.id, rota.id));
    esperarRecusa(await visitar(rota, GOIANIA, f.token, { data: somarDias(hojeApp, -5) }), 409, 'conflito', 'Esta rota foi cancelada e não aceita novos registros.');
    expect(await visitasDaRota(rota)).toHaveLength(0);
  });
});

describe('desfazer a visita (o "Desfazer" do aviso do celular)', () => {
  const visitar = (rota: Rota, cidade: number, token: string, data: string) =>
    t.chamar({ method: 'POST', url: `/api/rotas/${rota.id}/cidades/${cidade}/visitar`, token, payload: { id: uuidv7(), data } });
  const desfazer = (rotaId: number | string, cidade: number | string, token: string, payload: object = { data: hojeApp }) =>
    t.chamar({ method: 'POST', url: `/api/rotas/${rotaId}/cidades/${cidade}/desfazer-visita`, token, payload });
  const visitasDaRota = (rota: Rota) => t.db.select().from(visitas).where(eq(visitas.rotaId, rota.id));

  it('o dono tira a visita do dia; de novo (o reenvio da fila) não muda nada; a cidade volta a ficar em aberto', async () => {
    const f = await novoFuncionario();
    const rota = await criarRota(f.id, { cidades: [GOIANIA, ANAPOLIS] });
    const ontem = somarDias(hojeApp, -1);
    expect((await visitar(rota, GOIANIA, f.token, hojeApp)).statusCode).toBe(200);
    expect((await visitar(rota, GOIANIA, f.token, ontem)).statusCode).toBe(200);
    const r = await desfazer(rota.id, GOIANIA, f.token);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toEqual({ removida: true });
    // Only that day's visit: the one of the day before stays.
    expect((await visitasDaRota(rota)).map((v) => v.data)).toEqual([ontem]);
    const denovo = await desfazer(rota.id, GOIANIA, f.token);
    expect(denovo.statusCode).toBe(200);
    expect(denovo.json()).toEqual({ removida: false });
    const status = await t.chamar({ method: 'GET', url: `/api/rotas/${rota.id}/cidades-status?data=${hojeApp}`, token: f.token });
    expect(status.json().cidades.find((c: { cidade_id: number }) => c.cidade_id === GOIANIA)).toMatchObject({ visitada: false });
  });

  it('só o funcionário dono da rota: o admin 403, outro funcionário 404 (e a visita fica); rota finalizada 409; entrada inválida 400/422', async () => {
    const f = await novoFuncionario();
    const outro = await novoFuncionario();
    const rota = await criarRota(f.id, { cidades: [GOIANIA, ANAPOLIS], data_inicio: somarDias(hojeApp, -5), data_fim: somarDias(hojeApp, 5) });
    expect((await visitar(rota, GOIANIA, f.token, hojeApp)).statusCode).toBe(200);
    esperarRecusa(await desfazer(rota.id, GOIANIA, tokenAdmin), 403, 'sem_permissao', SO_FUNCIONARIO);
    esperarRecusa(await desfazer(rota.id, GOIANIA, outro.token), 404, 'nao_encontrado', NAO_ENCONTRADA);
    esperarRecusa(await t.chamar({ method: 'POST', url: `/api/rotas/${rota.id}/cidades/${GOIANIA}/desfazer-visita`, payload: { data: hojeApp } }), 401, 'nao_autenticado');
    esperarRecusa(await desfazer('abc', GOIANIA, f.token), 400, 'dados_invalidos', 'Rota inválida.');
    esperarRecusa(await desfazer(rota.id, GOIANIA, f.token, { data: '2026-13-01' }), 400, 'dados_invalidos', 'Data da visita inválida (use o formato aaaa-mm-dd).');
    esperarRecusa(await desfazer(rota.id, GOIANIA, f.token, {}), 400, 'dados_invalidos', /Data da visita/);
    esperarRecusa(await desfazer(rota.id, SAO_PAULO, f.token), 422, 'regra_de_negocio', 'Esta cidade não faz parte da rota.');
    expect(await visitasDaRota(rota)).toHaveLength(1);
    expect((await t.chamar({ method: 'PATCH', url: `/api/rotas/${rota.id}/finalizar`, token: f.token })).statusCode).toBe(200);
    esperarRecusa(await desfazer(rota.id, GOIANIA, f.token), 409, 'rota_finalizada', 'Esta rota já foi finalizada e não aceita novos registros.');
    expect(await visitasDaRota(rota)).toHaveLength(1);
  });
});

describe('reabrir rota (admin)', () => {
  const reabrir = (id: number, token = tokenAdmin) => t.chamar({ method: 'PATCH', url: `/api/rotas/${id}/reabrir`, token });
  const cancelar = (id: number) => comoAdmin({ method: 'PATCH', url: `/api/rotas/${id}/cancelar` });
  const visitar = (rota: Rota, cidade: number, token: string, data: string) =>
    t.chamar({ method: 'POST', url: `/api/rotas/${rota.id}/cidades/${cidade}/visitar`, token, payload: { id: uuidv7(), data } });

  it('volta a rota cancelada para ativa, sem a hora do cancelamento: ela aceita de novo registros de depois do cancelamento', async () => {
    const f = await novoFuncionario();
    const rota = await criarRota(f.id, { data_inicio: somarDias(hojeApp, -10) });
    await cancelar(rota.id);
    const fim = await fechadaHaDias(rota.id, 'canceladaEm', 3);
    esperarRecusa(await visitar(rota, GOIANIA, f.token, somarDias(fim, 1)), 409, 'conflito', 'Esta rota foi cancelada e não aceita novos registros.');

    const r = await reabrir(rota.id);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().rota).toMatchObject({ id: rota.id, status: 'ativa', finalizada_em: null, nome: rota.nome, funcionario_id: f.id });
    expect(await linhaRota(rota.id)).toMatchObject({ status: 'ativa', canceladaEm: null, finalizadaEm: null });
    expect((await visitar(rota, GOIANIA, f.token, somarDias(fim, 1))).statusCode).toBe(200);
    const ativas = await t.chamar({ method: 'GET', url: '/api/rotas/ativas/funcionario', token: f.token });
    expect(ativas.json().rotas.map((x: Rota) => x.id)).toEqual([rota.id]);
    // Reopening again: it is not cancelled any more.
    esperarRecusa(await reabrir(rota.id), 409, 'conflito', 'Só rotas canceladas podem ser reabertas.');
    // The employee can finish it now.
    expect((await t.chamar({ method: 'PATCH', url: `/api/rotas/${rota.id}/finalizar`, token: f.token })).statusCode).toBe(200);
  });

  it('recusas: rota ativa ou finalizada 409, inexistente 404, funcionário com outra rota ativa 409, funcionário inativo 422, funcionário 403', async () => {
    const f = await novoFuncionario();
    const ativa = await criarRota(f.id);
    esperarRecusa(await reabrir(ativa.id), 409, 'conflito', 'Só rotas canceladas podem ser reabertas.');
    expect((await t.chamar({ method: 'PATCH', url: `/api/rotas/${ativa.id}/finalizar`, token: f.token })).statusCode).toBe(200);
    esperarRecusa(await reabrir(ativa.id), 409, 'conflito', 'Só rotas canceladas podem ser reabertas.');
    expect((await linhaRota(ativa.id))?.status).toBe('finalizada');
    esperarRecusa(await reabrir(999999), 404, 'nao_encontrado', NAO_ENCONTRADA);

    // One active route per employee: the admin gave them a new one after cancelling.
    const cancelada = await criarRota(f.id, { nome: 'Rota cancelada por engano' });
    await cancelar(cancelada.id);
    const canceladaEm = (await linhaRota(cancelada.id))!.canceladaEm;
    await criarRota(f.id, { nome: 'Rota Nova' });
    esperarRecusa(await reabrir(cancelada.id), 409, 'conflito', 'Este funcionário já tem uma rota ativa ("Rota Nova"). Finalize ou cancele essa rota antes.');
    expect(await linhaRota(cancelada.id)).toMatchObject({ status: 'cancelada', canceladaEm });

    // The employee cannot reopen, not even their own route.
    esperarRecusa(await reabrir(cancelada.id, f.token), 403, 'sem_permissao', SO_ADMIN);
    expect((await linhaRota(cancelada.id))?.status).toBe('cancelada');

    const g = await novoFuncionario();
    const deInativo = await criarRota(g.id);
    await cancelar(deInativo.id);
    expect((await comoAdmin({ method: 'PATCH', url: `/api/usuarios/${g.id}/desativar` })).statusCode).toBe(200);
    esperarRecusa(await reabrir(deInativo.id), 422, 'regra_de_negocio', 'Este funcionário está inativo e não pode receber rotas.');
    expect((await linhaRota(deInativo.id))?.status).toBe('cancelada');
  });
});

describe('totais do dia e status das cidades', () => {
  it('vendasHoje e despesasHoje somam exatamente os centavos de hoje (sem boletos, sem despesa excluída, sem outros dias)', async () => {
    const f = await novoFuncionario();
    const rota = await criarRota(f.id, { cidades: [GOIANIA, ANAPOLIS, CALDAS_NOVAS] });
    const ontem = somarDias(hojeApp, -1);
    await inserirVenda(rota, GOIANIA, hojeApp, { dinheiro: 10, pix: 20, cartao: 1, link: 2, boletos: 7 }); // 0,33
    await inserirVenda(rota, ANAPOLIS, hojeApp, { dinheiro: 123456789, pix: 1 }); // 1.234.567,90
    await inserirVenda(rota, CALDAS_NOVAS, ontem, { dinheiro: 99999 });
    await inserirDespesa(rota, GOIANIA, hojeApp, 10);
    await inserirDespesa(rota, ANAPOLIS, hojeApp, 20);
    await inserirDespesa(rota, ANAPOLIS, hojeApp, 5000, true);
    await inserirDespesa(rota, ANAPOLIS, ontem, 7000);
    const outra = await criarRota((await novoFuncionario()).id);
    await inserirVenda(outra, GOIANIA, hojeApp, { dinheiro: 500 });

    const lida = (await comoAdmin({ method: 'GET', url: `/api/rotas/${rota.id}` })).json().rota as Rota;
    expect(lida.vendasHoje).toBe(1234568.23);
    expect(lida.despesasHoje).toBe(0.3);
    const naLista = ((await comoAdmin({ method: 'GET', url: `/api/rotas?funcionario_id=${f.id}` })).json().rotas as Rota[])[0]!;
    expect(naLista).toMatchObject({ vendasHoje: 1234568.23, despesasHoje: 0.3 });
    expect((await comoAdmin({ method: 'GET', url: `/api/rotas/${outra.id}` })).json().rota).toMatchObject({ vendasHoje: 5, despesasHoje: 0 });
  });

  it('cidades-status: fechada com venda, visitada com visita ou venda, por data; data padrão é hoje; data inválida é 400', async () => {
    const f = await novoFuncionario();
    const rota = await criarRota(f.id, { cidades: [CALDAS_NOVAS, GOIANIA, ANAPOLIS] });
    const dia = somarDias(hojeApp, -2);
    const vendaId = await inserirVenda(rota, GOIANIA, dia, { dinheiro: 100 });
    expect((await t.chamar({ method: 'POST', url: `/api/rotas/${rota.id}/cidades/${ANAPOLIS}/visitar`, token: f.token, payload: { data: dia } })).statusCode).toBe(200);
    expect((await t.chamar({ method: 'POST', url: `/api/rotas/${rota.id}/cidades/${CALDAS_NOVAS}/visitar`, token: f.token })).statusCode).toBe(200);

    const r = await t.chamar({ method: 'GET', url: `/api/rotas/${rota.id}/cidades-status?data=${dia}`, token: f.token });
    expect(r.statusCode, r.body).toBe(200);
    const [caldas, goiania, anapolis] = r.json().cidades;
    expect(r.json().data).toBe(dia);
    expect(caldas).toMatchObject({ cidade_id: CALDAS_NOVAS, cidade_nome: 'Caldas Novas', uf: 'GO', rota_id: rota.id, fechada: 0, visitada: false, venda_id: null });
    expect(goiania).toMatchObject({ cidade_id: GOIANIA, fechada: 1, visitada: true, venda_id: vendaId });
    expect(anapolis).toMatchObject({ cidade_id: ANAPOLIS, fechada: 0, visitada: true, venda_id: null });
    expect(typeof goiania.rota_cidade_id).toBe('number');

    const hojeStatus = (await comoAdmin({ method: 'GET', url: `/api/rotas/${rota.id}/cidades-status` })).json();
    expect(hojeStatus.data).toBe(hojeApp);
    expect(hojeStatus.cidades.map((c: { visitada: boolean; fechada: number }) => [c.visitada, c.fechada])).toEqual([
      [true, 0],
      [false, 0],
      [false, 0],
    ]);
    const vazio = (await comoAdmin({ method: 'GET', url: `/api/rotas/${rota.id}/cidades-status?data=` })).json();
    expect(vazio.data).toBe(hojeApp);
    esperarRecusa(await comoAdmin({ method: 'GET', url: `/api/rotas/${rota.id}/cidades-status?data=2026-02-30` }), 400, 'dados_invalidos', 'Data inválida (use o formato aaaa-mm-dd).');
  });
});
