/**
 * The receipt viewer (spec: an image or an embedded PDF). A receipt already on the server comes
 * from its protected URL (the session cookie goes with <img>/<iframe>); one still waiting on this
 * device is shown from IndexedDB through a blob: URL.
 */
import { ExternalLink, FileText } from 'lucide-react';
import { LARGURA_CELULAR, useLarguraMaxima } from '../components/useLarguraMaxima';
import { useEffect, useRef, useState } from 'react';
import { Botao } from '../components/Botao';
import { Carregando } from '../components/Carregando';
import { Modal } from '../components/Modal';
import { bancoLocal } from '../offline/db';
import { tipoDeVisualizacao } from './compressao';

export interface CupomParaVer {
  url: string | null;
  /** Id in the outbox's files, for a receipt not yet sent. */
  arquivoLocal: string | null;
  mime: string | null;
  nome: string | null;
}

/**
 * A blob: URL for bytes (read by `ler`, async), revoked when no longer shown. The URL is set from
 * the promise: it is an external resource with a lifetime, not state derived during render.
 */
function useUrlDeBlob(chave: unknown, ler: () => Promise<Blob | null>): { url: string | null; carregando: boolean } {
  const [estado, setEstado] = useState<{ chave: unknown; url: string | null }>({ chave: null, url: null });
  const lerAtual = useRef(ler);
  useEffect(() => {
    lerAtual.current = ler;
  });
  useEffect(() => {
    if (chave === null) return;
    let url: string | null = null;
    let cancelado = false;
    void lerAtual.current().then((blob) => {
      if (cancelado) return;
      url = blob ? URL.createObjectURL(blob) : null;
      setEstado({ chave, url });
    });
    return () => {
      cancelado = true;
      if (url) URL.revokeObjectURL(url);
    };
  }, [chave]);
  if (chave === null) return { url: null, carregando: false };
  return { url: estado.chave === chave ? estado.url : null, carregando: estado.chave !== chave };
}

/** A receipt kept on the device (the outbox's files), shown through a blob: URL. */
export function useUrlLocal(arquivoId: string | null): { url: string | null; carregando: boolean } {
  return useUrlDeBlob(arquivoId, async () => {
    const a = arquivoId ? await bancoLocal.arquivos.get(arquivoId) : undefined;
    return a ? new Blob([a.conteudo], { type: a.tipo }) : null;
  });
}

/** Bytes the form holds (a file just chosen), shown through a blob: URL. */
export function useUrlDeBytes(arquivo: { conteudo: ArrayBuffer; tipo: string } | null): string | null {
  return useUrlDeBlob(arquivo, async () => (arquivo ? new Blob([arquivo.conteudo], { type: arquivo.tipo }) : null)).url;
}

export function VisualizadorCupom({ cupom, aoFechar }: { cupom: CupomParaVer | null; aoFechar: () => void }) {
  const local = useUrlLocal(cupom?.arquivoLocal ?? null);
  const url = cupom?.arquivoLocal ? local.url : (cupom?.url ?? null);
  const tipo = tipoDeVisualizacao(cupom?.mime, cupom?.nome);
  // Phone browsers do not embed PDFs (Android's Chrome shows an empty frame): they open it instead.
  const celular = useLarguraMaxima(LARGURA_CELULAR);
  const [urlComFalha, setUrlComFalha] = useState<string | null>(null);
  return (
    <Modal
      aberto={cupom !== null}
      titulo="Cupom Fiscal"
      aoFechar={aoFechar}
      tamanho="grande"
      rodape={
        <>
          {url && !(celular && tipo === 'pdf') && (
            <a className="botao botao--outline" href={url} target="_blank" rel="noopener" download={tipo === 'outro' ? (cupom?.nome ?? true) : undefined}>
              <ExternalLink size={16} />
              {tipo === 'outro' ? 'Baixar arquivo' : 'Abrir em nova aba'}
            </a>
          )}
          <Botao onClick={aoFechar}>Fechar</Botao>
        </>
      }
    >
      {cupom?.arquivoLocal && (
        <p className="alerta alerta--aviso">Este comprovante ainda está só neste aparelho: ele será enviado junto com a despesa.</p>
      )}
      {local.carregando ? (
        <Carregando texto="Abrindo o comprovante..." />
      ) : !url ? (
        <p className="tabela__vazio">O comprovante não está disponível neste aparelho.</p>
      ) : tipo === 'imagem' && urlComFalha === url ? (
        <p className="tabela__vazio">Não foi possível abrir o comprovante. Sem conexão, ele abre quando a internet voltar.</p>
      ) : tipo === 'imagem' ? (
        <div className="visualizador">
          <img className="visualizador__imagem" src={url} alt={`Cupom fiscal${cupom?.nome ? `: ${cupom.nome}` : ''}`} onError={() => setUrlComFalha(url)} />
        </div>
      ) : tipo === 'pdf' && !celular ? (
        <iframe className="visualizador__pdf" src={url} title="Cupom fiscal em PDF" />
      ) : tipo === 'pdf' ? (
        <div className="visualizador visualizador--arquivo">
          <FileText size={40} aria-hidden="true" />
          <p>
            <strong>{cupom?.nome ?? 'Cupom fiscal em PDF'}</strong>
          </p>
          <a className="botao botao--primary botao--lg" href={url} target="_blank" rel="noopener">
            <ExternalLink size={18} aria-hidden="true" /> Abrir PDF
          </a>
        </div>
      ) : (
        <div className="visualizador visualizador--arquivo">
          <FileText size={40} aria-hidden="true" />
          <p>
            <strong>{cupom?.nome ?? 'Comprovante'}</strong>
          </p>
          <p className="campo__ajuda">Este tipo de arquivo não pode ser exibido aqui. Use "Baixar arquivo" para abri-lo.</p>
        </div>
      )}
    </Modal>
  );
}
