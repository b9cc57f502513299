import { eq, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoje, somarDias } from '../../../shared/dates';
import { ANAPOLIS, GOIANIA, criarRotaAtiva, formulario } from '../../test/despesas';
import { criarAppDeTeste, esperarRecusa, type AppDeTeste } from '../../test/helper';
import { linha } from '../db';
import { movimentacoesSaldo } from '../db/tabelas';
import { registrarMovimentacao } from './servico';

interface Pessoa {
  id: number;
  email: string;
  senha: string;
  token: string;
}

let t: AppDeTeste;
let tokenAdmin: string;
let gil: Pessoa;
let rotaGil: number;
let helena: Pessoa;

beforeAll(async () => {
  t = await criarAppDeTeste();
  tokenAdmin = await t.tokenAdmin();
  gil = await t.criarFuncionario({ nome: 'Gil Saldo', email: 'gil@teste.com.br' });
  rotaGil = await criarRotaAtiva(t, gil.id, [GOIANIA, ANAPOLIS], 'Rota do Gil');
  helena = await t.criarFuncionario({ nome: 'Helena Sem Rota', email: 'helena@teste.com.br' });
});
afterAll(async () => {
  await t?.fechar();
});

const adicionar = (payload: Record<string, unknown>, token = tokenAdmin) => t.chamar({ method: 'POST', url: '/api/saldo/adicionar', token, payload });

async function despesa(valor: string) {
  const corpo = await formulario({
    id: uuidv7(),
    rota_id: rotaGil,
    cidade_id: GOIANIA,
    data_despesa: somarDias(hoje('America/Sao_Paulo'), -2),
    tipo: 'alimentacao',
    valor,
    descricao: '',
  });
  const r = await t.chamar({ method: 'POST', url: '/api/despesas', token: gil.token, ...corpo });
  expect(r.statusCode, r.body).toBe(201);
}

describe('POST /saldo/adicionar', () => {
  it('credita com descrição padrão, ligado à rota ativa, e responde o novo saldo', async () => {
    const r = await adicionar({ funcionario_id: gil.id, valor: 250.5, descricao: '', rota_id: rotaGil });
    expect(r.statusCode, r.body).toBe(201);
    expect(r.json()).toMatchObject({
      message: 'Saldo adicionado com sucesso!',
      saldo: { saldo_atual: 250.5 },
      movimentacao: {
        tipo: 'credito',
        valor: 250.5,
        saldo_anterior: 0,
        saldo_novo: 250.5,
        descricao: 'Movimentação de saldo',
        admin_nome: 'Administrador',
        funcionario_nome: 'Gil Saldo',
        rota_id: rotaGil,
        rota_nome: 'Rota do Gil',
        despesa_id: null,
      },
    });
  });

  it('a rota é opcional (painel) e, quando vem, precisa ser uma rota ativa do funcionário', async () => {
    const semRota = await adicionar({ funcionario_id: helena.id, valor: '10,00', descricao: 'Adiantamento' });
    expect(semRota.statusCode, semRota.body).toBe(201);
    expect(semRota.json().movimentacao).toMatchObject({ rota_id: null, rota_nome: null, descricao: 'Adiantamento' });
    esperarRecusa(
      await adicionar({ funcionario_id: helena.id, valor: 10, rota_id: rotaGil }),
      422,
      'regra_de_negocio',
      'A rota escolhida não é uma rota ativa deste funcionário.',
    );
  });

  it('valida valor, funcionário e papel', async () => {
    esperarRecusa(await adicionar({ funcionario_id: gil.id, valor: 0 }), 400, 'dados_invalidos', 'Valor deve ser maior que zero.');
    esperarRecusa(await adicionar({ funcionario_id: gil.id }), 400, 'dados_invalidos', 'Valor é obrigatório.');
    esperarRecusa(await adicionar({ funcionario_id: gil.id, valor: 1.005 }), 400, 'dados_invalidos', 'Valor deve ter no máximo 2 casas decimais.');
    esperarRecusa(await adicionar({ valor: 10 }), 400, 'dados_invalidos', 'Funcionário é obrigatório.');
    esperarRecusa(await adicionar({ funcionario_id: 1, valor: 10 }), 422, 'regra_de_negocio', 'Funcionário não encontrado.');
    esperarRecusa(await adicionar({ funcionario_id: gil.id, valor: 10 }, gil.token), 403, 'sem_permissao');
    const inativa = await t.criarFuncionario({ nome: 'Iara Inativa' });
    await t.chamar({ method: 'PATCH', url: `/api/usuarios/${inativa.id}/desativar`, token: tokenAdmin });
    esperarRecusa(await adicionar({ funcionario_id: inativa.id, valor: 10 }), 422, 'regra_de_negocio', 'Este funcionário está inativo e não pode receber saldo.');
  });
});

describe('leituras', () => {
  it('GET /saldo lista todo funcionário ativo, com 0 quando não há movimentação', async () => {
    const jonas = await t.criarFuncionario({ nome: 'Jonas Zerado' });
    const r = await t.chamar({ method: 'GET', url: '/api/saldo', token: tokenAdmin });
    expect(r.statusCode).toBe(200);
    const saldos = r.json().saldos as { funcionario_id: number; saldo_atual: number; funcionario_email: string; data_ultima_atualizacao: string | null }[];
    expect(saldos.find((s) => s.funcionario_id === jonas.id)).toEqual({
      funcionario_id: jonas.id,
      funcionario_nome: 'Jonas Zerado',
      funcionario_email: jonas.email,
      funcionario_ativo: true,
      saldo_atual: 0,
      data_ultima_atualizacao: null,
    });
    expect(saldos.find((s) => s.funcionario_id === gil.id)?.data_ultima_atualizacao).toEqual(expect.any(String));
    esperarRecusa(await t.chamar({ method: 'GET', url: '/api/saldo', token: gil.token }), 403, 'sem_permissao');
  });

  it('GET /saldo/resumo: o funcionário vê o próprio saldo; o admin, os três cartões', async () => {
    await despesa('50,25');
    const proprio = await t.chamar({ method: 'GET', url: '/api/saldo/resumo', token: gil.token });
    // Also the latest credits, for the phone's notices.
    expect(proprio.json()).toEqual({ saldo_atual: 200.25, data_ultima_atualizacao: expect.any(String), creditos_recentes: expect.any(Array) });
    expect((proprio.json().creditos_recentes as { valor: number }[]).length).toBeGreaterThan(0);
    const admin = (await t.chamar({ method: 'GET', url: '/api/saldo/resumo', token: tokenAdmin })).json();
    const saldos = (await t.chamar({ method: 'GET', url: '/api/saldo', token: tokenAdmin })).json().saldos as { saldo_atual: number }[];
    expect(admin).toEqual({
      total_funcionarios: saldos.length,
      saldo_total: Math.round(saldos.reduce((s, x) => s + x.saldo_atual * 100, 0)) / 100,
      movimentacoes_hoje: 3, // two credits and one debit, all today
    });
  });

  it('GET /saldo/movimentacoes filtra por tipo e funcionário, a mais nova primeiro, paginada', async () => {
    const todas = (await t.chamar({ method: 'GET', url: `/api/saldo/movimentacoes?funcionario_id=${gil.id}`, token: tokenAdmin })).json();
    expect(todas.movimentacoes.map((m: { tipo: string }) => m.tipo)).toEqual(['debito', 'credito']);
    expect(todas.movimentacoes[0]).toMatchObject({ descricao: 'Despesa: Alimentação — Goiânia', admin_nome: null, rota_nome: 'Rota do Gil', despesa_id: expect.any(String) });
    const creditos = (await t.chamar({ method: 'GET', url: '/api/saldo/movimentacoes?tipo=credito', token: tokenAdmin })).json();
    expect(creditos.movimentacoes.every((m: { tipo: string }) => m.tipo === 'credito')).toBe(true);
    expect(creditos.total).toBe(2);
    const pagina = (await t.chamar({ method: 'GET', url: '/api/saldo/movimentacoes?limit=1&page=2', token: tokenAdmin })).json();
    expect(pagina).toMatchObject({ page: 2, limit: 1, total: 3 });
    expect(pagina.movimentacoes).toHaveLength(1);
    esperarRecusa(await t.chamar({ method: 'GET', url: '/api/saldo/movimentacoes?tipo=saque', token: tokenAdmin }), 400, 'dados_invalidos', 'Tipo inválido.');
    esperarRecusa(await t.chamar({ method: 'GET', url: '/api/saldo/movimentacoes', token: gil.token }), 403, 'sem_permissao');
  });

  it('GET /saldo/funcionarios dá nome e saldo para o modal', async () => {
    const r = (await t.chamar({ method: 'GET', url: '/api/saldo/funcionarios', token: tokenAdmin })).json();
    expect(r.funcionarios.find((f: { id: number }) => f.id === gil.id)).toEqual({ id: gil.id, nome: 'Gil Saldo', email: 'gil@teste.com.br', saldo_atual: 200.25 });
  });

  it('GET /saldo/relatorio soma por funcionário e rota: creditado e gasto (débitos menos devoluções), e o acerto em aberto de cada rota', async () => {
    await adicionar({ funcionario_id: gil.id, valor: 30, descricao: 'Sem rota' });
    const r = (await t.chamar({ method: 'GET', url: '/api/saldo/relatorio', token: tokenAdmin })).json();
    const doGil = r.relatorio.filter((l: { funcionario_id: number }) => l.funcionario_id === gil.id);
    expect(doGil).toEqual([
      { funcionario_id: gil.id, funcionario_nome: 'Gil Saldo', funcionario_ativo: true, rota_id: rotaGil, rota_nome: 'Rota do Gil', total_creditado: 250.5, total_gasto: 50.25, saldo_atual: 230.25, a_devolver: 200.25, a_receber: 0, acertada_em: null },
      { funcionario_id: gil.id, funcionario_nome: 'Gil Saldo', funcionario_ativo: true, rota_id: null, rota_nome: null, total_creditado: 30, total_gasto: 0, saldo_atual: 230.25, a_devolver: null, a_receber: null, acertada_em: null },
    ]);
  });

  it('GET /saldo/funcionario/:id: o admin lê qualquer um; o funcionário só o próprio', async () => {
    expect((await t.chamar({ method: 'GET', url: `/api/saldo/funcionario/${gil.id}`, token: tokenAdmin })).json()).toEqual({
      saldo: { saldo_atual: 230.25, data_ultima_atualizacao: expect.any(String) },
    });
    expect((await t.chamar({ method: 'GET', url: `/api/saldo/funcionario/${gil.id}`, token: gil.token })).json().saldo.saldo_atual).toBe(230.25);
    esperarRecusa(await t.chamar({ method: 'GET', url: `/api/saldo/funcionario/${gil.id}`, token: helena.token }), 404, 'nao_encontrado', 'Funcionário não encontrado.');
    esperarRecusa(await t.chamar({ method: 'GET', url: '/api/saldo/funcionario/1', token: tokenAdmin }), 404, 'nao_encontrado');
    esperarRecusa(await t.chamar({ method: 'GET', url: '/api/saldo/funcionario/1' }), 401, 'nao_autenticado');
  });
});

describe('registrarMovimentacao', () => {
  it('encadeia cada movimentação na anterior e recusa valor zero sem gravar', async () => {
    const kaio = (await linha<{ id: number }>(
      t.db,
      sql`insert into usuarios (nome, email, senha_hash, tipo) values ('Kaio', 'kaio@x.com', 'x', 'funcionario') returning id`,
    ))!.id;
    const a = await registrarMovimentacao(t.db, { funcionarioId: kaio, tipo: 'credito', valorCentavos: 1_000, descricao: 'a' });
    const b = await registrarMovimentacao(t.db, { funcionarioId: kaio, tipo: 'debito', valorCentavos: 1_501, descricao: 'b' });
    const c = await registrarMovimentacao(t.db, { funcionarioId: kaio, tipo: 'devolucao', valorCentavos: 1, descricao: 'c' });
    expect([a, b, c].map((m) => [m.saldoAnteriorCentavos, m.saldoNovoCentavos])).toEqual([
      [0, 1_000],
      [1_000, -501],
      [-501, -500],
    ]);
    await expect(registrarMovimentacao(t.db, { funcionarioId: kaio, tipo: 'debito', valorCentavos: 0, descricao: 'zero' })).rejects.toThrow();
    expect(await t.db.select().from(movimentacoesSaldo).where(eq(movimentacoesSaldo.funcionarioId, kaio))).toHaveLength(3);
  });
});
