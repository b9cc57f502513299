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
