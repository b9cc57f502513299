/**
 * The receipt viewer (spec: an image or an embedded PDF). A receipt already on the server comes
 * from its protected URL (the session cookie goes with <img>/<iframe>); one still waiting on this
 * device is shown from IndexedDB through a blob: URL.
 */
import { ChevronLeft, ChevronRight, ExternalLink, FileText } from 'lucide-react';
import { LARGURA_CELULAR, useLarguraMaxima } from '../components/useLarguraMaxima';
import { useEffect, useRef, useState } from 'react';
import { Botao } from '../components/Botao';
import { Carregando } from '../components/Carregando';
import { Modal } from '../components/Modal';
import { bancoLocal } from '../offline/db';
import { tipoDeVisualizacao } from './compressao';
import './visualizadorCupom.css';
import type { DespesaExibida } from './fila';

export interface CupomParaVer {
  url: string | null;
  /** Id in the outbox's files, for a receipt not yet sent. */
  arquivoLocal: string | null;
  mime: string | null;
  nome: string | null;
}

/**
 * Every receipt of a row to page through: the server's list (or its one receipt,
 * in a copy kept by an older version), then those still on this device.
 */
export function cuponsParaVer(d: Pick<DespesaExibida, 'cupons' | 'cupom_url' | 'cupom_mime' | 'cupom_nome' | 'cupomLocal' | 'cuponsLocais'>): CupomParaVer[] {
  const doServidor: CupomParaVer[] = d.cupons
    ? d.cupons.map((c) => ({ url: c.url, arquivoLocal: null, mime: c.mime, nome: c.nome }))
    : d.cupom_url
      ? [{ url: d.cupom_url, arquivoLocal: null, mime: d.cupom_mime, nome: d.cupom_nome }]
      : [];
  const locais: CupomParaVer[] = d.cuponsLocais
    ? d.cuponsLocais.map((c) => ({ url: null, arquivoLocal: c.id, mime: c.tipo, nome: c.nome }))
    : d.cupomLocal
      ? [{ url: null, arquivoLocal: d.cupomLocal, mime: d.cupom_mime, nome: d.cupom_nome }]
      : [];
  return [...doServidor, ...locais];
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

/**
 * Shows one receipt, or pages through an expense's receipts: '1 de 3' with
 * 'Anterior' and 'Próximo' (buttons with names, the position announced), and the arrow keys.
 */
export function VisualizadorCupom({ cupom: cupons, aoFechar, inicio = 0 }: { cupom: CupomParaVer | readonly CupomParaVer[] | null; aoFechar: () => void; inicio?: number }) {
  const lista: readonly CupomParaVer[] = cupons === null ? [] : Array.isArray(cupons) ? cupons : [cupons as CupomParaVer];
  const [escolha, setEscolha] = useState<{ de: unknown; indice: number }>({ de: cupons, indice: inicio });
  // A new list (another expense) starts at its `inicio`: the index belongs to the list it was chosen in.
  const indice = escolha.de === cupons ? Math.min(escolha.indice, Math.max(0, lista.length - 1)) : Math.min(inicio, Math.max(0, lista.length - 1));
  const irPara = (i: number) => setEscolha({ de: cupons, indice: (i + lista.length) % lista.length });
  const cupom = lista[indice] ?? null;
  const local = useUrlLocal(cupom?.arquivoLocal ?? null);
  const url = cupom?.arquivoLocal ? local.url : (cupom?.url ?? null);
  const tipo = tipoDeVisualizacao(cupom?.mime, cupom?.nome);
  // Phone browsers do not embed PDFs (Android's Chrome shows an empty frame): they open it instead.
  const celular = useLarguraMaxima(LARGURA_CELULAR);
  const [urlComFalha, setUrlComFalha] = useState<string | null>(null);
  return (
    <Modal
      aberto={cupom !== null}
      titulo={lista.length > 1 ? `Comprovantes (${lista.length})` : 'Cupom Fiscal'}
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
      {lista.length > 1 && (
        <nav
          className="visualizador__paginas"
          aria-label="Comprovantes da despesa"
          onKeyDown={(e) => {
            if (e.key === 'ArrowLeft') irPara(indice - 1);
            if (e.key === 'ArrowRight') irPara(indice + 1);
          }}
        >
          <Botao tamanho="sm" variante="outline" icone={<ChevronLeft size={16} />} onClick={() => irPara(indice - 1)} aria-label="Comprovante anterior">
            Anterior
          </Botao>
          <span className="visualizador__posicao" aria-live="polite">
            {indice + 1} de {lista.length}
            {cupom?.nome ? <span className="visualizador__nome"> · {cupom.nome}</span> : null}
          </span>
          <Botao tamanho="sm" variante="outline" icone={<ChevronRight size={16} />} onClick={() => irPara(indice + 1)} aria-label="Próximo comprovante">
            Próximo
          </Botao>
        </nav>
      )}
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
