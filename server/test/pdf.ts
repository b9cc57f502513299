/** Reading a PDF the server made back as text (pdfjs, the library browsers use to render PDFs), for tests. */

/** The text of every page, joined (pdfjs, the library browsers use to render PDFs). */
export async function textoDoPdf(bytes: Buffer): Promise<string> {
  return (await paginasDoPdf(bytes)).join('\n');
}

/** The text of each page. */
export async function paginasDoPdf(bytes: Buffer): Promise<string[]> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const documento = await pdfjs.getDocument({
    data: new Uint8Array(bytes),
    useSystemFonts: false,
    isEvalSupported: false,
    standardFontDataUrl: `${process.cwd()}/node_modules/pdfjs-dist/standard_fonts/`,
  }).promise;
  const partes: string[] = [];
  for (let i = 1; i <= documento.numPages; i++) {
    const pagina = await documento.getPage(i);
    const conteudo = await pagina.getTextContent();
    partes.push(conteudo.items.map((item) => ('str' in item ? item.str : '')).join(' ').replace(/\s+/g, ' '));
  }
  return partes;
}
