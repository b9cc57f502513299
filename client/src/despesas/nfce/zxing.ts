/**
 * ZXing (pure JS, @zxing/library) for the browsers without BarcodeDetector. Its own chunk: imported
 * only by leitorQr.ts when needed. The photo is drawn at most LADO_MAXIMO px on its long side —
 * enough for a receipt's QR in a phone photo, and bounded work on a 12-megapixel image — then tried
 * again at full size when the first pass finds nothing.
 */
import { BarcodeFormat, BinaryBitmap, DecodeHintType, HybridBinarizer, NotFoundException, QRCodeReader, RGBLuminanceSource } from '@zxing/library';

const LADO_MAXIMO = 1600;
const LADO_MAXIMO_SEGUNDA = 3000;

function luminancias(dados: Uint8ClampedArray, largura: number, altura: number): Uint8ClampedArray {
  const saida = new Uint8ClampedArray(largura * altura);
  for (let i = 0, p = 0; i < saida.length; i++, p += 4) saida[i] = (dados[p]! * 299 + dados[p + 1]! * 587 + dados[p + 2]! * 114) / 1000;
  return saida;
}

function pixels(bitmap: ImageBitmap, lado: number): { dados: Uint8ClampedArray; largura: number; altura: number } {
  const escala = Math.min(1, lado / Math.max(bitmap.width, bitmap.height));
  const largura = Math.max(1, Math.round(bitmap.width * escala));
  const altura = Math.max(1, Math.round(bitmap.height * escala));
  const canvas = typeof OffscreenCanvas !== 'undefined' ? new OffscreenCanvas(largura, altura) : Object.assign(document.createElement('canvas'), { width: largura, height: altura });
  const ctx = canvas.getContext('2d', { willReadFrequently: true }) as OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D | null;
  if (!ctx) throw new Error('Sem contexto 2D para ler a foto.');
  ctx.drawImage(bitmap, 0, 0, largura, altura);
  return { dados: ctx.getImageData(0, 0, largura, altura).data, largura, altura };
}

function decodificar(bitmap: ImageBitmap, lado: number): string | null {
  const { dados, largura, altura } = pixels(bitmap, lado);
  const fonte = new RGBLuminanceSource(luminancias(dados, largura, altura), largura, altura);
  const dicas = new Map<DecodeHintType, unknown>([
    [DecodeHintType.POSSIBLE_FORMATS, [BarcodeFormat.QR_CODE]],
    [DecodeHintType.TRY_HARDER, true],
  ]);
  try {
    return new QRCodeReader().decode(new BinaryBitmap(new HybridBinarizer(fonte)), dicas).getText();
  } catch (erro) {
    if (erro instanceof NotFoundException || (erro as { name?: string }).name?.endsWith('Exception')) return null;
    throw erro;
  }
}

export async function lerQrComZxing(imagem: Blob): Promise<string[]> {
  const bitmap = await createImageBitmap(imagem);
  try {
    const texto = decodificar(bitmap, LADO_MAXIMO) ?? (Math.max(bitmap.width, bitmap.height) > LADO_MAXIMO ? decodificar(bitmap, LADO_MAXIMO_SEGUNDA) : null);
    return texto === null ? [] : [texto];
  } finally {
    bitmap.close();
  }
}
