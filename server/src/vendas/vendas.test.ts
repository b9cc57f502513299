import { count, eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataNoFuso, hoje, somarDias } from '../../../shared/dates';
import { criarAppDeTeste, esperarRecusa, type AppDeTeste } from '../../test/helper';
import { arquivoPendencias, formularioPendencias, operacaoPendencia } from '../../test/pendencias';
import { rotas, vendas } from '../db/tabelas';

const GOIANIA = 5208707;
const ANAPOLIS = 5201108;
const CALDAS = 5204508;
const CATALAO = 5205109;
const ITUMBIARA = 5211503;
const RIO_VERDE = 5218805;

interface Pessoa {
  id: number;
  token: string;
}

let t: AppDeTeste;
let tokenAdmin: string;
let ana: Pessoa;
let beto: Pessoa;
let rotaAna: number;
let rotaBeto: number;
const HOJE = hoje('America/Sao_Paulo');
const ONTEM = somarDias(HOJE, -1);

async function criarRota(funcionarioId: number, nome: string, cidades: number[]): Promise<number> {
  const r = await t.chamar({
    method: 'POST',
    url: '/api/rotas',
    token: tokenAdmin,
    payload: { nome, funcionario_id: funcionarioId, valor_aluguel: 0, data_inicio: somarDias(HOJE, -30), data_fim: somarDias(HOJE, 30), cidades },
  });
  expect(r.statusCode, r.body).toBe(201);
  return r.json().rota.id;
}

function corpoVenda(rotaId: number, cidadeId: number, extra: Record<string, unknown> = {}) {
  return { id: uuidv7(), rota_id: rotaId, cidade_id: cidadeId, data_venda: HOJE, valor_dinheiro: 100, valor_pix: 50.5, valor_cartao: 0, valor_link: 0, valor_boletos: 2, observacoes: '', ...extra };
}

const postar = (quem: Pessoa, payload: object) => t.chamar({ method: 'POST', url: '/api/vendas', token: quem.token, payload });

async function fechamento(token: string, consulta: string) {
  const r = await t.chamar({ method: 'GET', url: `/api/vendas/fechamento-diario${consulta}`, token });
  expect(r.statusCode, r.body).toBe(200);
  return r.json() as { totais: Record<string, number>; vendas: Record<string, unknown>[] };
}

const contarVendas = async () => (await t.db.select({ n: count() }).from(vendas))[0]!.n;

beforeAll(async () => {
  t = await criarAppDeTeste();
  tokenAdmin = await t.tokenAdmin();
  const a = await t.criarFuncionario({ nome: 'Ana Estrada' });
  const b = await t.criarFuncionario({ nome: 'Beto Viagem' });
  ana = { id: a.id, token: a.token };
  beto = { id: b.id, token: b.token };
  rotaAna = await criarRota(ana.id, 'Rota Sul Goiano', [GOIANIA, ANAPOLIS, CALDAS]);
  rotaBeto = await criarRota(beto.id, 'Rota Sudoeste', [CATALAO, ITUMBIARA]);
});
afterAll(() => t.fechar());

describe('POST /vendas', () => {
  it('registra o fechamento, responde a venda listada e marca a cidade como visitada na data', async () => {
    const corpo = corpoVenda(rotaAna, GOIANIA, { valor_cartao: '12,50', observacoes: '  Feira da praça  ' });
    const r = await postar(ana, corpo);
    expect(r.statusCode, r.body).toBe(201);
    const venda = r.json().venda;
    expect(venda).toEqual({
      id: corpo.id,
      rota_id: rotaAna,
      cidade_id: GOIANIA,
      funcionario_id: ana.id,
      data_venda: HOJE,
      valor_dinheiro: 100,
      valor_pix: 50.5,
      valor_cartao: 12.5,
      valor_link: 0,
      valor_boletos: 2,
      observacoes: 'Feira da praça',
      funcionario_nome: 'Ana Estrada',
      rota_nome: 'Rota Sul Goiano',
      rota_status: 'ativa',
      cidade_nome: 'Goiânia',
      cidade_uf: 'GO',
      total_vendas: 163,
      registrado_em: expect.any(String),
      recebido_em: expect.any(String),
      atualizado_em: expect.any(String),
      versao: 1,
    });
    const status = await t.chamar({ method: 'GET', url: `/api/rotas/${rotaAna}/cidades-status?data=${HOJE}`, token: ana.token });
    const goiania = status.json().cidades.find((c: { cidade_id: number }) => c.cidade_id === GOIANIA);
    expect(goiania).toMatchObject({ fechada: 1, visitada: true, venda_id: corpo.id });
    // The sale alone makes the city visited for the salary (cities visited on the route).
    const salario = await t.chamar({ method: 'GET', url: `/api/relatorios/rota/${rotaAna}`, token: ana.token });
    expect(salario.statusCode, salario.body).toBe(200);
    expect(salario.json().calculo_salario.cidades_visitadas).toBe(1);
    expect(salario.json().base.cidades_visitadas_ids).toEqual([GOIANIA]);
  });

  it('valores em branco ou ausentes valem 0', async () => {
    const r = await postar(ana, { id: uuidv7(), rota_id: rotaAna, cidade_id: ANAPOLIS, data_venda: ONTEM, valor_dinheiro: '', valor_pix: null, observacoes: 'Só boletos', valor_boletos: 3 });
    expect(r.statusCode, r.body).toBe(201);
    expect(r.json().venda).toMatchObject({ valor_dinheiro: 0, valor_pix: 0, valor_cartao: 0, valor_link: 0, valor_boletos: 3, total_vendas: 0 });
  });

  it('repetir o mesmo id com os mesmos valores é uma reprodução: responde o registro guardado e não muda nada', async () => {
    const corpo = corpoVenda(rotaAna, CALDAS, { registrado_em: '2026-01-05T10:00:00Z' });
    expect((await postar(ana, corpo)).statusCode).toBe(201);
    const antes = await contarVendas();
    const de_novo = await postar(ana, corpo);
    expect(de_novo.statusCode, de_novo.body).toBe(200);
    expect(de_novo.json().venda).toMatchObject({ id: corpo.id, valor_dinheiro: 100, registrado_em: '2026-01-05T10:00:00.000Z' });
    expect(await contarVendas()).toBe(antes);
  });

  it('o relógio do aparelho não decide nada: pela API, a escrita que chega por último vale, mesmo marcada mais cedo', async () => {
    const corpo = corpoVenda(rotaAna, GOIANIA, { data_venda: somarDias(HOJE, -2), registrado_em: '2026-01-05T10:00:00.000Z' });
    await postar(ana, corpo);
    const editada = await postar(ana, { ...corpo, valor_dinheiro: 80, valor_boletos: 0, registrado_em: '2026-01-05T11:00:00.000Z' });
    expect(editada.statusCode).toBe(200);
    expect(editada.json().venda).toMatchObject({ id: corpo.id, valor_dinheiro: 80, valor_boletos: 0, total_vendas: 130.5 });
    // A phone whose clock was hours ahead and then corrected: its later write is marked earlier, and still applies.
    const corrigida = await postar(ana, { ...corpo, valor_dinheiro: 250, registrado_em: '2026-01-05T07:30:00.000Z' });
    expect(corrigida.statusCode).toBe(200);
    expect(corrigida.json().venda.valor_dinheiro).toBe(250);
  });

  it('outro id para a mesma rota, cidade e data chega ao mesmo registro; a versão lida decide se é um conflito', async () => {
    const data = somarDias(HOJE, -3);
    const celular = corpoVenda(rotaAna, ANAPOLIS, { data_venda: data, valor_dinheiro: 10 });
    const tablet = corpoVenda(rotaAna, ANAPOLIS, { data_venda: data, valor_dinheiro: 20 });
    expect((await postar(ana, celular)).statusCode).toBe(201);
    const r = await postar(ana, tablet);
    expect(r.statusCode).toBe(200);
    expect(r.json().venda).toMatchObject({ id: celular.id, valor_dinheiro: 20, versao: 2 });
    // An edit based on version 1, which the tablet changed since: refused with both values, nothing written.
    const velha = await t.chamar({ method: 'PUT', url: `/api/vendas/${celular.id}`, token: ana.token, payload: { valor_dinheiro: 5, versao_base: 1 } });
    esperarRecusa(velha, 409, 'conflito_de_versao', /alterado em outro aparelho.*Dinheiro: no servidor R\$\s20,00, neste aparelho R\$\s5,00; Pix: no servidor R\$\s50,50, neste aparelho R\$\s0,00; Boletos: no servidor 2, neste aparelho 0\. Escolha/);
    expect(velha.json().conflito).toMatchObject({ versao_atual: 2, servidor: { valor_dinheiro: 2000 }, enviado: { valor_dinheiro: 500 } });
    // When the other device's change reached the server, for the card that shows the difference.
    expect(velha.json().conflito.alterado_em).toBe(r.json().venda.atualizado_em);
    const atual = await t.chamar({ method: 'PUT', url: `/api/vendas/${celular.id}`, token: ana.token, payload: { valor_dinheiro: 5, versao_base: 2 } });
    expect(atual.statusCode, atual.body).toBe(200);
    expect(atual.json().venda).toMatchObject({ valor_dinheiro: 5, versao: 3 });
    const doDia = await fechamento(ana.token, `?rota_id=${rotaAna}&cidade_id=${ANAPOLIS}&data=${data}`);
    expect(doDia.vendas).toHaveLength(1);
  });

  it('o mesmo id vindo de outro funcionário é 409, sem tocar no registro', async () => {
    const corpo = corpoVenda(rotaAna, GOIANIA, { data_venda: somarDias(HOJE, -4) });
    await postar(ana, corpo);
    const r = await postar(beto, { ...corpo, rota_id: rotaBeto, cidade_id: CATALAO, valor_dinheiro: 1 });
    esperarRecusa(r, 409, 'conflito', 'Este identificador já foi usado por outro registro.');
    const guardada = (await t.db.select().from(vendas).where(eq(vendas.id, corpo.id)).limit(1))[0]!;
    expect(guardada.funcionarioId).toBe(ana.id);
    expect(guardada.dinheiroCentavos).toBe(10000);
  });

  it.each([
    [{ valor_dinheiro: -1 }, 'Dinheiro não pode ser negativo.'],
    [{ valor_pix: '-0,01' }, 'Pix não pode ser negativo.'],
    [{ valor_cartao: 1.234 }, 'Cartão deve ter no máximo 2 casas decimais.'],
    [{ valor_link: 'muito' }, 'Link deve ser um número.'],
    [{ valor_boletos: 1.5 }, 'Boletos deve ser um número inteiro.'],
    [{ valor_boletos: -2 }, 'Boletos não pode ser negativo.'],
    [{ id: 'abc' }, 'Identificador da venda inválido.'],
    [{ id: undefined }, 'Identificador da venda é obrigatório.'],
    [{ data_venda: '2026-02-30' }, 'Data da venda inválida (use o formato aaaa-mm-dd).'],
    [{ registrado_em: 'ontem' }, 'Hora de registro inválida.'],
  ])('recusa %j com 400 e mensagem clara', async (extra, mensagem) => {
    const antes = await contarVendas();
    const r = await postar(ana, corpoVenda(rotaAna, CALDAS, { data_venda: somarDias(HOJE, -5), ...extra }));
    esperarRecusa(r, 400, 'dados_invalidos', mensagem);
    expect(await contarVendas()).toBe(antes);
  });

  it('data no futuro (no fuso do negócio) é recusada', async () => {
    const r = await postar(ana, corpoVenda(rotaAna, CALDAS, { data_venda: somarDias(HOJE, 1) }));
    esperarRecusa(r, 422, 'regra_de_negocio', 'A data da venda não pode estar no futuro.');
  });

  it('cidade fora da rota é recusada', async () => {
    const r = await postar(ana, corpoVenda(rotaAna, RIO_VERDE));
    esperarRecusa(r, 422, 'regra_de_negocio', 'Esta cidade não faz parte da rota.');
  });

  it('a rota de outro funcionário parece não existir (404)', async () => {
    const antes = await contarVendas();
    const r = await postar(beto, corpoVenda(rotaAna, GOIANIA, { data_venda: somarDias(HOJE, -6) }));
    esperarRecusa(r, 404, 'nao_encontrado', 'Rota não encontrada.');
    expect(await contarVendas()).toBe(antes);
  });

  it('sem sessão é 401 e administrador é 403, antes de validar o corpo', async () => {
    esperarRecusa(await t.chamar({ method: 'POST', url: '/api/vendas', payload: {} }), 401, 'nao_autenticado');
    esperarRecusa(await t.chamar({ method: 'POST', url: '/api/vendas', token: tokenAdmin, payload: {} }), 403, 'sem_permissao');
    esperarRecusa(await t.chamar({ method: 'PUT', url: `/api/vendas/${uuidv7()}`, token: tokenAdmin, payload: {} }), 403, 'sem_permissao');
  });
});

/**
 * Moves the moment a route closed `dias` days back and returns that day in APP_TZ: the last day of
 * the period it was active (shared/periodoRota.ts).
 */
async function fechadaHaDias(rotaId: number, coluna: 'finalizadaEm' | 'canceladaEm', dias: number): Promise<string> {
  const instante = new Date(Date.now() - dias * 86_400_000).toISOString();
  await t.db.update(rotas).set({ [coluna]: instante }).where(eq(rotas.id, rotaId));
  return dataNoFuso(new Date(instante), t.config.appTz);
}

describe('rotas finalizadas e canceladas: vale a data da venda', () => {
  const FINALIZADA = 'Esta rota já foi finalizada e não aceita novos registros.';
  const CANCELADA = 'Esta rota foi cancelada e não aceita novos registros.';
  let carla: Pessoa;
  let rota: number;
  let vendaId: string;
  const corpoOriginal = () => ({ ...corpoVenda(rota, GOIANIA), id: vendaId, registrado_em: '2026-01-05T10:00:00.000Z' });

  beforeAll(async () => {
    const c = await t.criarFuncionario({ nome: 'Carla Fim' });
    carla = { id: c.id, token: c.token };
    rota = await criarRota(carla.id, 'Rota que termina', [GOIANIA, ANAPOLIS, CALDAS]);
    vendaId = uuidv7();
    expect((await postar(carla, corpoOriginal())).statusCode).toBe(201);
    const fim = await t.chamar({ method: 'PATCH', url: `/api/rotas/${rota}/finalizar`, token: carla.token });
    expect(fim.statusCode, fim.body).toBe(200);
  });

  it('a finalização congela a rota: venda nova e edição, mesmo datadas até o dia da finalização, são 409 rota_finalizada e nada muda', async () => {
    const antes = await contarVendas();
    const guardada = async () => (await t.db.select().from(vendas).where(eq(vendas.id, vendaId)).limit(1))[0]!;
    const valoresAntes = await guardada();
    esperarRecusa(await postar(carla, corpoVenda(rota, ANAPOLIS, { data_venda: ONTEM })), 409, 'rota_finalizada', FINALIZADA);
    const edicao = await t.chamar({ method: 'PUT', url: `/api/vendas/${vendaId}`, token: carla.token, payload: { valor_dinheiro: 7, registrado_em: new Date().toISOString() } });
    esperarRecusa(edicao, 409, 'rota_finalizada', FINALIZADA);
    expect(await contarVendas()).toBe(antes);
    expect(await guardada()).toEqual(valoresAntes);
  });

  it('a reprodução de uma venda já aceita continua respondida depois de finalizar', async () => {
    const r = await postar(carla, corpoOriginal());
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().venda).toMatchObject({ id: vendaId, rota_status: 'finalizada' });
  });

  it('venda, edição ou nova versão datadas depois do dia da finalização são 409 rota_finalizada; antes do início, 422 com o período', async () => {
    const fim = await fechadaHaDias(rota, 'finalizadaEm', 3);
    const antes = await contarVendas();
    const guardada = async () => (await t.db.select().from(vendas).where(eq(vendas.id, vendaId)).limit(1))[0]!;
    const valoresAntes = await guardada();
    esperarRecusa(await postar(carla, corpoVenda(rota, CALDAS, { data_venda: somarDias(fim, 1) })), 409, 'rota_finalizada', FINALIZADA);
    // Before the route began: 422 naming the period, whatever the status.
    esperarRecusa(await postar(carla, corpoVenda(rota, CALDAS, { data_venda: somarDias(HOJE, -31) })), 422, 'regra_de_negocio', /^A data .* está fora do período da rota/);
    const edicao = await t.chamar({ method: 'PUT', url: `/api/vendas/${vendaId}`, token: carla.token, payload: { valor_dinheiro: 1, registrado_em: new Date().toISOString() } });
    esperarRecusa(edicao, 409, 'rota_finalizada', FINALIZADA);
    const mesmoIdMaisNovo = await postar(carla, { ...corpoOriginal(), valor_dinheiro: 3, registrado_em: new Date().toISOString() });
    esperarRecusa(mesmoIdMaisNovo, 409, 'rota_finalizada', FINALIZADA);
    // The route's last day itself too: nothing moves a finished route's figures but an admin's acceptance.
    esperarRecusa(await postar(carla, corpoVenda(rota, CALDAS, { data_venda: fim })), 409, 'rota_finalizada', FINALIZADA);
    expect(await contarVendas()).toBe(antes);
    expect(await guardada()).toEqual(valoresAntes);
  });

  it('rota cancelada pelo administrador: aceita o que foi vendido até o dia do cancelamento, recusa o que vem depois com a sua mensagem', async () => {
    const d = await t.criarFuncionario({ nome: 'Davi Cancelado' });
    const davi = { id: d.id, token: d.token };
    const rotaCancelada = await criarRota(d.id, 'Rota cancelada', [CALDAS, CATALAO]);
    expect((await t.chamar({ method: 'PATCH', url: `/api/rotas/${rotaCancelada}/cancelar`, token: tokenAdmin })).statusCode).toBe(200);
    const hojeMesmo = await postar(davi, corpoVenda(rotaCancelada, CALDAS));
    expect(hojeMesmo.statusCode, hojeMesmo.body).toBe(201);
    expect(hojeMesmo.json().venda).toMatchObject({ data_venda: HOJE, rota_status: 'cancelada' });
    expect((await postar(davi, corpoVenda(rotaCancelada, CATALAO, { data_venda: ONTEM }))).statusCode).toBe(201);

    const fim = await fechadaHaDias(rotaCancelada, 'canceladaEm', 3);
    esperarRecusa(await postar(davi, corpoVenda(rotaCancelada, CATALAO, { data_venda: somarDias(fim, 1) })), 409, 'conflito', CANCELADA);
    expect((await postar(davi, corpoVenda(rotaCancelada, CATALAO, { data_venda: fim }))).statusCode).toBe(201);
  });

  it('a importação de pendências pelo admin segue a mesma regra: aceita as vendas do período ativo de uma rota cancelada, recusa as de depois', async () => {
    const e = await t.criarFuncionario({ nome: 'Elisa Resgate', email: 'elisa.resgate@teste.com.br' });
    const rotaElisa = await criarRota(e.id, 'Rota da Elisa', [GOIANIA, ANAPOLIS]);
    expect((await t.chamar({ method: 'PATCH', url: `/api/rotas/${rotaElisa}/cancelar`, token: tokenAdmin })).statusCode).toBe(200);
    const fim = await fechadaHaDias(rotaElisa, 'canceladaEm', 3);
    const venda = (cidade: number, data: string) =>
      operacaoPendencia({
        metodo: 'POST',
        caminho: '/vendas',
        corpo: { ...corpoVenda(rotaElisa, cidade, { data_venda: data }), registrado_em: new Date().toISOString() },
        chaves: [`venda:${rotaElisa}:${cidade}:${data}`],
        descricao: `Fechamento em ${data}`,
      });
    const arquivo = arquivoPendencias({ id: e.id, nome: 'Elisa Resgate', email: e.email }, [venda(GOIANIA, somarDias(fim, -1)), venda(ANAPOLIS, fim), venda(GOIANIA, somarDias(fim, 1))]);
    const r = await t.chamar({ method: 'POST', url: '/api/sync/importar', token: tokenAdmin, ...(await formularioPendencias(arquivo)) });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().itens.map((i: { situacao: string; status: number | null; mensagem: string | null }) => [i.situacao, i.status, i.mensagem])).toEqual([
      ['aceito', 201, null],
      ['aceito', 201, null],
      ['recusado', 409, CANCELADA],
    ]);
    expect((await t.db.select().from(vendas).where(eq(vendas.rotaId, rotaElisa))).map((v) => v.dataVenda).sort()).toEqual([somarDias(fim, -1), fim]);
  });
});

describe('PUT /vendas/{id}', () => {
  let vendaId: string;
  beforeAll(async () => {
    const corpo = corpoVenda(rotaBeto, ITUMBIARA, { data_venda: ONTEM, registrado_em: '2026-01-05T10:00:00.000Z' });
    vendaId = corpo.id;
    expect((await postar(beto, corpo)).statusCode).toBe(201);
  });

  it('o dono troca os valores e a observação (em branco vale 0)', async () => {
    const r = await t.chamar({ method: 'PUT', url: `/api/vendas/${vendaId}`, token: beto.token, payload: { valor_pix: '7,25', valor_boletos: 4, observacoes: 'Corrigido' } });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().venda).toMatchObject({ id: vendaId, valor_dinheiro: 0, valor_pix: 7.25, valor_boletos: 4, observacoes: 'Corrigido', total_vendas: 7.25, data_venda: ONTEM });
    expect(r.json().venda.atualizado_em >= r.json().venda.recebido_em).toBe(true);
  });

  it('uma edição baseada numa versão que mudou desde então é um conflito, nunca um 200 que ignora a escrita', async () => {
    const r = await t.chamar({ method: 'PUT', url: `/api/vendas/${vendaId}`, token: beto.token, payload: { valor_pix: 1, versao_base: 1, registrado_em: '2026-01-05T09:00:00Z' } });
    esperarRecusa(r, 409, 'conflito_de_versao', /alterado em outro aparelho/);
    const lida = await t.chamar({ method: 'GET', url: `/api/vendas?rota_id=${rotaBeto}`, token: beto.token });
    expect(lida.json().vendas.find((v: { id: string }) => v.id === vendaId).valor_pix).toBe(7.25);
  });

  it('outro funcionário não encontra a venda; valores inválidos são 400', async () => {
    esperarRecusa(await t.chamar({ method: 'PUT', url: `/api/vendas/${vendaId}`, token: ana.token, payload: { valor_pix: 1 } }), 404, 'nao_encontrado', 'Venda não encontrada.');
    esperarRecusa(await t.chamar({ method: 'PUT', url: `/api/vendas/${uuidv7()}`, token: beto.token, payload: {} }), 404, 'nao_encontrado');
    esperarRecusa(await t.chamar({ method: 'PUT', url: `/api/vendas/${vendaId}`, token: beto.token, payload: { valor_link: -3 } }), 400, 'dados_invalidos', 'Link não pode ser negativo.');
    esperarRecusa(await t.chamar({ method: 'PUT', url: '/api/vendas/123', token: beto.token, payload: {} }), 400, 'dados_invalidos', 'Identificador da venda inválido.');
  });
});

describe('GET /vendas/fechamento-diario', () => {
  let t2: AppDeTeste;
  let admin: string;
  let eva: Pessoa;
  let fabio: Pessoa;
  let rotaEva: number;
  let rotaFabio: number;
  let rotaEvaAntiga: number;
  const D1 = somarDias(HOJE, -10);
  const D2 = somarDias(HOJE, -9);
  const D3 = somarDias(HOJE, -8);

  beforeAll(async () => {
    // Its own database: exact totals over a known set of sales.
    t2 = await criarAppDeTeste();
    admin = await t2.tokenAdmin();
    const e = await t2.criarFuncionario({ nome: 'Eva Centavos' });
    const f = await t2.criarFuncionario({ nome: 'Fábio Norte' });
    eva = { id: e.id, token: e.token };
    fabio = { id: f.id, token: f.token };
    const rota = async (funcionarioId: number, nome: string, cidades: number[]) => {
      const r = await t2.chamar({
        method: 'POST',
        url: '/api/rotas',
        token: admin,
        payload: { nome, funcionario_id: funcionarioId, data_inicio: D1, data_fim: HOJE, cidades },
      });
      return r.json().rota.id as number;
    };
    const venda = async (quem: Pessoa, rotaId: number, cidadeId: number, data: string, valores: object) => {
      const r = await t2.chamar({ method: 'POST', url: '/api/vendas', token: quem.token, payload: { id: uuidv7(), rota_id: rotaId, cidade_id: cidadeId, data_venda: data, ...valores } });
      expect(r.statusCode, r.body).toBe(201);
    };
    rotaEvaAntiga = await rota(eva.id, 'Eva antiga', [GOIANIA]);
    await venda(eva, rotaEvaAntiga, GOIANIA, D1, { valor_dinheiro: 1000, valor_boletos: 9 });
    await t2.chamar({ method: 'PATCH', url: `/api/rotas/${rotaEvaAntiga}/finalizar`, token: eva.token });
    rotaEva = await rota(eva.id, 'Eva nova', [GOIANIA, ANAPOLIS, CALDAS]);
    rotaFabio = await rota(fabio.id, 'Fábio rota', [CATALAO]);
    await venda(eva, rotaEva, GOIANIA, D1, { valor_dinheiro: 0.1, valor_pix: 0.2, valor_boletos: 1 });
    await venda(eva, rotaEva, ANAPOLIS, D2, { valor_dinheiro: 0.2, valor_cartao: 0.1, valor_link: 0.05, valor_boletos: 2 });
    await venda(eva, rotaEva, CALDAS, D3, { valor_pix: 19.99, valor_link: 0.01 });
    await venda(fabio, rotaFabio, CATALAO, D2, { valor_dinheiro: 33.33, valor_boletos: 5 });
  });
  afterAll(() => t2.fechar());

  const consultar = async (token: string, consulta: string) => {
    const r = await t2.chamar({ method: 'GET', url: `/api/vendas/fechamento-diario${consulta}`, token });
    expect(r.statusCode, r.body).toBe(200);
    return r.json() as { totais: Record<string, number>; vendas: { cidade_id: number; rota_id: number; data_venda: string; funcionario_nome: string }[] };
  };

  it('totais exatos ao centavo, somados em centavos (0,10 + 0,20 = 0,30); boletos são contagem, fora do total', async () => {
    const r = await consultar(admin, `?rota_id=${rotaEva}`);
    expect(r.totais).toEqual({ dinheiro: 0.3, pix: 20.19, cartao: 0.1, link: 0.06, boletos: 3, total_geral: 20.65 });
    const d1 = await consultar(admin, `?rota_id=${rotaEva}&data=${D1}`);
    expect(d1.totais).toEqual({ dinheiro: 0.1, pix: 0.2, cartao: 0, link: 0, boletos: 1, total_geral: 0.3 });
    expect(d1.vendas).toHaveLength(1);
  });

  it('cada filtro restringe a lista e os totais juntos', async () => {
    expect((await consultar(admin, '')).vendas).toHaveLength(5);
    expect((await consultar(admin, `?funcionario_id=${fabio.id}`)).totais.total_geral).toBe(33.33);
    expect((await consultar(admin, `?cidade_id=${GOIANIA}`)).vendas).toHaveLength(2);
    const duas = await consultar(admin, `?rota_id=${rotaEva}&cidade_id=${GOIANIA},${CALDAS}`);
    expect(duas.vendas.map((v) => v.cidade_id).sort()).toEqual([CALDAS, GOIANIA].sort());
    expect(duas.totais.total_geral).toBe(20.3);
    const periodo = await consultar(admin, `?data_inicio=${D2}&data_fim=${D2}`);
    expect(periodo.vendas.map((v) => v.data_venda)).toEqual([D2, D2]);
    expect(periodo.totais.total_geral).toBe(33.68);
    expect((await consultar(admin, `?data_inicio=${D2}`)).vendas).toHaveLength(3);
    expect((await consultar(admin, `?data_fim=${D1}`)).vendas).toHaveLength(2);
    const finalizadas = await consultar(admin, '?status_rota=finalizada');
    expect(finalizadas.vendas.map((v) => v.rota_id)).toEqual([rotaEvaAntiga]);
    expect(finalizadas.totais).toMatchObject({ dinheiro: 1000, boletos: 9, total_geral: 1000 });
    expect((await consultar(admin, '?status_rota=ativa')).vendas).toHaveLength(4);
    expect((await consultar(admin, '?status_rota=todas&funcionario_id=')).vendas).toHaveLength(5);
    expect((await consultar(admin, '?status_rota=cancelada')).totais.total_geral).toBe(0);
  });

  it('lista do dia mais novo para o mais antigo', async () => {
    const datas = (await consultar(admin, `?rota_id=${rotaEva}`)).vendas.map((v) => v.data_venda);
    expect(datas).toEqual([D3, D2, D1]);
  });

  it('o funcionário só vê as próprias vendas, seja qual for o filtro', async () => {
    const propria = await consultar(fabio.token, `?funcionario_id=${eva.id}`);
    expect(propria.vendas.map((v) => v.funcionario_nome)).toEqual(['Fábio Norte']);
    const alheia = await consultar(fabio.token, `?rota_id=${rotaEva}`);
    expect(alheia.vendas).toEqual([]);
    expect(alheia.totais.total_geral).toBe(0);
  });

  it('GET /vendas responde { vendas } paginado com os mesmos filtros', async () => {
    const r = await t2.chamar({ method: 'GET', url: `/api/vendas?rota_id=${rotaEva}&data=${D2}`, token: admin });
    expect(r.statusCode).toBe(200);
    expect(Object.keys(r.json())).toEqual(['vendas', 'total', 'page', 'limit']);
    expect(r.json().total).toBe(1);
    expect(r.json().vendas).toHaveLength(1);
    esperarRecusa(await t2.chamar({ method: 'GET', url: '/api/vendas' }), 401, 'nao_autenticado');
  });

  it('filtros inválidos são 400 com mensagem clara', async () => {
    esperarRecusa(await t2.chamar({ method: 'GET', url: '/api/vendas/fechamento-diario?status_rota=aberta', token: admin }), 400, 'dados_invalidos', 'Status da rota inválido.');
    esperarRecusa(await t2.chamar({ method: 'GET', url: '/api/vendas/fechamento-diario?data=31/12/2026', token: admin }), 400, 'dados_invalidos', 'Data inválida (use o formato aaaa-mm-dd).');
    esperarRecusa(await t2.chamar({ method: 'GET', url: '/api/vendas/fechamento-diario?cidade_id=1,x', token: admin }), 400, 'dados_invalidos', 'Cidade inválida.');
  });

  it('resumo da rota: administrador qualquer rota, funcionário só a própria', async () => {
    const r = await t2.chamar({ method: 'GET', url: `/api/vendas/rota/${rotaEva}/resumo`, token: admin });
    expect(r.json()).toEqual({ resumo: { total_vendas: 20.65, total_boletos: 3, total_dinheiro: 0.3, total_pix: 20.19, total_cartao: 0.1, total_link: 0.06 } });
    const propria = await t2.chamar({ method: 'GET', url: `/api/vendas/rota/${rotaFabio}/resumo`, token: fabio.token });
    expect(propria.json().resumo.total_vendas).toBe(33.33);
    esperarRecusa(await t2.chamar({ method: 'GET', url: `/api/vendas/rota/${rotaEva}/resumo`, token: fabio.token }), 404, 'nao_encontrado', 'Rota não encontrada.');
    esperarRecusa(await t2.chamar({ method: 'GET', url: '/api/vendas/rota/999/resumo', token: admin }), 404, 'nao_encontrado');
  });
});

describe('GET /vendas/rota/{id}/historico', () => {
  it('as 6 vendas mais recentes de cada cidade da rota, da mais nova para a mais antiga', async () => {
    const g = await t.criarFuncionario({ nome: 'Gil Histórico' });
    const gil = { id: g.id, token: g.token };
    const rota = await criarRota(gil.id, 'Rota do histórico', [GOIANIA, ANAPOLIS, CALDAS]);
    for (let i = 1; i <= 8; i++) {
      const r = await postar(gil, corpoVenda(rota, GOIANIA, { data_venda: somarDias(HOJE, -i), valor_dinheiro: i, valor_pix: 0, valor_boletos: i }));
      expect(r.statusCode).toBe(201);
    }
    await postar(gil, corpoVenda(rota, ANAPOLIS, { data_venda: ONTEM, valor_dinheiro: 0.1, valor_pix: 0.2 }));
    const r = await t.chamar({ method: 'GET', url: `/api/vendas/rota/${rota}/historico`, token: gil.token });
    expect(r.statusCode, r.body).toBe(200);
    const historico = r.json().historico as { cidade_id: number; data_venda: string; total_vendas: number; valor_boletos: number }[];
    const deGoiania = historico.filter((h) => h.cidade_id === GOIANIA);
    expect(deGoiania.map((h) => h.data_venda)).toEqual([1, 2, 3, 4, 5, 6].map((i) => somarDias(HOJE, -i)));
    expect(deGoiania[0]).toMatchObject({ total_vendas: 1, valor_boletos: 1 });
    expect(historico.filter((h) => h.cidade_id === ANAPOLIS)).toEqual([expect.objectContaining({ data_venda: ONTEM, total_vendas: 0.3 })]);
    expect(historico.filter((h) => h.cidade_id === CALDAS)).toEqual([]);

    esperarRecusa(await t.chamar({ method: 'GET', url: `/api/vendas/rota/${rota}/historico`, token: ana.token }), 404, 'nao_encontrado');
    const admin = await t.chamar({ method: 'GET', url: `/api/vendas/rota/${rota}/historico`, token: tokenAdmin });
    expect(admin.json().historico).toHaveLength(7);
  });
});
