/**
 * Receipts before they are queued (spec sections 5 and 9): images over 1 MB are reduced in the
 * browser to at most 800 px on the long side and re-encoded as JPEG at quality 0.7; files over
 * 10 MB only log a warning. The compressor runs on the page (`useWebWorker: false`): its worker
 * would load the library from a CDN, which the app never calls.
 */
import imageCompression from 'browser-image-compression';
import {
  CUPOM_AVISO_TAMANHO,
  CUPOM_LADO_MAXIMO_PX,
  CUPOM_LIMITE_COMPRESSAO,
  CUPOM_QUALIDADE_JPEG,
} from '../../../shared/schemas/despesas';
import { BYTES_AMOSTRA_CUPOM, recusaDoCupom, type AmostraDoCupom } from '../../../shared/tipoDoCupom';
import type { CupomPreparado } from './operacoes';

/** HEIC/HEIF cannot be drawn on a canvas in most browsers: they go as they are. */
function ehImagemRedutivel(arquivo: File): boolean {
  if (!arquivo.type.startsWith('image/')) return false;
  return !/^image\/hei[cf]/.test(arquivo.type) && !/\.hei[cf]$/i.test(arquivo.name);
}

const comoJpg = (nome: string) => `${nome.replace(/\.[^./\\]+$/, '') || 'cupom'}.jpg`;

/** The bytes to queue for a chosen file (reduced when it is a large image). */
export async function prepararCupom(arquivo: File): Promise<CupomPreparado> {
  if (arquivo.size > CUPOM_AVISO_TAMANHO) {
    console.warn(`Comprovante grande (${(arquivo.size / 1024 / 1024).toFixed(1)} MB): o envio pode demorar.`);
  }
  if (ehImagemRedutivel(arquivo) && arquivo.size > CUPOM_LIMITE_COMPRESSAO) {
    try {
      const reduzida = await imageCompression(arquivo, {
        maxWidthOrHeight: CUPOM_LADO_MAXIMO_PX,
        initialQuality: CUPOM_QUALIDADE_JPEG,
        fileType: 'image/jpeg',
        useWebWorker: false,
      });
      return { nome: comoJpg(arquivo.name), tipo: 'image/jpeg', conteudo: await reduzida.arrayBuffer() };
    } catch (erro) {
      // An image the browser cannot decode still goes, as it is: the server checks its bytes.
      console.error('Não foi possível reduzir a imagem do comprovante:', erro);
    }
  }
  return { nome: arquivo.name || 'cupom', tipo: arquivo.type, conteudo: await arquivo.arrayBuffer() };
}

async function amostraDoArquivo(arquivo: Blob): Promise<AmostraDoCupom> {
  const inicio = new Uint8Array(await arquivo.slice(0, BYTES_AMOSTRA_CUPOM).arrayBuffer());
  const fim = arquivo.size <= BYTES_AMOSTRA_CUPOM ? inicio : new Uint8Array(await arquivo.slice(arquivo.size - BYTES_AMOSTRA_CUPOM).arrayBuffer());
  return { tamanho: arquivo.size, inicio, fim };
}

function amostraDosBytes(conteudo: ArrayBuffer): AmostraDoCupom {
  const bytes = new Uint8Array(conteudo);
  return { tamanho: bytes.length, inicio: bytes.subarray(0, BYTES_AMOSTRA_CUPOM), fim: bytes.subarray(Math.max(0, bytes.length - BYTES_AMOSTRA_CUPOM)) };
}

/**
 * A chosen file, checked by the server's own rule (shared/tipoDoCupom.ts) before it is queued: the
 * bytes to queue, or the server's reason to refuse them. A file that goes as it is (not a large
 * image to reduce) is checked before it is read whole: a 30 MB PDF is refused at once, never
 * uploaded. A reduced image is checked as it will travel (a 25 MB photo becomes a small JPEG).
 */
export async function prepararCupomAceito(arquivo: File): Promise<{ cupom: CupomPreparado } | { recusa: string }> {
  if (!ehImagemRedutivel(arquivo) || arquivo.size <= CUPOM_LIMITE_COMPRESSAO) {
    const recusa = recusaDoCupom(await amostraDoArquivo(arquivo));
    if (recusa) return { recusa };
  }
  const cupom = await prepararCupom(arquivo);
  const recusa = recusaDoCupom(amostraDosBytes(cupom.conteudo));
  return recusa ? { recusa } : { cupom };
}

/** A kind of file the viewer knows how to show. */
export function tipoDeVisualizacao(mime: string | null | undefined, nome?: string | null): 'imagem' | 'pdf' | 'outro' {
  const m = mime ?? '';
  if (m === 'application/pdf' || /\.pdf$/i.test(nome ?? '')) return 'pdf';
  if (m.startsWith('image/') && !/hei[cf]/.test(m)) return 'imagem';
  return 'outro';
}
