/**
 * A small ZIP reader for the export tests (no dependency): the end of central directory (ZIP64 too),
 * each central record, then each entry's data from its local header, inflated with Node's zlib when
 * deflated. Checks each entry's CRC-32 and sizes, so a broken archive fails the test that reads it.
 */
import zlib from 'node:zlib';

export interface EntradaZip {
  nome: string;
  dados: Buffer;
  metodo: number;
}

const ASSINATURA_FIM = 0x06054b50;
const ASSINATURA_FIM64 = 0x06064b50;
const ASSINATURA_LOCALIZADOR64 = 0x07064b50;
const ASSINATURA_CENTRAL = 0x02014b50;
const ASSINATURA_LOCAL = 0x04034b50;

function acharFim(zip: Buffer): number {
  // The record is 22 bytes plus a comment of up to 65,535.
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === ASSINATURA_FIM) return i;
  }
  throw new Error('ZIP sem o fim do diretório central');
}

/** Every entry, in the central directory's order. */
export function lerZip(zip: Buffer): EntradaZip[] {
  const fim = acharFim(zip);
  let total = zip.readUInt16LE(fim + 10);
  let inicioCentral = zip.readUInt32LE(fim + 16);
  if (total === 0xffff || inicioCentral === 0xffffffff) {
    const localizador = fim - 20;
    if (zip.readUInt32LE(localizador) !== ASSINATURA_LOCALIZADOR64) throw new Error('ZIP64 sem o localizador');
    const fim64 = Number(zip.readBigUInt64LE(localizador + 8));
    if (zip.readUInt32LE(fim64) !== ASSINATURA_FIM64) throw new Error('ZIP64 sem o fim do diretório central');
    total = Number(zip.readBigUInt64LE(fim64 + 32));
    inicioCentral = Number(zip.readBigUInt64LE(fim64 + 48));
  }
  const entradas: EntradaZip[] = [];
  let p = inicioCentral;
  for (let i = 0; i < total; i++) {
    if (zip.readUInt32LE(p) !== ASSINATURA_CENTRAL) throw new Error(`registro central ${i} inválido`);
    const metodo = zip.readUInt16LE(p + 10);
    const crc = zip.readUInt32LE(p + 16);
    let comprimido = zip.readUInt32LE(p + 20);
    let tamanho = zip.readUInt32LE(p + 24);
    const tamanhoNome = zip.readUInt16LE(p + 28);
    const tamanhoExtra = zip.readUInt16LE(p + 30);
    const tamanhoComentario = zip.readUInt16LE(p + 32);
    let local = zip.readUInt32LE(p + 42);
    const nome = zip.subarray(p + 46, p + 46 + tamanhoNome).toString('utf8');
    // ZIP64 extra field: the values that did not fit, in this order.
    for (let e = p + 46 + tamanhoNome; e < p + 46 + tamanhoNome + tamanhoExtra; ) {
      const id = zip.readUInt16LE(e);
      const tam = zip.readUInt16LE(e + 2);
      if (id === 0x0001) {
        let q = e + 4;
        if (tamanho === 0xffffffff) {
          tamanho = Number(zip.readBigUInt64LE(q));
          q += 8;
        }
        if (comprimido === 0xffffffff) {
          comprimido = Number(zip.readBigUInt64LE(q));
          q += 8;
        }
        if (local === 0xffffffff) local = Number(zip.readBigUInt64LE(q));
      }
      e += 4 + tam;
    }
    if (zip.readUInt32LE(local) !== ASSINATURA_LOCAL) throw new Error(`cabeçalho local de ${nome} inválido`);
    const inicioDados = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const bruto = zip.subarray(inicioDados, inicioDados + comprimido);
    const dados = metodo === 0 ? Buffer.from(bruto) : metodo === 8 ? zlib.inflateRawSync(bruto) : null;
    if (!dados) throw new Error(`método ${metodo} de ${nome} não suportado`);
    if (dados.length !== tamanho) throw new Error(`${nome}: ${dados.length} bytes, o diretório diz ${tamanho}`);
    if (zlib.crc32(dados) !== crc) throw new Error(`${nome}: CRC-32 diferente`);
    entradas.push({ nome, dados, metodo });
    p += 46 + tamanhoNome + tamanhoExtra + tamanhoComentario;
  }
  return entradas;
}
