/**
 * Hostile input never reaches a 500. A seeded generator (deterministic: the same
 * bodies on every run) sends ≥ 300 malformed bodies to the batch endpoint (bad JSON, wrong types,
 * missing parts, bad boundaries, truncated multipart, huge fields, %-sequences in every string
 * field, unknown kinds, ids with path traversal...) and ≥ 30 to every other write endpoint. Every
 * answer is below 500, and every 4xx is `{ error, codigo }` with a pt-BR sentence; the batch's own
 * per-operation refusals too.
 */
import { eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { CODIGOS_ERRO } from '../../../shared/api/errors';
import { hoje, somarDias } from '../../../shared/dates';
import { despesas, vendas } from '../db/tabelas';
import { MENSAGEM_CARACTERE_NULO } from '../plugins/caractereNulo';
import { ANAPOLIS, ARQUIVOS, GOIANIA, criarRotaAtiva, formulario } from '../../test/despesas';
import { criarAppDeTeste, type AppDeTeste } from '../../test/helper';

/** mulberry32: a small seeded PRNG, so a failure found once is found again. */
function prng(semente: number) {
  let a = semente >>> 0;
  const proximo = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  const inteiro = (n: number) => Math.floor(proximo() * n);
  const um = <T>(lista: readonly T[]): T => lista[inteiro(lista.length)]!;
  return { proximo, inteiro, um };
}
type Prng = ReturnType<typeof prng>;

const TEXTOS_HOSTIS = [
  '%',
  '%%',
  '%zz',
  '%E0%A4%A',
  '%C0%AF',
  '%00',
  '100%',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '/etc/passwd',
  '\u0000',
  '\u202egpj.exe',
  '\uD800',
  '😀'.repeat(50),
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '__proto__',
  'constructor',
  '',
  ' ',
  'x'.repeat(100_000),
  '1e999',
  '-0',
  'NaN',
  '0x10',
  '2026-02-30',
  '99999-01-01',
];

function valorHostil(r: Prng, profundidade = 0): unknown {
  switch (r.inteiro(profundidade > 2 ? 9 : 12)) {
    case 0:
      return null;
    case 1:
      return r.um([0, -1, 1.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 31]);
    case 2:
      return r.um([true, false]);
    case 3:
    case 4:
    case 5:
    case 6:
      return r.um(TEXTOS_HOSTIS);
    case 7:
      return `${r.um(TEXTOS_HOSTIS)}${r.um(TEXTOS_HOSTIS)}`;
    case 8:
      return r.inteiro(100_000);
    case 9:
      return Array.from({ length: r.inteiro(4) }, () => valorHostil(r, profundidade + 1));
    case 10:
      return { [r.um(['__proto__', 'id', 'a', 'constructor'])]: valorHostil(r, profundidade + 1) };
    default:
      return Array.from({ length: 3 }, () => ({ x: valorHostil(r, profundidade + 1) }));
  }
}

/** The object with one or more fields replaced (or removed, or added) by hostile values. */
function mutar(r: Prng, base: Record<string, unknown>): Record<string, unknown> {
  const copia: Record<string, unknown> = { ...base };
  const chaves = Object.keys(copia);
  const vezes = 1 + r.inteiro(3);
  for (let i = 0; i < vezes; i++) {
    const acao = r.inteiro(10);
    if (acao === 0 && chaves.length > 0) delete copia[r.um(chaves)];
    else if (acao === 1) copia[r.um(['extra', '__proto__', 'constructor', 'prototype'])] = valorHostil(r);
    else if (chaves.length > 0) copia[r.um(chaves)] = valorHostil(r);
  }
  return copia;
}

/** Every string field (nested too) replaced by a %-sequence or a traversal. */
function porcentoEmTudo(r: Prng, valor: unknown): unknown {
  if (typeof valor === 'string') return r.um(['%', '%zz', '%E0%A4%A', `${valor}%`, `%${valor}`, '../%2e%2e/x', '%u0041']);
  if (Array.isArray(valor)) return valor.map((v) => porcentoEmTudo(r, v));
  if (valor && typeof valor === 'object') return Object.fromEntries(Object.entries(valor).map(([k, v]) => [k, porcentoEmTudo(r, v)]));
  return valor;
}

const JSON_QUEBRADO = [
  '{',
  '{"operacoes": [',
  '{"operacoes": [1,]}',
  "{'operacoes': []}",
  '{"operacoes": [] } trailing',
  '\uFEFF{"operacoes": []}',
  '{"operacoes": "\\ud800"}',
  '{"operacoes": [{"id": "\\u0000"}]}',
  'null',
  '[]',
  '"texto"',
  '123',
  'true',
  '{"__proto__": {"admin": true}, "operacoes": []}',
  '{"constructor": {"prototype": {"x": 1}}}',
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
  `{"operacoes": ${'['.repeat(3000)}${']'.repeat(3000)}}`,
  '{"operacoes": [], "operacoes": [1]}',
  '',
  ' ',
];

interface Pedido {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  payload?: string | Buffer | object;
  token?: string;
}

/** The message is for people and in Portuguese: a sentence, no framework English, no insides. */
function esperarErroPtBr(corpo: unknown, contexto: string) {
  expect(corpo, contexto).toBeTypeOf('object');
  const { error, codigo } = corpo as { error?: unknown; codigo?: unknown };
  expect(typeof error, contexto).toBe('string');
  expect(CODIGOS_ERRO, contexto).toContain(codigo);
  const texto = error as string;
  expect(texto, contexto).toMatch(/[.!?]$/);
  expect(texto, contexto).not.toMatch(/FST_|Error|\bat \/|node_modules|SQLITE|\b(the|is|not|invalid|must|expected|unexpected|required|body|request|boundary)\b/i);
}

function esperarSemErroInterno(r: LightMyRequestResponse, pedido: Pedido) {
  const contexto = `${pedido.method} ${pedido.url} -> ${r.statusCode} ${r.body.slice(0, 300)}`;
  expect(r.statusCode, contexto).toBeLessThan(500);
  if (r.statusCode >= 400) {
    expect(r.headers['content-type'], contexto).toMatch(/^application\/json/);
    esperarErroPtBr(r.json(), contexto);
  }
  return contexto;
}

let t: AppDeTeste;
const rotasDeEscrita: string[] = [];
let tokenAdmin: string;
let func: { id: number; token: string; rota: number };
let despesaId: string;
let vendaId: string;
const ONTEM = () => somarDias(hoje('America/Sao_Paulo'), -1);

beforeAll(async () => {
  t = await criarAppDeTeste({
    env: { LIMITE_REQUISICOES_POR_MINUTO: '100000' },
    aoRegistrarRota: ({ method, url }) => {
      for (const m of [method].flat()) if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(m)) rotasDeEscrita.push(`${m} ${url.replace(/\/$/, '')}`);
    },
  });
  tokenAdmin = await t.tokenAdmin();
  const f = await t.criarFuncionario();
  func = { id: f.id, token: f.token, rota: await criarRotaAtiva(t, f.id, [GOIANIA, ANAPOLIS]) };
  despesaId = uuidv7();
  const d = await t.chamar({
    method: 'POST',
    url: '/api/despesas',
    token: func.token,
    ...(await formulario({ id: despesaId, rota_id: func.rota, cidade_id: GOIANIA, data_despesa: ONTEM(), tipo: 'alimentacao', valor: '10,00', descricao: 'Lanche' }, ARQUIVOS.jpeg())),
  });
  expect(d.statusCode, d.body).toBe(201);
  vendaId = uuidv7();
  const v = await t.chamar({ method: 'POST', url: '/api/vendas', token: func.token, payload: vendaValida(vendaId) });
  expect(v.statusCode, v.body).toBe(201);
});
afterAll(() => t.fechar());

function vendaValida(id = uuidv7()): Record<string, unknown> {
  return {
    id,
    rota_id: func.rota,
    cidade_id: ANAPOLIS,
    data_venda: ONTEM(),
    valor_dinheiro: '10,00',
    valor_pix: '0',
    valor_cartao: '0',
    valor_link: '0',
    valor_boletos: 0,
    observacoes: '',
  };
}

const despesaValida = (): Record<string, unknown> => ({
  id: uuidv7(),
  rota_id: func.rota,
  cidade_id: GOIANIA,
  data_despesa: ONTEM(),
  tipo: 'alimentacao',
  tipo_outro: '',
  valor: 1,
  descricao: 'Lanche',
});

/** Operations of every kind, valid in shape, for the generator to break. */
function operacaoValida(r: Prng): Record<string, unknown> {
  const tipo = r.um(['venda.salvar', 'visita.registrar', 'rota.finalizar', 'despesa.criar', 'despesa.editar', 'despesa.excluir', 'despesa.corrigir']);
  const dados: Record<string, Record<string, unknown>> = {
    'venda.salvar': { ...vendaValida(), valor_dinheiro: 1000, valor_pix: 0, valor_cartao: 0, valor_link: 0, registrado_em: new Date().toISOString() },
    'visita.registrar': { rota_id: func.rota, cidade_id: GOIANIA, data: ONTEM() },
    'rota.finalizar': { rota_id: func.rota },
    'despesa.criar': despesaValida(),
    'despesa.editar': { ...despesaValida(), id: despesaId },
    'despesa.excluir': { id: despesaId },
    'despesa.corrigir': { ...despesaValida(), id: despesaId },
  };
  return { id: uuidv7(), tipo, seq: r.inteiro(1000), dados: dados[tipo]! };
}

function operacaoLegada(r: Prng): Record<string, unknown> {
  return {
    id: uuidv7(),
    metodo: r.um(['POST', 'PUT', 'DELETE', 'PATCH', 'GET', '%']),
    caminho: r.um([
      '/vendas',
      `/vendas/${r.um(['%', '%zz', '%E0%A4%A', '..%2F..%2Fetc', vendaId])}`,
      `/despesas/${r.um(['%', '%E0%A4%A', '../../etc/passwd', despesaId])}`,
      `/despesas/${despesaId}/corrigir%`,
      `/rotas/${r.um(['%', '1%', String(func.rota)])}/finalizar`,
      `/rotas/${func.rota}/cidades/${r.um(['%', '%zz', String(GOIANIA)])}/visitar`,
      '%',
      '/%',
    ]),
    corpo: r.inteiro(2) ? vendaValida() : valorHostil(r),
    chaves: r.inteiro(3) ? ['rota:1'] : valorHostil(r),
  };
}

/** A multipart body by hand, so it can be broken anywhere. */
function multipartCru(partes: { nome: string; valor: string | Buffer; arquivo?: string; tipo?: string }[], fronteira: string, fechar = true): Buffer {
  const pedacos: Buffer[] = [];
  for (const p of partes) {
    const disposicao = `form-data; name="${p.nome}"${p.arquivo !== undefined ? `; filename="${p.arquivo}"` : ''}`;
    pedacos.push(Buffer.from(`--${fronteira}\r\nContent-Disposition: ${disposicao}\r\n${p.tipo ? `Content-Type: ${p.tipo}\r\n` : ''}\r\n`));
    pedacos.push(Buffer.isBuffer(p.valor) ? p.valor : Buffer.from(p.valor));
    pedacos.push(Buffer.from('\r\n'));
  }
  if (fechar) pedacos.push(Buffer.from(`--${fronteira}--\r\n`));
  return Buffer.concat(pedacos);
}

/** The n-th hostile batch request. */
function pedidoDeLote(r: Prng, n: number): Pedido {
  const base: Pedido = { method: 'POST', url: '/api/sync/lote', token: func.token };
  const operacoes = () => Array.from({ length: 1 + r.inteiro(4) }, () => operacaoValida(r));
  const json = (corpo: unknown): Pedido => ({ ...base, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(corpo) });
  const fronteira = `----fuzz${n}`;
  switch (n % 14) {
    case 0:
      return { ...base, headers: { 'content-type': 'application/json' }, payload: r.um(JSON_QUEBRADO) };
    case 1:
      return json(valorHostil(r));
    case 2:
      return json(mutar(r, { cliente_id: 'aparelho', operacoes: operacoes() }));
    case 3:
      return json({ cliente_id: 'aparelho', operacoes: operacoes().map((op) => mutar(r, op)) });
    case 4:
      return json({ cliente_id: 'aparelho', operacoes: operacoes().map((op) => ({ ...op, dados: mutar(r, op.dados as Record<string, unknown>) })) });
    case 5:
      // %-sequences (and traversals) in every string field, the ids and the device included.
      return json(porcentoEmTudo(r, { cliente_id: 'aparelho', operacoes: operacoes() }));
    case 6:
      return json({
        cliente_id: r.um(['aparelho', '../../x', '%', 'x'.repeat(200)]),
        operacoes: Array.from({ length: 1 + r.inteiro(3) }, () => ({
          id: r.um(['../../etc/passwd', '..%2F..%2F', '%', '/', 'a/b', uuidv7(), '\u0000', 'x'.repeat(101)]),
          tipo: r.um(['venda.apagar', 'despesa.criar', '__proto__', 'constructor', '', '%', 'toString']),
          seq: valorHostil(r),
          dados: valorHostil(r),
        })),
      });
    case 7:
      return json({ cliente_id: 'aparelho', operacoes: Array.from({ length: 1 + r.inteiro(3) }, () => operacaoLegada(r)) });
    case 8: {
      // Multipart whose declared boundary is not the one in the body, or none at all.
      const corpo = multipartCru([{ nome: 'operacoes', valor: JSON.stringify({ operacoes: operacoes() }) }], fronteira);
      const tipo = r.um([
        `multipart/form-data; boundary=outra${n}`,
        'multipart/form-data',
        'multipart/form-data; boundary=',
        `multipart/form-data; boundary="${fronteira}`,
        `multipart/form-data; boundary=${'b'.repeat(200)}`,
        'multipart/mixed; boundary=x',
      ]);
      return { ...base, headers: { 'content-type': tipo }, payload: corpo };
    }
    case 9: {
      // Cut anywhere: in a header, in the JSON, in a file.
      const ops = operacoes();
      const corpo = multipartCru(
        [
          { nome: 'operacoes', valor: JSON.stringify({ operacoes: ops }) },
          { nome: `arquivo:${String(ops[0]!.id)}`, valor: ARQUIVOS.png().conteudo, arquivo: 'a.png', tipo: 'image/png' },
        ],
        fronteira,
        r.inteiro(2) === 0,
      );
      return { ...base, headers: { 'content-type': `multipart/form-data; boundary=${fronteira}` }, payload: corpo.subarray(0, 1 + r.inteiro(corpo.length - 1)) };
    }
    case 10: {
      // Parts missing, repeated, nameless, with traversal names, files where fields go.
      const ops = operacoes();
      const partes = r.um([
        [],
        [{ nome: 'outra', valor: 'x' }],
        [{ nome: 'operacoes', valor: r.um(JSON_QUEBRADO) }],
        [{ nome: 'operacoes', valor: JSON.stringify({ operacoes: ops }), arquivo: 'ops.json', tipo: 'application/json' }],
        [
          { nome: 'operacoes', valor: JSON.stringify({ operacoes: ops }) },
          { nome: 'arquivo:../../etc/passwd', valor: ARQUIVOS.jpeg().conteudo, arquivo: '../../etc/passwd', tipo: 'image/jpeg' },
        ],
        [
          { nome: 'operacoes', valor: JSON.stringify({ operacoes: ops }) },
          { nome: 'cupom', valor: ARQUIVOS.jpeg().conteudo, arquivo: 'a.jpg', tipo: 'image/jpeg' },
        ],
        [
          { nome: '', valor: 'x' },
          { nome: 'operacoes', valor: JSON.stringify({ operacoes: ops }) },
        ],
        [
          { nome: '__proto__', valor: '{}' },
          { nome: 'operacoes', valor: JSON.stringify({ operacoes: ops }) },
        ],
        [
          { nome: 'operacoes', valor: JSON.stringify({ operacoes: ops }), tipo: 'application/json' },
          { nome: 'operacoes', valor: '{' , tipo: 'application/json' },
        ],
        [
          { nome: 'operacoes', valor: JSON.stringify({ operacoes: ops }) },
          { nome: `arquivo:${String(ops[0]!.id)}`, valor: Buffer.alloc(0), arquivo: '', tipo: 'image/jpeg' },
          { nome: `arquivo:${String(ops[0]!.id)}`, valor: ARQUIVOS.pdf().conteudo, arquivo: '%00.pdf', tipo: 'application/pdf' },
        ],
      ]);
      return { ...base, headers: { 'content-type': `multipart/form-data; boundary=${fronteira}` }, payload: multipartCru(partes, fronteira) };
    }
    case 11: {
      // Huge fields: the JSON past the field limit, a field name past any sense, many fields.
      const escolha = r.inteiro(3);
      const partes =
        escolha === 0
          ? [{ nome: 'operacoes', valor: `{"operacoes": ["${'x'.repeat(8 * 1024 * 1024 + 10)}"]}` }]
          : escolha === 1
            ? [{ nome: 'n'.repeat(100_000), valor: 'x' }]
            : Array.from({ length: 12 }, (_, i) => ({ nome: `campo${i}`, valor: 'x' }));
      return { ...base, headers: { 'content-type': `multipart/form-data; boundary=${fronteira}` }, payload: multipartCru(partes, fronteira) };
    }
    case 12: {
      const corpo = JSON.stringify({ operacoes: operacoes() });
      return {
        ...base,
        headers: { 'content-type': r.um(['text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'application/json; charset=utf-16', 'application/json; charset=%', '%', 'multipart/form-data; boundary=%']) },
        payload: corpo,
      };
    }
    default: {
      // Valid operations with a file part whose bytes are anything but a receipt, or cut short.
      const ops = operacoes();
      const alvo = ops.find((o) => String(o.tipo).startsWith('despesa')) ?? ops[0]!;
      const conteudo = r.um([Buffer.from('GIF89a'), Buffer.from('%PDF'), Buffer.from([0xff, 0xd8]), Buffer.from('PK\x03\x04'), Buffer.alloc(10, 0)]);
      return {
        ...base,
        headers: { 'content-type': `multipart/form-data; boundary=${fronteira}` },
        payload: multipartCru(
          [
            { nome: 'operacoes', valor: JSON.stringify(porcentoEmTudo(r, { cliente_id: 'aparelho', operacoes: ops })) },
            { nome: `arquivo:${String(alvo.id)}`, valor: conteudo, arquivo: r.um(TEXTOS_HOSTIS.slice(0, 12)), tipo: r.um(['image/jpeg', '%', '']) },
          ],
          fronteira,
        ),
      };
    }
  }
}

describe('fuzz do lote (POST /api/sync/lote)', () => {
  it('≥ 300 corpos malformados: nenhum 5xx, todo 4xx com { error } em pt-BR, e toda recusa por operação também', async () => {
    const r = prng(18_05);
    const vistos = new Map<number, number>();
    for (let n = 0; n < 336; n++) {
      const pedido = pedidoDeLote(r, n);
      const resposta = await t.chamar(pedido);
      const contexto = esperarSemErroInterno(resposta, pedido);
      vistos.set(resposta.statusCode, (vistos.get(resposta.statusCode) ?? 0) + 1);
      if (resposta.statusCode === 200) {
        for (const res of resposta.json().resultados as { status: number | string; corpo?: unknown }[]) {
          if (typeof res.status === 'number' && res.status >= 400) esperarErroPtBr(res.corpo, `${contexto} (operação ${res.status})`);
          if (typeof res.status === 'number') expect(res.status, contexto).toBeLessThan(500);
        }
      }
    }
    // The generator reached both kinds of answer: whole-request refusals and per-operation ones.
    expect(vistos.get(200)).toBeGreaterThan(30);
    expect(vistos.get(400)).toBeGreaterThan(30);
  });
});

describe('casos achados pelo fuzz, fixados', () => {
  it("um '%' ou '%XX' ruim no caminho de uma operação antiga recusa só ela (404 com mensagem), não o lote (era 500)", async () => {
    const boa = operacaoValida(prng(1));
    for (const caminho of [`/vendas/%`, `/vendas/%E0%A4%A`, `/despesas/%zz`, `/rotas/%/finalizar`]) {
      const pedido: Pedido = {
        method: 'POST',
        url: '/api/sync/lote',
        token: func.token,
        payload: { cliente_id: 'aparelho', operacoes: [{ id: uuidv7(), metodo: caminho.startsWith('/rotas') ? 'PATCH' : 'PUT', caminho, corpo: vendaValida(), chaves: [] }, { ...boa, id: uuidv7() }] },
      };
      const r = await t.chamar(pedido);
      esperarSemErroInterno(r, pedido);
      expect(r.statusCode, r.body).toBe(200);
      expect(r.json().resultados[0].status).toBe(404);
      esperarErroPtBr(r.json().resultados[0].corpo, caminho);
    }
  });

  it('multipart com fronteira errada ou cortado no lote: 400 com mensagem (era 500)', async () => {
    const corpo = multipartCru([{ nome: 'operacoes', valor: JSON.stringify({ operacoes: [operacaoValida(prng(2))] }) }], 'certa');
    for (const [tipo, payload] of [
      ['multipart/form-data; boundary=errada', corpo],
      ['multipart/form-data; boundary=certa', corpo.subarray(0, corpo.length - 12)],
    ] as const) {
      const r = await t.chamar({ method: 'POST', url: '/api/sync/lote', token: func.token, headers: { 'content-type': tipo }, payload });
      expect(r.statusCode, r.body).toBe(400);
      esperarErroPtBr(r.json(), tipo);
    }
  });
});

describe('texto com o caractere nulo (U+0000)', () => {
  // PostgreSQL's text cannot hold it: each of these was a 500 there (and stored as sent on SQLite).
  it('é recusado com 400 e mensagem em toda entrada (JSON, query, formulário, lote JSON e multipart), nada gravado', async () => {
    const vendaNula = uuidv7();
    const despesaNula = uuidv7();
    const pedidos: Pedido[] = [
      { method: 'POST', url: '/api/vendas', token: func.token, payload: { ...vendaValida(vendaNula), observacoes: 'a\u0000b' } },
      { method: 'GET', url: '/api/cidades/search?q=go%00', token: func.token },
      { method: 'POST', url: '/api/auth/login', payload: { email: 'a\u0000@teste.com.br', senha: 'senha123' } },
      {
        method: 'POST',
        url: '/api/despesas',
        token: func.token,
        ...(await formulario({ id: despesaNula, rota_id: func.rota, cidade_id: GOIANIA, data_despesa: ONTEM(), tipo: 'alimentacao', valor: '10,00', descricao: 'Lan\u0000che' }, ARQUIVOS.jpeg())),
      },
      { method: 'POST', url: '/api/sync/lote', token: func.token, payload: { cliente_id: 'aparelho', operacoes: [{ id: '\u0000', tipo: 'venda.salvar', seq: 1, dados: vendaValida() }] } },
      {
        method: 'POST',
        url: '/api/sync/lote',
        token: func.token,
        headers: { 'content-type': 'multipart/form-data; boundary=nulo' },
        payload: multipartCru(
          [{ nome: 'operacoes', valor: JSON.stringify({ cliente_id: 'aparelho', operacoes: [{ id: uuidv7(), tipo: 'venda.salvar', seq: 1, dados: { ...vendaValida(vendaNula), observacoes: '\u0000' } }] }) }],
          'nulo',
        ),
      },
    ];
    for (const pedido of pedidos) {
      const r = await t.chamar(pedido);
      const contexto = esperarSemErroInterno(r, pedido);
      expect(r.statusCode, contexto).toBe(400);
      expect(r.json(), contexto).toEqual({ error: MENSAGEM_CARACTERE_NULO, codigo: 'dados_invalidos' });
    }
    expect(await t.db.select({ id: vendas.id }).from(vendas).where(eq(vendas.id, vendaNula))).toEqual([]);
    expect(await t.db.select({ id: despesas.id }).from(despesas).where(eq(despesas.id, despesaNula))).toEqual([]);
  });

  it('o texto "\\u0000" escrito com a barra (não é o caractere nulo) é aceito e gravado como veio, sozinho e no lote', async () => {
    // The JSON text then holds the six characters of the escape after an escaped backslash: the parser's
    // pre-check cannot rule NUL out, and the walk over the parsed body answers exactly (plugins/caractereNulo.ts).
    const barra = '\\u0000';
    const diaLivre = somarDias(hoje('America/Sao_Paulo'), -500);
    const sozinha = uuidv7();
    const noLote = uuidv7();
    // An employee of its own: the fuzzing above may have finished func's route, which then takes no sale.
    const f = await t.criarFuncionario();
    const rota = await criarRotaAtiva(t, f.id, [GOIANIA, ANAPOLIS]);
    const r = await t.chamar({ method: 'POST', url: '/api/vendas', token: f.token, payload: { ...vendaValida(sozinha), rota_id: rota, cidade_id: GOIANIA, data_venda: diaLivre, observacoes: barra } });
    expect(r.statusCode, r.body).toBe(201);
    const dados = { ...vendaValida(noLote), rota_id: rota, data_venda: diaLivre, valor_dinheiro: 1000, valor_pix: 0, valor_cartao: 0, valor_link: 0, observacoes: `a${barra}b`, registrado_em: `${diaLivre}T20:00:00.000Z` };
    const l = await t.chamar({ method: 'POST', url: '/api/sync/lote', token: f.token, payload: { cliente_id: 'aparelho', operacoes: [{ id: uuidv7(), tipo: 'venda.salvar', seq: 1, dados }] } });
    expect(l.statusCode, l.body).toBe(200);
    expect(l.json().resultados[0].status, l.body).toBe(201);
    const gravadas = await t.db.select({ id: vendas.id, observacoes: vendas.observacoes }).from(vendas).where(eq(vendas.dataVenda, diaLivre));
    expect(new Map(gravadas.map((v) => [v.id, v.observacoes]))).toEqual(new Map([[sozinha, barra], [noLote, `a${barra}b`]]));
  });
});

/** Every other write endpoint: its role, its URL (params broken too) and a valid body to break. */
function outrosEndpoints(): { nome: string; rota: string; token: () => string | undefined; url: (r: Prng) => string; metodo: Pedido['method']; base: () => Record<string, unknown>; multipart?: boolean }[] {
  const param = (r: Prng, valido: string) => r.um([valido, valido, '%', '%zz', '%E0%A4%A', '..%2F..%2Fetc%2Fpasswd', '0', '-1', '1e999', '99999999999999999999', 'abc', '%00']);
  const admin = () => tokenAdmin;
  const funcionario = () => func.token;
  return [
    { nome: 'login', rota: '/api/auth/login', token: () => undefined, metodo: 'POST', url: () => '/api/auth/login', base: () => ({ email: `ninguem${Math.random()}@teste.com.br`, senha: 'errada123' }) },
    { nome: 'logout', rota: '/api/auth/logout', token: funcionario, metodo: 'POST', url: () => '/api/auth/logout', base: () => ({}) },
    { nome: 'criar usuário', rota: '/api/usuarios/', token: admin, metodo: 'POST', url: () => '/api/usuarios', base: () => ({ nome: 'Fulano', email: `f${uuidv7()}@teste.com.br`, senha: 'senha123', tipo: 'funcionario' }) },
    { nome: 'editar usuário', rota: '/api/usuarios/:id', token: admin, metodo: 'PATCH', url: (r) => `/api/usuarios/${param(r, String(func.id))}`, base: () => ({ nome: 'Fulano de Tal' }) },
    { nome: 'senha do usuário', rota: '/api/usuarios/:id/senha', token: admin, metodo: 'PATCH', url: (r) => `/api/usuarios/${param(r, String(func.id))}/senha`, base: () => ({ senha: 'senha123' }) },
    { nome: 'ativar usuário', rota: '/api/usuarios/:id/ativar', token: admin, metodo: 'PATCH', url: (r) => `/api/usuarios/${param(r, String(func.id))}/ativar`, base: () => ({}) },
    { nome: 'desbloquear usuário', rota: '/api/usuarios/:id/desbloquear', token: admin, metodo: 'PATCH', url: (r) => `/api/usuarios/${param(r, String(func.id))}/desbloquear`, base: () => ({}) },
    // Another user's id by default: ending the fuzzing employee's own sessions would leave only 401s after it.
    { nome: 'encerrar sessões', rota: '/api/usuarios/:id/encerrar-sessoes', token: admin, metodo: 'POST', url: (r) => `/api/usuarios/${param(r, '999999')}/encerrar-sessoes`, base: () => ({}) },
    // A ref no session has (and broken ones): nothing ends.
    { nome: 'encerrar uma sessão', rota: '/api/usuarios/:id/sessoes/:ref', token: admin, metodo: 'DELETE', url: (r) => `/api/usuarios/${param(r, String(func.id))}/sessoes/${param(r, '0123456789abcdef')}`, base: () => ({}) },
    // A wrong current password: a mutation can never guess the right one.
    { nome: 'trocar a própria senha', rota: '/api/auth/senha', token: funcionario, metodo: 'PUT', url: () => '/api/auth/senha', base: () => ({ senhaAtual: 'errada000', novaSenha: 'outra1234' }) },
    { nome: 'desativar usuário', rota: '/api/usuarios/:id/desativar', token: admin, metodo: 'PATCH', url: (r) => `/api/usuarios/${param(r, '999999')}/desativar`, base: () => ({}) },
    { nome: 'adicionar saldo', rota: '/api/saldo/adicionar', token: admin, metodo: 'POST', url: () => '/api/saldo/adicionar', base: () => ({ funcionario_id: func.id, valor: '10,00', descricao: 'Adiantamento', rota_id: '' }) },
    {
      nome: 'criar rota', rota: '/api/rotas/',
      token: admin,
      metodo: 'POST',
      url: () => '/api/rotas',
      base: () => ({ nome: 'Rota fuzz', funcionario_id: func.id, tem_secretario: false, valor_aluguel: 0, data_inicio: '2026-01-01', data_fim: '2026-12-31', observacoes: '', cidades: [GOIANIA] }),
    },
    {
      nome: 'editar rota', rota: '/api/rotas/:id',
      token: admin,
      metodo: 'PUT',
      url: (r) => `/api/rotas/${param(r, String(func.rota))}`,
      base: () => ({ nome: 'Rota fuzz', funcionario_id: func.id, tem_secretario: false, valor_aluguel: 0, data_inicio: '2026-01-01', data_fim: '2026-12-31', observacoes: '', cidades: [GOIANIA, ANAPOLIS] }),
    },
    { nome: 'excluir rota', rota: '/api/rotas/:id', token: admin, metodo: 'DELETE', url: (r) => `/api/rotas/${param(r, '999999')}`, base: () => ({}) },
    { nome: 'finalizar rota', rota: '/api/rotas/:id/finalizar', token: funcionario, metodo: 'PATCH', url: (r) => `/api/rotas/${param(r, '999999')}/finalizar`, base: () => ({}) },
    { nome: 'cancelar rota', rota: '/api/rotas/:id/cancelar', token: admin, metodo: 'PATCH', url: (r) => `/api/rotas/${param(r, '999999')}/cancelar`, base: () => ({}) },
    { nome: 'reabrir rota', rota: '/api/rotas/:id/reabrir', token: admin, metodo: 'PATCH', url: (r) => `/api/rotas/${param(r, '999999')}/reabrir`, base: () => ({}) },
    { nome: 'acerto da rota', rota: '/api/rotas/:id/acerto', token: admin, metodo: 'POST', url: (r) => `/api/rotas/${param(r, String(func.rota))}/acerto`, base: () => ({ valor: '10,00', sentido: 'devolvido', observacao: '' }) },
    {
      nome: 'aceitar registro tardio', rota: '/api/rotas/:id/tardios/:operacaoId/aceitar',
      token: admin,
      metodo: 'PATCH',
      url: (r) => `/api/rotas/${param(r, String(func.rota))}/tardios/${param(r, uuidv7())}/aceitar`,
      base: () => ({}),
    },
    {
      nome: 'recusar registro tardio', rota: '/api/rotas/:id/tardios/:operacaoId/recusar',
      token: admin,
      metodo: 'PATCH',
      url: (r) => `/api/rotas/${param(r, String(func.rota))}/tardios/${param(r, uuidv7())}/recusar`,
      base: () => ({ motivo: 'Fora do período' }),
    },
    {
      nome: 'visitar cidade', rota: '/api/rotas/:rotaId/cidades/:cidadeId/visitar',
      token: funcionario,
      metodo: 'POST',
      url: (r) => `/api/rotas/${param(r, String(func.rota))}/cidades/${param(r, String(GOIANIA))}/visitar`,
      base: () => ({ data: ONTEM() }),
    },
    {
      nome: 'desfazer visita', rota: '/api/rotas/:rotaId/cidades/:cidadeId/desfazer-visita',
      token: funcionario,
      metodo: 'POST',
      url: (r) => `/api/rotas/${param(r, String(func.rota))}/cidades/${param(r, String(GOIANIA))}/desfazer-visita`,
      base: () => ({ data: ONTEM() }),
    },
    { nome: 'criar venda', rota: '/api/vendas/', token: funcionario, metodo: 'POST', url: () => '/api/vendas', base: () => vendaValida() },
    { nome: 'editar venda', rota: '/api/vendas/:id', token: funcionario, metodo: 'PUT', url: (r) => `/api/vendas/${param(r, vendaId)}`, base: () => ({ ...vendaValida(vendaId), versao: 1 }) },
    { nome: 'criar despesa', rota: '/api/despesas/', token: funcionario, metodo: 'POST', url: () => '/api/despesas', base: () => ({ ...despesaValida(), valor: '1,00' }), multipart: true },
    { nome: 'editar despesa', rota: '/api/despesas/:id', token: funcionario, metodo: 'PUT', url: (r) => `/api/despesas/${param(r, despesaId)}`, base: () => ({ ...despesaValida(), valor: '1,00', id: undefined }), multipart: true },
    { nome: 'corrigir despesa', rota: '/api/despesas/:id/corrigir', token: funcionario, metodo: 'PUT', url: (r) => `/api/despesas/${param(r, despesaId)}/corrigir`, base: () => ({ ...despesaValida(), valor: '1,00', id: undefined }), multipart: true },
    { nome: 'excluir despesa', rota: '/api/despesas/:id', token: funcionario, metodo: 'DELETE', url: (r) => `/api/despesas/${param(r, uuidv7())}`, base: () => ({}) },
    { nome: 'aprovar despesa', rota: '/api/despesas/:id/aprovar', token: admin, metodo: 'PATCH', url: (r) => `/api/despesas/${param(r, uuidv7())}/aprovar`, base: () => ({}) },
    { nome: 'rejeitar despesa', rota: '/api/despesas/:id/rejeitar', token: admin, metodo: 'PATCH', url: (r) => `/api/despesas/${param(r, despesaId)}/rejeitar`, base: () => ({ motivo: 'Sem nota' }) },
    { nome: 'aprovar despesas em lote', rota: '/api/despesas/aprovar', token: admin, metodo: 'PATCH', url: () => '/api/despesas/aprovar', base: () => ({ ids: [despesaId] }) },
    { nome: 'rejeitar despesas em lote', rota: '/api/despesas/rejeitar', token: admin, metodo: 'PATCH', url: () => '/api/despesas/rejeitar', base: () => ({ ids: [despesaId], motivo: 'Sem nota' }) },
    { nome: 'importar pendências', rota: '/api/sync/importar', token: admin, metodo: 'POST', url: () => '/api/sync/importar', base: () => ({ formato: 'x' }), multipart: true },
    {
      nome: 'parte de comprovante',
      rota: '/api/sync/envios/:id/partes',
      token: funcionario,
      metodo: 'PUT',
      url: (r) => `/api/sync/envios/${param(r, uuidv7())}/partes?inicio=${param(r, '0')}&total=${param(r, '4')}`,
      base: () => ({}),
    },
    { nome: 'relato do aparelho', rota: '/api/dispositivos/relato', token: funcionario, metodo: 'POST', url: () => '/api/dispositivos/relato', base: () => ({ cliente_id: 'aparelho', pendentes: 1 }) },
  ];
}

function pedidoPara(r: Prng, e: ReturnType<typeof outrosEndpoints>[number], n: number): Pedido {
  const token = e.token();
  const base: Pedido = { method: e.metodo, url: e.url(r), ...(token ? { token } : {}) };
  const fronteira = `----fuzz-${n}`;
  switch (n % 8) {
    case 0:
      return { ...base, headers: { 'content-type': 'application/json' }, payload: r.um(JSON_QUEBRADO) };
    case 1:
      return { ...base, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(valorHostil(r)) };
    case 2:
    case 3:
      return { ...base, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(mutar(r, e.base())) };
    case 4:
      return { ...base, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(porcentoEmTudo(r, e.base())) };
    case 5: {
      const campos = Object.entries(mutar(r, e.base())).map(([nome, v]) => ({ nome, valor: typeof v === 'string' ? v : JSON.stringify(v) ?? '' }));
      const arquivo = e.multipart ? [{ nome: r.um(['cupom', 'arquivo', 'outro', '%']), valor: r.um([ARQUIVOS.jpeg().conteudo, Buffer.from('GIF89a'), Buffer.from('{')]), arquivo: r.um(['a.jpg', '../../a', '%']), tipo: 'image/jpeg' }] : [];
      const corpo = multipartCru([...campos, ...arquivo], fronteira, r.inteiro(3) > 0);
      return { ...base, headers: { 'content-type': `multipart/form-data; boundary=${fronteira}` }, payload: corpo.subarray(0, r.inteiro(4) === 0 ? r.inteiro(corpo.length) : corpo.length) };
    }
    case 6:
      return { ...base, headers: { 'content-type': r.um(['multipart/form-data', 'multipart/form-data; boundary=x', 'text/plain', 'application/xml', '%']) }, payload: JSON.stringify(e.base()) };
    default:
      return { ...base, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'a=%&b=%zz&c=%E0%A4%A' };
  }
}

describe('fuzz das outras rotas de escrita', () => {
  it('≥ 30 corpos malformados em cada rota de escrita: nenhum 5xx, todo 4xx com { error } em pt-BR', async () => {
    const r = prng(18_55);
    const endpoints = outrosEndpoints();
    // Every write route the app registers is here (the batch has its own test above): a new one fails this until it is fuzzed too.
    const cobertas = endpoints.map((e) => `${e.metodo} ${e.rota.replace(/\/$/, '')}`).sort();
    expect([...new Set(cobertas)]).toEqual(rotasDeEscrita.filter((x) => x !== 'POST /api/sync/lote').sort());
    for (const e of endpoints) {
      for (let n = 0; n < 32; n++) {
        const pedido = pedidoPara(r, e, n);
        esperarSemErroInterno(await t.chamar(pedido), pedido);
      }
    }
  });
});
