import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { abrirBancoDeTeste, type BancoDeTeste } from '../../test/bancoDeTeste';
import { criarAppDeTeste, PASTA_FIXTURE_IBGE } from '../../test/helper';
import type { Db } from '../db';
import { estados } from '../db/tabelas';
import { CIDADES_AMOSTRA } from './amostra';
import { garantirCidades } from './carga';
import { baixarMunicipiosIbge, ErroDeImportacao, lerArquivosIbge, URL_IBGE_MUNICIPIOS } from './importacao';
import { buscarCidades, contarCidades, gravarEstadosECidades, listarEstados } from './repositorio';
import { UFS } from './ufs';

/** The real IBGE lists, kept outside the project (they may not be committed into it). */
const PASTA_IBGE_COMPLETA = path.resolve(process.cwd(), '..', 'shared', 'data', 'ibge');

const pastasTemporarias: string[] = [];
function pastaCom(arquivos: Record<string, string>): string {
  const pasta = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-ibge-'));
  pastasTemporarias.push(pasta);
  for (const [nome, conteudo] of Object.entries(arquivos)) fs.writeFileSync(path.join(pasta, nome), conteudo);
  return pasta;
}
afterAll(() => {
  for (const p of pastasTemporarias) fs.rmSync(p, { recursive: true, force: true });
});

// A fresh database per test, of the engine the suite runs on (SQLite in a temporary folder, or PostgreSQL).
let banco: BancoDeTeste;
let db: Db;
beforeEach(async () => {
  banco = await abrirBancoDeTeste(pastaCom({}));
  db = banco.db;
});
afterEach(() => banco.fechar());

const contarEstados = async () => (await db.select().from(estados)).length;
const MUNICIPIOS_FIXTURE = fs.readFileSync(path.join(PASTA_FIXTURE_IBGE, 'municipios.csv'), 'utf8');

/** Catches what `fn` throws (sync or async), to look at the message. */
async function erroDe(fn: () => unknown): Promise<Error> {
  try {
    await fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error('era esperado um erro');
}

describe('lerArquivosIbge', () => {
  it('lê a pasta de fixture: estados e municípios com a UF resolvida pelo código', () => {
    const { ufs, cidades } = lerArquivosIbge(PASTA_FIXTURE_IBGE);
    expect(ufs.map((u) => u.uf)).toEqual(['BA', 'MG', 'SP', 'PR', 'GO']);
    expect(ufs).toContainEqual({ codigo: 52, uf: 'GO', nome: 'Goiás' });
    expect(cidades).toHaveLength(24);
    expect(cidades).toContainEqual({ id: 3550308, nome: 'São Paulo', uf: 'SP' });
    expect(cidades).toContainEqual({ id: 5208707, nome: 'Goiânia', uf: 'GO' });
  });

  it('aceita o caminho do próprio municipios.csv', () => {
    const { ufs, cidades } = lerArquivosIbge(path.join(PASTA_FIXTURE_IBGE, 'municipios.csv'));
    expect(ufs).toHaveLength(5);
    expect(cidades).toHaveLength(24);
  });

  it('importar duas vezes dá o mesmo resultado (idempotente)', async () => {
    const { ufs, cidades } = lerArquivosIbge(PASTA_FIXTURE_IBGE);
    expect(await gravarEstadosECidades(db, ufs, cidades)).toEqual({ estados: 5, cidades: 24 });
    const primeira = { estados: await listarEstados(db), cidades: await buscarCidades(db, 'sa', undefined, 100), total: await contarCidades(db) };
    await gravarEstadosECidades(db, ufs, cidades);
    expect({ estados: await listarEstados(db), cidades: await buscarCidades(db, 'sa', undefined, 100), total: await contarCidades(db) }).toEqual(primeira);
    expect(primeira.total).toBe(24);
  });

  it('reimportar atualiza um nome corrigido, sem duplicar', async () => {
    await gravarEstadosECidades(db, UFS, [{ id: 3550308, nome: 'Sao Paulo (errado)', uf: 'SP' }]);
    await gravarEstadosECidades(db, UFS, [{ id: 3550308, nome: 'São Paulo', uf: 'SP' }]);
    expect(await contarCidades(db)).toBe(1);
    expect(await buscarCidades(db, 'sao paulo', 'SP', 10)).toEqual([{ id: 3550308, nome: 'São Paulo', uf: 'SP' }]);
  });

  it('sem estados.csv usa as 27 UFs do código', async () => {
    const pasta = pastaCom({ 'municipios.csv': MUNICIPIOS_FIXTURE });
    const { ufs, cidades } = lerArquivosIbge(pasta);
    expect(ufs).toHaveLength(27);
    expect(ufs).toEqual([...UFS]);
    expect(cidades).toHaveLength(24);
    await gravarEstadosECidades(db, ufs, cidades);
    expect(await contarEstados()).toBe(27);
  });

  it('CSV sem uma coluna: falha dizendo qual coluna e qual arquivo', async () => {
    const pasta = pastaCom({ 'municipios.csv': 'codigo_ibge,nome,latitude\n3550308,São Paulo,-23.5\n' });
    const erro = await erroDe(() => lerArquivosIbge(pasta));
    expect(erro).toBeInstanceOf(ErroDeImportacao);
    expect(erro.message).toContain('municipios.csv');
    expect(erro.message).toContain('faltando: codigo_uf');
  });

  it('estados.csv sem a coluna uf: falha dizendo qual', async () => {
    const pasta = pastaCom({ 'estados.csv': 'codigo_uf,nome\n35,São Paulo\n', 'municipios.csv': MUNICIPIOS_FIXTURE });
    const erro = await erroDe(() => lerArquivosIbge(pasta));
    expect(erro).toBeInstanceOf(ErroDeImportacao);
    expect(erro.message).toContain('estados.csv');
    expect(erro.message).toContain('faltando: uf');
  });

  it('arquivo só com cabeçalho: falha pedindo ao menos uma linha', async () => {
    const pasta = pastaCom({ 'municipios.csv': 'codigo_ibge,nome,codigo_uf\n' });
    const erro = await erroDe(() => lerArquivosIbge(pasta));
    expect(erro).toBeInstanceOf(ErroDeImportacao);
    expect(erro.message).toMatch(/ao menos uma linha/);
  });

  it('município com UF desconhecida ou código inválido: falha apontando a linha', async () => {
    const semUf = pastaCom({ 'municipios.csv': 'codigo_ibge,nome,codigo_uf\n3550308,São Paulo,35\n9999999,Lugar Nenhum,99\n' });
    const e1 = await erroDe(() => lerArquivosIbge(semUf));
    expect(e1).toBeInstanceOf(ErroDeImportacao);
    expect(e1.message).toMatch(/linha 3: município inválido/);
    const codigoRuim = pastaCom({ 'municipios.csv': 'codigo_ibge,nome,codigo_uf\nabc,São Paulo,35\n' });
    expect((await erroDe(() => lerArquivosIbge(codigoRuim))).message).toMatch(/linha 2: município inválido/);
  });

  it('linha com número errado de colunas: falha como erro de importação, com o arquivo', async () => {
    const pasta = pastaCom({ 'municipios.csv': 'codigo_ibge,nome,codigo_uf\n3550308,São Paulo\n' });
    const erro = await erroDe(() => lerArquivosIbge(pasta));
    expect(erro).toBeInstanceOf(ErroDeImportacao);
    expect(erro.message).toContain('municipios.csv');
    expect(erro.message).toMatch(/CSV inválido/);
  });

  it('caminho inexistente ou pasta sem municipios.csv: mensagem clara', async () => {
    const inexistente = path.join(os.tmpdir(), 'sg-nao-existe-ibge');
    expect((await erroDe(() => lerArquivosIbge(inexistente))).message).toBe(`Arquivo ou pasta não encontrado: ${inexistente}`);
    const vazia = pastaCom({});
    const erro = await erroDe(() => lerArquivosIbge(vazia));
    expect(erro).toBeInstanceOf(ErroDeImportacao);
    expect(erro.message).toMatch(/não tem municipios\.csv/);
  });
});

/** IBGE's localidades shape: the UF comes through microrregiao, or through regiao-imediata when that is null. */
function municipioIbge(id: number, nome: string, sigla: string, via: 'microrregiao' | 'regiao-imediata' = 'microrregiao') {
  const uf = { UF: { sigla } };
  return via === 'microrregiao'
    ? { id, nome, microrregiao: { mesorregiao: uf } }
    : { id, nome, microrregiao: null, 'regiao-imediata': { 'regiao-intermediaria': uf } };
}

/** About as many municipalities as IBGE has, spread over the real UFs. */
function listaIbgeFalsa() {
  const lista: object[] = [
    municipioIbge(3550308, 'São Paulo', 'SP'),
    municipioIbge(5101837, 'Boa Esperança do Norte', 'MT', 'regiao-imediata'),
    municipioIbge(9000001, 'De Lugar Nenhum', 'XX'),
    { id: 9000002, nome: 'Sem UF', microrregiao: null },
  ];
  for (let i = 0; i < 5200; i++) {
    const uf = UFS[i % UFS.length]!;
    lista.push(municipioIbge(uf.codigo * 100_000 + 10_000 + i, `Município ${i}`, uf.uf, i % 2 ? 'microrregiao' : 'regiao-imediata'));
  }
  return lista;
}

const respostaJson = (corpo: unknown, status = 200) =>
  new Response(JSON.stringify(corpo), { status, headers: { 'content-type': 'application/json' } });

describe('baixarMunicipiosIbge', () => {
  it('lê a resposta do IBGE, pelas duas formas de achar a UF, e descarta o que não tem UF válida', async () => {
    const buscar = vi.fn(async () => respostaJson(listaIbgeFalsa()));
    const { ufs, cidades } = await baixarMunicipiosIbge(buscar as unknown as typeof fetch);
    expect(buscar).toHaveBeenCalledTimes(1);
    expect(buscar.mock.calls[0]).toEqual([URL_IBGE_MUNICIPIOS, { signal: expect.any(AbortSignal) }]);
    expect(ufs).toHaveLength(27);
    expect(cidades).toHaveLength(5202);
    expect(cidades).toContainEqual({ id: 3550308, nome: 'São Paulo', uf: 'SP' });
    expect(cidades).toContainEqual({ id: 5101837, nome: 'Boa Esperança do Norte', uf: 'MT' });
    expect(cidades.some((c) => c.id === 9000001 || c.id === 9000002)).toBe(false);
    // What it returns can be stored as is.
    await gravarEstadosECidades(db, ufs, cidades);
    expect(await contarCidades(db)).toBe(5202);
  });

  it('IBGE respondendo erro: rejeita dizendo o status', async () => {
    const buscar = async () => respostaJson({ message: 'fora do ar' }, 503);
    const erro = await erroDe(() => baixarMunicipiosIbge(buscar as unknown as typeof fetch));
    expect(erro).toBeInstanceOf(ErroDeImportacao);
    expect(erro.message).toBe('IBGE respondeu 503.');
  });

  it('sem rede: rejeita', async () => {
    const buscar = async () => {
      throw new TypeError('fetch failed');
    };
    await expect(baixarMunicipiosIbge(buscar as unknown as typeof fetch)).rejects.toThrow('fetch failed');
  });

  it('resposta que demora além do limite: rejeita', async () => {
    const buscar = (_url: string, init: RequestInit) =>
      new Promise<Response>((_resolve, rejeitar) => init.signal!.addEventListener('abort', () => rejeitar(init.signal!.reason)));
    await expect(baixarMunicipiosIbge(buscar as unknown as typeof fetch, 20)).rejects.toThrow();
  });

  it('lista curta demais (resposta incompleta): rejeita em vez de gravar pela metade', async () => {
    const buscar = async () => respostaJson([municipioIbge(3550308, 'São Paulo', 'SP')]);
    const erro = await erroDe(() => baixarMunicipiosIbge(buscar as unknown as typeof fetch));
    expect(erro).toBeInstanceOf(ErroDeImportacao);
    expect(erro.message).toBe('IBGE devolveu só 1 municípios.');
  });
});

describe('garantirCidades', () => {
  const log = () => ({ info: vi.fn(), warn: vi.fn() });

  it('sem cidades e com o IBGE no ar: grava o que veio do IBGE', async () => {
    const l = log();
    const origem = await garantirCidades(db, l, async () => ({ ufs: [...UFS], cidades: [{ id: 3550308, nome: 'São Paulo', uf: 'SP' }] }));
    expect(origem).toBe('ibge');
    expect(await contarCidades(db)).toBe(1);
    expect(await contarEstados()).toBe(27);
  });

  it('sem cidades e o download falha: carrega a amostra e diz no log como importar a lista completa', async () => {
    const l = log();
    const origem = await garantirCidades(db, l, async () => {
      throw new TypeError('fetch failed');
    });
    expect(origem).toBe('amostra');
    expect(await contarCidades(db)).toBe(CIDADES_AMOSTRA.length);
    expect(await contarEstados()).toBe(27);
    expect(await buscarCidades(db, 'sao paulo', 'SP', 10)).toContainEqual({ id: 3550308, nome: 'São Paulo', uf: 'SP' });
    const avisos = l.warn.mock.calls.map((c) => JSON.stringify(c)).join('\n');
    expect(avisos).toContain('fetch failed');
    expect(avisos).toContain('cities:import');
  });

  it('sem download configurado (null): amostra direto', async () => {
    expect(await garantirCidades(db, log(), null)).toBe('amostra');
    expect(await contarCidades(db)).toBe(CIDADES_AMOSTRA.length);
  });

  it('já com cidades: não faz nada nem tenta baixar', async () => {
    await gravarEstadosECidades(db, UFS, [{ id: 3550308, nome: 'São Paulo', uf: 'SP' }]);
    const baixar = vi.fn();
    expect(await garantirCidades(db, log(), baixar)).toBe('existente');
    expect(baixar).not.toHaveBeenCalled();
    expect(await contarCidades(db)).toBe(1);
  });
});

describe('amostra embutida', () => {
  it('ids únicos, de 7 dígitos, cujo prefixo é o código da UF', () => {
    const codigoDaUf = new Map(UFS.map((u) => [u.uf, u.codigo]));
    expect(new Set(CIDADES_AMOSTRA.map((c) => c.id)).size).toBe(CIDADES_AMOSTRA.length);
    for (const c of CIDADES_AMOSTRA) {
      expect(c.id, c.nome).toBeGreaterThanOrEqual(1_000_000);
      expect(c.id, c.nome).toBeLessThanOrEqual(9_999_999);
      expect(Math.floor(c.id / 100_000), `${c.nome}/${c.uf}`).toBe(codigoDaUf.get(c.uf));
    }
    // Every state capital is there, so any route can start somewhere.
    expect(new Set(CIDADES_AMOSTRA.map((c) => c.uf)).size).toBe(27);
  });
});

describe.runIf(fs.existsSync(PASTA_IBGE_COMPLETA))('lista completa do IBGE (../shared/data/ibge)', () => {
  // decisions.md says 5,570 municipalities; IBGE has since added Boa Esperança do Norte (MT, 5101837,
  // installed in 2025) and the shared file carries it: 5,571.
  const MUNICIPIOS_IBGE = 5571;

  it('importa 27 estados e todos os municípios; a busca acha São Paulo (3550308)', async () => {
    const { ufs, cidades } = lerArquivosIbge(PASTA_IBGE_COMPLETA);
    expect(ufs).toHaveLength(27);
    expect(cidades).toHaveLength(MUNICIPIOS_IBGE);
    expect(new Set(cidades.map((c) => c.id)).size).toBe(MUNICIPIOS_IBGE);
    expect(cidades).toContainEqual({ id: 5101837, nome: 'Boa Esperança do Norte', uf: 'MT' });
    // Every state has municipalities.
    expect(new Set(cidades.map((c) => c.uf)).size).toBe(27);

    const t = await criarAppDeTeste({ cidades: false });
    try {
      expect(await gravarEstadosECidades(t.db, ufs, cidades)).toEqual({ estados: 27, cidades: MUNICIPIOS_IBGE });
      // Importing again changes nothing.
      await gravarEstadosECidades(t.db, ufs, cidades);
      expect(await contarCidades(t.db)).toBe(MUNICIPIOS_IBGE);

      const token = await t.tokenAdmin();
      const r = await t.chamar({ method: 'GET', url: '/api/cidades/search?q=sao%20paulo&uf=SP', token });
      expect(r.statusCode).toBe(200);
      expect(r.json().cidades[0]).toEqual({ id: 3550308, nome: 'São Paulo', uf: 'SP' });
      const estadosApi = await t.chamar({ method: 'GET', url: '/api/estados', token });
      expect(estadosApi.json().estados).toHaveLength(27);
      expect((await t.chamar({ method: 'GET', url: '/api/cidades?uf=DF', token })).json().cidades).toEqual([{ id: 5300108, nome: 'Brasília', uf: 'DF' }]);
    } finally {
      await t.fechar();
    }
  });

  it('cada cidade da amostra embutida existe no IBGE com o mesmo código, nome e UF', () => {
    const { cidades } = lerArquivosIbge(PASTA_IBGE_COMPLETA);
    const porId = new Map(cidades.map((c) => [c.id, c]));
    for (const c of CIDADES_AMOSTRA) expect(porId.get(c.id), `${c.id} ${c.nome}`).toEqual(c);
  });

  it('a fixture dos testes bate com o IBGE', () => {
    const completos = new Map(lerArquivosIbge(PASTA_IBGE_COMPLETA).cidades.map((c) => [c.id, c]));
    for (const c of lerArquivosIbge(PASTA_FIXTURE_IBGE).cidades) expect(completos.get(c.id)).toEqual(c);
  });
});
