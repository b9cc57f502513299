/**
 * 'Exportar CSV' of an admin list that the server pages (Vendas, Despesas, Auditoria): asks the server
 * for the whole filtered set (GET <lista>/exportar with the list's filters), not the rows on screen, and
 * tells the progress beside the button.
 */
import { FileDown } from 'lucide-react';
import type { Parametros } from '../api/client';
import { Botao } from '../components/Botao';
import { ProgressoExportacao, useExportacao } from './useExportacao';

interface Props {
  /** The list's export endpoint, e.g. '/vendas/exportar'. */
  caminho: string;
  /** The list's filters as its GET takes them (without the page). */
  params: Parametros;
  /** The name when the server does not give one. */
  arquivo: string;
  desabilitado?: boolean;
}

export function BotaoExportarCsv({ caminho, params, arquivo, desabilitado }: Props) {
  const { estado, exportar, baixando } = useExportacao();
  return (
    <div className="exportar-csv">
      <Botao
        variante="outline"
        icone={<FileDown size={17} />}
        carregando={baixando}
        disabled={desabilitado}
        title="Exporta todos os registros dos filtros, não só a página"
        onClick={() => void exportar(caminho, { ...params, formato: 'csv' }, arquivo)}
      >
        Exportar CSV
      </Botao>
      <ProgressoExportacao estado={estado} />
    </div>
  );
}
