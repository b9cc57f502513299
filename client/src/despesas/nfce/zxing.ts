/**
 * ZXing (pure JS, @zxing/library) for the browsers without BarcodeDetector. Its own chunk: imported
 * only by leitorQr.ts when needed.
 */
// The QR reader's own modules, not the package index: the index pulls every format and the browser
// camera helpers in (452 KB raw / 120 KB gzip measured in the build), this chunk only what reads a QR.
import BarcodeFormat from '@zxing/library/esm/core/BarcodeFormat';
import BinaryBitmap from '@zxing/library/esm/core/BinaryBitmap';
import HybridBinarizer from '@zxing/library/esm/core/common/HybridBinarizer';
import DecodeHintType from '@zxing/library/esm/core/DecodeHintType';
import Exception from '@zxing/library/esm/core/Exception';
import QRCodeReader from '@zxing/library/esm/core/qrcode/QRCodeReader';
import RGBLuminanceSource from '@zxing/library/esm/core/RGBLuminanceSource';

/**
 * Where to look, in order, until one reads: the whole photo at two sizes (the smaller one averages
 * the grain of a camera photo away), then the middle and four overlapping two-thirds windows (a busy
 * background around the receipt misleads ZXing's finder; a window with mostly paper does not).
 * At most 7 passes of at most LADO_MAXIMO px: bounded work on a 12-megapixel photo.
 */
const LADO_MAXIMO = 1600;
type Janela = { x: number; y: number; l: number; a: number; lado: number };
const JANELAS: readonly Janela[] = [
  { x: 0, y: 0, l: 1, a: 1, lado: LADO_MAXIMO },
  { x: 0, y: 0, l: 1, a: 1, lado: 800 },
  { x: 1 / 6, y: 1 / 6, l: 2 / 3, a: 2 / 3, lado: 1200 },
  { x: 0, y: 0, l: 2 / 3, a: 2 / 3, lado: 1200 },
  { x: 1 / 3, y: 0, l: 2 / 3, a: 2 / 3, lado: 1200 },
  { x: 0, y: 1 / 3, l: 2 / 3, a: 2 / 3, lado: 1200 },
  { x: 1 / 3, y: 1 / 3, l: 2 / 3, a: 2 / 3, lado: 1200 },
];

function luminancias(dados: Uint8ClampedArray, largura: number, altura: number): Uint8ClampedArray {
  const saida = new Uint8ClampedArray(largura * altura);
  for (let i = 0, p = 0; i < saida.length; i++, p += 4) saida[i] = (dados[p]! * 299 + dados[p + 1]! * 587 + dados[p + 2]! * 114) / 1000;
  return saida;
}

function pixels(bitmap: ImageBitmap, j: Janela): { dados: Uint8ClampedArray; largura: number; altura: number } {
  const sx = Math.round(bitmap.width * j.x);
  const sy = Math.round(bitmap.height * j.y);
  const sl = Math.round(bitmap.width * j.l);
  const sa = Math.round(bitmap.height * j.a);
  const escala = Math.min(1, j.lado / Math.max(sl, sa));
  const largura = Math.max(1, Math.round(sl * escala));
  const altura = Math.max(1, Math.round(sa * escala));
  const canvas = typeof OffscreenCanvas !== 'undefined' ? new OffscreenCanvas(largura, altura) : Object.assign(document.createElement('canvas'), { width: largura, height: altura });
  const ctx = canvas.getContext('2d', { willReadFrequently: true }) as OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D | null;
  if (!ctx) throw new Error('Sem contexto 2D para ler a foto.');
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(bitmap, sx, sy, sl, sa, 0, 0, largura, altura);
  return { dados: ctx.getImageData(0, 0, largura, altura).data, largura, altura };
}

function decodificar(bitmap: ImageBitmap, janela: Janela): string | null {
  const { dados, largura, altura } = pixels(bitmap, janela);
  const fonte = new RGBLuminanceSource(luminancias(dados, largura, altura), largura, altura);
  const dicas = new Map<DecodeHintType, unknown>([
    [DecodeHintType.POSSIBLE_FORMATS, [BarcodeFormat.QR_CODE]],
    [DecodeHintType.TRY_HARDER, true],
  ]);
  try {
    return new QRCodeReader().decode(new BinaryBitmap(new HybridBinarizer(fonte)), dicas).getText();
  } catch (erro) {
    // Not found, or a false finder pattern that did not decode (Format/Checksum): try the next window.
    // By class: the build minifies the exceptions' names.
    if (erro instanceof Exception) return null;
    throw erro;
  }
}

export async function lerQrComZxing(imagem: Blob): Promise<string[]> {
  const bitmap = await createImageBitmap(imagem);
  try {
    for (const janela of JANELAS) {
      const texto = decodificar(bitmap, janela);
      if (texto !== null) return [texto];
    }
    return [];
  } finally {
    bitmap.close();
  }
}
