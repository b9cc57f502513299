/**
 * Reading IBGE's lists: the CSV files (`municipios.csv` with `codigo_ibge,nome,...,codigo_uf,...`
 * and `estados.csv` with `codigo_uf,uf,nome,...`) or IBGE's public localidades API.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import type { CidadeImportada } from './repositorio';
import { UFS, type Uf } from './ufs';

export class ErroDeImportacao extends Error {}

type Linha = Record<string, string>;

function lerCsv(texto: string, colunas: string[], arquivo: string): Linha[] {
  let linhas: Linha[];
  try {
    linhas = parse(texto, { columns: true, skip_empty_lines: true, trim: true, bom: true }) as Linha[];
  } catch (erro) {
    // csv-parse's own error (e.g. a line with a missing column) would reach the operator as a crash.
    throw new ErroDeImportacao(`${arquivo}: CSV inválido (${(erro as Error).message}).`);
  }
  const faltando = colunas.filter((c) => linhas.length > 0 && !(c in linhas[0]!));
  if (linhas.length === 0 || faltando.length > 0) {
    throw new ErroDeImportacao(`${arquivo}: esperadas as colunas ${colunas.join(', ')}${faltando.length ? ` (faltando: ${faltando.join(', ')})` : ' e ao menos uma linha'}.`);
  }
  return linhas;
}

export function lerEstadosCsv(texto: string, arquivo = 'estados.csv'): Uf[] {
  return lerCsv(texto, ['codigo_uf', 'uf', 'nome'], arquivo).map((l, i) => {
    const codigo = Number(l.codigo_uf);
    const uf = (l.uf ?? '').toUpperCase();
    if (!Number.isInteger(codigo) || !/^[A-Z]{2}$/.test(uf) || !l.nome) {
      throw new ErroDeImportacao(`${arquivo}, linha ${i + 2}: estado inválido.`);
    }
    return { codigo, uf, nome: l.nome };
  });
}

export function lerMunicipiosCsv(texto: string, ufs: readonly Uf[], arquivo = 'municipios.csv'): CidadeImportada[] {
  const ufPorCodigo = new Map(ufs.map((u) => [u.codigo, u.uf]));
  return lerCsv(texto, ['codigo_ibge', 'nome', 'codigo_uf'], arquivo).map((l, i) => {
    const id = Number(l.codigo_ibge);
    const uf = ufPorCodigo.get(Number(l.codigo_uf));
    if (!Number.isInteger(id) || id < 1_000_000 || id > 9_999_999 || !l.nome || !uf) {
      throw new ErroDeImportacao(`${arquivo}, linha ${i + 2}: município inválido.`);
    }
    return { id, nome: l.nome, uf };
  });
}

/**
 * PATH is a folder holding municipios.csv (and optionally estados.csv), or the municipios file
 * itself. Without estados.csv the 27 UFs known to the code are used.
 */
export function lerArquivosIbge(caminho: string): { ufs: Uf[]; cidades: CidadeImportada[] } {
  let pasta: string;
  let arquivoMunicipios: string;
  if (!fs.existsSync(caminho)) throw new ErroDeImportacao(`Arquivo ou pasta não encontrado: ${caminho}`);
  if (fs.statSync(caminho).isDirectory()) {
    pasta = caminho;
    arquivoMunicipios = path.join(caminho, 'municipios.csv');
    if (!fs.existsSync(arquivoMunicipios)) throw new ErroDeImportacao(`A pasta ${caminho} não tem municipios.csv.`);
  } else {
    pasta = path.dirname(caminho);
    arquivoMunicipios = caminho;
  }
  const arquivoEstados = path.join(pasta, 'estados.csv');
  const ufs = fs.existsSync(arquivoEstados) ? lerEstadosCsv(fs.readFileSync(arquivoEstados, 'utf8'), arquivoEstados) : [...UFS];
  const cidades = lerMunicipiosCsv(fs.readFileSync(arquivoMunicipios, 'utf8'), ufs, arquivoMunicipios);
  return { ufs, cidades };
}

export const URL_IBGE_MUNICIPIOS = 'https://servicodados.ibge.gov.br/api/v1/localidades/municipios';

interface MunicipioIbge {
  id: number;
  nome: string;
  microrregiao?: { mesorregiao?: { UF?: { sigla?: string } } } | null;
  'regiao-imediata'?: { 'regiao-intermediaria'?: { UF?: { sigla?: string } } } | null;
}

/** Downloads the municipalities from IBGE's localidades API (used once, at a first start with internet). */
export async function baixarMunicipiosIbge(
  buscar: typeof fetch = fetch,
  tempoLimiteMs = 10_000,
): Promise<{ ufs: Uf[]; cidades: CidadeImportada[] }> {
  const resposta = await buscar(URL_IBGE_MUNICIPIOS, { signal: AbortSignal.timeout(tempoLimiteMs) });
  if (!resposta.ok) throw new ErroDeImportacao(`IBGE respondeu ${resposta.status}.`);
  const corpo = (await resposta.json()) as MunicipioIbge[];
  const siglas = new Set(UFS.map((u) => u.uf));
  const cidades = corpo.flatMap((m) => {
    const uf = m.microrregiao?.mesorregiao?.UF?.sigla ?? m['regiao-imediata']?.['regiao-intermediaria']?.UF?.sigla;
    return uf && siglas.has(uf) && Number.isInteger(m.id) && m.nome ? [{ id: m.id, nome: m.nome, uf }] : [];
  });
  if (cidades.length < 5000) throw new ErroDeImportacao(`IBGE devolveu só ${cidades.length} municípios.`);
  return { ufs: [...UFS], cidades };
}
