/**
 * The admin approves several pending expenses at once, or rejects them with one
 * reason. Each id is applied whole or not at all and has its own result; money never moves; the
 * employee's phone sees each outcome through `avaliadas_desde`, as with one-by-one approval.
 */
import type { LightMyRequestResponse } from 'fastify';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoje, somarDias } from '../../../shared/dates';
import { ANAPOLIS, CALDAS_NOVAS, GOIANIA, criarRotaAtiva, formulario, criarCenarioDeDespesas } from '../../test/despesas';
import { esperarRecusa, type AppDeTeste } from '../../test/helper';

interface Pessoa {
  id: number;
  token: string;
}
interface Resultado {
  id: string;
  ok: boolean;
  error?: string;
  despesa?: { id: string; status_aprovacao: string; motivo_rejeicao: string | null };
}

let t: AppDeTeste;
let tokenAdmin: string;
let ana: Pessoa;
let rotaAna: number;
let bruno: Pessoa;
let rotaBruno: number;

beforeAll(async () => {
  ({ t, tokenAdmin, ana, rotaAna, bruno, rotaBruno } = await criarCenarioDeDespesas({}, { ana: 'Ana Lote', bruno: 'Bruno Lote' }));
});
afterAll(async () => {
  await t?.fechar();
});

async function criarDespesa(quem: Pessoa, rota: number, cidade: number, valor: string): Promise<string> {
  const id = uuidv7();
  const corpo = await formulario({ id, rota_id: rota, cidade_id: cidade, data_despesa: somarDias(hoje('America/Sao_Paulo'), -1), tipo: 'alimentacao', valor, descricao: '' });
  const r = await t.chamar({ method: 'POST', url: '/api/despesas', token: quem.token, ...corpo });
  expect(r.statusCode, r.body).toBe(201);
  return id;
}

const emLote = (acao: 'aprovar' | 'rejeitar', token: string | undefined, payload: unknown): Promise<LightMyRequestResponse> =>
  t.chamar({ method: 'PATCH', url: `/api/despesas/${acao}`, ...(token ? { token } : {}), payload: payload as Record<string, unknown> });

async function statusDe(id: string): Promise<{ status_aprovacao: string; motivo_rejeicao: string | null }> {
  const lista = (await t.chamar({ method: 'GET', url: '/api/despesas?limit=1000&status_rota=todas', token: tokenAdmin })).json().despesas as { id: string; status_aprovacao: string; motivo_rejeicao: string | null }[];
  const d = lista.find((x) => x.id === id);
  if (!d) throw new Error(`despesa ${id} fora da lista`);
  return d;
}

async function quantidadeDeMovimentacoes(funcionarioId: number): Promise<number> {
  return (await t.chamar({ method: 'GET', url: `/api/saldo/movimentacoes?funcionario_id=${funcionarioId}&limit=500`, token: tokenAdmin })).json().movimentacoes.length;
}

describe('aprovar em lote', () => {
  it('aprova várias despesas de funcionários diferentes; cada id tem o seu resultado; as desconhecidas falham sozinhas', async () => {
    const a1 = await criarDespesa(ana, rotaAna, GOIANIA, '10');
    const a2 = await criarDespesa(ana, rotaAna, ANAPOLIS, '20');
    const b1 = await criarDespesa(bruno, rotaBruno, CALDAS_NOVAS, '30');
    const excluida = await criarDespesa(ana, rotaAna, GOIANIA, '5');
    expect((await t.chamar({ method: 'DELETE', url: `/api/despesas/${excluida}`, token: ana.token })).statusCode).toBe(200);
    const desconhecida = uuidv7();
    const movimentosAna = await quantidadeDeMovimentacoes(ana.id);
    // The cached list is read before: the answer after the bulk approval must not come from the cache.
    expect((await statusDe(a1)).status_aprovacao).toBe('pendente');

    const r = await emLote('aprovar', tokenAdmin, { ids: [a1, a2, desconhecida, b1, excluida, a1] });
    expect(r.statusCode, r.body).toBe(200);
    const corpo = r.json() as { resultados: Resultado[]; avaliadas: number; falhas: number };
    // One result per distinct id, in the order sent.
    expect(corpo.resultados.map((x) => x.id)).toEqual([a1, a2, desconhecida, b1, excluida]);
    expect(corpo).toMatchObject({ avaliadas: 3, falhas: 2 });
    expect(corpo.resultados[0]).toMatchObject({ ok: true, despesa: { id: a1, status_aprovacao: 'aprovada' } });
    expect(corpo.resultados[2]).toEqual({ id: desconhecida, ok: false, error: 'Despesa não encontrada.' });
    expect(corpo.resultados[4]).toEqual({ id: excluida, ok: false, error: 'Despesa não encontrada.' });
    for (const id of [a1, a2, b1]) expect((await statusDe(id)).status_aprovacao).toBe('aprovada');
    expect(await quantidadeDeMovimentacoes(ana.id)).toBe(movimentosAna);
  });

  it('o celular vê cada aprovação do lote pelas avaliadas desde', async () => {
    // An employee of their own: the other tests' evaluations are not in their notices.
    const carla = await t.criarFuncionario({ nome: 'Carla Lote' });
    const rotaCarla = await criarRotaAtiva(t, carla.id, [GOIANIA], 'Rota Carla');
    const antes = new Date(Date.now() - 1000).toISOString();
    const ids = [await criarDespesa(carla, rotaCarla, GOIANIA, '11'), await criarDespesa(carla, rotaCarla, GOIANIA, '12')];
    expect((await emLote('aprovar', tokenAdmin, { ids })).statusCode).toBe(200);
    const avaliadas = (await t.chamar({ method: 'GET', url: `/api/despesas?avaliadas_desde=${encodeURIComponent(antes)}&limit=100`, token: carla.token })).json().despesas as { id: string }[];
    expect(avaliadas.map((d) => d.id).sort()).toEqual([...ids].sort());
  });

  it('uma despesa já aprovada fica como estava (sem nova avaliação nem novo aviso ao funcionário)', async () => {
    const id = await criarDespesa(ana, rotaAna, GOIANIA, '13');
    expect((await emLote('aprovar', tokenAdmin, { ids: [id] })).statusCode).toBe(200);
    const depois = new Date().toISOString();
    const r = await emLote('aprovar', tokenAdmin, { ids: [id] });
    expect(r.json().resultados[0]).toMatchObject({ id, ok: true, despesa: { status_aprovacao: 'aprovada' } });
    const avisos = (await t.chamar({ method: 'GET', url: `/api/despesas?avaliadas_desde=${encodeURIComponent(depois)}&limit=100`, token: ana.token })).json().despesas as { id: string }[];
    expect(avisos.map((d) => d.id)).not.toContain(id);
  });
});

describe('rejeitar em lote', () => {
  it('rejeita várias com um só motivo; uma aprovada antes passa a rejeitada', async () => {
    const r1 = await criarDespesa(ana, rotaAna, GOIANIA, '14');
    const r2 = await criarDespesa(bruno, rotaBruno, CALDAS_NOVAS, '15');
    expect((await emLote('aprovar', tokenAdmin, { ids: [r2] })).statusCode).toBe(200);
    const r = await emLote('rejeitar', tokenAdmin, { ids: [r1, r2], motivo: '  Sem nota fiscal legível ' });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ avaliadas: 2, falhas: 0 });
    for (const id of [r1, r2]) expect(await statusDe(id)).toMatchObject({ status_aprovacao: 'rejeitada', motivo_rejeicao: 'Sem nota fiscal legível' });
  });

  it('sem motivo, recusa o lote inteiro com 400 e não muda nada', async () => {
    const id = await criarDespesa(ana, rotaAna, GOIANIA, '16');
    esperarRecusa(await emLote('rejeitar', tokenAdmin, { ids: [id] }), 400, 'dados_invalidos', 'Informe o motivo da rejeição.');
    esperarRecusa(await emLote('rejeitar', tokenAdmin, { ids: [id], motivo: '   ' }), 400, 'dados_invalidos', 'Informe o motivo da rejeição.');
    expect((await statusDe(id)).status_aprovacao).toBe('pendente');
  });
});

describe('entradas e permissões', () => {
  it('lista vazia, grande demais ou com id inválido: 400 em pt-BR, nada gravado', async () => {
    const id = await criarDespesa(ana, rotaAna, GOIANIA, '17');
    esperarRecusa(await emLote('aprovar', tokenAdmin, { ids: [] }), 400, 'dados_invalidos', 'Selecione ao menos uma despesa.');
    esperarRecusa(await emLote('aprovar', tokenAdmin, {}), 400, 'dados_invalidos', 'Selecione ao menos uma despesa.');
    esperarRecusa(
      await emLote('aprovar', tokenAdmin, { ids: Array.from({ length: 101 }, () => uuidv7()) }),
      400,
      'dados_invalidos',
      'Selecione no máximo 100 despesas por vez.',
    );
    esperarRecusa(await emLote('aprovar', tokenAdmin, { ids: [id, 'nao-e-um-id'] }), 400, 'dados_invalidos');
    esperarRecusa(await emLote('aprovar', tokenAdmin, { ids: id }), 400, 'dados_invalidos', 'Selecione ao menos uma despesa.');
    expect((await statusDe(id)).status_aprovacao).toBe('pendente');
  });

  it('funcionário recebe 403 (nem as próprias despesas) e sem sessão 401; nada muda', async () => {
    const id = await criarDespesa(ana, rotaAna, GOIANIA, '18');
    esperarRecusa(await emLote('aprovar', ana.token, { ids: [id] }), 403, 'sem_permissao');
    esperarRecusa(await emLote('rejeitar', bruno.token, { ids: [id], motivo: 'Não' }), 403, 'sem_permissao');
    expect((await emLote('aprovar', undefined, { ids: [id] })).statusCode).toBe(401);
    expect((await statusDe(id)).status_aprovacao).toBe('pendente');
  });
});
