/** The file a screen hands to the browser to download (a Blob through an <a download> click): its name and bytes. */
import { vi } from 'vitest';

export function capturarDownload(): { nome?: string; blob?: Blob } {
  const baixado: { nome?: string; blob?: Blob } = {};
  URL.createObjectURL = vi.fn((blob: Blob) => {
    baixado.blob = blob;
    return 'blob:teste';
  });
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    baixado.nome = this.download;
  });
  return baixado;
}

/** A CSV's text with its BOM kept (Blob.text() drops it). */
export async function textoComBom(blob: Blob): Promise<string> {
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(new Uint8Array(await blob.arrayBuffer()));
}

/** A file answered in parts the test sends when it wants (a streamed export): the Response and its controls. */
export function arquivoEmPartes(cabecalhos: Record<string, string>) {
  let controle!: ReadableStreamDefaultController<Uint8Array>;
  const corpo = new ReadableStream<Uint8Array>({
    start(c) {
      controle = c;
    },
  });
  return {
    resposta: new Response(corpo, { status: 200, headers: cabecalhos }),
    enviar: (bytes: number, valor = 7) => controle.enqueue(new Uint8Array(bytes).fill(valor)),
    fechar: () => controle.close(),
    falhar: () => controle.error(new TypeError('network error')),
  };
}
