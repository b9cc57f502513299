/**
 * The admin's bar over the expense list: how many rows are ticked and their total, and the
 * bulk actions. On the phone the cards have no header row, so 'Selecionar todas da página' lives here.
 */
import { Check, X } from 'lucide-react';
import { formatarReais, somarReais } from '../../../shared/money';
import { contagem } from '../../../shared/texto';
import { Botao } from '../components/Botao';
import type { SelecaoVisivel } from '../components/useSelecaoVisivel';
import type { DespesaExibida } from './fila';
import { CaixaTodas } from './ListaDespesas';

interface PropsBarra {
  selecao: SelecaoVisivel<string>;
  marcadas: DespesaExibida[];
  celular: boolean;
  aprovando: boolean;
  aoAprovar: () => void;
  aoRejeitar: () => void;
}

export function BarraAvaliacaoEmLote({ selecao, marcadas, celular, aprovando, aoAprovar, aoRejeitar }: PropsBarra) {
  if (!celular && !selecao.alguma) return null;
  return (
    <div className={`barra-lote${selecao.alguma ? ' barra-lote--ativa' : ''}`} role="region" aria-label="Ações em lote">
      {celular && <CaixaTodas selecao={selecao} comTexto />}
      {selecao.alguma && (
        <>
          <span className="barra-lote__contagem" role="status">
            {contagem(marcadas.length, 'despesa selecionada', 'despesas selecionadas')} · {formatarReais(somarReais(...marcadas.map((d) => d.valor)))}
          </span>
          <div className="barra-lote__acoes">
            <Botao tamanho="sm" variante="secondary" icone={<Check size={15} />} carregando={aprovando} onClick={aoAprovar}>
              Aprovar selecionadas
            </Botao>
            <Botao tamanho="sm" variante="danger" icone={<X size={15} />} disabled={aprovando} onClick={aoRejeitar}>
              Rejeitar selecionadas
            </Botao>
            <button type="button" className="link-botao" onClick={() => selecao.manter([])} disabled={aprovando}>
              Limpar seleção
            </button>
          </div>
        </>
      )}
    </div>
  );
}
