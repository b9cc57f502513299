/** A receipt, larger: the image itself or the PDF embedded (the browser's viewer), with a link to open it. */
import { ExternalLink } from 'lucide-react';
import { Modal } from './Modal';

export function ehPdf(mime: string | null | undefined, url: string): boolean {
  return mime ? mime === 'application/pdf' : /\.pdf($|\?)/i.test(url);
}

export function VisualizadorCupom({ url, mime, titulo = 'Cupom Fiscal', aoFechar }: { url: string | null; mime?: string | null; titulo?: string; aoFechar: () => void }) {
  return (
    <Modal aberto={url !== null} titulo={titulo} aoFechar={aoFechar} tamanho="grande">
      {url && (
        <div className="visualizador-cupom">
          {ehPdf(mime, url) ? (
            <iframe src={url} title={titulo} className="visualizador-cupom__pdf" />
          ) : (
            <img src={url} alt={titulo} className="visualizador-cupom__imagem" />
          )}
          <a href={url} target="_blank" rel="noreferrer" className="botao botao--outline botao--sm">
            <ExternalLink size={15} /> Abrir em nova aba
          </a>
        </div>
      )}
    </Modal>
  );
}
