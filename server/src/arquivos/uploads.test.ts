/**
 * Receipts go to disk as they arrive (never whole into memory), are put in place
 * only with the database change that points at them, leave no temporary file behind on any refusal
 * or abort, fit each employee's storage quota (COTA_COMPROVANTES_MB) and each request's file budget.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hoje, somarDias } from '../../../shared/dates';
import { ANAPOLIS, ARQUIVOS, GOIANIA, criarRotaAtiva, formulario, type ArquivoTeste } from '../../test/despesas';
import { criarAppDeTeste, esperarRecusa, type AppDeTeste } from '../../test/helper';
import { arquivoPendencias, formularioPendencias, operacaoPendencia } from '../../test/pendencias';
import { linha, linhas } from '../db';
import { MENSAGEM_LOTE_GRANDE } from '../sync/rotas';

const ONTEM = () => somarDias(hoje('America/Sao_Paulo'), -1);
const KB = 1024;
const MB = 1024 * 1024;

/** A JPEG (by its first bytes) of exactly `bytes`. */
function jpeg(bytes: number, nome = 'nota.jpg'): ArquivoTeste {
  const conteudo = Buffer.alloc(bytes, 0x5a);
  conteudo.set([0xff, 0xd8, 0xff, 0xe0], 0);
  return { nome, tipo: 'image/jpeg', conteudo };
}

const GIF: ArquivoTeste = { nome: 'nota.gif', tipo: 'image/gif', conteudo: Buffer.from('GIF89a\x01\x00\x01\x00\x80\x00\x00', 'latin1') };

let t: AppDeTeste;
/** Quota of 1 MB so the tests reach it with small files. */
beforeAll(async () => {
  t = await criarAppDeTeste({ env: { COTA_COMPROVANTES_MB: '1' } });
});
afterAll(() => t.fechar());

const pastaTemp = () => path.join(t.dataDir, 'uploads-tmp');
/** The requests' temporary files (the folder of uploads in parts has its own tests: envioEmPartes.test.ts). */
const temporarios = () => (fs.existsSync(pastaTemp()) ? fs.readdirSync(pastaTemp()).filter((nome) => nome !== 'partes') : []);
const guardados = () => fs.readdirSync(path.join(t.dataDir, 'uploads')).sort();
/** The receipts the rows point at: exactly what uploads/ must hold. */
const referenciados = async () =>
  (await linhas<{ a: string }>(t.db, sql`select arquivo_cupom a from despesas where arquivo_cupom is not null`)).map((l) => l.a).sort();
const despesasDe = async (funcionarioId: number) =>
  (await linha<{ n: number }>(t.db, sql`select count(*) n from despesas where funcionario_id = ${funcionarioId}`))!.n;

async function semOrfaos() {
  expect(temporarios()).toEqual([]);
  expect(guardados()).toEqual(await referenciados());
}

async function pessoa() {
  const f = await t.criarFuncionario();
  const rota = await criarRotaAtiva(t, f.id, [GOIANIA, ANAPOLIS]);
  return { ...f, rota };
}

const camposForm = (rota: number, extra: Record<string, string | number> = {}) => ({
  id: uuidv7(),
  rota_id: rota,
  cidade_id: GOIANIA,
  data_despesa: ONTEM(),
  tipo: 'alimentacao',
  valor: '0,01',
  descricao: 'Lanche',
  ...extra,
});

async function criar(f: { token: string; rota: number }, arquivo?: ArquivoTeste, extra: Record<string, string | number> = {}) {
  return t.chamar({ method: 'POST', url: '/api/despesas', token: f.token, ...(await formulario(camposForm(f.rota, extra), arquivo)) });
}

type Op = { id: string; tipo: string; seq: number; dados: unknown };
let seq = 0;
const opDespesa = (rota: number, extra: Record<string, unknown> = {}): Op => ({
  id: uuidv7(),
  tipo: 'despesa.criar',
  seq: ++seq,
  dados: { id: uuidv7(), rota_id: rota, cidade_id: GOIANIA, data_despesa: ONTEM(), tipo: 'alimentacao', tipo_outro: '', valor: 1, descricao: 'Lanche', ...extra },
});
const opVenda = (rota: number): Op => ({
  id: uuidv7(),
  tipo: 'venda.salvar',
  seq: ++seq,
  dados: {
    id: uuidv7(),
    rota_id: rota,
    cidade_id: ANAPOLIS,
    data_venda: ONTEM(),
    valor_dinheiro: 1000,
    valor_pix: 0,
    valor_cartao: 0,
    valor_link: 0,
    valor_boletos: 0,
    observacoes: '',
    registrado_em: new Date().toISOString(),
  },
});

async function corpoLote(operacoes: Op[], arquivos: Record<string, ArquivoTeste>) {
  const fd = new FormData();
  fd.append('operacoes', JSON.stringify({ cliente_id: 'aparelho-uploads', operacoes }));
  for (const [id, a] of Object.entries(arquivos)) fd.append(`arquivo:${id}`, new Blob([new Uint8Array(a.conteudo)], { type: a.tipo }), a.nome);
  const resp = new Response(fd);
  return { payload: Buffer.from(await resp.arrayBuffer()), headers: { 'content-type': resp.headers.get('content-type')! } };
}

async function lote(token: string, operacoes: Op[], arquivos: Record<string, ArquivoTeste>) {
  return t.chamar({ method: 'POST', url: '/api/sync/lote', token, ...(await corpoLote(operacoes, arquivos)) });
}

describe('o comprovante vai para o disco enquanto chega', () => {
  it('com metade do arquivo enviada, os bytes já estão num arquivo temporário em DATA_DIR; no fim, no lugar, sem temporário', async () => {
    const f = await pessoa();
    const { payload, headers } = await formulario(camposForm(f.rota), jpeg(900 * KB));
    const fluxo = new PassThrough();
    const resposta = t.chamar({ method: 'POST', url: '/api/despesas', token: f.token, headers, payload: fluxo });
    const metade = payload.length - 450 * KB;
    fluxo.write(payload.subarray(0, metade));
    // Waits for the state, not for time: part of the receipt on disk while the rest is still to come.
    await vi.waitFor(
      () => {
        const [nome] = temporarios();
        expect(nome).toMatch(/\.part$/);
        expect(fs.statSync(path.join(pastaTemp(), nome!)).size).toBeGreaterThan(100 * KB);
      },
      { timeout: 10_000, interval: 5 },
    );
    fluxo.end(payload.subarray(metade));
    const r = await resposta;
    expect(r.statusCode, r.body).toBe(201);
    expect(fs.statSync(path.join(t.dataDir, 'uploads', r.json().despesa.arquivo_cupom)).size).toBe(900 * KB);
    await semOrfaos();
  });

  it('uma conexão que cai no meio do envio não deixa arquivo temporário', async () => {
    const f = await pessoa();
    const { payload, headers } = await formulario(camposForm(f.rota), jpeg(900 * KB));
    const endereco = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(endereco);
    const socket = net.connect(Number(port), '127.0.0.1');
    await new Promise<void>((ok) => socket.once('connect', ok));
    socket.write(
      `POST /api/despesas HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${f.token}\r\nContent-Type: ${headers['content-type']}\r\nContent-Length: ${payload.length}\r\n\r\n`,
    );
    socket.write(payload.subarray(0, payload.length - 300 * KB));
    await vi.waitFor(() => expect(temporarios().length).toBe(1), { timeout: 10_000, interval: 5 });
    socket.destroy();
    await vi.waitFor(() => expect(temporarios()).toEqual([]), { timeout: 10_000, interval: 5 });
    await semOrfaos();
    expect(await despesasDe(f.id)).toBe(0);
  });
});

describe('cota de armazenamento por funcionário (COTA_COMPROVANTES_MB)', () => {
  it('recusa com 413 e diz quanto resta; trocar um comprovante conta só a diferença; excluir libera espaço', async () => {
    const f = await pessoa();
    const primeira = await criar(f, jpeg(600 * KB));
    expect(primeira.statusCode, primeira.body).toBe(201);

    const demais = await criar(f, jpeg(600 * KB));
    esperarRecusa(
      demais,
      413,
      'arquivo_grande',
      'Limite de armazenamento de comprovantes atingido: restam 424 KB de 1 MB, e este comprovante tem 600 KB. Envie uma foto menor ou peça ao administrador para aumentar o limite.',
    );
    await semOrfaos();

    // 600 KB -> 900 KB: 300 KB more, 424 KB left.
    const id = primeira.json().despesa.id as string;
    const edicao = await t.chamar({
      method: 'PUT',
      url: `/api/despesas/${id}`,
      token: f.token,
      ...(await formulario({ cidade_id: GOIANIA, data_despesa: ONTEM(), tipo: 'alimentacao', valor: '0,01', descricao: 'Lanche' }, jpeg(900 * KB))),
    });
    expect(edicao.statusCode, edicao.body).toBe(200);
    // 124 KB left: 200 KB does not fit, 100 KB does.
    esperarRecusa(await criar(f, jpeg(200 * KB)), 413, 'arquivo_grande', /restam 124 KB de 1 MB/);
    expect((await criar(f, jpeg(100 * KB))).statusCode).toBe(201);
    // Expenses without a receipt are never limited.
    expect((await criar(f)).statusCode).toBe(201);

    const exclusao = await t.chamar({ method: 'DELETE', url: `/api/despesas/${id}`, token: f.token });
    expect(exclusao.statusCode, exclusao.body).toBe(200);
    expect((await criar(f, jpeg(600 * KB))).statusCode).toBe(201);
    await semOrfaos();
  });

  it('a cota é de cada funcionário: outro funcionário começa com ela inteira', async () => {
    const a = await pessoa();
    const b = await pessoa();
    expect((await criar(a, jpeg(1000 * KB))).statusCode).toBe(201);
    esperarRecusa(await criar(a, jpeg(100 * KB)), 413, 'arquivo_grande', /restam 24 KB de 1 MB/);
    expect((await criar(b, jpeg(1000 * KB))).statusCode).toBe(201);
  });

  it('no lote, o comprovante além da cota é recusado só na sua operação, com a mensagem; o resto do lote passa', async () => {
    const f = await pessoa();
    const cabe = opDespesa(f.rota);
    const naoCabe = opDespesa(f.rota);
    const venda = opVenda(f.rota);
    const r = await lote(f.token, [cabe, naoCabe, venda], { [cabe.id]: jpeg(700 * KB), [naoCabe.id]: jpeg(700 * KB) });
    expect(r.statusCode, r.body).toBe(200);
    const resultados = r.json().resultados as { id: string; status: number; corpo?: { error: string; codigo: string } }[];
    expect(resultados.map((x) => x.status)).toEqual([201, 413, 201]);
    expect(resultados[1]!.corpo).toEqual({
      codigo: 'arquivo_grande',
      error: 'Limite de armazenamento de comprovantes atingido: restam 324 KB de 1 MB, e este comprovante tem 700 KB. Envie uma foto menor ou peça ao administrador para aumentar o limite.',
    });
    await semOrfaos();
  });
});

describe('orçamento de arquivos por requisição do lote', () => {
  it('comprovantes somando mais que o orçamento: 413 para o pedido inteiro, com mensagem clara, nada gravado', async () => {
    const f = await pessoa();
    const ops = [opDespesa(f.rota), opDespesa(f.rota), opDespesa(f.rota)];
    const antes = guardados();
    const r = await lote(f.token, ops, Object.fromEntries(ops.map((o) => [o.id, jpeg(10 * MB)])));
    esperarRecusa(r, 413, 'arquivo_grande', MENSAGEM_LOTE_GRANDE);
    expect(MENSAGEM_LOTE_GRANDE).toBe('Envio grande demais: cada sincronização leva no máximo 10 comprovantes, somando até 28 MB. Envie os comprovantes em partes menores.');
    expect(guardados()).toEqual(antes);
    expect(await despesasDe(f.id)).toBe(0);
    await semOrfaos();
  });

  it('mais de 10 comprovantes: 413 com a mesma mensagem (não "um arquivo por vez")', async () => {
    const f = await pessoa();
    const ops = Array.from({ length: 11 }, () => opDespesa(f.rota));
    const r = await lote(f.token, ops, Object.fromEntries(ops.map((o) => [o.id, jpeg(2 * KB)])));
    esperarRecusa(r, 413, 'arquivo_grande', MENSAGEM_LOTE_GRANDE);
    await semOrfaos();
  });

  it('um comprovante de 20 MB sozinho cabe (o aparelho manda assim os grandes)', async () => {
    const f = await pessoa();
    const op = opDespesa(f.rota);
    const r = await lote(f.token, [op], { [op.id]: jpeg(20 * MB) });
    expect(r.statusCode, r.body).toBe(200);
    // The quota of this app is 1 MB: refused by the quota, not by the request's budget.
    expect(r.json().resultados[0].status).toBe(413);
    expect(r.json().resultados[0].corpo.error).toMatch(/^Limite de armazenamento de comprovantes atingido/);
    await semOrfaos();
  });
});

describe('nenhum arquivo órfão depois de recusas', () => {
  it('lote com tipo recusado, arquivo grande demais, dados inválidos, regra de negócio, operação retida e JSON quebrado', async () => {
    const f = await pessoa();
    const gif = opDespesa(f.rota);
    const enorme = opDespesa(f.rota);
    const invalida = opDespesa(f.rota, { valor: -1 });
    const futura = opDespesa(f.rota, { data_despesa: somarDias(hoje('America/Sao_Paulo'), 3) });
    const boa = opDespesa(f.rota);
    const retida: Op = { id: uuidv7(), tipo: 'despesa.editar', seq: ++seq, dados: { ...(invalida.dados as object), id: undefined, valor: 2 } };
    const r = await lote(f.token, [gif, enorme, invalida, futura, boa], {
      [gif.id]: GIF,
      [enorme.id]: jpeg(20 * MB + 1),
      [invalida.id]: jpeg(3 * KB),
      [futura.id]: jpeg(3 * KB),
      [boa.id]: jpeg(3 * KB),
      [retida.id]: jpeg(3 * KB),
    });
    expect(r.statusCode, r.body).toBe(200);
    expect((r.json().resultados as { status: number }[]).map((x) => x.status)).toEqual([415, 413, 400, 422, 201]);
    await semOrfaos();

    // The operations' JSON broken after the receipts arrived: the whole request refused, nothing kept.
    const fd = new FormData();
    fd.append(`arquivo:${uuidv7()}`, new Blob([new Uint8Array(jpeg(3 * KB).conteudo)], { type: 'image/jpeg' }), 'a.jpg');
    fd.append('operacoes', '{"cliente_id": "x", "operacoes": [');
    const resp = new Response(fd);
    const quebrado = await t.chamar({
      method: 'POST',
      url: '/api/sync/lote',
      token: f.token,
      payload: Buffer.from(await resp.arrayBuffer()),
      headers: { 'content-type': resp.headers.get('content-type')! },
    });
    esperarRecusa(quebrado, 400, 'dados_invalidos');
    await semOrfaos();
  });

  it('formulário de despesa: tipo recusado, rota alheia, multipart cortado no meio do arquivo', async () => {
    const f = await pessoa();
    const outra = await pessoa();
    esperarRecusa(await criar(f, GIF), 415, 'tipo_nao_suportado');
    const alheia = await t.chamar({ method: 'POST', url: '/api/despesas', token: f.token, ...(await formulario(camposForm(outra.rota), ARQUIVOS.png())) });
    expect(alheia.statusCode).toBeGreaterThanOrEqual(400);
    expect(alheia.statusCode).toBeLessThan(500);
    const { payload, headers } = await formulario(camposForm(f.rota), jpeg(200 * KB));
    const cortado = await t.chamar({ method: 'POST', url: '/api/despesas', token: f.token, headers, payload: payload.subarray(0, payload.length - 50 * KB) });
    esperarRecusa(cortado, 400, 'dados_invalidos');
    await semOrfaos();
  });

  it('importação de pendências: o arquivo enviado e os comprovantes decodificados não ficam na pasta temporária', async () => {
    const f = await pessoa();
    const email = (await linha<{ email: string; nome: string }>(t.db, sql`select email, nome from usuarios where id = ${f.id}`))!;
    const op = opDespesa(f.rota);
    const gif = opDespesa(f.rota);
    const conteudo = arquivoPendencias({ id: f.id, nome: email.nome, email: email.email }, [
      operacaoPendencia({ tipo: 'despesa.criar', seq: op.seq, dados: op.dados, descricao: 'Almoço' }, ARQUIVOS.png()),
      operacaoPendencia({ tipo: 'despesa.criar', seq: gif.seq, dados: gif.dados, descricao: 'Gif' }, GIF),
    ]);
    const r = await t.chamar({ method: 'POST', url: '/api/sync/importar', token: await t.tokenAdmin(), ...(await formularioPendencias(conteudo)) });
    expect(r.statusCode, r.body).toBe(200);
    expect((r.json().itens as { situacao: string }[]).map((i) => i.situacao)).toEqual(['aceito', 'recusado']);
    await semOrfaos();
  });
});
