/**
 * Reading SQLite's write-ahead log for the continuous off-site copy: which bytes of
 * `app.db-wal` are whole, committed transactions. The format is sqlite.org/fileformat2.html#walformat:
 * a 32-byte header (magic, version, page size, checkpoint sequence, two salts, a checksum of the first
 * 24 bytes), then frames of a 24-byte header (page number, database size in pages on a COMMIT frame and
 * 0 otherwise, the two salts, a running checksum) followed by one page. A frame counts only if its salts
 * are the header's and its checksum continues the chain; SQLite's own recovery stops at the first one
 * that does not, and so do we, shipping only up to the last COMMIT frame before it: a transaction being
 * written (or a crash in the middle of one) is never shipped half.
 */

export const TAMANHO_CABECALHO_WAL = 32;
export const TAMANHO_CABECALHO_QUADRO = 24;
const MAGICA_LITTLE_ENDIAN = 0x377f0682;
const MAGICA_BIG_ENDIAN = 0x377f0683;
const VERSAO_WAL = 3007000;

export interface CabecalhoWal {
  bigEndian: boolean;
  tamanhoPagina: number;
  sequenciaCheckpoint: number;
  sal1: number;
  sal2: number;
  /** The checksum the first frame's continues. */
  soma1: number;
  soma2: number;
}

/** Where reading stopped: the offset after the last COMMIT frame and the running checksum there. */
export interface PosicaoWal {
  offset: number;
  soma1: number;
  soma2: number;
}

/** SQLite's WAL checksum over `dados` (length a multiple of 8), continuing from (s1, s2). */
export function somaWal(dados: Uint8Array, inicio: number, fim: number, bigEndian: boolean, s1: number, s2: number): [number, number] {
  const visao = new DataView(dados.buffer, dados.byteOffset, dados.byteLength);
  let a = s1 >>> 0;
  let b = s2 >>> 0;
  for (let i = inicio; i < fim; i += 8) {
    a = (a + visao.getUint32(i, !bigEndian) + b) >>> 0;
    b = (b + visao.getUint32(i + 4, !bigEndian) + a) >>> 0;
  }
  return [a, b];
}

/** The header of a WAL file, or null when `dados` does not start with a valid one (empty, torn, not a WAL). */
export function lerCabecalhoWal(dados: Uint8Array): CabecalhoWal | null {
  if (dados.byteLength < TAMANHO_CABECALHO_WAL) return null;
  const visao = new DataView(dados.buffer, dados.byteOffset, TAMANHO_CABECALHO_WAL);
  const magica = visao.getUint32(0, false);
  if (magica !== MAGICA_LITTLE_ENDIAN && magica !== MAGICA_BIG_ENDIAN) return null;
  if (visao.getUint32(4, false) !== VERSAO_WAL) return null;
  const bigEndian = magica === MAGICA_BIG_ENDIAN;
  const [soma1, soma2] = somaWal(dados, 0, 24, bigEndian, 0, 0);
  if (soma1 !== visao.getUint32(24, false) || soma2 !== visao.getUint32(28, false)) return null;
  const tamanhoPagina = visao.getUint32(8, false);
  return {
    bigEndian,
    // 65536 is stored as 1 (it does not fit the 16-bit field of the database header; here it would, but SQLite writes it the same way).
    tamanhoPagina: tamanhoPagina === 1 ? 65536 : tamanhoPagina,
    sequenciaCheckpoint: visao.getUint32(12, false),
    sal1: visao.getUint32(16, false),
    sal2: visao.getUint32(20, false),
    soma1,
    soma2,
  };
}

export function mesmoSal(a: CabecalhoWal, b: CabecalhoWal): boolean {
  return a.sal1 === b.sal1 && a.sal2 === b.sal2 && a.tamanhoPagina === b.tamanhoPagina;
}

export interface QuadrosConfirmados {
  /** After the last whole COMMIT frame found (== `desde.offset` when there is none). */
  ate: PosicaoWal;
  /** COMMIT frames found (transactions). */
  transacoes: number;
  /** Frames found in those transactions. */
  quadros: number;
}

/**
 * The committed transactions in `dados`, the WAL's bytes from `desde.offset` on (`dados[0]` is the byte
 * at `desde.offset`), given the header and the running checksum at `desde`.
 */
export function quadrosConfirmados(dados: Uint8Array, cabecalho: CabecalhoWal, desde: PosicaoWal): QuadrosConfirmados {
  const tamanhoQuadro = TAMANHO_CABECALHO_QUADRO + cabecalho.tamanhoPagina;
  const visao = new DataView(dados.buffer, dados.byteOffset, dados.byteLength);
  let s1 = desde.soma1;
  let s2 = desde.soma2;
  let ate: PosicaoWal = desde;
  let transacoes = 0;
  let quadros = 0;
  let quadrosNaTransacao = 0;
  for (let i = 0; i + tamanhoQuadro <= dados.byteLength; i += tamanhoQuadro) {
    if (visao.getUint32(i + 8, false) !== cabecalho.sal1 || visao.getUint32(i + 12, false) !== cabecalho.sal2) break;
    [s1, s2] = somaWal(dados, i, i + 8, cabecalho.bigEndian, s1, s2);
    [s1, s2] = somaWal(dados, i + TAMANHO_CABECALHO_QUADRO, i + tamanhoQuadro, cabecalho.bigEndian, s1, s2);
    if (s1 !== visao.getUint32(i + 16, false) || s2 !== visao.getUint32(i + 20, false)) break;
    quadrosNaTransacao++;
    if (visao.getUint32(i + 4, false) !== 0) {
      ate = { offset: desde.offset + i + tamanhoQuadro, soma1: s1, soma2: s2 };
      transacoes++;
      quadros += quadrosNaTransacao;
      quadrosNaTransacao = 0;
    }
  }
  return { ate, transacoes, quadros };
}
