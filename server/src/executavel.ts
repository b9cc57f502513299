/**
 * Running as a single executable (Node SEA): the built PWA, the migrations and SQLite's native
 * addon are embedded as assets. On start they are extracted once into a folder named by the
 * assets' hash ($APP_CACHE_DIR, or ~/.cache/sistema-de-gestao), so a new binary never reuses stale
 * files and an unchanged one starts without writing anything. Assets travel compressed (brotli) and are
 * decompressed as they are written. The libraries a default server never uses (PostgreSQL's client,
 * the S3 SDK) are files of their own, extracted and loaded only when first asked for
 * (carregarBibliotecaSobDemanda; scripts/build-binary.mjs turns every import of them into that call).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import * as sea from 'node:sea';
import zlib from 'node:zlib';
import { TRABALHADORES, type ArquivoDeTrabalhador, type NomeDoTrabalhador, type Recursos } from './recursos';

/** Written by scripts/build-binary.mjs: every embedded key and a hash over all contents. */
export interface ManifestoAssets {
  hash: string;
  /** Extracted at start. */
  chaves: string[];
  /** Stored brotli-compressed in the binary (written decompressed). */
  comprimidas?: string[];
  /** Per library family, its file's key: extracted on first use. */
  sobDemanda?: Record<string, string>;
}

export const CHAVE_MANIFESTO = 'asset-manifest.json';
export const PREFIXO_CLIENTE = 'public/';
export const PREFIXO_MIGRACOES = 'migrations/';
export const CHAVE_ADDON = 'native/better_sqlite3.node';
/** A worker's entry (export, WAL checkpoint), bundled with its libraries (scripts/build-binary.mjs). */
const chaveDoTrabalhador = (nome: NomeDoTrabalhador) => `trabalhador/${TRABALHADORES[nome].empacotado}`;

export function rodandoComoExecutavel(): boolean {
  try {
    return sea.isSea();
  } catch {
    return false;
  }
}

function pastaDeCache(): string {
  return process.env.APP_CACHE_DIR || path.join(os.homedir(), '.cache', 'sistema-de-gestao');
}

let manifestoLido: ManifestoAssets | undefined;
function manifesto(): ManifestoAssets {
  manifestoLido ??= JSON.parse(sea.getAsset(CHAVE_MANIFESTO, 'utf8')) as ManifestoAssets;
  return manifestoLido;
}

/** An asset's bytes as the server reads them (decompressed); read from the binary's memory without a copy. */
function conteudo(chave: string, m: ManifestoAssets): Uint8Array {
  const bruto = new Uint8Array(sea.getRawAsset(chave) as ArrayBuffer);
  return m.comprimidas?.includes(chave) ? zlib.brotliDecompressSync(bruto) : bruto;
}

/** Writes one asset under `pasta` (a temporary name, then renamed: a reader never sees half a file). */
function escreverAsset(pasta: string, chave: string, m: ManifestoAssets): string {
  const arquivo = path.join(pasta, chave);
  fs.mkdirSync(path.dirname(arquivo), { recursive: true });
  const temporario = `${arquivo}.${process.pid}.tmp`;
  fs.writeFileSync(temporario, conteudo(chave, m));
  fs.renameSync(temporario, arquivo);
  return arquivo;
}

const bibliotecasCarregadas = new Map<string, Record<string, unknown>>();

/**
 * A family of libraries left out of the main script (scripts/build-binary.mjs): its file extracted into
 * this version's folder if it is not there yet, then loaded with Node's ordinary require (it carries
 * everything it needs). Answers its modules by the names the server imports them with.
 */
export function carregarBibliotecaSobDemanda(familia: string): Record<string, unknown> {
  let modulos = bibliotecasCarregadas.get(familia);
  if (!modulos) {
    const m = manifesto();
    const chave = m.sobDemanda?.[familia];
    if (!chave) throw new Error(`biblioteca ${familia} não embutida neste executável`);
    // Into the version's complete folder (a command may ask before anything else was extracted).
    const destino = garantirExtraidos(m);
    const arquivo = fs.existsSync(path.join(destino, chave)) ? path.join(destino, chave) : escreverAsset(destino, chave, m);
    modulos = createRequire(arquivo)(arquivo) as Record<string, unknown>;
    bibliotecasCarregadas.set(familia, modulos);
  }
  return modulos;
}

/** This version's folder with every start-up asset in it (extracted now if it is not there yet). */
function garantirExtraidos(m: ManifestoAssets): string {
  const destino = path.join(pastaDeCache(), m.hash);
  const marca = path.join(destino, '.completo');
  if (!fs.existsSync(marca)) {
    // Extract into a temporary folder and rename: a crash mid-way never leaves a half folder in use.
    fs.mkdirSync(pastaDeCache(), { recursive: true });
    const temporaria = fs.mkdtempSync(path.join(pastaDeCache(), `.extraindo-${m.hash}-`));
    for (const chave of m.chaves) escreverAsset(temporaria, chave, m);
    fs.writeFileSync(path.join(temporaria, '.completo'), new Date().toISOString());
    try {
      fs.renameSync(temporaria, destino);
    } catch (erro) {
      // Another process extracted the same version first: use theirs.
      fs.rmSync(temporaria, { recursive: true, force: true });
      if (!fs.existsSync(marca)) throw erro;
    }
  }
  return destino;
}

/** Extracts the assets (if this version was not extracted yet) and returns where they are. */
export function extrairAssets(): { recursos: Recursos; addon: unknown; trabalhadores: Record<NomeDoTrabalhador, ArquivoDeTrabalhador> } {
  const destino = garantirExtraidos(manifesto());
  // The embedded main script can only `require` built-ins: load the addon with dlopen and hand
  // the object to better-sqlite3 (a path would make it call require).
  const modulo = { exports: {} as unknown };
  process.dlopen(modulo, path.join(destino, CHAVE_ADDON));
  // A Worker runs from a file with Node's ordinary require: the extracted bundle, and the extracted
  // addon by path (an object cannot cross threads; its require loads the same file again).
  const extraido = (nome: NomeDoTrabalhador): ArquivoDeTrabalhador => ({
    arquivo: path.join(destino, chaveDoTrabalhador(nome)),
    registroTsx: null,
    nativeBinding: path.join(destino, CHAVE_ADDON),
  });
  return {
    recursos: { pastaCliente: path.join(destino, 'public'), pastaMigracoes: path.join(destino, 'migrations'), pastaMigracoesPg: path.join(destino, 'migrations-pg') },
    addon: modulo.exports,
    trabalhadores: { exportacao: extraido('exportacao'), checkpoint: extraido('checkpoint') },
  };
}
