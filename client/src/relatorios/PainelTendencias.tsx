/**
 * 'Tendências': the admin's five trend charts, on the dashboard (the last 30 days)
 * and in Relatórios (the page's period and employee). Each chart is a figure with its name and its
 * numbers as a table; the canvas code (uPlot) loads on demand, only here.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { ErroApi } from '../api/client';
import { Grafico } from '../components/graficos/Grafico';
import { consultasRelatorios, type FiltrosTendencias } from './consultas';
import { graficosDasTendencias, textoDoPeriodo } from './tendencias';

export function PainelTendencias({ filtros = {}, titulo = 'Tendências' }: { filtros?: FiltrosTendencias; titulo?: string }) {
  const { data, isPending, isError, error } = useQuery(consultasRelatorios.tendencias(filtros));
  useEffect(() => {
    if (isError && !(error instanceof ErroApi && error.status === 400)) console.error('Erro ao carregar os gráficos:', error);
  }, [isError, error]);
  const graficos = useMemo(() => (data ? graficosDasTendencias(data) : []), [data]);

  return (
    <section className="graficos" aria-label={titulo}>
      <div className="graficos__topo">
        <h2>{titulo}</h2>
        {data && <span className="graficos__periodo">{textoDoPeriodo(data)}</span>}
      </div>
      {isError && error instanceof ErroApi && error.status === 400 ? (
        // A period the server refuses (Relatórios' dates backwards, over a year): its pt-BR reason.
        <div className="cartao grafico__aviso" role="alert">
          {error.message}
        </div>
      ) : isError ? (
        // Like the rest of the dashboard (spec section 8, 'Dashboard load failures'): said quietly, logged.
        <div className="cartao grafico__aviso">Os gráficos não puderam ser carregados agora.</div>
      ) : isPending ? (
        <div className="cartao grafico__aviso">Carregando gráficos...</div>
      ) : (
        <div className="graficos__grade">
          {graficos.map((g) => (
            <Grafico
              key={g.chave}
              titulo={g.titulo}
              descricao={g.descricao}
              dados={g.dados}
              colunaCategoria={g.colunaCategoria}
              vazio={g.vazio}
              totais={g.totais}
              largo={g.largo ?? false}
            />
          ))}
        </div>
      )}
    </section>
  );
}
