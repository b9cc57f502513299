/**
 * What a receipt file is, by its own bytes (never its name or the browser's claim), and whether the
 * server takes it. One rule for both sides: the server checks what it received (server/src/despesas/
 * cupons.ts); the phone checks the same bytes when the file is chosen, so a file the server would
 * refuse is never queued nor uploaded. Pure: plain byte arrays (a Node Buffer is one).
 */
import { CUPOM_TAMANHO_MAXIMO, MENSAGEM_ARQUIVO_GRANDE, MENSAGEM_TIPO_ARQUIVO } from './schemas/despesas';

export interface TipoCupom {
  mime: string;
  extensao: string;
}

/** How many bytes of the start and of the end of a file the rule looks at. */
export const BYTES_AMOSTRA_CUPOM = 64 * 1024;

const HEIC = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'hevm', 'hevs']);
const HEIF = new Set(['mif1', 'msf1']);

function comeca(bytes: Uint8Array, esperado: number[], deslocamento = 0): boolean {
  if (bytes.length < deslocamento + esperado.length) return false;
  return esperado.every((b, i) => bytes[deslocamento + i] === b);
}

const ascii = (bytes: Uint8Array, inicio: number, fim: number) => String.fromCharCode(...bytes.subarray(inicio, fim));

/** Whether `texto` (ASCII) occurs anywhere in `bytes`. */
function contem(bytes: Uint8Array, texto: string): boolean {
  const alvo = Array.from(texto, (c) => c.charCodeAt(0));
  const primeiro = alvo[0]!;
  for (let i = bytes.indexOf(primeiro); i !== -1 && i <= bytes.length - alvo.length; i = bytes.indexOf(primeiro, i + 1)) {
    if (comeca(bytes, alvo, i)) return true;
  }
  return false;
}

/**
 * What the bytes are, among the accepted receipt types; null for anything else. `inicio` is the
 * start of the file; `fim`, its last bytes: a .docx names its entries again in the zip's central
 * directory at the end, so 'word/' is found there when the first entries are large.
 */
export function detectarTipoCupom(inicio: Uint8Array, fim: Uint8Array = inicio): TipoCupom | null {
  if (comeca(inicio, [0xff, 0xd8, 0xff])) return { mime: 'image/jpeg', extensao: 'jpg' };
  if (comeca(inicio, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { mime: 'image/png', extensao: 'png' };
  if (inicio.length >= 12 && ascii(inicio, 0, 4) === 'RIFF' && ascii(inicio, 8, 12) === 'WEBP') return { mime: 'image/webp', extensao: 'webp' };
  if (inicio.length >= 12 && ascii(inicio, 4, 8) === 'ftyp') {
    const marca = ascii(inicio, 8, 12);
    if (HEIC.has(marca)) return { mime: 'image/heic', extensao: 'heic' };
    if (HEIF.has(marca)) return { mime: 'image/heif', extensao: 'heif' };
    return null; // mp4, mov...
  }
  if (ascii(inicio, 0, 5) === '%PDF-') return { mime: 'application/pdf', extensao: 'pdf' };
  if (comeca(inicio, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return { mime: 'application/msword', extensao: 'doc' };
  if (comeca(inicio, [0x50, 0x4b, 0x03, 0x04])) {
    // A .docx is a zip whose entry names (stored uncompressed in the headers) include these.
    const tem = (texto: string) => contem(inicio, texto) || contem(fim, texto);
    if (tem('[Content_Types].xml') && tem('word/')) {
      return { mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', extensao: 'docx' };
    }
    return null;
  }
  return null;
}

/** A file as the rule sees it: its size and its first and last BYTES_AMOSTRA_CUPOM bytes. */
export interface AmostraDoCupom {
  tamanho: number;
  inicio: Uint8Array;
  fim: Uint8Array;
}

/** Why the server would refuse this receipt (pt-BR, the server's own words), or null when it takes it. */
export function recusaDoCupom({ tamanho, inicio, fim }: AmostraDoCupom): string | null {
  if (tamanho > CUPOM_TAMANHO_MAXIMO) return MENSAGEM_ARQUIVO_GRANDE;
  if (!detectarTipoCupom(inicio, fim)) return MENSAGEM_TIPO_ARQUIVO;
  return null;
}
