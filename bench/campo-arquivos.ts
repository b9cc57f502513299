/**
 * The receipts of the field-day benchmark (bench/campo.ts), the same bytes every run:
 * - photos: JPEGs drawn and encoded by the browser itself (a receipt with seeded noise, 800 px on the
 *   long side, quality 0.7, as the app's compression leaves a large photo), each tuned to a target size;
 * - PDFs: pdfkit pages holding one such JPEG (a scanned page is a picture in a PDF).
 */
import PDFDocument from 'pdfkit';
import type { Page } from 'playwright-core';

/** A JPEG of about `alvo` bytes: the noise's strength is searched until the encoder lands within 3%. */
export async function jpegDeTamanho(pagina: Page, alvo: number, semente: number, largura = 600, altura = 800, qualidade = 0.7): Promise<Buffer> {
  const base64 = await pagina.evaluate(
    async ({ alvo, semente, largura, altura, qualidade }) => {
      const desenhar = async (forca: number) => {
        let s = semente >>> 0;
        const aleatorio = () => {
          // mulberry32: the same picture for the same seed.
          s = (s + 0x6d2b79f5) >>> 0;
          let t = s;
          t = Math.imul(t ^ (t >>> 15), t | 1);
          t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
          return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
        };
        const canvas = document.createElement('canvas');
        canvas.width = largura;
        canvas.height = altura;
        const ctx = canvas.getContext('2d')!;
        ctx.fillStyle = '#f4f1e8';
        ctx.fillRect(0, 0, largura, altura);
        ctx.fillStyle = '#222';
        ctx.font = `bold ${Math.round(largura / 18)}px sans-serif`;
        ctx.fillText('CUPOM FISCAL', largura * 0.2, altura * 0.08);
        ctx.font = `${Math.round(largura / 30)}px monospace`;
        for (let linha = 0; linha < 30; linha++) ctx.fillText(`ITEM ${linha + 1}  ....  R$ ${(aleatorio() * 100).toFixed(2)}`, largura * 0.08, altura * (0.14 + linha * 0.027));
        const imagem = ctx.getImageData(0, 0, largura, altura);
        const d = imagem.data;
        for (let i = 0; i < d.length; i += 4) {
          const ruido = (aleatorio() - 0.5) * forca;
          d[i] = Math.max(0, Math.min(255, d[i]! + ruido));
          d[i + 1] = Math.max(0, Math.min(255, d[i + 1]! + ruido));
          d[i + 2] = Math.max(0, Math.min(255, d[i + 2]! + ruido));
        }
        ctx.putImageData(imagem, 0, 0);
        return new Promise<Blob>((ok) => canvas.toBlob((b) => ok(b!), 'image/jpeg', qualidade));
      };
      let baixo = 0;
      let alto = 255;
      let melhor = await desenhar(128);
      for (let i = 0; i < 12; i++) {
        const meio = (baixo + alto) / 2;
        const blob = await desenhar(meio);
        if (Math.abs(blob.size - alvo) < Math.abs(melhor.size - alvo)) melhor = blob;
        if (Math.abs(blob.size - alvo) / alvo < 0.03) break;
        if (blob.size < alvo) baixo = meio;
        else alto = meio;
      }
      const bytes = new Uint8Array(await melhor.arrayBuffer());
      let binario = '';
      for (let i = 0; i < bytes.length; i += 0x8000) binario += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      return btoa(binario);
    },
    { alvo, semente, largura, altura, qualidade },
  );
  return Buffer.from(base64, 'base64');
}

/** A one-page PDF holding `jpeg` (a scanned page), with a fixed date so the bytes repeat. */
export function pdfComImagem(jpeg: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', margin: 0, info: { CreationDate: new Date(0), Title: 'Comprovante digitalizado' } });
    const partes: Buffer[] = [];
    doc.on('data', (p: Buffer) => partes.push(p));
    doc.on('end', () => resolve(Buffer.concat(partes)));
    doc.on('error', reject);
    doc.image(jpeg, 0, 0, { fit: [595, 842] });
    doc.end();
  });
}
