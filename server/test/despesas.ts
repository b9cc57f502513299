/**
 * Helpers for expense and balance tests: routes to write on, multipart bodies as a browser builds
 * them, and small files whose first bytes are what each accepted receipt type starts with.
 */
import { createHash } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { expect } from 'vitest';
import { hoje, somarDias } from '../../shared/dates';
import { criarAppDeTeste, type AppDeTeste } from './helper';

export const GOIANIA = 5208707;
export const ANAPOLIS = 5201108;
export const CALDAS_NOVAS = 5204508;
export const CATALAO = 5205109;
export const SAO_PAULO = 3550308;

export async function criarRotaAtiva(t: AppDeTeste, funcionarioId: number, cidades = [GOIANIA, ANAPOLIS], nome = `Rota ${funcionarioId}`): Promise<number> {
  // Relative to today: sales, visits and expenses must fall inside the route's period, and
  // the tests date them up to a few hundred days back.
  const dia = hoje('America/Sao_Paulo');
  const r = await t.chamar({
    method: 'POST',
    url: '/api/rotas',
    token: await t.tokenAdmin(),
    payload: { nome, funcionario_id: funcionarioId, tem_secretario: false, valor_aluguel: 0, data_inicio: somarDias(dia, -800), data_fim: somarDias(dia, 365), observacoes: '', cidades },
  });
  expect(r.statusCode, r.body).toBe(201);
  return r.json().rota.id as number;
}

/** An employee as the tests sign in with. */
export type FuncionarioDeTeste = Awaited<ReturnType<AppDeTeste['criarFuncionario']>>;

/**
 * The expense tests' scenario: the admin, and two employees each on an active route (Ana: Goiânia
 * and Anápolis; Bruno: Caldas Novas), on a new temporary database. Close it with `t.fechar()`.
 */
export interface CenarioDespesas {
  t: AppDeTeste;
  tokenAdmin: string;
  ana: FuncionarioDeTeste;
  rotaAna: number;
  bruno: FuncionarioDeTeste;
  rotaBruno: number;
}

export async function criarCenarioDeDespesas(opcoes: Parameters<typeof criarAppDeTeste>[0] = {}, nomes = { ana: 'Ana Estrada', bruno: 'Bruno Campo' }): Promise<CenarioDespesas> {
  const t = await criarAppDeTeste(opcoes);
  const tokenAdmin = await t.tokenAdmin();
  const ana = await t.criarFuncionario({ nome: nomes.ana });
  const rotaAna = await criarRotaAtiva(t, ana.id, [GOIANIA, ANAPOLIS], 'Rota Centro-Oeste');
  const bruno = await t.criarFuncionario({ nome: nomes.bruno });
  const rotaBruno = await criarRotaAtiva(t, bruno.id, [CALDAS_NOVAS], 'Rota Sul');
  return { t, tokenAdmin, ana, rotaAna, bruno, rotaBruno };
}

/** Yesterday in the business time zone: inside every scenario route's period. */
export const ontem = () => somarDias(hoje('America/Sao_Paulo'), -1);

type Campos = Record<string, string | number>;

/** A new expense's fields as the form sends them: lunch of R$ 45,90 in Anápolis yesterday, on `rotaId`. */
export const camposDeDespesa = (rotaId: number, extra: Campos = {}) => ({
  id: uuidv7(),
  rota_id: rotaId,
  cidade_id: ANAPOLIS,
  data_despesa: ontem(),
  tipo: 'alimentacao',
  valor: '45,90',
  descricao: 'Almoço',
  ...extra,
});

/** The same fields for an edit (no id, no route). */
export const camposDeEdicao = (extra: Campos = {}) => ({ cidade_id: ANAPOLIS, data_despesa: ontem(), tipo: 'alimentacao', valor: '45,90', descricao: 'Almoço', ...extra });

export interface ArquivoTeste {
  nome: string;
  tipo: string;
  conteudo: Buffer;
}

/** A multipart/form-data body exactly as `fetch(FormData)` sends it, for `app.inject`. */
export async function formulario(campos: Record<string, string | number | boolean>, arquivo?: ArquivoTeste | ArquivoTeste[]) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(campos)) fd.append(k, String(v));
  // Several receipts are several `cupom` parts, in order.
  for (const a of Array.isArray(arquivo) ? arquivo : arquivo ? [arquivo] : []) fd.append('cupom', new Blob([new Uint8Array(a.conteudo)], { type: a.tipo }), a.nome);
  const resposta = new Response(fd);
  return { payload: Buffer.from(await resposta.arrayBuffer()), headers: { 'content-type': resposta.headers.get('content-type')! } };
}

function comCorpo(inicio: number[] | Buffer, tamanho = 2048): Buffer {
  const cabeca = Buffer.isBuffer(inicio) ? inicio : Buffer.from(inicio);
  const resto = Buffer.alloc(Math.max(0, tamanho - cabeca.length));
  for (let i = 0; i < resto.length; i++) resto[i] = (i * 31 + 7) % 251;
  return Buffer.concat([cabeca, resto]);
}

export const ARQUIVOS = {
  jpeg: (): ArquivoTeste => ({ nome: 'nota.jpg', tipo: 'image/jpeg', conteudo: comCorpo([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46]) }),
  png: (): ArquivoTeste => ({ nome: 'nota.png', tipo: 'image/png', conteudo: comCorpo([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) }),
  webp: (): ArquivoTeste => ({ nome: 'nota.webp', tipo: 'image/webp', conteudo: comCorpo(Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 ', 'latin1')) }),
  heic: (): ArquivoTeste => ({ nome: 'IMG_0001.HEIC', tipo: 'image/heic', conteudo: comCorpo(Buffer.from('\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic', 'latin1')) }),
  pdf: (): ArquivoTeste => ({ nome: 'cupom.pdf', tipo: 'application/pdf', conteudo: Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1') }),
  doc: (): ArquivoTeste => ({ nome: 'recibo.doc', tipo: 'application/msword', conteudo: comCorpo([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]) }),
  docx: (): ArquivoTeste => ({
    nome: 'recibo.docx',
    tipo: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    conteudo: comCorpo(Buffer.from('PK\x03\x04\x14\x00\x00\x00\x08\x00[Content_Types].xml....PK\x03\x04\x14\x00word/document.xml', 'latin1')),
  }),
};

export const sha256 = (b: Buffer | Uint8Array) => createHash('sha256').update(b).digest('hex');
