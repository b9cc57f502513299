/**
 * Restore from the continuous off-site copy (the layout is in copiaContinua.ts): the
 * newest generation that has a snapshot, then each of its WAL indexes in order, written as `<db>-wal`
 * and applied by SQLite itself (open, checkpoint TRUNCATE, close), then `integrity_check`. SQLite's
 * recovery applies a WAL only up to its last valid COMMIT frame, so a segment cut mid-frame (a crash
 * while uploading, a torn object) is never applied past it; we read the same boundary ourselves to
 * report it, and stop there (what follows cannot be proven to continue it).
 */
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync, createGunzip } from 'node:zlib';
import { pipeline } from 'node:stream/promises';
import Database from 'better-sqlite3';
import type { ConfigS3 } from '../config';
import { ErroDeCopia } from './copia';
import { nomeRetrato, PREFIXO_COMPROVANTES, PREFIXO_GERACOES, prefixoWal } from './copiaContinua';
import { BucketDaCopia } from './copiaContinuaBucket';
import { lerCabecalhoWal, quadrosConfirmados, TAMANHO_CABECALHO_WAL } from './copiaContinuaWal';
import { apertar, criarPastaPrivada, MODO_ARQUIVO } from './permissoes';

export interface ResultadoDaRestauracao {
  destino: string;
  geracao: string;
  /** WAL indexes applied, and their segments. */
  indices: number;
  segmentos: number;
  transacoes: number;
  /** Why the WAL stopped before the bucket's last segment (null: everything applied). */
  interrompido: string | null;
  comprovantes: number;
  pastaComprovantes: string | null;
  bytes: number;
}

interface SegmentoNoBucket {
  nome: string;
  indice: number;
  offset: number;
}

function lerSegmentos(nomes: readonly string[], geracao: string): Map<number, SegmentoNoBucket[]> {
  const porIndice = new Map<number, SegmentoNoBucket[]>();
  const prefixo = prefixoWal(geracao);
  for (const nome of nomes) {
    const m = /^(\d{8})\/(\d{16})\.seg\.gz$/.exec(nome.slice(prefixo.length));
    if (!m) continue;
    const s = { nome, indice: Number(m[1]), offset: Number(m[2]) };
    porIndice.set(s.indice, [...(porIndice.get(s.indice) ?? []), s]);
  }
  for (const lista of porIndice.values()) lista.sort((a, b) => a.offset - b.offset);
  return porIndice;
}

/** Puts the newest generation of the bucket's copy into `destino` (a new file) and the receipts beside it in `uploads/`. */
export async function restaurarCopiaContinua(config: ConfigS3, destino: string, nativeBinding?: unknown): Promise<ResultadoDaRestauracao> {
  const alvo = path.resolve(destino);
  for (const f of [alvo, `${alvo}-wal`, `${alvo}-shm`]) {
    if (fs.existsSync(f)) throw new ErroDeCopia(`${f} já existe: a restauração só grava num arquivo novo (escolha outro destino ou mova o atual).`);
  }
  const bucket = new BucketDaCopia(config);
  const trabalho = `${alvo}.restaurando-${process.pid}`;
  try {
    const geracoes = (await bucket.subpastas(PREFIXO_GERACOES)).reverse();
    let geracao: string | null = null;
    let objetos: string[] = [];
    for (const g of geracoes) {
      const nomes = (await bucket.listar(`${PREFIXO_GERACOES}${g}/`)).map((o) => o.nome);
      if (nomes.includes(nomeRetrato(g))) {
        geracao = g;
        objetos = nomes;
        break;
      }
    }
    if (!geracao) throw new ErroDeCopia(`Nenhuma cópia encontrada em ${bucket.descricao} (nenhuma geração com retrato do banco).`);

    const pastaComprovantes = path.join(path.dirname(alvo), 'uploads');
    const comprovantes = (await bucket.listar(PREFIXO_COMPROVANTES)).map((o) => o.nome.slice(PREFIXO_COMPROVANTES.length)).filter((n) => n && !n.includes('/'));
    if (comprovantes.length > 0 && fs.existsSync(pastaComprovantes) && fs.readdirSync(pastaComprovantes).length > 0) {
      throw new ErroDeCopia(`${pastaComprovantes} já tem arquivos: restaure numa pasta nova (os comprovantes vão para uploads/ ao lado do banco).`);
    }

    criarPastaPrivada(path.dirname(alvo));
    fs.mkdirSync(trabalho, { mode: 0o700 });
    const banco = path.join(trabalho, 'app.db');
    const comprimido = path.join(trabalho, 'retrato.db.gz');
    await bucket.baixarPara(nomeRetrato(geracao), comprimido);
    await pipeline(fs.createReadStream(comprimido), createGunzip(), fs.createWriteStream(banco, { flags: 'wx', mode: MODO_ARQUIVO }));
    fs.rmSync(comprimido);

    const ligacao = nativeBinding ? { nativeBinding: nativeBinding as string } : {};
    const porIndice = lerSegmentos(objetos, geracao);
    let indices = 0;
    let segmentos = 0;
    let transacoes = 0;
    let interrompido: string | null = null;
    const ordem = [...porIndice.keys()].sort((a, b) => a - b);
    for (const [posicao, indice] of ordem.entries()) {
      if (indice !== posicao) {
        interrompido = `falta o WAL ${posicao} (o bucket tem o ${indice})`;
        break;
      }
      const partes: Buffer[] = [];
      let esperado = 0;
      for (const s of porIndice.get(indice)!) {
        if (s.offset !== esperado) {
          interrompido = `WAL ${indice}: falta o trecho a partir do byte ${esperado}`;
          break;
        }
        const bytes = gunzipSync(await bucket.ler(s.nome));
        partes.push(bytes);
        esperado += bytes.length;
        segmentos++;
      }
      if (partes.length === 0) break; // the index's first segment is missing: nothing of it can be applied
      const wal = Buffer.concat(partes);
      const cabecalho = lerCabecalhoWal(wal);
      if (!cabecalho) {
        interrompido = `WAL ${indice}: cabeçalho inválido`;
        break;
      }
      const r = quadrosConfirmados(wal.subarray(TAMANHO_CABECALHO_WAL), cabecalho, { offset: TAMANHO_CABECALHO_WAL, soma1: cabecalho.soma1, soma2: cabecalho.soma2 });
      fs.writeFileSync(`${banco}-wal`, wal, { mode: MODO_ARQUIVO });
      const db = new Database(banco, { ...ligacao, fileMustExist: true });
      try {
        db.pragma('wal_checkpoint(TRUNCATE)');
      } finally {
        db.close();
      }
      fs.rmSync(`${banco}-wal`, { force: true });
      fs.rmSync(`${banco}-shm`, { force: true });
      indices++;
      transacoes += r.transacoes;
      if (interrompido) break;
      if (r.ate.offset < wal.length) {
        interrompido = `WAL ${indice}: ${wal.length - r.ate.offset} bytes depois da última transação completa (envio cortado no meio) não aplicados`;
        break;
      }
    }

    const db = new Database(banco, { ...ligacao, fileMustExist: true });
    try {
      const integridade = db.pragma('integrity_check', { simple: true });
      if (integridade !== 'ok') throw new ErroDeCopia(`O banco restaurado não passou na verificação de integridade (${String(integridade)}).`);
    } finally {
      db.close();
    }
    apertar(banco, MODO_ARQUIVO);
    fs.renameSync(banco, alvo);

    if (comprovantes.length > 0) {
      criarPastaPrivada(pastaComprovantes);
      for (const nome of comprovantes) await bucket.baixarPara(`${PREFIXO_COMPROVANTES}${nome}`, path.join(pastaComprovantes, nome));
    }
    return {
      destino: alvo,
      geracao,
      indices,
      segmentos,
      transacoes,
      interrompido,
      comprovantes: comprovantes.length,
      pastaComprovantes: comprovantes.length > 0 ? pastaComprovantes : null,
      bytes: fs.statSync(alvo).size,
    };
  } finally {
    fs.rmSync(trabalho, { recursive: true, force: true });
    bucket.fechar();
  }
}

/** What the command prints (pt-BR). */
export function descreverRestauracao(r: ResultadoDaRestauracao): string {
  const linhas = [
    `Banco restaurado em ${r.destino} (${r.bytes} bytes), da geração ${r.geracao}:`,
    `  retrato do banco + ${r.indices} WAL(s) em ${r.segmentos} trecho(s), ${r.transacoes} transação(ões) aplicadas; integridade ok.`,
  ];
  if (r.interrompido) linhas.push(`  Atenção: parou antes do fim do que há no bucket: ${r.interrompido}.`);
  linhas.push(r.pastaComprovantes ? `  ${r.comprovantes} comprovante(s) em ${r.pastaComprovantes}.` : '  Nenhum comprovante no bucket da cópia (ou eles já ficam no bucket S3 dos comprovantes).');
  return linhas.join('\n');
}
