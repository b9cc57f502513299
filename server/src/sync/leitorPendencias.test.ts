/**
 * The rescue file's streaming reader (leitorPendencias.ts): whatever the chunking, it gives what
 * JSON.parse gives (receipts' base64 left empty) and each receipt's bytes on disk, and it refuses
 * what JSON.parse or the schema refused, plus a file too large outside its receipts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CUPOM_TAMANHO_MAXIMO } from '../../../shared/schemas/despesas';
import { FORMATO_PENDENCIAS } from '../../../shared/schemas/pendencias';
import { Temporarios } from '../arquivos/temporarios';
import { ErroApp } from '../errors';
import {
  chaveDoComprovante,
  lerArquivoPendencias,
  LIMITE_JSON_FORA_DOS_COMPROVANTES,
  MENSAGEM_COMPROVANTE_ILEGIVEL,
  MENSAGEM_JSON_GRANDE,
  MENSAGEM_NAO_E_PENDENCIAS,
} from './leitorPendencias';

let pasta: string;
let temporarios: Temporarios;
beforeEach(() => {
  pasta = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-leitor-'));
  temporarios = new Temporarios(pasta);
});
afterEach(async () => {
  await temporarios.limpar();
  fs.rmSync(pasta, { recursive: true, force: true });
});

/** Deterministic bytes: a JPEG's first bytes, then a pattern of `semente`. */
function bytes(tamanho: number, semente: number): Buffer {
  const b = Buffer.alloc(tamanho);
  for (let i = 0; i < tamanho; i++) b[i] = (i * 31 + semente * 7) & 0xff;
  if (tamanho >= 3) b.set([0xff, 0xd8, 0xff]);
  return b;
}

const comprovante = (conteudo: Buffer, nome = 'nota.jpg') => ({ nome, tipo: 'image/jpeg', tamanho: conteudo.length, base64: conteudo.toString('base64') });

function arquivo(operacoes: unknown[], extra: Record<string, unknown> = {}) {
  return {
    formato: FORMATO_PENDENCIAS,
    versao: 2,
    exportadoEm: '2026-12-01T12:00:00.000Z',
    funcionario: { id: 7, nome: 'Ána Çampo 🚗', email: 'ana@teste.com.br' },
    dispositivo: 'aparelho-1',
    versaoApp: '1.0.0',
    operacoes,
    ...extra,
  };
}

/** The text in chunks of `tamanho` bytes (1: every byte apart, splitting escapes and UTF-8 sequences). */
async function* emPedacos(texto: string | Buffer, tamanho: number): AsyncGenerator<Buffer> {
  const b = Buffer.isBuffer(texto) ? texto : Buffer.from(texto);
  for (let i = 0; i < b.length; i += tamanho) yield b.subarray(i, i + tamanho);
}

async function ler(texto: string | Buffer, tamanho = 64 * 1024) {
  return lerArquivoPendencias(emPedacos(texto, tamanho), temporarios);
}

async function recusa(texto: string | Buffer, tamanho = 64 * 1024): Promise<ErroApp> {
  const erro = await ler(texto, tamanho).then(
    () => null,
    (e: unknown) => e,
  );
  expect(erro).toBeInstanceOf(ErroApp);
  return erro as ErroApp;
}

/** What JSON.parse gives with the receipts' base64 emptied (what the reader must give). */
function semBase64(valor: unknown): unknown {
  const copia = JSON.parse(JSON.stringify(valor)) as { operacoes: { arquivo?: { base64: string } | null; arquivos?: { base64: string }[] }[] };
  for (const op of copia.operacoes) {
    if (op.arquivo) op.arquivo.base64 = '';
    for (const a of op.arquivos ?? []) a.base64 = '';
  }
  return copia;
}

/** Two receipts beyond the type check's 64 KB samples (`grandes`), or a few bytes each (fed byte by byte). */
function conteudoDeTeste(grandes: boolean) {
  const um = bytes(grandes ? 70_001 : 7, 1);
  const dois = bytes(3, 2);
  const tres = bytes(grandes ? 200_000 : 11, 3);
  const conteudo = arquivo([
    {
      id: 'op-1',
      tipo: 'venda.salvar',
      seq: 1,
      dados: { id: 'v1', valores: [1, -2.5e3, 0.125, true, false, null], texto: 'aspas " barra \\ nova\nlinha \u0001 \u2028 ção' },
      chaves: ['venda:1:2:2026-12-01'],
      criadoEm: '2026-12-01T10:00:00.000Z',
      descricao: 'Fechamento',
      estado: 'pendente',
      arquivo: null,
    },
    {
      id: 'op-2',
      tipo: 'despesa.criar',
      seq: 2,
      dados: { id: 'd1', valor: 4590, vazio: {}, lista: [] },
      chaves: [],
      criadoEm: '2026-12-01T11:00:00.000Z',
      descricao: 'Despesa: Almoço',
      estado: 'erro',
      arquivo: comprovante(um),
      arquivos: [comprovante(um), comprovante(dois, 'verso.jpg'), comprovante(tres, 'cartao.jpg')],
    },
    { id: 'op-3', tipo: 'despesa.criar', seq: 3, dados: {}, criadoEm: 'x', arquivo: comprovante(Buffer.alloc(0), 'vazio.jpg') },
  ]);
  return { um, dois, tres, conteudo };
}

describe('lerArquivoPendencias', () => {
  const { conteudo } = conteudoDeTeste(false);

  it('em qualquer fatiamento (até byte a byte) dá o mesmo que JSON.parse, e cada comprovante decodificado no disco', async () => {
    for (const [grandes, tamanhos] of [
      [false, [1, 2, 3, 7, 64]],
      [true, [4093, 64 * 1024, Infinity]],
    ] as const) {
      for (const tamanho of tamanhos) await conferirLeitura(grandes, tamanho);
    }
  });

  async function conferirLeitura(grandes: boolean, tamanho: number) {
    const { um, dois, tres, conteudo } = conteudoDeTeste(grandes);
    const texto = JSON.stringify(conteudo, null, 1);
    {
      const lido = await ler(texto, tamanho);
      expect(lido.bruto, `pedaços de ${tamanho}`).toEqual(semBase64(conteudo));
      expect([...lido.comprovantes.keys()].sort()).toEqual(
        [chaveDoComprovante(1, null), chaveDoComprovante(1, 0), chaveDoComprovante(1, 1), chaveDoComprovante(1, 2), chaveDoComprovante(2, null)].sort(),
      );
      const esperados: [string, Buffer][] = [
        [chaveDoComprovante(1, null), um],
        [chaveDoComprovante(1, 0), um],
        [chaveDoComprovante(1, 1), dois],
        [chaveDoComprovante(1, 2), tres],
        [chaveDoComprovante(2, null), Buffer.alloc(0)],
      ];
      for (const [chave, esperado] of esperados) {
        const c = lido.comprovantes.get(chave)!;
        expect(c.bytes).toBe(esperado.length);
        expect(fs.readFileSync(c.recebido.caminho).equals(esperado), chave).toBe(true);
        expect(c.recebido.tamanho).toBe(esperado.length);
        expect(c.recebido.inicio.equals(esperado.subarray(0, 64 * 1024))).toBe(true);
        expect(c.recebido.fim.equals(esperado.subarray(-64 * 1024))).toBe(true);
      }
      await temporarios.limpar();
    }
  }

  it("'__proto__' é uma chave como as outras (como no JSON.parse), e '\\/' no base64 é '/'", async () => {
    const texto = JSON.stringify(conteudo).replace('"dados":{"id":"v1"', '"dados":{"__proto__":{"x":1},"id":"v1"');
    const lido = await ler(texto, 5);
    expect(lido.bruto).toEqual(semBase64(JSON.parse(texto)));
    expect(Object.getPrototypeOf((lido.bruto as { operacoes: { dados: object }[] }).operacoes[0]!.dados)).toBe(Object.prototype);

    const barra = Buffer.from([0xff, 0xd8, 0xff, 0xfb, 0xef, 0xff]); // base64 '/9j/++//'
    const comBarra = JSON.stringify(arquivo([{ id: 'a', criadoEm: 'x', arquivo: comprovante(barra) }])).replace(/\//g, (b, i: number, s: string) => (s.slice(i - 300, i).includes('"base64"') ? '\\/' : b));
    expect(comBarra).toContain('\\/9j\\/');
    for (const tamanho of [1, 4, 1000]) {
      const c = (await ler(comBarra, tamanho)).comprovantes.get(chaveDoComprovante(0, null))!;
      expect(fs.readFileSync(c.recebido.caminho).equals(barra)).toBe(true);
    }
  });

  it('um comprovante maior que o limite é só contado: no disco fica cortado logo acima do limite', async () => {
    const grande = Buffer.alloc(CUPOM_TAMANHO_MAXIMO + 5000, 7);
    const lido = await ler(JSON.stringify(arquivo([{ id: 'a', criadoEm: 'x', arquivo: comprovante(grande) }])));
    const c = lido.comprovantes.get(chaveDoComprovante(0, null))!;
    expect(c.bytes).toBe(grande.length);
    expect(fs.statSync(c.recebido.caminho).size).toBe(CUPOM_TAMANHO_MAXIMO + 1);
  });

  it('recusa o que não é JSON, JSON de outro tipo, o arquivo cortado e lixo depois do fim, com a mensagem de arquivo errado', async () => {
    const texto = JSON.stringify(conteudo);
    for (const ruim of [
      'isto não é json',
      '[1, 2]',
      '"texto"',
      '{"formato": "outra-coisa", "operacoes": []}',
      texto.slice(0, -1),
      texto.slice(0, texto.length / 2),
      `${texto} {}`,
      texto.replace('"seq":1', '"seq":01x'),
      texto.replace('"seq":1', '"seq" 1'),
      texto.replace('"seq":1,', '"seq":1,,'),
      texto.replace('"Fechamento"', '"Fecha\u0001mento"'),
      `${'['.repeat(10)}`,
      `{"formato": ${'['.repeat(100)}${']'.repeat(100)}}`,
    ]) {
      const e = await recusa(ruim, 3);
      expect([e.statusCode, e.message], ruim.slice(0, 80)).toEqual([400, MENSAGEM_NAO_E_PENDENCIAS]);
    }
  });

  it('recusa um comprovante que não é base64, como o esquema recusava', async () => {
    for (const base64 of ['abc*', 'QQ==QQ', 'QQ===', 'a\\u0041', 'a\\"b']) {
      const texto = JSON.stringify(arquivo([{ id: 'a', criadoEm: 'x', arquivo: { nome: 'n.jpg', tipo: 'image/jpeg', tamanho: 1, base64: 'PLACEHOLDER' } }])).replace(
        'PLACEHOLDER',
        base64,
      );
      const e = await recusa(texto, 2);
      expect([e.statusCode, e.message], base64).toEqual([400, MENSAGEM_COMPROVANTE_ILEGIVEL]);
    }
  });

  it('recusa com 413 um arquivo com dados demais fora dos comprovantes, sem ler até o fim', async () => {
    const cabeca = Buffer.from(`{"formato":"${FORMATO_PENDENCIAS}","operacoes":[{"descricao":"`);
    let entregues = 0;
    async function* semFim(): AsyncGenerator<Buffer> {
      yield cabeca;
      const pedaco = Buffer.alloc(64 * 1024, 'a');
      for (let i = 0; i < 1000; i++) {
        entregues += pedaco.length;
        yield pedaco;
      }
    }
    const erro = await lerArquivoPendencias(semFim(), temporarios).then(
      () => null,
      (e: unknown) => e as ErroApp,
    );
    expect([erro?.statusCode, erro?.message]).toEqual([413, MENSAGEM_JSON_GRANDE]);
    expect(entregues).toBeLessThanOrEqual(LIMITE_JSON_FORA_DOS_COMPROVANTES + 64 * 1024);
  });
});
