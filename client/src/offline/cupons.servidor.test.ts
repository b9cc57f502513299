/**
 * Several receipts per expense, offline, against the real API over loopback: an
 * outbox item with two receipts replays as one expense with both; an item queued by the previous
 * version (one receipt, no byte count, no list) still replays; large receipts go in parts, each
 * durably, and a pass cut between them resumes without sending the finished one again; the item
 * leaves the queue only once the server took the operation with all its receipts.
 */
import { Blob as BlobNode } from 'node:buffer';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hoje, somarDias } from '../../../shared/dates';
import { ARQUIVOS } from '../../../server/test/despesas';
import type { AppDeTeste } from '../../../server/test/helper';
import { definirFetch } from '../api/client';
import { enfileirarCriacao, enfileirarEdicao, type CupomPreparado } from '../despesas/operacoes';
import { fecharApiReal, iniciarApiReal } from '../test/apiReal';
import { BancoLocal } from './db';
import { operacoes } from '.';
import './operacoes';
import { itensDoUsuario } from './outbox';
import { MotorSync } from './sync';
import { Vazao } from './vazao';

let t: AppDeTeste;
let funcionario: { id: number; token: string };
let rotaId: number;
let banco: BancoLocal;
let n = 0;
const GOIANIA = 5208707;
const ONTEM = somarDias(hoje('America/Sao_Paulo'), -1);
/** Every request the engine made: method and path, and the receipt parts of a batch. */
let pedidos: { metodo: string; caminho: string; partesDeArquivo: number; inicio: number | null }[];
/** Throws (no signal) instead of sending the request for which this returns true. */
let cortar: ((metodo: string, caminho: string) => boolean) | null;

beforeAll(async () => {
  ({ t, funcionario, rotaId } = await iniciarApiReal({ funcionario: 'Iara Comprovantes', rota: 'Rota Cupons', cidades: [GOIANIA] }));
});
afterAll(() => fecharApiReal(t));
beforeEach(async () => {
  banco = new BancoLocal(`teste-cupons-servidor-${++n}`);
  await banco.open();
  pedidos = [];
  cortar = null;
  definirFetch(async (url, init) => {
    const caminho = new URL(String(url)).pathname;
    const metodo = init?.method ?? 'GET';
    const corpo = init?.body;
    const partesDeArquivo = corpo instanceof FormData ? [...corpo.keys()].filter((k) => k.startsWith('arquivo:')).length : 0;
    const inicio = new URL(String(url)).searchParams.get('inicio');
    pedidos.push({ metodo, caminho, partesDeArquivo, inicio: inicio === null ? null : Number(inicio) });
    if (cortar?.(metodo, caminho)) throw new TypeError('Failed to fetch');
    return fetch(url, { ...init, body: await paraONode(corpo) });
  });
});
afterEach(async () => {
  definirFetch((...a) => fetch(...a));
  await banco.delete();
});

/** jsdom's Blob has no arrayBuffer(): read it as a page would, with a FileReader. */
const lerBlob = (blob: Blob) =>
  new Promise<ArrayBuffer>((resolver, rejeitar) => {
    const leitor = new FileReader();
    leitor.onload = () => resolver(leitor.result as ArrayBuffer);
    leitor.onerror = () => rejeitar(leitor.error);
    leitor.readAsArrayBuffer(blob);
  });

/**
 * The test runs in jsdom, whose FormData and Blob Node's fetch cannot send: the same form rebuilt
 * with Node's own classes (a browser sends the page's FormData as it is).
 */
async function paraONode(corpo: unknown): Promise<BodyInit | null | undefined> {
  if (corpo instanceof Blob) return new Uint8Array(await lerBlob(corpo));
  if (!(corpo instanceof FormData)) return corpo as BodyInit | null | undefined;
  const FormDataNode = (await new Response(new URLSearchParams('a=1')).formData()).constructor as typeof FormData;
  const form = new FormDataNode();
  for (const [campo, valor] of corpo.entries()) {
    if (typeof valor === 'string') form.append(campo, valor);
    else form.append(campo, new BlobNode([new Uint8Array(await lerBlob(valor))], { type: valor.type }) as unknown as Blob, valor.name);
  }
  return form;
}

const motor = (vazao?: Vazao) =>
  new MotorSync({ banco, operacoes, obterSessao: () => ({ usuarioId: funcionario.id, token: funcionario.token }), esperaBaseMs: 1000, intervaloSondaMs: 60_000, ...(vazao ? { vazao } : {}) });

const dados = (id = uuidv7()) => ({
  id,
  rota_id: rotaId,
  cidade_id: GOIANIA,
  data_despesa: ONTEM,
  tipo: 'alimentacao' as const,
  tipo_outro: '',
  valor: 45.9,
  descricao: 'Almoço',
  chave_nfce: null,
  registrado_em: new Date().toISOString(),
  rota_nome: 'Rota Cupons',
  cidade_nome: 'Goiânia',
  cidade_uf: 'GO',
  funcionario_nome: 'Iara Comprovantes',
});

const paraCupom = (a: { nome: string; tipo: string; conteudo: Buffer }): CupomPreparado => ({
  nome: a.nome,
  tipo: a.tipo,
  conteudo: a.conteudo.buffer.slice(a.conteudo.byteOffset, a.conteudo.byteOffset + a.conteudo.byteLength) as ArrayBuffer,
});
const jpeg = () => paraCupom({ ...ARQUIVOS.jpeg(), nome: 'nfce.jpg' });
const pdf = () => paraCupom({ ...ARQUIVOS.pdf(), nome: 'cartao.pdf' });
/** A JPEG (by its first bytes) of `tamanho` bytes: large enough to go in parts. */
const jpegGrande = (nome: string, tamanho: number, semente: number): CupomPreparado => {
  const b = new Uint8Array(tamanho).map((_, i) => (i * 31 + semente) % 251);
  b.set([0xff, 0xd8, 0xff, 0xe0], 0);
  return { nome, tipo: 'image/jpeg', conteudo: b.buffer };
};

const cuponsNoServidor = (despesaId: string) =>
  t.db.$client.prepare('select nome_original as nome, mime, tamanho from despesa_cupons where despesa_id = ? order by ordem').all(despesaId) as { nome: string; mime: string; tamanho: number }[];
const idsDosCupons = (despesaId: string) => (t.db.$client.prepare('select id from despesa_cupons where despesa_id = ? order by ordem').all(despesaId) as { id: number }[]).map((c) => c.id);

describe('vários comprovantes na fila do aparelho', () => {
  it('uma despesa com um JPEG e um PDF na fila vira, no servidor, uma despesa com os dois, num pedido só', async () => {
    const d = dados();
    const item = await enfileirarCriacao(funcionario.id, d, [jpeg(), pdf()], banco);
    expect(item.arquivos).toHaveLength(2);
    expect(item.bytesArquivos).toBe(ARQUIVOS.jpeg().conteudo.length + ARQUIVOS.pdf().conteudo.length);
    const m = motor();
    await m.sincronizarAgora();
    m.parar();
    expect(cuponsNoServidor(d.id)).toEqual([
      { nome: 'nfce.jpg', mime: 'image/jpeg', tamanho: ARQUIVOS.jpeg().conteudo.length },
      { nome: 'cartao.pdf', mime: 'application/pdf', tamanho: ARQUIVOS.pdf().conteudo.length },
    ]);
    const lotes = pedidos.filter((p) => p.caminho === '/api/sync/lote');
    expect(lotes).toHaveLength(1);
    expect(lotes[0]!.partesDeArquivo).toBe(2);
    expect(await itensDoUsuario(banco, funcionario.id)).toEqual([]);
    expect(await banco.arquivos.count()).toBe(0);
  });

  it('um item da versão anterior (um comprovante, sem bytesArquivos nem lista) ainda é enviado', async () => {
    const id = uuidv7();
    const arquivoId = uuidv7();
    const foto = jpeg();
    // Written as the previous release wrote it: dados.cupom only, no `cupons`, no byte count.
    await banco.arquivos.put({ id: arquivoId, nome: 'nota.jpg', tipo: 'image/jpeg', tamanho: foto.conteudo.byteLength, conteudo: foto.conteudo, criadoEm: new Date().toISOString() });
    await banco.outbox.add({
      id: uuidv7(),
      usuarioId: funcionario.id,
      tipo: 'despesa.criar',
      dados: { ...dados(id), operacao: 'criar', cupom: { nome: 'nota.jpg', tipo: 'image/jpeg' } },
      arquivos: [arquivoId],
      chaves: [`despesa:${id}`],
      descricao: 'Despesa: Alimentação de R$ 45,90 em Goiânia',
      estado: 'pendente',
      tentativas: 0,
      proximaTentativaEm: null,
      erro: null,
      conflito: null,
      criadoEm: new Date().toISOString(),
    });
    const m = motor();
    await m.sincronizarAgora();
    m.parar();
    expect(cuponsNoServidor(id)).toEqual([{ nome: 'nota.jpg', mime: 'image/jpeg', tamanho: foto.conteudo.byteLength }]);
    expect(await itensDoUsuario(banco, funcionario.id)).toEqual([]);
  });

  it('editar na fila: remove um pelo id e acrescenta outro; uma edição antiga (sem remover_cupons) troca todos, como antes', async () => {
    const d = dados();
    await enfileirarCriacao(funcionario.id, d, [jpeg(), pdf()], banco);
    let m = motor();
    await m.sincronizarAgora();
    m.parar();
    const [primeiro] = idsDosCupons(d.id);
    const anterior = { valor: d.valor, tipo: d.tipo, data_despesa: d.data_despesa };
    await enfileirarEdicao(funcionario.id, d, anterior, { novos: [paraCupom({ ...ARQUIVOS.png(), nome: 'segunda-via.png' })], removerCupons: [primeiro!] }, banco);
    m = motor();
    await m.sincronizarAgora();
    m.parar();
    expect(cuponsNoServidor(d.id).map((c) => c.nome)).toEqual(['cartao.pdf', 'segunda-via.png']);
    // The older screen's shape (one file, excluirCupom): it replaces every receipt.
    await enfileirarEdicao(funcionario.id, d, anterior, { cupom: paraCupom({ ...ARQUIVOS.jpeg(), nome: 'unica.jpg' }), excluirCupom: false }, banco);
    m = motor();
    await m.sincronizarAgora();
    m.parar();
    expect(cuponsNoServidor(d.id).map((c) => c.nome)).toEqual(['unica.jpg']);
    expect(await itensDoUsuario(banco, funcionario.id)).toEqual([]);
  });

  it('dois comprovantes grandes vão em partes; um corte no segundo retoma dele, sem reenviar o primeiro, e o item só sai da fila no fim', async () => {
    const d = dados();
    const a = jpegGrande('a.jpg', 300_000, 1);
    const b = jpegGrande('b.jpg', 300_000, 2);
    const item = await enfileirarCriacao(funcionario.id, d, [a, b], banco);
    const [idA, idB] = item.arquivos as [string, string];
    // A slow link, measured: requests of ~100 KB, so each receipt goes in parts.
    const vazao = new Vazao(banco);
    await vazao.registrar(100_000, 8_000);
    // Loopback is fast: kept at the slow measure, or the engine would size the second receipt's parts by loopback.
    vazao.registrar = async () => undefined;
    // The link drops at the second part of the second receipt.
    let partesDeB = 0;
    cortar = (metodo, caminho) => metodo === 'PUT' && caminho.includes(idB) && ++partesDeB === 2;
    let m = motor(vazao);
    await m.sincronizarAgora();
    m.parar();
    expect(pedidos.filter((p) => p.caminho === '/api/sync/lote')).toEqual([]);
    expect(await itensDoUsuario(banco, funcionario.id)).toHaveLength(1);
    expect(cuponsNoServidor(d.id)).toEqual([]);
    const partesDeAAntes = pedidos.filter((p) => p.metodo === 'PUT' && p.caminho.includes(idA)).length;
    expect(partesDeAAntes).toBeGreaterThan(1);

    cortar = null;
    pedidos = [];
    m = motor(vazao);
    await m.sincronizarAgora({ ignorarEspera: true });
    m.parar();
    // The first was whole on the server: asked about (GET), never sent again.
    expect(pedidos.filter((p) => p.metodo === 'PUT' && p.caminho.includes(idA))).toEqual([]);
    // The second went on from what the server kept of it: its first part is not sent again.
    const partesDeBDepois = pedidos.filter((p) => p.metodo === 'PUT' && p.caminho.includes(idB));
    expect(partesDeBDepois.length).toBeGreaterThan(0);
    expect(partesDeBDepois.some((p) => p.inicio === 0)).toBe(false);
    const lotes = pedidos.filter((p) => p.caminho === '/api/sync/lote');
    expect(lotes).toHaveLength(1);
    expect(lotes[0]!.partesDeArquivo).toBe(0); // named as finished uploads, not carried again
    expect(cuponsNoServidor(d.id)).toEqual([
      { nome: 'a.jpg', mime: 'image/jpeg', tamanho: 300_000 },
      { nome: 'b.jpg', mime: 'image/jpeg', tamanho: 300_000 },
    ]);
    expect(await itensDoUsuario(banco, funcionario.id)).toEqual([]);
    expect(await banco.arquivos.count()).toBe(0);
  });
});
