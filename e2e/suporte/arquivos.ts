/** Small real receipt files for browser tests (a viewer must be able to open them). */
import type { BrowserContext, Page } from 'playwright-core';

/** A small valid one-page PDF, built here (offsets and all). */
export function pdfPequeno(): Buffer {
  const conteudo = 'BT /F1 20 Tf 40 120 Td (Pedagio - Cupom fiscal R$ 12,30) Tj ET';
  const objetos = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 420 240] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${conteudo.length} >>\nstream\n${conteudo}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let texto = '%PDF-1.4\n';
  const posicoes: number[] = [];
  objetos.forEach((o, i) => {
    posicoes.push(Buffer.byteLength(texto, 'latin1'));
    texto += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(texto, 'latin1');
  texto += `xref\n0 ${objetos.length + 1}\n0000000000 65535 f \n${posicoes.map((p) => `${String(p).padStart(10, '0')} 00000 n \n`).join('')}`;
  texto += `trailer\n<< /Size ${objetos.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(texto, 'latin1');
}

/** A small real JPEG (a receipt-like picture), drawn and encoded by the browser itself. */
export async function jpegPequeno(pagina: Page): Promise<Buffer> {
  const base64 = await pagina.evaluate(async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 320;
    canvas.height = 200;
    const ctx = canvas.getContext('2d')!;
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.fillStyle = '#111';
    ctx.font = 'bold 28px sans-serif';
    ctx.fillText('CUPOM FISCAL', 40, 110);
    const blob = await new Promise<Blob>((ok) => canvas.toBlob((b) => ok(b!), 'image/jpeg', 0.9));
    const bytes = new Uint8Array(await blob.arrayBuffer());
    let binario = '';
    for (const b of bytes) binario += String.fromCharCode(b);
    return btoa(binario);
  });
  return Buffer.from(base64, 'base64');
}

/**
 * Every receipt named `nome` reaches the real server with its first bytes mangled (as a proxy that
 * rewrites files on the way would), so the server refuses it by its own rule ('Tipo de arquivo não
 * aceito'). The phone checks a file's bytes when it is chosen, so a file the server refuses can no
 * longer be queued from the form; this is how a test still gets one to the server. Same length:
 * the multipart body stays well formed. Returns how many times it mangled that file.
 */
export async function estragarNoCaminho(pagina: Page | BrowserContext, nome: string): Promise<{ vezes: number }> {
  const contagem = { vezes: 0 };
  const marca = Buffer.from(`filename="${nome}"`, 'latin1');
  await pagina.route('**/api/sync/lote', async (rota) => {
    const corpo = rota.request().postDataBuffer();
    const onde = corpo ? corpo.indexOf(marca) : -1;
    if (!corpo || onde < 0) return rota.continue();
    const inicio = corpo.indexOf('\r\n\r\n', onde) + 4;
    const estragado = Buffer.from(corpo);
    estragado.write('XXXX', inicio, 'latin1');
    contagem.vezes += 1;
    return rota.continue({ postData: estragado });
  });
  return contagem;
}
