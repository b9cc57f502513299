/**
 * Running as a single executable (Node SEA): the built PWA, the migrations and SQLite's native
 * addon are embedded as assets. On start they are extracted once into a folder named by the
 * assets' hash ($APP_CACHE_DIR, or ~/.cache/sistema-de-gestao), so a new binary never reuses stale
 * files and an unchanged one starts without writing anything.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as sea from 'node:sea';
import { TRABALHADORES, type ArquivoDeTrabalhador, type NomeDoTrabalhador, type Recursos } from './recursos';

/** Written by scripts/build-binary.mjs: every embedded key and a hash over all contents. */
export interface ManifestoAssets {
  hash: string;
  chaves: string[];
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

/** Extracts the assets (if this version was not extracted yet) and returns where they are. */
export function extrairAssets(): { recursos: Recursos; addon: unknown; trabalhadores: Record<NomeDoTrabalhador, ArquivoDeTrabalhador> } {
  const manifesto = JSON.parse(sea.getAsset(CHAVE_MANIFESTO, 'utf8')) as ManifestoAssets;
  const destino = path.join(pastaDeCache(), manifesto.hash);
  const marca = path.join(destino, '.completo');
  if (!fs.existsSync(marca)) {
    // Extract into a temporary folder and rename: a crash mid-way never leaves a half folder in use.
    fs.mkdirSync(pastaDeCache(), { recursive: true });
    const temporaria = fs.mkdtempSync(path.join(pastaDeCache(), `.extraindo-${manifesto.hash}-`));
    for (const chave of manifesto.chaves) {
      const arquivo = path.join(temporaria, chave);
      fs.mkdirSync(path.dirname(arquivo), { recursive: true });
      fs.writeFileSync(arquivo, new Uint8Array(sea.getAsset(chave)));
    }
    fs.writeFileSync(path.join(temporaria, '.completo'), new Date().toISOString());
    try {
      fs.renameSync(temporaria, destino);
    } catch (erro) {
      // Another process extracted the same version first: use theirs.
      fs.rmSync(temporaria, { recursive: true, force: true });
      if (!fs.existsSync(marca)) throw erro;
    }
  }
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
