/**
 * 'Exportar para o contador' (Relatórios): the ZIP of a period for the accountant (GET
 * /api/exportacoes/contabil) with the page's period and employee. With both dates in the filters it
 * starts at once; otherwise it asks for the period, the month of today (APP_TZ) filled in. The
 * progress (bytes received, then 'Pronto') and any failure are told under the button.
 */
import { FolderDown } from 'lucide-react';
import { useState } from 'react';
import { hoje } from '../../../shared/dates';
import { DIAS_MAXIMOS_EXPORTACAO, nomeDoArquivoContabil, periodoDosFiltros, recusaDoPeriodo } from '../../../shared/exportacoes';
import { Botao } from '../components/Botao';
import { FiltroData } from '../components/CamposDeFiltro';
import { Modal } from '../components/Modal';
import { fusoDoApp } from '../config/configApp';
import { ProgressoExportacao, useExportacao } from '../exportacoes/useExportacao';

interface Props {
  dataInicio: string;
  dataFim: string;
  /** '' for everyone. */
  funcionarioId: string;
  funcionarioNome: string | null;
}

export function ExportarParaContador({ dataInicio, dataFim, funcionarioId, funcionarioNome }: Props) {
  const { estado, exportar, baixando } = useExportacao();
  const [periodo, setPeriodo] = useState<{ inicio: string; fim: string } | null>(null);
  const recusa = periodo && periodo.inicio && periodo.fim ? recusaDoPeriodo(periodo.inicio, periodo.fim) : null;

  function iniciar(inicio: string, fim: string) {
    void exportar('/exportacoes/contabil', { data_inicio: inicio, data_fim: fim, funcionario_id: funcionarioId }, nomeDoArquivoContabil(inicio, fim));
  }

  function clicar() {
    if (dataInicio && dataFim) iniciar(dataInicio, dataFim);
    else setPeriodo(periodoDosFiltros(dataInicio, dataFim, hoje(fusoDoApp())));
  }

  return (
    <div className="exportar-contador">
      <Botao icone={<FolderDown size={17} />} onClick={clicar} carregando={baixando}>
        Exportar para o contador
      </Botao>
      <ProgressoExportacao estado={estado} />
      <Modal
        aberto={periodo !== null}
        titulo="Exportar para o contador"
        tamanho="pequeno"
        aoFechar={() => setPeriodo(null)}
        rodape={
          <>
            <Botao variante="outline" onClick={() => setPeriodo(null)}>
              Cancelar
            </Botao>
            <Botao
              icone={<FolderDown size={17} />}
              disabled={!periodo?.inicio || !periodo.fim || recusa !== null}
              onClick={() => {
                if (!periodo) return;
                setPeriodo(null);
                iniciar(periodo.inicio, periodo.fim);
              }}
            >
              Exportar
            </Botao>
          </>
        }
      >
        <p className="pagina__descricao">
          Um arquivo ZIP com as despesas e as vendas do período (planilhas), o resumo em PDF por funcionário e rota, e os comprovantes. Até{' '}
          {DIAS_MAXIMOS_EXPORTACAO} dias de cada vez.
        </p>
        <div className="exportar-contador__datas">
          <FiltroData rotulo="Data inicial" valor={periodo?.inicio ?? ''} aoMudar={(v) => setPeriodo((p) => (p ? { ...p, inicio: v } : p))} />
          <FiltroData rotulo="Data final" valor={periodo?.fim ?? ''} aoMudar={(v) => setPeriodo((p) => (p ? { ...p, fim: v } : p))} />
        </div>
        <p className="exportar-contador__funcionario">Funcionário: {funcionarioNome ?? 'todos'}</p>
        {recusa && (
          <p className="progresso-exportacao progresso-exportacao--erro" role="alert">
            {recusa}
          </p>
        )}
      </Modal>
    </div>
  );
}
