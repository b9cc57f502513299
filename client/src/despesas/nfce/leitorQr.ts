/**
 * Reads the QR codes of a receipt photo on the phone, offline, from the ORIGINAL image (before the
 * compressor reduces it to 800 px and the QR to a blur). Chrome for Android has BarcodeDetector;
 * elsewhere (iOS Safari, Firefox, desktop Chromium on Linux) ZXing's pure-JS port does it, in its own
 * chunk loaded only then (precached like every chunk, so it works with no signal).
 */
import { lerQrNfce, type NfceLida } from '../../../../shared/nfce';

/** The texts of the QR codes found in an image (none: []). */
export type LeitorQr = (imagem: Blob) => Promise<string[]>;

interface Deteccao {
  rawValue: string;
}
interface DetectorDeCodigos {
  detect(imagem: ImageBitmapSource): Promise<Deteccao[]>;
}
interface ConstrutorDetector {
  new (opcoes: { formats: string[] }): DetectorDeCodigos;
  getSupportedFormats(): Promise<string[]>;
}

async function comBarcodeDetector(imagem: Blob): Promise<string[] | null> {
  const Detector = (globalThis as { BarcodeDetector?: ConstrutorDetector }).BarcodeDetector;
  if (!Detector) return null;
  try {
    if (!(await Detector.getSupportedFormats()).includes('qr_code')) return null;
    const bitmap = await createImageBitmap(imagem);
    try {
      const achados = await new Detector({ formats: ['qr_code'] }).detect(bitmap);
      return achados.map((a) => a.rawValue);
    } finally {
      bitmap.close();
    }
  } catch {
    // A detector that exists but fails (no platform service behind it): ZXing does it.
    return null;
  }
}

/** The browser's detector when it has one that reads QR codes, else ZXing. */
export const lerQrDaImagem: LeitorQr = async (imagem) => {
  // Both decoders draw the photo through createImageBitmap: without it (an old browser) there is nothing to read.
  if (typeof createImageBitmap !== 'function') return [];
  const nativo = await comBarcodeDetector(imagem);
  if (nativo !== null) return nativo;
  const { lerQrComZxing } = await import('./zxing');
  return lerQrComZxing(imagem);
};

export type LeituraNfce = { estado: 'lida'; nfce: NfceLida } | { estado: 'sem-qr' } | { estado: 'invalida'; motivo: string };

/** Whether a picked file is a photo the decoders can open (HEIC, PDF and documents are not). */
export function ehFotoLegivel(arquivo: Blob & { name?: string }): boolean {
  return /^image\/(jpeg|png|webp|gif|bmp)$/.test(arquivo.type) || (arquivo.type === '' && /\.(jpe?g|png|webp)$/i.test(arquivo.name ?? ''));
}

/**
 * The NFC-e of a receipt photo: the first QR whose text is an NFC-e (a receipt may also carry a
 * payment QR); a QR that is an NFC-e with a wrong chave says why; none found, or a decoder that
 * failed, is 'sem-qr' (the person can type the chave).
 */
export async function lerNfceDaFoto(arquivo: Blob, ler: LeitorQr = lerQrDaImagem): Promise<LeituraNfce> {
  let textos: string[];
  try {
    textos = await ler(arquivo);
  } catch (erro) {
    console.warn('Não foi possível procurar o QR code na foto:', erro);
    return { estado: 'sem-qr' };
  }
  let invalida: LeituraNfce | null = null;
  for (const texto of textos) {
    const r = lerQrNfce(texto);
    if (r.ok) return { estado: 'lida', nfce: r.valor };
    if (!invalida && /[?&](p|chNFe)=/i.test(texto)) invalida = { estado: 'invalida', motivo: r.motivo };
  }
  return invalida ?? { estado: 'sem-qr' };
}
