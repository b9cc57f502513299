/**
 * GET /api/relatorios/tendencias: the numbers behind the admin's trend charts,
 * exact to the centavo, by day (APP_TZ), payment form, route, employee and expense type; cities
 * visited against planned; admin only; bad filters refused in pt-BR.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoje, somarDias } from '../../../shared/dates';
import type { Tendencias } from '../../../shared/schemas/relatorios';
import { inserirDespesa, inserirVenda, inserirVisita } from '../../test/fabricas';
import { criarAppDeTeste, esperarRecusa, type AppDeTeste } from '../../test/helper';

const HOJE = hoje('America/Sao_Paulo');
const ONTEM = somarDias(HOJE, -1);
const GOIANIA = 5208707;
const ANAPOLIS = 5201108;
const CALDAS = 5204508;
const CATALAO = 5205109;
const BH = 3106200;
const UBERLANDIA = 3170206;

let t: AppDeTeste;
let admin: string;
let ana: { id: number; token: string };
let bruno: { id: number; token: string };
let rotaAna: number;
let rotaBruno: number;

async function criarRota(funcionarioId: number, nome: string, cidades: number[], diasAntes: number, diasDepois: number) {
  const r = await t.chamar({
    method: 'POST',
    url: '/api/rotas',
    token: admin,
    payload: {
      nome,
      funcionario_id: funcionarioId,
      tem_secretario: false,
      valor_aluguel: 0,
      data_inicio: somarDias(HOJE, -diasAntes),
      data_fim: somarDias(HOJE, diasDepois),
      observacoes: '',
      cidades,
    },
  });
  expect(r.statusCode, r.body).toBe(201);
  return r.json().rota.id as number;
}

async function tendencias(qs = ''): Promise<Tendencias> {
  const r = await t.chamar({ method: 'GET', url: `/api/relatorios/tendencias${qs}`, token: admin });
  expect(r.statusCode, r.body).toBe(200);
  return r.json();
}

beforeAll(async () => {
  t = await criarAppDeTeste();
  admin = await t.tokenAdmin();
  ana = await t.criarFuncionario({ nome: 'Ana Estrada' });
  bruno = await t.criarFuncionario({ nome: 'Bruno Viagem' });
  const carla = await t.criarFuncionario({ nome: 'Carla Parada' });
  // Ana: 4 cities planned, 3 visited (two with sales, one visited without a sale).
  rotaAna = await criarRota(ana.id, 'Rota Goiás', [GOIANIA, ANAPOLIS, CALDAS, CATALAO], 20, 10);
  await inserirVenda(t.db, rotaAna, ana.id, GOIANIA, HOJE, { dinheiro: 10_000, pix: 2_550, boletos: 2 });
  await inserirVenda(t.db, rotaAna, ana.id, ANAPOLIS, ONTEM, { cartao: 30_000, link: 5_000, boletos: 1 });
  await inserirVisita(t.db, rotaAna, ana.id, CALDAS, HOJE);
  await inserirDespesa(t.db, rotaAna, ana.id, GOIANIA, HOJE, 4_550);
  await inserirDespesa(t.db, rotaAna, ana.id, ANAPOLIS, ONTEM, 18_000, { tipo: 'hospedagem' });
  await inserirDespesa(t.db, rotaAna, ana.id, GOIANIA, HOJE, 7_777, { tipo: 'combustivel', excluidaEm: new Date().toISOString() }); // deleted: never counted
  // Bruno: a longer route, with a sale and an expense 40 days ago (outside the default 30 days).
  rotaBruno = await criarRota(bruno.id, 'Rota Minas', [BH, UBERLANDIA], 45, 10);
  await inserirVenda(t.db, rotaBruno, bruno.id, BH, HOJE, { pix: 50_000 });
  await inserirVenda(t.db, rotaBruno, bruno.id, UBERLANDIA, somarDias(HOJE, -40), { dinheiro: 99_900 });
  await inserirDespesa(t.db, rotaBruno, bruno.id, BH, somarDias(HOJE, -2), 12_345, { tipo: 'combustivel' });
  await inserirDespesa(t.db, rotaBruno, bruno.id, UBERLANDIA, somarDias(HOJE, -40), 999, { tipo: 'pedagio' });
  // Carla: a cancelled route in the period with nothing in it: not a bar of zeros.
  const rotaCarla = await criarRota(carla.id, 'Rota Cancelada', [CATALAO], 5, 5);
  const c = await t.chamar({ method: 'PATCH', url: `/api/rotas/${rotaCarla}/cancelar`, token: admin });
  expect(c.statusCode, c.body).toBe(200);
});
afterAll(() => t.fechar());

describe('GET /api/relatorios/tendencias', () => {
  it('sem datas: os últimos 30 dias até hoje (APP_TZ), um ponto por dia, por forma de pagamento, boletos contados à parte', async () => {
    const d = await tendencias();
    expect(d.data_inicio).toBe(somarDias(HOJE, -29));
    expect(d.data_fim).toBe(HOJE);
    expect(d.vendas_por_dia).toHaveLength(30);
    expect(d.vendas_por_dia.map((v) => v.data)).toEqual(Array.from({ length: 30 }, (_, i) => somarDias(HOJE, i - 29)));
    expect(d.vendas_por_dia.at(-1)).toEqual({ data: HOJE, dinheiro_centavos: 10_000, pix_centavos: 52_550, cartao_centavos: 0, link_centavos: 0, boletos: 2 });
    expect(d.vendas_por_dia.at(-2)).toEqual({ data: ONTEM, dinheiro_centavos: 0, pix_centavos: 0, cartao_centavos: 30_000, link_centavos: 5_000, boletos: 1 });
    const outros = d.vendas_por_dia.slice(0, -2);
    expect(outros.every((v) => v.dinheiro_centavos + v.pix_centavos + v.cartao_centavos + v.link_centavos + v.boletos === 0)).toBe(true);
  });

  it('vendas e despesas do período por rota e por funcionário; cidades visitadas contra planejadas; despesas por tipo sem as excluídas', async () => {
    const d = await tendencias();
    expect(d.por_rota).toEqual([
      { rota_id: rotaBruno, rota_nome: 'Rota Minas', funcionario_nome: 'Bruno Viagem', vendas_centavos: 50_000, despesas_centavos: 12_345, cidades_planejadas: 2, cidades_visitadas: 2 },
      { rota_id: rotaAna, rota_nome: 'Rota Goiás', funcionario_nome: 'Ana Estrada', vendas_centavos: 47_550, despesas_centavos: 22_550, cidades_planejadas: 4, cidades_visitadas: 3 },
    ]);
    expect(d.por_funcionario).toEqual([
      { funcionario_id: ana.id, funcionario_nome: 'Ana Estrada', vendas_centavos: 47_550, despesas_centavos: 22_550 },
      { funcionario_id: bruno.id, funcionario_nome: 'Bruno Viagem', vendas_centavos: 50_000, despesas_centavos: 12_345 },
    ]);
    expect(d.despesas_por_tipo).toEqual([
      { tipo: 'alimentacao', quantidade: 1, total_centavos: 4_550 },
      { tipo: 'hospedagem', quantidade: 1, total_centavos: 18_000 },
      { tipo: 'combustivel', quantidade: 1, total_centavos: 12_345 },
    ]);
  });

  it('o período pedido (as duas pontas incluídas) traz o que ficou fora dos 30 dias', async () => {
    const d = await tendencias(`?data_inicio=${somarDias(HOJE, -40)}&data_fim=${somarDias(HOJE, -40)}`);
    expect(d.vendas_por_dia).toEqual([{ data: somarDias(HOJE, -40), dinheiro_centavos: 99_900, pix_centavos: 0, cartao_centavos: 0, link_centavos: 0, boletos: 0 }]);
    // Ana's route starts 20 days ago: not in this period.
    expect(d.por_rota.map((r) => [r.rota_nome, r.vendas_centavos, r.despesas_centavos])).toEqual([['Rota Minas', 99_900, 999]]);
    expect(d.por_funcionario.map((f) => f.funcionario_nome)).toEqual(['Bruno Viagem']);
    expect(d.despesas_por_tipo).toEqual([{ tipo: 'pedagio', quantidade: 1, total_centavos: 999 }]);
  });

  it('filtra por funcionário e por rota', async () => {
    const soAna = await tendencias(`?usuario_id=${ana.id}`);
    expect(soAna.por_rota.map((r) => r.rota_nome)).toEqual(['Rota Goiás']);
    expect(soAna.por_funcionario.map((f) => f.funcionario_nome)).toEqual(['Ana Estrada']);
    expect(soAna.vendas_por_dia.at(-1)).toMatchObject({ dinheiro_centavos: 10_000, pix_centavos: 2_550 });
    const minas = await tendencias(`?rota_id=${rotaBruno}`);
    expect(minas.por_rota.map((r) => r.rota_nome)).toEqual(['Rota Minas']);
    expect(minas.despesas_por_tipo).toEqual([{ tipo: 'combustivel', quantidade: 1, total_centavos: 12_345 }]);
    expect(minas.vendas_por_dia.at(-1)).toMatchObject({ dinheiro_centavos: 0, pix_centavos: 50_000 });
  });

  it('um período sem nada: os dias em zero e listas vazias', async () => {
    const d = await tendencias('?data_inicio=2020-01-01&data_fim=2020-01-03');
    expect(d.vendas_por_dia.map((v) => v.data)).toEqual(['2020-01-01', '2020-01-02', '2020-01-03']);
    expect([d.por_rota, d.por_funcionario, d.despesas_por_tipo]).toEqual([[], [], []]);
  });

  it('só para admin: o funcionário recebe 403, sem sessão 401', async () => {
    esperarRecusa(await t.chamar({ method: 'GET', url: '/api/relatorios/tendencias', token: ana.token }), 403, 'sem_permissao');
    esperarRecusa(await t.chamar({ method: 'GET', url: '/api/relatorios/tendencias' }), 401, 'nao_autenticado');
  });

  it('datas e ids inválidos: 400 em português, nunca 500', async () => {
    const recusa = async (qs: string, mensagem: RegExp) =>
      esperarRecusa(await t.chamar({ method: 'GET', url: `/api/relatorios/tendencias?${qs}`, token: admin }), 400, 'dados_invalidos', mensagem);
    await recusa('data_inicio=26/11/2026', /Data inicial inválida/);
    await recusa('data_fim=2026-02-30', /Data final inválida/);
    await recusa('data_inicio=2026-11-20&data_fim=2026-11-10', /data inicial deve ser igual ou anterior à data final/);
    await recusa('data_inicio=2025-01-01&data_fim=2026-11-10', /no máximo 366 dias/);
    await recusa('rota_id=abc', /Rota inválida/);
    await recusa('usuario_id=-3', /Funcionário inválido/);
  });
});
