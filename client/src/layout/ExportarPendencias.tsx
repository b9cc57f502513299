/**
 * 'Exportar pendências': the queue (with receipts) saved into one file the person sends to the
 * office by WhatsApp, e-mail or cable when the phone cannot sync. Works offline. The queue is kept:
 * the phone still sends everything later, and the server knows each item by its id.
 * Shown in the sync panel (the session's owner) and on the login screen, with no session, once per
 * person with writes on the device (a deactivated employee cannot sign in any more).
 */
import { FileDown, Share2 } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Botao } from '../components/Botao';
import { fusoDoApp } from '../config/configApp';
import { operacoes } from '../offline';
import { bancoLocal } from '../offline/db';
import { arquivoParaCompartilhar, baixarArquivo, montarExportacao, resumoDaExportacao, type DonoExportacao } from '../offline/exportacao';

interface Exportado {
  resumo: string;
  nomeArquivo: string;
  ignorados: string[];
  blob: Blob;
  compartilhavel: File | null;
}

const TEXTO_PAINEL = (
  <>
    Salve os registros da fila, com os comprovantes, num arquivo e envie ao escritório por WhatsApp, e-mail ou cabo. Eles continuam neste aparelho e serão
    enviados quando a internet voltar, sem duplicar: o servidor reconhece cada registro.
  </>
);

export interface PropsExportarPendencias {
  /** Whose queue goes into the file (named in it: the import replays it as this employee). */
  dono: DonoExportacao;
  quantidade: number;
  /** The sync panel's words by default. */
  titulo?: ReactNode;
  texto?: ReactNode;
  /** The section's accessible name. */
  rotulo?: string;
}

export function ExportarPendencias({ dono, quantidade, titulo = 'Sem conseguir sincronizar?', texto = TEXTO_PAINEL, rotulo = 'Exportar pendências' }: PropsExportarPendencias) {
  const [exportando, setExportando] = useState(false);
  const [exportado, setExportado] = useState<Exportado | null>(null);
  const [erro, setErro] = useState<string | null>(null);

  async function exportar() {
    setExportando(true);
    setErro(null);
    try {
      const e = await montarExportacao(bancoLocal, operacoes, { id: dono.id, nome: dono.nome, email: dono.email }, { fuso: fusoDoApp() });
      const texto = JSON.stringify(e.conteudo);
      const blob = new Blob([texto], { type: 'application/json' });
      baixarArquivo(blob, e.nomeArquivo);
      setExportado({ resumo: resumoDaExportacao(e), nomeArquivo: e.nomeArquivo, ignorados: e.ignorados, blob, compartilhavel: arquivoParaCompartilhar(texto, e.nomeArquivo) });
    } catch (falha) {
      console.error('Erro ao exportar pendências:', falha);
      setErro('Não foi possível criar o arquivo. Verifique o espaço livre no aparelho e tente de novo.');
    } finally {
      setExportando(false);
    }
  }

  async function compartilhar(arquivo: File) {
    try {
      await navigator.share({ files: [arquivo], title: 'Pendências do Sistema de Gestão' });
    } catch (falha) {
      // The person closed the share sheet: nothing to say.
      if ((falha as { name?: string }).name !== 'AbortError') setErro('Não foi possível compartilhar. Use o arquivo baixado (pasta Downloads).');
    }
  }

  return (
    <section aria-label={rotulo} className="exportar-pendencias">
      <h3>{titulo}</h3>
      <p className="campo__ajuda">{texto}</p>
      <Botao variante="orange" icone={<FileDown size={18} />} onClick={() => void exportar()} carregando={exportando} disabled={quantidade === 0}>
        Exportar pendências
      </Botao>
      {erro && (
        <p className="campo__erro" role="alert">
          {erro}
        </p>
      )}
      {exportado && (
        <div className="exportar-pendencias__resultado" role="status">
          <strong>{exportado.resumo}.</strong>
          <span className="exportar-pendencias__arquivo">{exportado.nomeArquivo}</span>
          <span className="campo__ajuda">Salvo na pasta Downloads: envie este arquivo ao escritório.</span>
          {exportado.ignorados.length > 0 && (
            <p className="campo__erro">
              Fora do arquivo (feitos por outra versão do aplicativo): {exportado.ignorados.join('; ')}.
            </p>
          )}
          <div className="acoes-linha">
            {exportado.compartilhavel && (
              <Botao tamanho="sm" icone={<Share2 size={16} />} onClick={() => void compartilhar(exportado.compartilhavel!)}>
                Compartilhar arquivo
              </Botao>
            )}
            <Botao tamanho="sm" variante="outline" icone={<FileDown size={16} />} onClick={() => baixarArquivo(exportado.blob, exportado.nomeArquivo)}>
              Baixar de novo
            </Botao>
          </div>
        </div>
      )}
    </section>
  );
}
