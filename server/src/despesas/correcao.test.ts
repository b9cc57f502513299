/**
 * A rejected expense is corrected (value, receipt, description) and sent again by
 * its owner, going back to Pendente, with the ledger right. Also what the phone reads to tell the
 * employee what changed: evaluations since a time, and the recent credits of the balance.
 */
import type { LightMyRequestResponse } from 'fastify';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANAPOLIS, ARQUIVOS, formulario, type ArquivoTeste, criarCenarioDeDespesas, ontem } from '../../test/despesas';
import { esperarRecusa, type AppDeTeste } from '../../test/helper';

interface Pessoa {
  id: number;
  token: string;
}
interface Despesa {
  id: string;
  valor: number;
  descricao: string;
  status_aprovacao: string;
  rejeitada: boolean;
  aprovada: boolean;
  motivo_rejeicao: string | null;
  avaliado_em: string | null;
  cupom_url: string | null;
  [campo: string]: unknown;
}
interface Movimentacao {
  tipo: 'credito' | 'debito' | 'devolucao';
  valor: number;
  saldo_novo: number;
  despesa_id: string | null;
}

let t: AppDeTeste;
let tokenAdmin: string;
let ana: Pessoa;
let rotaAna: number;
let bruno: Pessoa;

beforeAll(async () => {
  ({ t, tokenAdmin, ana, rotaAna, bruno } = await criarCenarioDeDespesas());
});
afterAll(async () => {
  await t?.fechar();
});

const campos = (extra: Record<string, string | number> = {}) => ({ rota_id: rotaAna, cidade_id: ANAPOLIS, data_despesa: ontem(), tipo: 'alimentacao', valor: '24,00', descricao: 'Almoço', ...extra });

async function criar(valor = '24,00'): Promise<Despesa> {
  const corpo = await formulario({ id: uuidv7(), ...campos({ valor }) });
  const r = await t.chamar({ method: 'POST', url: '/api/despesas', token: ana.token, ...corpo });
  expect(r.statusCode, r.body).toBe(201);
  return r.json().despesa;
}

async function rejeitar(id: string, motivo = 'Reenvie com a nota fiscal') {
  const r = await t.chamar({ method: 'PATCH', url: `/api/despesas/${id}/rejeitar`, token: tokenAdmin, payload: { motivo } });
  expect(r.statusCode, r.body).toBe(200);
  return r.json().despesa as Despesa;
}

async function corrigir(quem: Pessoa, id: string, c: Record<string, string | number>, arquivo?: ArquivoTeste): Promise<LightMyRequestResponse> {
  const corpo = await formulario(c, arquivo);
  return t.chamar({ method: 'PUT', url: `/api/despesas/${id}/corrigir`, token: quem.token, ...corpo });
}

async function movimentacoesDa(despesaId: string): Promise<Movimentacao[]> {
  const r = await t.chamar({ method: 'GET', url: `/api/saldo/movimentacoes?funcionario_id=${ana.id}&limit=500`, token: tokenAdmin });
  return (r.json().movimentacoes as Movimentacao[]).filter((m) => m.despesa_id === despesaId).reverse();
}

async function saldo(): Promise<number> {
  return (await t.chamar({ method: 'GET', url: '/api/saldo/resumo', token: ana.token })).json().saldo_atual;
}

describe('corrigir e reenviar uma despesa rejeitada', () => {
  it('a rejeição não devolve o dinheiro; a correção com o comprovante volta a Pendente e não debita de novo', async () => {
    const antes = await saldo();
    const d = await criar('24,00');
    expect(await saldo()).toBe(antes - 24);
    await rejeitar(d.id);
    // The debit stays while rejected: the money was spent, only the proof is missing.
    expect(await saldo()).toBe(antes - 24);

    const r = await corrigir(ana, d.id, campos({ descricao: 'Almoço com nota' }), ARQUIVOS.jpeg());
    expect(r.statusCode, r.body).toBe(200);
    const corrigida = r.json().despesa as Despesa;
    expect(corrigida).toMatchObject({ status_aprovacao: 'pendente', rejeitada: false, aprovada: false, motivo_rejeicao: null, avaliado_em: null, descricao: 'Almoço com nota' });
    expect(corrigida.cupom_url).not.toBeNull();
    expect(await saldo()).toBe(antes - 24);
    expect((await movimentacoesDa(d.id)).map((m) => [m.tipo, m.valor])).toEqual([['debito', 24]]);
  });

  it('um valor corrigido move só a diferença (sem débito em dobro nem débito perdido)', async () => {
    const antes = await saldo();
    const d = await criar('24,00');
    await rejeitar(d.id, 'Valor não confere com a nota');
    const r = await corrigir(ana, d.id, campos({ valor: '20,50' }));
    expect(r.statusCode, r.body).toBe(200);
    expect(await saldo()).toBe(antes - 20.5);
    expect((await movimentacoesDa(d.id)).map((m) => [m.tipo, m.valor])).toEqual([
      ['debito', 24],
      ['devolucao', 3.5],
    ]);
    // Rejected again and corrected upwards: a debit of the difference.
    await rejeitar(d.id, 'Falta a nota');
    expect((await corrigir(ana, d.id, campos({ valor: '30,00' }))).statusCode).toBe(200);
    expect(await saldo()).toBe(antes - 30);
  });

  it('só o dono corrige (outro funcionário 404, admin 403) e só uma rejeitada (pendente ou aprovada 409)', async () => {
    const d = await criar();
    esperarRecusa(await corrigir(ana, d.id, campos({ descricao: 'outra' })), 409, 'conflito', 'Só uma despesa rejeitada pode ser corrigida e reenviada.');
    await rejeitar(d.id);
    esperarRecusa(await corrigir(bruno, d.id, campos()), 404, 'nao_encontrado', 'Despesa não encontrada.');
    const admin = await formulario(campos());
    esperarRecusa(await t.chamar({ method: 'PUT', url: `/api/despesas/${d.id}/corrigir`, token: tokenAdmin, ...admin }), 403, 'sem_permissao');
    const aprovada = await t.chamar({ method: 'PATCH', url: `/api/despesas/${d.id}/aprovar`, token: tokenAdmin });
    expect(aprovada.statusCode).toBe(200);
    esperarRecusa(await corrigir(ana, d.id, campos({ descricao: 'tarde demais' })), 409, 'conflito', 'Esta despesa já foi aprovada e não precisa ser reenviada.');
    // The edit of a rejected expense is still refused: a correction is its own, explicit write.
    const d2 = await criar();
    await rejeitar(d2.id);
    const edicao = await formulario(campos({ descricao: 'editada' }));
    esperarRecusa(await t.chamar({ method: 'PUT', url: `/api/despesas/${d2.id}`, token: ana.token, ...edicao }), 409, 'conflito');
  });

  it('dados inválidos são 400 com mensagem em português; nada muda', async () => {
    const d = await criar();
    await rejeitar(d.id);
    esperarRecusa(await corrigir(ana, d.id, campos({ valor: '0' })), 400, 'dados_invalidos', 'Valor deve ser maior que zero.');
    esperarRecusa(await corrigir(ana, d.id, campos({ rota_id: 999 })), 422, 'regra_de_negocio', 'Uma despesa não pode mudar de rota.');
    const r = await t.chamar({ method: 'GET', url: '/api/despesas?limit=100', token: ana.token });
    expect((r.json().despesas as Despesa[]).find((x) => x.id === d.id)?.status_aprovacao).toBe('rejeitada');
  });

  it('a correção repetida (resposta perdida) é respondida sem mover dinheiro de novo', async () => {
    const antes = await saldo();
    const d = await criar('24,00');
    await rejeitar(d.id);
    expect((await corrigir(ana, d.id, campos({ valor: '22,00' }))).statusCode).toBe(200);
    const repetida = await corrigir(ana, d.id, campos({ valor: '22,00' }));
    expect(repetida.statusCode, repetida.body).toBe(200);
    expect(repetida.json().despesa.status_aprovacao).toBe('pendente');
    expect(await saldo()).toBe(antes - 22);
  });

  it('pelo lote de sincronização (despesa.corrigir, centavos): aplicada uma vez, repetida responde o registrado', async () => {
    const antes = await saldo();
    const d = await criar('24,00');
    await rejeitar(d.id);
    const op = {
      id: uuidv7(),
      tipo: 'despesa.corrigir',
      seq: 1,
      dados: { id: d.id, rota_id: rotaAna, cidade_id: ANAPOLIS, data_despesa: ontem(), tipo: 'alimentacao', tipo_outro: '', valor: 2600, descricao: 'Com nota', excluir_cupom: false },
    };
    const enviar = async () => {
      const r = await t.chamar({ method: 'POST', url: '/api/sync/lote', token: ana.token, payload: { cliente_id: 'celular-ana', operacoes: [op] } });
      expect(r.statusCode, r.body).toBe(200);
      return r.json().resultados[0] as { status: number; repetida?: boolean };
    };
    expect((await enviar()).status).toBe(200);
    const segunda = await enviar();
    expect(segunda).toMatchObject({ status: 200, repetida: true });
    expect(await saldo()).toBe(antes - 26);
    const r = await t.chamar({ method: 'GET', url: '/api/despesas?limit=100', token: ana.token });
    expect((r.json().despesas as Despesa[]).find((x) => x.id === d.id)).toMatchObject({ status_aprovacao: 'pendente', descricao: 'Com nota', valor: 26 });
    // Bruno cannot correct Ana's expense through the batch either.
    const alheia = await t.chamar({ method: 'POST', url: '/api/sync/lote', token: bruno.token, payload: { cliente_id: 'celular-bruno', operacoes: [{ ...op, id: uuidv7() }] } });
    expect(alheia.json().resultados[0]).toMatchObject({ status: 404, corpo: { error: 'Despesa não encontrada.' } });
  });
});

describe('o que o celular lê para avisar o que mudou', () => {
  it('avaliadas_desde traz só as avaliadas depois daquela hora', async () => {
    const d1 = await criar();
    const d2 = await criar();
    const r1 = await rejeitar(d1.id);
    const corte = r1.avaliado_em!;
    await new Promise((r) => setTimeout(r, 5));
    await t.chamar({ method: 'PATCH', url: `/api/despesas/${d2.id}/aprovar`, token: tokenAdmin });
    const r = await t.chamar({ method: 'GET', url: `/api/despesas?avaliadas_desde=${encodeURIComponent(corte)}&limit=100`, token: ana.token });
    expect(r.statusCode, r.body).toBe(200);
    const ids = (r.json().despesas as Despesa[]).map((d) => d.id);
    expect(ids).toContain(d2.id);
    expect(ids).not.toContain(d1.id);
    esperarRecusa(await t.chamar({ method: 'GET', url: '/api/despesas?avaliadas_desde=ontem', token: ana.token }), 400, 'dados_invalidos');
  });

  it('o resumo do saldo do funcionário traz os créditos recentes (os dele, mais novos primeiro)', async () => {
    const rota = rotaAna;
    const creditar = async (funcionario: number, valor: number) => {
      const r = await t.chamar({ method: 'POST', url: '/api/saldo/adicionar', token: tokenAdmin, payload: { funcionario_id: funcionario, valor, descricao: 'Adiantamento', rota_id: funcionario === ana.id ? rota : null } });
      expect(r.statusCode, r.body).toBe(201);
    };
    await creditar(ana.id, 200);
    await creditar(bruno.id, 80);
    await creditar(ana.id, 50.25);
    const r = await t.chamar({ method: 'GET', url: '/api/saldo/resumo', token: ana.token });
    const creditos = r.json().creditos_recentes as { id: number; valor: number; data_movimentacao: string }[];
    expect(creditos.map((c) => c.valor).slice(0, 2)).toEqual([50.25, 200]);
    expect(creditos.every((c) => typeof c.id === 'number' && typeof c.data_movimentacao === 'string')).toBe(true);
    expect(creditos.some((c) => c.valor === 80)).toBe(false);
  });
});
