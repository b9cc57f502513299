import fs from 'node:fs';
import path from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hoje, somarDias } from '../../../shared/dates';
import { ANAPOLIS, ARQUIVOS, CALDAS_NOVAS, GOIANIA, criarRotaAtiva, sha256, type ArquivoTeste } from '../../test/despesas';
import { criarAppDeTeste, esperarRecusa, type AppDeTeste } from '../../test/helper';
import * as banco from '../db';
import { conflito } from '../errors';
import * as servicoVendas from '../vendas/servico';
import { loteCanonico, loteSchema } from './lote';

let t: AppDeTeste;
let ana: { id: number; token: string };
let bruno: { id: number; token: string };
let rotaAna: number;
const dia = hoje('America/Sao_Paulo');

beforeAll(async () => {
  t = await criarAppDeTeste();
  ana = await t.criarFuncionario({ nome: 'Ana Estrada' });
  bruno = await t.criarFuncionario({ nome: 'Bruno Campo' });
  rotaAna = await criarRotaAtiva(t, ana.id, [GOIANIA, ANAPOLIS, CALDAS_NOVAS], 'Rota Goiás');
  await criarRotaAtiva(t, bruno.id, [GOIANIA], 'Rota do Bruno');
});
afterAll(() => t.fechar());

interface Op {
  id: string;
  metodo: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  caminho: string;
  corpo?: unknown;
  chaves?: string[];
}

const venda = (cidade: number, data: string, valores: Record<string, number | string> = {}, id = uuidv7()): Op => ({
  id: uuidv7(),
  metodo: 'POST',
  caminho: '/vendas',
  corpo: { id, rota_id: rotaAna, cidade_id: cidade, data_venda: data, valor_dinheiro: 10, registrado_em: new Date().toISOString(), ...valores },
  chaves: [`venda:${rotaAna}:${cidade}:${data}`],
});

function lote(operacoes: Op[], token = ana.token) {
  return t.chamar({ method: 'POST', url: '/api/sync/lote', token, payload: { operacoes } });
}

async function loteMultipart(operacoes: Op[], arquivos: Record<string, ArquivoTeste>, token = ana.token) {
  const fd = new FormData();
  fd.append('operacoes', JSON.stringify({ operacoes }));
  for (const [opId, a] of Object.entries(arquivos)) fd.append(`arquivo:${opId}`, new Blob([new Uint8Array(a.conteudo)], { type: a.tipo }), a.nome);
  const r = new Response(fd);
  return t.chamar({
    method: 'POST',
    url: '/api/sync/lote',
    token,
    payload: Buffer.from(await r.arrayBuffer()),
    headers: { 'content-type': r.headers.get('content-type')! },
  });
}

const contar = async (tabela: string, onde: SQL = sql`1 = 1`) =>
  (await banco.linha<{ n: number }>(t.db, sql`select count(*) as n from ${sql.identifier(tabela)} where ${onde}`))!.n;

describe('POST /api/sync/lote', () => {
  it('roda as escritas na ordem do aparelho e responde cada uma com o status do endpoint dela e a hora em que o servidor a recebeu', async () => {
    const d1 = somarDias(dia, -3);
    const ops: Op[] = [
      venda(GOIANIA, d1, { valor_pix: 0.1 }),
      venda(ANAPOLIS, d1, { valor_pix: 0.2 }),
      { id: uuidv7(), metodo: 'POST', caminho: `/rotas/${rotaAna}/cidades/${CALDAS_NOVAS}/visitar`, corpo: { id: uuidv7(), data: d1 } },
    ];
    const r = await lote(ops);
    expect(r.statusCode, r.body).toBe(200);
    const { resultados } = r.json();
    expect(resultados.map((x: { id: string; status: number }) => [x.id, x.status])).toEqual([
      [ops[0]!.id, 201],
      [ops[1]!.id, 201],
      [ops[2]!.id, 200],
    ]);
    // A receipt, not the record: the phone already shows what it sent.
    for (const x of resultados) expect(x.corpo).toBeUndefined();

    // The receipt is the time the single endpoints report for the same records.
    const sozinha = await t.chamar({ method: 'POST', url: '/api/vendas', token: ana.token, payload: ops[0]!.corpo as Record<string, unknown> });
    expect(sozinha.statusCode).toBe(200); // a replay now
    expect(sozinha.json().venda).toMatchObject({ cidade_id: GOIANIA, valor_dinheiro: 10, valor_pix: 0.1, total_vendas: 10.1 });
    expect(resultados[0].recebido_em).toBe(sozinha.json().venda.atualizado_em);
    const visita = await t.chamar({ method: 'POST', url: `/api/rotas/${rotaAna}/cidades/${CALDAS_NOVAS}/visitar`, token: ana.token, payload: ops[2]!.corpo as Record<string, unknown> });
    expect(visita.json().visita).toMatchObject({ cidade_id: CALDAS_NOVAS, data: d1 });
    expect(resultados[2].recebido_em).toBe(visita.json().visita.recebido_em);

    const totais = await t.chamar({ method: 'GET', url: `/api/vendas/fechamento-diario?data=${d1}`, token: ana.token });
    expect(totais.json().totais.total_geral).toBe(20.3);
  });

  it('exatamente uma vez: o mesmo lote de novo (resposta perdida) não duplica nada', async () => {
    const d = somarDias(dia, -4);
    const ops = [venda(GOIANIA, d), venda(ANAPOLIS, d), venda(CALDAS_NOVAS, d)];
    await lote(ops);
    const antes = { vendas: await contar('vendas'), visitas: await contar('visitas') };
    const de_novo = await lote(ops);
    // Answered from the operation log: the recorded outcome, marked as a repetition.
    expect(de_novo.json().resultados.map((x: { status: number; repetida?: boolean }) => [x.status, x.repetida])).toEqual([[201, true], [201, true], [201, true]]);
    expect({ vendas: await contar('vendas'), visitas: await contar('visitas') }).toEqual(antes);
  });

  it('uma recusa não muda nada; as escritas seguintes da mesma entidade ficam retidas, as outras seguem', async () => {
    const d = somarDias(dia, -5);
    const idVenda = uuidv7();
    const foraDaRota: Op = { ...venda(5211503, d), chaves: ['venda:x'] }; // Itumbiara is not on the route
    const criar = venda(GOIANIA, d, {}, idVenda);
    const editar: Op = {
      id: uuidv7(),
      metodo: 'PUT',
      caminho: `/vendas/${idVenda}`,
      corpo: { valor_dinheiro: 99, registrado_em: new Date(Date.now() + 1000).toISOString() },
      chaves: ['venda:x'],
    };
    const outra = venda(ANAPOLIS, d);
    const r = await lote([foraDaRota, criar, editar, outra]);
    const res = r.json().resultados;
    expect(res[0]).toMatchObject({ status: 422, corpo: { error: 'Esta cidade não faz parte da rota.', codigo: 'regra_de_negocio' } });
    expect(res[1].status).toBe(201);
    expect(res[2]).toEqual({ id: editar.id, status: 'retido' }); // same key as the refused write: not run
    expect(res[3].status).toBe(201);
    expect(await contar('vendas', sql`cidade_id = 5211503`)).toBe(0);
    const guardada = (await banco.linha<{ d: number }>(t.db, sql`select dinheiro_centavos as d from vendas where id = ${idVenda}`))!;
    expect(guardada.d).toBe(1000); // the held edit did not run
  });

  it('uma transação que o banco desfaz e roda de novo (o PostgreSQL num conflito de serialização) responde o que a execução confirmada fez', async () => {
    const d = somarDias(dia, -7);
    const idVenda = uuidv7();
    const foraDaRota: Op = { ...venda(5211503, d), chaves: ['venda:y'] };
    const criar = venda(GOIANIA, d, {}, idVenda);
    const editar: Op = { id: uuidv7(), metodo: 'PUT', caminho: `/vendas/${idVenda}`, corpo: { valor_dinheiro: 99, registrado_em: new Date(Date.now() + 1000).toISOString() }, chaves: ['venda:y'] };
    const outra = venda(ANAPOLIS, d);
    const original = banco.emTransacao;
    // Every transaction the batch opens runs whole once, is rolled back, and runs again.
    const espiao = vi.spyOn(banco, 'emTransacao').mockImplementation(async (db, fn) => {
      if (banco.estaEmTransacao(db)) return original(db, fn);
      await original(db, async (tx) => {
        await fn(tx);
        throw new Error('could not serialize access due to read/write dependencies among transactions');
      }).catch(() => undefined);
      return original(db, fn);
    });
    const r = await lote([foraDaRota, criar, editar, outra]);
    espiao.mockRestore();
    expect(r.json().resultados.map((x: { status: number | string; repetida?: boolean }) => [x.status, x.repetida ?? false])).toEqual([
      [422, false],
      [201, false],
      ['retido', false],
      [201, false],
    ]);
    expect(await contar('vendas', sql`data_venda = ${d}`)).toBe(2);
    expect(await contar('operacoes_aplicadas', sql`id in (${criar.id}, ${outra.id}, ${editar.id}, ${foraDaRota.id})`)).toBe(2);
    const de_novo = await lote([criar, outra]);
    expect(de_novo.json().resultados.map((x: { status: number; repetida?: boolean }) => [x.status, x.repetida])).toEqual([[201, true], [201, true]]);
  });

  it('uma recusa depois de a escrita já ter gravado algo desfaz só ela: as anteriores e as seguintes do mesmo lote ficam', async () => {
    const ops = [0, 1, 2].map((i) => venda(ANAPOLIS, somarDias(dia, -400 - i)));
    const idRecusada = (ops[1]!.corpo as { id: string }).id;
    const original = servicoVendas.salvarVenda;
    // Refused after its sale and visit were written (a rule checked last).
    const espiao = vi.spyOn(servicoVendas, 'salvarVenda').mockImplementation(async (...args) => {
      const r = await original(...args);
      if (args[2].id === idRecusada) throw conflito('Recusada depois de gravar.');
      return r;
    });
    const r = await lote(ops);
    espiao.mockRestore();
    expect(r.json().resultados.map((x: { status: number }) => x.status)).toEqual([201, 409, 201]);
    expect(await contar('vendas', sql`id = ${idRecusada}`)).toBe(0);
    expect(await contar('visitas', sql`cidade_id = ${ANAPOLIS} and data = ${somarDias(dia, -401)}`)).toBe(0);
    expect(await contar('vendas', sql`cidade_id = ${ANAPOLIS} and data_venda in (${somarDias(dia, -400)}, ${somarDias(dia, -402)})`)).toBe(2);
  });

  it('despesas com comprovantes no mesmo lote: arquivos idênticos byte a byte e o saldo debitado', async () => {
    const jpeg = ARQUIVOS.jpeg();
    const pdf = ARQUIVOS.pdf();
    const idA = uuidv7();
    const idB = uuidv7();
    const opA: Op = { id: uuidv7(), metodo: 'POST', caminho: '/despesas', corpo: { id: idA, rota_id: rotaAna, cidade_id: GOIANIA, data_despesa: dia, tipo: 'alimentacao', valor: '45,90', descricao: 'Almoço' } };
    const opB: Op = { id: uuidv7(), metodo: 'POST', caminho: '/despesas', corpo: { id: idB, rota_id: rotaAna, cidade_id: ANAPOLIS, data_despesa: dia, tipo: 'pedagio', valor: '12,30' } };
    const meio = venda(GOIANIA, somarDias(dia, -6));
    const r = await loteMultipart([opA, meio, opB], { [opA.id]: jpeg, [opB.id]: pdf });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().resultados.map((x: { status: number }) => x.status)).toEqual([201, 201, 201]);
    for (const [id, arquivo] of [[idA, jpeg], [idB, pdf]] as const) {
      const linha = (await banco.linha<{ a: string }>(t.db, sql`select arquivo_cupom as a from despesas where id = ${id}`))!;
      expect(sha256(fs.readFileSync(path.join(t.dataDir, 'uploads', linha.a)))).toBe(sha256(arquivo.conteudo));
    }
    const saldo = await t.chamar({ method: 'GET', url: '/api/saldo/resumo', token: ana.token });
    expect(saldo.json().saldo_atual).toBe(-58.2);

    // Replayed with the files again: nothing twice, no second debit.
    const debitos = await contar('movimentacoes_saldo', sql`funcionario_id = ${ana.id}`);
    const arquivos = fs.readdirSync(path.join(t.dataDir, 'uploads')).length;
    const replay = await loteMultipart([opA, meio, opB], { [opA.id]: jpeg, [opB.id]: pdf });
    expect(replay.json().resultados.map((x: { status: number; repetida?: boolean }) => [x.status, x.repetida])).toEqual([[201, true], [201, true], [201, true]]);
    expect(await contar('movimentacoes_saldo', sql`funcionario_id = ${ana.id}`)).toBe(debitos);
    expect(fs.readdirSync(path.join(t.dataDir, 'uploads')).length).toBe(arquivos);
  });

  it('500 escritas em uma ida ao servidor', async () => {
    const ops: Op[] = [];
    for (let i = 0; i < 500; i++) ops.push(venda([GOIANIA, ANAPOLIS, CALDAS_NOVAS][i % 3]!, somarDias(dia, -10 - Math.floor(i / 3))));
    const antes = await contar('vendas');
    const r = await lote(ops);
    expect(r.statusCode).toBe(200);
    expect(r.json().resultados.every((x: { status: number }) => x.status === 201)).toBe(true);
    expect(await contar('vendas') - antes).toBe(500);
  });

  it('um erro inesperado no meio interrompe o lote: o que veio antes fica, o resto volta "nao_processado" e a repetição completa exatamente uma vez', async () => {
    const ops = [0, 1, 2, 3, 4].map((i) => venda(GOIANIA, somarDias(dia, -200 - i)));
    const original = servicoVendas.salvarVenda;
    // The third write fails every time it runs during this request (a full disk, a bug).
    const idQueFalha = (ops[2]!.corpo as { id: string }).id;
    const espiao = vi.spyOn(servicoVendas, 'salvarVenda').mockImplementation(async (...args) => {
      if (args[2].id === idQueFalha) throw new Error('disco cheio');
      return original(...args);
    });
    const r = await lote(ops);
    espiao.mockRestore();
    expect(r.statusCode).toBe(200);
    expect(r.json().resultados.map((x: { status: number | string }) => x.status)).toEqual([201, 201, 'nao_processado', 'nao_processado', 'nao_processado']);
    const replay = await lote(ops);
    expect(replay.json().resultados.map((x: { status: number; repetida?: boolean }) => [x.status, x.repetida ?? false])).toEqual([
      [201, true],
      [201, true],
      [201, false],
      [201, false],
      [201, false],
    ]);
    expect(await contar('vendas', sql`data_venda <= ${somarDias(dia, -200)} and data_venda >= ${somarDias(dia, -204)}`)).toBe(5);
  });

  it('operação desconhecida é recusada com uma mensagem clara', async () => {
    const r = await lote([{ id: uuidv7(), metodo: 'DELETE', caminho: '/usuarios/1' }]);
    expect(r.json().resultados[0]).toMatchObject({ status: 404, corpo: { codigo: 'nao_encontrado' } });
  });

  it('dados inválidos numa escrita dão o mesmo 400 da rota sozinha', async () => {
    const op = venda(GOIANIA, dia, { valor_pix: -1 });
    const r = await lote([op]);
    const sozinha = await t.chamar({ method: 'POST', url: '/api/vendas', token: ana.token, payload: op.corpo as Record<string, unknown> });
    expect(r.json().resultados[0].status).toBe(400);
    expect(r.json().resultados[0].corpo).toEqual(sozinha.json());
  });

  it('o funcionário B nunca escreve na rota de A pelo lote', async () => {
    const r = await lote([venda(GOIANIA, somarDias(dia, -300))], bruno.token);
    expect(r.json().resultados[0]).toMatchObject({ status: 404, corpo: { codigo: 'nao_encontrado' } });
  });

  it('recusa envelopes inválidos, admin e anônimo', async () => {
    esperarRecusa(await t.chamar({ method: 'POST', url: '/api/sync/lote', token: ana.token, payload: {} }), 400, 'dados_invalidos', 'Envie a lista de operações.');
    esperarRecusa(await t.chamar({ method: 'POST', url: '/api/sync/lote', token: ana.token, payload: { operacoes: [] } }), 400, 'dados_invalidos', 'Envie ao menos uma operação.');
    const muitas = Array.from({ length: 501 }, () => venda(GOIANIA, dia));
    esperarRecusa(await lote(muitas), 400, 'dados_invalidos', 'Envie no máximo 500 operações por lote.');
    esperarRecusa(await lote([venda(GOIANIA, dia)], await t.tokenAdmin()), 403, 'sem_permissao');
    esperarRecusa(await t.chamar({ method: 'POST', url: '/api/sync/lote', payload: { operacoes: [venda(GOIANIA, dia)] } }), 401, 'nao_autenticado');
  });
});

describe('o envelope do lote conferido sem o zod', () => {
  const op = { id: 'op-1', tipo: 'venda.salvar', seq: 1, dados: {} };
  // [the batch, whether the schema takes it]: the shortcut takes exactly those, with the schema's answer.
  const casos: [unknown, boolean][] = [
    [{ cliente_id: 'celular-1', operacoes: [op] }, true],
    [{ operacoes: [op, op] }, true],
    [{ cliente_id: 'c'.repeat(100), operacoes: Array(500).fill(op) }, true],
    [{ cliente_id: 'celular-1', operacoes: [op], envios: { 'op-1': { id: 'e', nome: 'a.pdf' } } }, true],
    [{ cliente_id: 'c'.repeat(101), operacoes: [op] }, false],
    [{ cliente_id: '', operacoes: [op] }, false],
    [{ cliente_id: 7, operacoes: [op] }, false],
    [{ cliente_id: null, operacoes: [op] }, false],
    [{ cliente_id: 'celular-1', operacoes: [] }, false],
    [{ cliente_id: 'celular-1', operacoes: Array(501).fill(op) }, false],
    [{ cliente_id: 'celular-1', operacoes: { 0: op } }, false],
    [{ cliente_id: 'celular-1', operacoes: 'tudo' }, false],
    [{ cliente_id: 'celular-1' }, false],
    [[op], false],
    ['lote', false],
    [null, false],
    [{}, false],
  ];

  it.each(casos.map(([caso, aceito], i) => [i, caso, aceito] as const))('caso %i: o atalho responde o que o esquema responde, e só para o que ele aceita', (_i, caso, aceito) => {
    const esquema = loteSchema.safeParse(caso);
    expect(esquema.success).toBe(aceito);
    const atalho = loteCanonico(caso);
    if (aceito) expect(atalho).toEqual(esquema.data);
    else expect(atalho).toBeNull();
  });
});
