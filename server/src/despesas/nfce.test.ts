/**
 * The NFC-e's chave on an expense — checked (format and check digit, 400 in pt-BR), one live expense
 * per chave whoever launched it (409), through the REST form and the offline batch alike; the admin
 * reads it. The 409 names the expense that has the chave only to its owner and to an admin (who
 * meets it accepting a write held after a route's finish); any other employee reads
 * MENSAGEM_NFCE_DE_OUTRO, so a chave cannot be probed for someone else's name, city and amount.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatarData } from '../../../shared/dates';
import { digitoVerificadorChave } from '../../../shared/nfce';
import { ANAPOLIS, CALDAS_NOVAS, GOIANIA, formulario, criarCenarioDeDespesas, criarRotaAtiva, ontem } from '../../test/despesas';
import { MOTOR_DE_TESTE } from '../../test/bancoDeTeste';
import { esperarRecusa, type AppDeTeste } from '../../test/helper';
import { executar, linha } from '../db';
import { ErroApp } from '../errors';
import { erroDaNfce, MENSAGEM_NFCE_DE_OUTRO } from './nfce';

interface Pessoa {
  id: number;
  token: string;
}

let t: AppDeTeste;
let tokenAdmin: string;
let ana: Pessoa;
let rotaAna: number;
let bruno: Pessoa;
let rotaBruno: number;

beforeAll(async () => {
  ({ t, tokenAdmin, ana, rotaAna, bruno, rotaBruno } = await criarCenarioDeDespesas());
});
afterAll(async () => {
  await t?.fechar();
});

/** A different valid chave each call (GO, 2026-11, CNPJ 12.345.678/0001-95, NFC-e number n). */
let numero = 1000;
function novaChave(): string {
  numero += 1;
  const c43 = `522611${'12345678000195'}65001${String(numero).padStart(9, '0')}1${'00004321'}`;
  return c43 + digitoVerificadorChave(c43);
}

const campos = (extra: Record<string, string | number> = {}, rota = rotaAna, cidade = ANAPOLIS) => ({
  id: uuidv7(),
  rota_id: rota,
  cidade_id: cidade,
  data_despesa: ontem(),
  tipo: 'alimentacao',
  valor: '45,90',
  descricao: 'Almoço',
  ...extra,
});

async function criar(quem: Pessoa, c: Record<string, string | number>): Promise<LightMyRequestResponse> {
  return t.chamar({ method: 'POST', url: '/api/despesas', token: quem.token, ...(await formulario(c)) });
}
async function editar(quem: Pessoa, id: string, c: Record<string, string | number>): Promise<LightMyRequestResponse> {
  return t.chamar({ method: 'PUT', url: `/api/despesas/${id}`, token: quem.token, ...(await formulario(c)) });
}
const contar = async (consulta: SQL) => (await linha<{ n: number }>(t.db, consulta))!.n;
const saldoCentavos = async (id: number) =>
  (await linha<{ s: number }>(t.db, sql`select coalesce((select saldo_novo_centavos from movimentacoes_saldo where funcionario_id = ${id} order by id desc limit 1), 0) as s`))!.s;

async function lote(quem: Pessoa, operacoes: unknown[]) {
  const r = await t.chamar({ method: 'POST', url: '/api/sync/lote', token: quem.token, payload: { cliente_id: 'aparelho-nfce', operacoes } });
  expect(r.statusCode, r.body).toBe(200);
  return r.json().resultados as { id: string; status: number; corpo?: { error: string; codigo: string } }[];
}
let seq = 0;
const opCriar = (rota: number, cidade: number, chave: string | null, valor = 3000) => ({
  id: uuidv7(),
  tipo: 'despesa.criar',
  seq: ++seq,
  dados: { id: uuidv7(), rota_id: rota, cidade_id: cidade, data_despesa: ontem(), tipo: 'alimentacao', tipo_outro: '', valor, descricao: '', chave_nfce: chave },
});

describe('chave da NFC-e na despesa', () => {
  it('cria com a chave (digitada em blocos), devolve-a normalizada, e o admin a lê na lista', async () => {
    const chave = novaChave();
    const r = await criar(ana, campos({ chave_nfce: (chave.match(/.{4}/g) ?? []).join(' ') }));
    expect(r.statusCode, r.body).toBe(201);
    expect(r.json().despesa.chave_nfce).toBe(chave);
    const lista = await t.chamar({ method: 'GET', url: `/api/despesas?funcionario_id=${ana.id}`, token: tokenAdmin });
    expect(lista.statusCode, lista.body).toBe(200);
    expect(lista.json().despesas.find((d: { id: string }) => d.id === r.json().despesa.id).chave_nfce).toBe(chave);
    // Without a chave the field is null.
    const sem = await criar(ana, campos());
    expect(sem.json().despesa.chave_nfce).toBeNull();
  });

  it('recusa com 400 em pt-BR o dígito errado e o tamanho errado, sem gravar nada', async () => {
    const chave = novaChave();
    const errada = chave.slice(0, 43) + String((Number(chave[43]) + 1) % 10);
    const antes = await contar(sql`select count(*) as n from despesas`);
    const saldo = await saldoCentavos(ana.id);
    esperarRecusa(await criar(ana, campos({ chave_nfce: errada })), 400, 'dados_invalidos', 'Chave da NFC-e inválida: o dígito verificador não confere. Confira os números digitados.');
    esperarRecusa(await criar(ana, campos({ chave_nfce: chave.slice(0, 40) })), 400, 'dados_invalidos', 'Chave da NFC-e inválida: ela tem 44 caracteres, e foram informados 40.');
    expect(await contar(sql`select count(*) as n from despesas`)).toBe(antes);
    expect(await saldoCentavos(ana.id)).toBe(saldo);
  });

  it('uma segunda despesa com a mesma chave é 409: à dona diz qual despesa já a usou; a outro funcionário, só que foi de outro', async () => {
    const chave = novaChave();
    const primeira = await criar(ana, campos({ chave_nfce: chave, valor: '45,90' }));
    expect(primeira.statusCode, primeira.body).toBe(201);
    const saldoBruno = await saldoCentavos(bruno.id);
    esperarRecusa(await criar(bruno, campos({ chave_nfce: chave }, rotaBruno, CALDAS_NOVAS)), 409, 'conflito', 'Esta NFC-e já foi lançada por outro funcionário.');
    // The same person twice: she is shown which of her expenses has it.
    esperarRecusa(await criar(ana, campos({ chave_nfce: chave })), 409, 'conflito', `Esta NFC-e já foi lançada na despesa Alimentação — Anápolis (R$ 45,90) de Ana Estrada em ${formatarData(ontem())}.`);
    expect(await contar(sql`select count(*) as n from despesas where chave_nfce = ${chave}`)).toBe(1);
    expect(await saldoCentavos(bruno.id)).toBe(saldoBruno);
  });

  it('no lote offline, a duplicada é a recusa daquela operação (409 com a mensagem); a chave inválida, 400; a boa passa', async () => {
    const chave = novaChave();
    const [ok] = await lote(ana, [opCriar(rotaAna, GOIANIA, chave)]);
    expect(ok!.status).toBe(201);
    expect(await contar(sql`select count(*) as n from despesas where chave_nfce = ${chave} and funcionario_id = ${ana.id}`)).toBe(1);
    const dupla = opCriar(rotaBruno, CALDAS_NOVAS, chave);
    const invalida = opCriar(rotaBruno, CALDAS_NOVAS, chave.slice(0, 43) + 'X');
    const boa = opCriar(rotaBruno, CALDAS_NOVAS, novaChave());
    const resultados = await lote(bruno, [dupla, invalida, boa]);
    const porId = new Map(resultados.map((r) => [r.id, r]));
    expect(porId.get(dupla.id)!.status).toBe(409);
    expect(porId.get(dupla.id)!.corpo?.error).toBe('Esta NFC-e já foi lançada por outro funcionário.');
    expect(porId.get(invalida.id)!.status).toBe(400);
    expect(porId.get(invalida.id)!.corpo?.error).toMatch(/^Chave da NFC-e inválida: /);
    expect(porId.get(boa.id)!.status).toBe(201);
  });

  it('editar: a própria chave não conflita; sem o campo a chave fica; vazio a tira, e então outro pode usá-la; excluída também libera', async () => {
    const chave = novaChave();
    const d = (await criar(ana, campos({ chave_nfce: chave }))).json().despesa;
    const base = { rota_id: rotaAna, cidade_id: ANAPOLIS, data_despesa: ontem(), tipo: 'alimentacao', valor: '45,90' };
    let r = await editar(ana, d.id, { ...base, descricao: 'Almoço e café', chave_nfce: chave });
    expect(r.statusCode, r.body).toBe(200);
    r = await editar(ana, d.id, { ...base, descricao: 'Sem mexer na chave' });
    expect(r.json().despesa.chave_nfce).toBe(chave);
    r = await editar(ana, d.id, { ...base, descricao: 'Sem nota', chave_nfce: '' });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().despesa.chave_nfce).toBeNull();
    const deBruno = await criar(bruno, campos({ chave_nfce: chave }, rotaBruno, CALDAS_NOVAS));
    expect(deBruno.statusCode, deBruno.body).toBe(201);
    // Ana cannot take it back by an edit: 409, without Bruno's expense.
    esperarRecusa(await editar(ana, d.id, { ...base, chave_nfce: chave }), 409, 'conflito', 'Esta NFC-e já foi lançada por outro funcionário.');
    const excluida = await t.chamar({ method: 'DELETE', url: `/api/despesas/${deBruno.json().despesa.id}`, token: bruno.token });
    expect(excluida.statusCode, excluida.body).toBe(200);
    r = await editar(ana, d.id, { ...base, chave_nfce: chave });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().despesa.chave_nfce).toBe(chave);
  });

  it('a posse não muda: Bruno não edita a despesa de Ana nem com uma chave; o admin não lança despesa', async () => {
    const d = (await criar(ana, campos())).json().despesa;
    const r = await editar(bruno, d.id, { rota_id: rotaAna, cidade_id: ANAPOLIS, data_despesa: ontem(), tipo: 'alimentacao', valor: '45,90', chave_nfce: novaChave() });
    esperarRecusa(r, 404, 'nao_encontrado');
    esperarRecusa(await criar({ id: 0, token: tokenAdmin }, campos({ chave_nfce: novaChave() })), 403, 'sem_permissao');
  });

  it('o índice único é a última defesa: a violação vira o mesmo 409, nunca 500', async () => {
    const chave = novaChave();
    const primeira = (await criar(ana, campos({ chave_nfce: chave }))).json().despesa;
    const outra = (await criar(bruno, campos({}, rotaBruno, CALDAS_NOVAS)))?.json().despesa;
    // What a write racing past the service's check meets: the partial unique index refuses it.
    let violacao: unknown;
    try {
      await executar(t.db, sql`update despesas set chave_nfce = ${chave} where id = ${outra.id}`);
    } catch (erro) {
      violacao = erro;
    }
    // The driver's own error (SQLite's code or PostgreSQL's unique_violation), as is or inside drizzle's wrapper.
    const { code, cause } = violacao as { code?: string; cause?: { code?: string } };
    expect(code ?? cause?.code).toBe(MOTOR_DE_TESTE === 'postgres' ? '23505' : 'SQLITE_CONSTRAINT_UNIQUE');
    const traduzido = await erroDaNfce(t.db, violacao, chave, outra.id, { id: bruno.id, tipo: 'funcionario' });
    expect(traduzido).toBeInstanceOf(ErroApp);
    expect((traduzido as ErroApp).statusCode).toBe(409);
    expect((traduzido as ErroApp).message).toBe(MENSAGEM_NFCE_DE_OUTRO);
    // Its owner is told which expense has it.
    const paraDona = await erroDaNfce(t.db, violacao, chave, outra.id, { id: ana.id, tipo: 'funcionario' });
    expect((paraDona as ErroApp).message).toBe(`Esta NFC-e já foi lançada na despesa Alimentação — Anápolis (R$ 45,90) de Ana Estrada em ${formatarData(ontem())}.`);
    expect(primeira.chave_nfce).toBe(chave);
    // Any other error is left as it was.
    const outroErro = new Error('disco cheio');
    expect(await erroDaNfce(t.db, outroErro, chave, outra.id, { id: bruno.id, tipo: 'funcionario' })).toBe(outroErro);
  });
});

describe('quem lê a recusa da NFC-e repetida', () => {
  const daAna = (valor: string) => `Esta NFC-e já foi lançada na despesa Alimentação — Anápolis (R$ ${valor}) de Ana Estrada em ${formatarData(ontem())}.`;

  it('a dona lê qual despesa tem a chave, no formulário e no lote; outro funcionário lê só a frase fixa, nos dois caminhos e na correção', async () => {
    const chave = novaChave();
    expect((await criar(ana, campos({ chave_nfce: chave, valor: '61,70' }))).statusCode).toBe(201);

    // Owner, single endpoint and batch.
    esperarRecusa(await criar(ana, campos({ chave_nfce: chave })), 409, 'conflito', daAna('61,70'));
    const [daDona] = await lote(ana, [opCriar(rotaAna, GOIANIA, chave)]);
    expect([daDona!.status, daDona!.corpo?.error]).toEqual([409, daAna('61,70')]);

    // Another employee: nothing of Ana's expense (name, type, city, amount, date), single endpoint and batch.
    const r = await criar(bruno, campos({ chave_nfce: chave }, rotaBruno, CALDAS_NOVAS));
    esperarRecusa(r, 409, 'conflito', 'Esta NFC-e já foi lançada por outro funcionário.');
    for (const pista of ['Ana', 'Alimentação', 'Anápolis', '61,70', formatarData(ontem())]) expect(r.body).not.toContain(pista);
    const [deOutro] = await lote(bruno, [opCriar(rotaBruno, CALDAS_NOVAS, chave)]);
    expect([deOutro!.status, deOutro!.corpo?.error]).toEqual([409, 'Esta NFC-e já foi lançada por outro funcionário.']);
    const editada = await lote(bruno, [
      { id: uuidv7(), tipo: 'despesa.editar', seq: ++seq, dados: { ...opCriar(rotaBruno, CALDAS_NOVAS, null).dados, id: (await criar(bruno, campos({}, rotaBruno, CALDAS_NOVAS))).json().despesa.id, chave_nfce: chave } },
    ]);
    expect([editada[0]!.status, editada[0]!.corpo?.error]).toEqual([409, 'Esta NFC-e já foi lançada por outro funcionário.']);
  });

  it('o admin, ao aceitar uma despesa guardada depois da finalização, lê qual despesa tem a chave', async () => {
    const chave = novaChave();
    expect((await criar(ana, campos({ chave_nfce: chave, valor: '52,30' }))).statusCode).toBe(201);
    const carla = await t.criarFuncionario({ nome: 'Carla Tardia' });
    const rotaCarla = await criarRotaAtiva(t, carla.id, [CALDAS_NOVAS], 'Rota da Carla');
    expect((await t.chamar({ method: 'PATCH', url: `/api/rotas/${rotaCarla}/finalizar`, token: carla.token })).statusCode).toBe(200);
    // Queued on another phone before the finish: held for the admin (202), not checked yet.
    const guardada = opCriar(rotaCarla, CALDAS_NOVAS, chave);
    const [r] = await lote(carla, [guardada]);
    expect(r!.status).toBe(202);
    const aceite = await t.chamar({ method: 'PATCH', url: `/api/rotas/${rotaCarla}/tardios/${guardada.id}/aceitar`, token: tokenAdmin });
    esperarRecusa(aceite, 409, 'conflito', `Não foi possível aceitar este registro: ${daAna('52,30')}`);
  });
});
