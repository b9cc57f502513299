/**
 * A bar chart the admin can look at and a screen reader can read: a <figure> named
 * by its <figcaption>, the canvas (role="img", drawn by uPlot in a chunk loaded on demand, see
 * GraficoUPlot.tsx), an HTML legend, and the same numbers as a table under 'Ver números'. The table
 * is drawn from the same data without uPlot, so it is there even before (or without) the canvas.
 */
import { useId } from 'react';
import { formatarCentavos } from '../../../../shared/money';
import { sobDemanda } from '../sobDemanda';
import type { DadosGrafico, SerieGrafico } from './tipos';
import './graficos.css';

export type { DadosGrafico, SerieGrafico } from './tipos';

const GraficoUPlot = sobDemanda(() => import('./GraficoUPlot').then((m) => m.GraficoUPlot), {
  espera: <div className="grafico__espera" />,
  alternativa: () => <p className="grafico__aviso">Não foi possível desenhar o gráfico agora; os números estão na tabela abaixo.</p>,
});

function formatoDa(serie: SerieGrafico, dados: DadosGrafico): 'dinheiro' | 'contagem' {
  return serie.formato ?? (serie.eixo === 'direita' ? 'contagem' : dados.formatoEixo);
}

function escrever(formato: 'dinheiro' | 'contagem', valor: number): string {
  return formato === 'dinheiro' ? formatarCentavos(valor) : valor.toLocaleString('pt-BR');
}

interface PropsGrafico {
  titulo: string;
  /** One sentence under the title (what is counted, the period). */
  descricao?: string;
  dados: DadosGrafico;
  /** Header of the table's first column ('Dia', 'Rota'...). */
  colunaCategoria: string;
  /** When set, the friendly message shown instead of an empty chart. */
  vazio?: string | null;
  /** A last row with the sum of each column. */
  totais?: boolean;
  /** Spans the whole row of a grid of charts (.graficos__grade). */
  largo?: boolean;
}

export function Grafico({ titulo, descricao, dados, colunaCategoria, vazio = null, totais = false, largo = false }: PropsGrafico) {
  const id = useId();
  const idTitulo = `${id}-titulo`;
  const formatos = dados.series.map((s) => formatoDa(s, dados));
  return (
    <figure className={largo ? 'cartao grafico grafico--largo' : 'cartao grafico'} aria-labelledby={idTitulo}>
      <figcaption className="grafico__cabecalho">
        <span id={idTitulo} className="grafico__titulo">
          {titulo}
        </span>
        {descricao && <span className="grafico__descricao">{descricao}</span>}
      </figcaption>
      {vazio !== null ? (
        <p className="grafico__vazio">{vazio}</p>
      ) : (
        <>
          <div role="img" aria-label={`${titulo}: gráfico de barras. Os números estão na tabela "Ver números".`} className="grafico__area">
            <GraficoUPlot dados={dados} />
          </div>
          <ul className="grafico__legenda" aria-label="Legenda">
            {dados.series.map((s) => (
              <li key={s.rotulo}>
                <span className={s.eixo === 'direita' ? 'grafico__amostra grafico__amostra--ponto' : 'grafico__amostra'} style={{ background: s.cor }} aria-hidden="true" />
                {s.rotulo}
                {s.eixo === 'direita' ? ' (eixo da direita)' : ''}
              </li>
            ))}
          </ul>
          <details className="grafico__numeros">
            <summary>Ver números</summary>
            <div className="tabela-rolagem">
              <table className="tabela tabela--compacta">
                <caption className="sr-only">{titulo}</caption>
                <thead>
                  <tr>
                    <th scope="col">{colunaCategoria}</th>
                    {dados.series.map((s) => (
                      <th scope="col" key={s.rotulo} className="numero">
                        {s.rotulo}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {dados.categorias.map((c, i) => (
                    <tr key={`${c}-${i}`}>
                      <th scope="row">{c}</th>
                      {dados.series.map((s, j) => (
                        <td key={s.rotulo} className="numero">
                          {escrever(formatos[j]!, s.valores[i] ?? 0)}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
                {totais && (
                  <tfoot>
                    <tr>
                      <th scope="row">Total</th>
                      {dados.series.map((s, j) => (
                        <td key={s.rotulo} className="numero">
                          {escrever(formatos[j]!, s.valores.reduce((a, b) => a + b, 0))}
                        </td>
                      ))}
                    </tr>
                  </tfoot>
                )}
              </table>
            </div>
          </details>
        </>
      )}
    </figure>
  );
}
