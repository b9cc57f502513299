/**
 * File bytes for the form tests: the form checks a chosen receipt's first bytes by the server's rule
 * (shared/tipoDoCupom.ts), so a test file must start like the type it claims to be.
 */
const ASSINATURAS = {
  jpeg: [0xff, 0xd8, 0xff, 0xe0],
  png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  pdf: Array.from('%PDF-1.4\n', (c) => c.charCodeAt(0)),
};

/** `tamanho` bytes starting with the signature of `tipo`, the rest filled with `preenchimento`. */
export function bytesDe(tipo: keyof typeof ASSINATURAS, tamanho: number, preenchimento = 0): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(Math.max(tamanho, ASSINATURAS[tipo].length)).fill(preenchimento);
  bytes.set(ASSINATURAS[tipo]);
  return bytes;
}
