/**
 * The daily meal limit in the expense lists: every expense carries `limite_diario` (its route's, in
 * reais) and `acima_do_limite` (a meal of a route-day whose meals, not deleted nor rejected, sum
 * strictly above that limit), and `acima_do_limite=true` filters to them with each role's ownership.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoje, somarDias } from '../../../shared/dates';
import { CALDAS_NOVAS, GOIANIA, criarCenarioDeDespesas, type FuncionarioDeTeste } from '../../test/despesas';
import { inserirDespesa } from '../../test/fabricas';
import type { AppDeTeste } from '../../test/helper';
import { MOTOR_DE_TESTE } from '../../test/bancoDeTeste';
import { planosDe } from '../../test/planos';
import { listarDespesas, totaisDespesas, type FiltroDespesas } from './repositorio';

let t: AppDeTeste;
let tokenAdmin: string;
let ana: FuncionarioDeTeste;
let rotaAna: number;
let bruno: FuncionarioDeTeste;
let rotaBruno: number;
let carla: FuncionarioDeTeste;
let rotaCarla: number;

const dia = (n: number) => somarDias(hoje('America/Sao_Paulo'), -n);
/** Each inserted expense by a name the assertions use. */
const ids: Record<string, string> = {};

interface DespesaLista {
  id: string;
  acima_do_limite?: boolean;
  limite_diario?: number;
}

beforeAll(async () => {
  ({ t, tokenAdmin, ana, rotaAna, bruno, rotaBruno } = await criarCenarioDeDespesas());
  carla = await t.criarFuncionario({ nome: 'Carla Secretariada' });
  const r = await t.chamar({
    method: 'POST',
    url: '/api/rotas',
    token: tokenAdmin,
    payload: { nome: 'Rota com Secretário', funcionario_id: carla.id, tem_secretario: true, secretario_nome: 'Davi', valor_aluguel: 0, data_inicio: dia(30), data_fim: dia(-30), observacoes: '', cidades: [GOIANIA] },
  });
  expect(r.statusCode, r.body).toBe(201);
  rotaCarla = r.json().rota.id;

  const inserir = async (nome: string, rota: number, dono: number, cidade: number, data: string, centavos: number, extra: Parameters<typeof inserirDespesa>[6] = {}) => {
    ids[nome] = await inserirDespesa(t.db, rota, dono, cidade, data, centavos, extra);
  };
  // Ana (R$ 180,00): day 1, two meals summing R$ 190,00 and a fuel expense.
  await inserir('almocoAcima', rotaAna, ana.id, GOIANIA, dia(1), 12_000);
  await inserir('jantarAcima', rotaAna, ana.id, GOIANIA, dia(1), 7_000);
  await inserir('combustivelDoDiaAcima', rotaAna, ana.id, GOIANIA, dia(1), 25_000, { tipo: 'combustivel' });
  // Day 2: exactly the limit (not above).
  await inserir('almocoNoLimite', rotaAna, ana.id, GOIANIA, dia(2), 10_000);
  await inserir('jantarNoLimite', rotaAna, ana.id, GOIANIA, dia(2), 8_000);
  // Day 3: R$ 150,00 plus a deleted R$ 50,00 meal (never counted).
  await inserir('almocoComExcluida', rotaAna, ana.id, GOIANIA, dia(3), 15_000);
  await inserir('excluida', rotaAna, ana.id, GOIANIA, dia(3), 5_000, { excluidaEm: new Date().toISOString() });
  // Day 4: R$ 150,00 plus a rejected R$ 100,00 meal (no company cost: not counted, not flagged).
  await inserir('almocoComRejeitada', rotaAna, ana.id, GOIANIA, dia(4), 15_000);
  await inserir('rejeitada', rotaAna, ana.id, GOIANIA, dia(4), 10_000, { statusAprovacao: 'rejeitada', motivoRejeicao: 'Sem nota' });
  // Day 5: one meal alone above the limit, and an approved one with it.
  await inserir('sozinhaAcima', rotaAna, ana.id, GOIANIA, dia(5), 18_001, { statusAprovacao: 'aprovada' });
  // Bruno (R$ 180,00) on day 1: R$ 100,00, below; another route's meals the same day do not add up.
  await inserir('brunoAbaixo', rotaBruno, bruno.id, CALDAS_NOVAS, dia(1), 10_000);
  // Bruno on day 2: above.
  await inserir('brunoAcima1', rotaBruno, bruno.id, CALDAS_NOVAS, dia(2), 9_000);
  await inserir('brunoAcima2', rotaBruno, bruno.id, CALDAS_NOVAS, dia(2), 9_500);
  // Carla, with a secretary (R$ 220,00): R$ 200,00 on day 1 is within; R$ 250,00 on day 2 is above.
  await inserir('carlaDentro1', rotaCarla, carla.id, GOIANIA, dia(1), 12_000);
  await inserir('carlaDentro2', rotaCarla, carla.id, GOIANIA, dia(1), 8_000);
  await inserir('carlaAcima1', rotaCarla, carla.id, GOIANIA, dia(2), 15_000);
  await inserir('carlaAcima2', rotaCarla, carla.id, GOIANIA, dia(2), 10_000);
});
afterAll(() => t?.fechar());

async function listar(token: string, query = ''): Promise<{ despesas: DespesaLista[]; total: number; totais: { geral: number; alimentacao: number } }> {
  const r = await t.chamar({ method: 'GET', url: `/api/despesas?limit=100${query}`, token });
  expect(r.statusCode, r.body).toBe(200);
  return r.json();
}

const porNome = (despesas: DespesaLista[]) => new Map(Object.entries(ids).map(([nome, id]) => [nome, despesas.find((d) => d.id === id)]));
const nomesDe = (despesas: DespesaLista[]) => despesas.map((d) => Object.entries(ids).find(([, id]) => id === d.id)![0]).sort();

describe('acima_do_limite e limite_diario na lista', () => {
  it('marca cada refeição de um dia cuja soma passa estritamente do limite, e só elas', async () => {
    const { despesas } = await listar(tokenAdmin);
    const d = porNome(despesas);
    expect(d.get('almocoAcima')).toMatchObject({ acima_do_limite: true, limite_diario: 180 });
    expect(d.get('jantarAcima')).toMatchObject({ acima_do_limite: true, limite_diario: 180 });
    // The day is above, but the limit is about meals: the fuel expense is not flagged.
    expect(d.get('combustivelDoDiaAcima')).toMatchObject({ acima_do_limite: false, limite_diario: 180 });
    expect(d.get('almocoNoLimite')).toMatchObject({ acima_do_limite: false });
    expect(d.get('jantarNoLimite')).toMatchObject({ acima_do_limite: false });
    expect(d.get('sozinhaAcima')).toMatchObject({ acima_do_limite: true });
    expect(d.get('brunoAbaixo')).toMatchObject({ acima_do_limite: false });
    expect(d.get('brunoAcima1')).toMatchObject({ acima_do_limite: true });
    expect(d.get('brunoAcima2')).toMatchObject({ acima_do_limite: true });
  });

  it('excluídas não contam (nem aparecem) e rejeitadas não contam nem são marcadas', async () => {
    const { despesas } = await listar(tokenAdmin);
    const d = porNome(despesas);
    expect(d.get('excluida')).toBeUndefined();
    expect(d.get('almocoComExcluida')).toMatchObject({ acima_do_limite: false });
    expect(d.get('almocoComRejeitada')).toMatchObject({ acima_do_limite: false });
    expect(d.get('rejeitada')).toMatchObject({ acima_do_limite: false });
  });

  it('a rota com secretário usa R$ 220,00', async () => {
    const { despesas } = await listar(tokenAdmin);
    const d = porNome(despesas);
    expect(d.get('carlaDentro1')).toMatchObject({ acima_do_limite: false, limite_diario: 220 });
    expect(d.get('carlaDentro2')).toMatchObject({ acima_do_limite: false, limite_diario: 220 });
    expect(d.get('carlaAcima1')).toMatchObject({ acima_do_limite: true, limite_diario: 220 });
    expect(d.get('carlaAcima2')).toMatchObject({ acima_do_limite: true, limite_diario: 220 });
  });

  it('uma despesa só (aprovar, detalhes) também leva os dois campos', async () => {
    const r = await t.chamar({ method: 'PATCH', url: `/api/despesas/${ids.jantarAcima}/aprovar`, token: tokenAdmin });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().despesa).toMatchObject({ acima_do_limite: true, limite_diario: 180 });
  });
});

describe('GET /api/despesas?acima_do_limite=true', () => {
  it('o admin vê só as marcadas, com o total e os totais do conjunto filtrado', async () => {
    const r = await listar(tokenAdmin, '&acima_do_limite=true');
    expect(nomesDe(r.despesas)).toEqual(['almocoAcima', 'brunoAcima1', 'brunoAcima2', 'carlaAcima1', 'carlaAcima2', 'jantarAcima', 'sozinhaAcima']);
    expect(r.total).toBe(7);
    expect(r.despesas.every((d) => d.acima_do_limite)).toBe(true);
    expect(r.totais.alimentacao).toBe((12_000 + 7_000 + 18_001 + 9_000 + 9_500 + 15_000 + 10_000) / 100);
    expect(r.totais.geral).toBe(r.totais.alimentacao);
  });

  it('combina com os outros filtros do admin (funcionário, rota, datas)', async () => {
    expect(nomesDe((await listar(tokenAdmin, `&acima_do_limite=true&funcionario_id=${bruno.id}`)).despesas)).toEqual(['brunoAcima1', 'brunoAcima2']);
    expect(nomesDe((await listar(tokenAdmin, `&acima_do_limite=true&rota_id=${rotaCarla}`)).despesas)).toEqual(['carlaAcima1', 'carlaAcima2']);
    expect(nomesDe((await listar(tokenAdmin, `&acima_do_limite=true&data_inicio=${dia(1)}&data_fim=${dia(1)}`)).despesas)).toEqual(['almocoAcima', 'jantarAcima']);
  });

  it('o funcionário continua vendo só as próprias, mesmo pedindo as de outro', async () => {
    expect(nomesDe((await listar(ana.token, '&acima_do_limite=true')).despesas)).toEqual(['almocoAcima', 'jantarAcima', 'sozinhaAcima']);
    expect(nomesDe((await listar(bruno.token, `&acima_do_limite=true&funcionario_id=${ana.id}`)).despesas)).toEqual(['brunoAcima1', 'brunoAcima2']);
    expect((await listar(bruno.token, `&acima_do_limite=true&rota_id=${rotaAna}`)).despesas).toEqual([]);
  });

  it("'false' ou vazio não filtram; um valor que não é booleano é 400 em pt-BR", async () => {
    const todas = (await listar(tokenAdmin)).total;
    expect((await listar(tokenAdmin, '&acima_do_limite=false')).total).toBe(todas);
    expect((await listar(tokenAdmin, '&acima_do_limite=')).total).toBe(todas);
    const r = await t.chamar({ method: 'GET', url: '/api/despesas?acima_do_limite=talvez', token: tokenAdmin });
    expect(r.statusCode).toBe(400);
    expect(r.json().error).toMatch(/limite/i);
  });
});

// The plans read are SQLite's (EXPLAIN QUERY PLAN); the PostgreSQL run checks the same answers above.
describe.skipIf(MOTOR_DE_TESTE === 'postgres')('calculado no SQL da página', () => {
  it.each<[string, FiltroDespesas]>([
    ['sem filtro', {}],
    ['só acima do limite', { acimaDoLimite: true }],
  ])('%s: uma consulta para a página e uma para os totais, nenhuma por linha, sem varrer a tabela', async (_nome, filtro) => {
    const planos = await planosDe(t.db, /from "despesas"/i, async () => {
      await listarDespesas(t.db, filtro, { limite: 100, deslocamento: 0 });
      await totaisDespesas(t.db, filtro);
    });
    expect(planos).toHaveLength(2);
    for (const plano of planos) expect(plano.filter((l) => /^SCAN (despesas|d2)\b(?! USING (COVERING )?INDEX despesas_)/.test(l)), plano.join('\n')).toEqual([]);
  });
});
