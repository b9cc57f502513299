/**
 * 'Relatórios' (admin): filters that reload on change, the routes table with selection, cards that
 * expand at 700 px or less, the details modal, PDF/Excel/CSV exports of the selection or the filter,
 * and the trend charts of the filters' period (PainelTendencias).
 */
import { ChevronDown, ChevronUp, Eye, FileDown, FileSpreadsheet, FileText, RefreshCw } from 'lucide-react';
import { useMemo, useState } from 'react';
import { toast } from '../components/avisos';
import { dataNoFuso, formatarData } from '../../../shared/dates';
import { fusoDoApp } from '../config/configApp';
import { idDoEndereco, PARAMETROS_DAS_TELAS } from '../../../shared/enderecosDasTelas';
import { formatarReais } from '../../../shared/money';
import { totaisDoRelatorio } from '../../../shared/relatorios';
import type { LinhaRelatorioRota } from '../../../shared/schemas/relatorios';
import { ROTULO_FILTRO_STATUS_ROTA, ROTULO_STATUS_ROTA, STATUS_ROTA, type StatusRota } from '../../../shared/schemas/rotas';
import { Botao } from '../components/Botao';
import { FiltroData, FiltroSelecao } from '../components/CamposDeFiltro';
import { classeDoSaldo } from '../components/saldo';
import { SemConexao, useSemConexao } from '../components/SemConexao';
import { Selo } from '../components/Selo';
import { CelulaDupla } from '../components/TabelaDados';
import { useSelecaoVisivel, type SelecaoVisivel } from '../components/useSelecaoVisivel';
import { useLarguraMaxima } from '../components/useLarguraMaxima';
import { useParametroDoEndereco } from '../components/useParametroDoEndereco';
import { useFuncionariosComInativos } from '../usuarios/consultas';
import { ErroExportacao, exportarRelatorio, FILTROS_INICIAIS, useRelatorioRotas, type FiltrosRelatorio, type FormatoExportacao } from './consultas';
import { ExportarParaContador } from './ExportarParaContador';
import { ModalDetalhesRota } from './ModalDetalhesRota';
import { PainelTendencias } from './PainelTendencias';
import { contagem, plural } from '../../../shared/texto';

/** The spec's breakpoint for this page. */
const LARGURA_CARTOES = 700;

export function PaginaRelatorios() {
  const [filtros, setFiltros] = useState<FiltrosRelatorio>(FILTROS_INICIAIS);
  const relatorio = useRelatorioRotas(filtros);
  const { data: linhas = [], isLoading, isError, isFetching, refetch } = relatorio;
  const conexao = useSemConexao(relatorio);
  // Deactivated employees with routes too: their routes can still be reported and exported.
  const { data: funcionarios = [] } = useFuncionariosComInativos();
  // A route's address (/relatorios?rota=<id>, the audit trail's link) opens its details, whatever the table lists.
  const endereco = useParametroDoEndereco(PARAMETROS_DAS_TELAS.rota);
  const [detalhes, setDetalhes] = useState<number | null>(() => idDoEndereco(endereco.busca, PARAMETROS_DAS_TELAS.rota));
  const [exportando, setExportando] = useState<FormatoExportacao | null>(null);
  const cartoes = useLarguraMaxima(LARGURA_CARTOES);

  // Only what is on screen can be selected: a filter change drops selected routes it hides.
  const selecao = useSelecaoVisivel(useMemo(() => linhas.map((l) => l.rota_id), [linhas]));
  const selecionadasVisiveis = selecao.marcadas;
  const totais = useMemo(() => totaisDoRelatorio(linhas), [linhas]);

  function mudarFiltro<K extends keyof FiltrosRelatorio>(campo: K, valor: FiltrosRelatorio[K]) {
    setFiltros((f) => ({ ...f, [campo]: valor }));
  }

  async function exportar(formato: FormatoExportacao) {
    setExportando(formato);
    try {
      await exportarRelatorio(formato, filtros, selecionadasVisiveis);
    } catch (erro) {
      toast.error(erro instanceof ErroExportacao ? erro.message : 'Erro ao exportar relatório. Tente novamente.');
    } finally {
      setExportando(null);
    }
  }

  return (
    <div>
      <div className="pagina__topo">
        <div>
          <h1>Relatórios</h1>
          <p className="pagina__descricao">Vendas, despesas, créditos e saldo de cada rota, com o salário calculado nos detalhes.</p>
        </div>
        <div className="pagina__acoes">
          <Botao variante="outline" icone={<FileText size={17} />} onClick={() => void exportar('pdf')} carregando={exportando === 'pdf'} disabled={exportando !== null}>
            Exportar PDF
          </Botao>
          <Botao variante="outline" icone={<FileSpreadsheet size={17} />} onClick={() => void exportar('excel')} carregando={exportando === 'excel'} disabled={exportando !== null}>
            Exportar Excel
          </Botao>
          <Botao variante="outline" icone={<FileDown size={17} />} onClick={() => void exportar('csv')} carregando={exportando === 'csv'} disabled={exportando !== null}>
            Exportar CSV
          </Botao>
          <ExportarParaContador
            dataInicio={filtros.data_inicio}
            dataFim={filtros.data_fim}
            funcionarioId={filtros.funcionario_id}
            funcionarioNome={funcionarios.find((f) => String(f.id) === filtros.funcionario_id)?.nome ?? null}
          />
        </div>
      </div>

      <form
        className="cartao filtros"
        onSubmit={(e) => {
          e.preventDefault();
          void refetch();
        }}
      >
        <FiltroSelecao
          rotulo="Status"
          todos="Todas as rotas"
          valor={filtros.status}
          aoMudar={(v) => mudarFiltro('status', v)}
          opcoes={STATUS_ROTA.map((st) => ({ valor: st, rotulo: ROTULO_FILTRO_STATUS_ROTA[st] }))}
        />
        <FiltroSelecao rotulo="Funcionário" valor={filtros.funcionario_id} aoMudar={(v) => mudarFiltro('funcionario_id', v)} opcoes={funcionarios.map((f) => ({ valor: f.id, rotulo: f.ativo ? f.nome : `${f.nome} (inativo)` }))} />
        <FiltroData rotulo="Data inicial" valor={filtros.data_inicio} aoMudar={(v) => mudarFiltro('data_inicio', v)} />
        <FiltroData rotulo="Data final" valor={filtros.data_fim} aoMudar={(v) => mudarFiltro('data_fim', v)} />
        <div className="filtros__acao">
          <Botao type="submit" icone={<RefreshCw size={16} />} carregando={isFetching}>
            Filtrar
          </Botao>
        </div>
      </form>

      {selecionadasVisiveis.length > 0 && (
        <div className="alerta alerta--info faixa-selecao" role="status">
          <span>
            {contagem(selecionadasVisiveis.length, 'rota selecionada', 'rotas selecionadas')}: a exportação leva só{' '}
            {plural(selecionadasVisiveis.length, 'ela', 'elas')}.
          </span>
          <button type="button" className="link-botao" onClick={() => selecao.manter([])}>
            Limpar seleção
          </button>
        </div>
      )}

      {conexao.semConexao ? (
        <SemConexao conexao={conexao} />
      ) : (
      <section className="cartao">
        {isError ? (
          <div className="tabela__vazio" role="alert">
            Erro ao buscar relatório
          </div>
        ) : isLoading ? (
          <div className="tabela__vazio">Carregando...</div>
        ) : linhas.length === 0 ? (
          <div className="tabela__vazio">Nenhuma rota encontrada</div>
        ) : cartoes ? (
          <ListaCartoes linhas={linhas} selecao={selecao} abrir={setDetalhes} />
        ) : (
          <div className="tabela-rolagem">
            <table className="tabela tabela--compacta">
              <thead>
                <tr>
                  <th className="coluna-selecao">
                    <input
                      type="checkbox"
                      aria-label="Selecionar todas as rotas"
                      checked={selecao.todas}
                      onChange={selecao.alternarTodas}
                    />
                  </th>
                  {/* The employee goes under the route, the settlement under the status: eight columns beside the sidebar at 1280 px. */}
                  <th className="coluna-rota coluna-rota--larga">Rota e Funcionário</th>
                  <th>Status</th>
                  <th className="numero">Vendas</th>
                  <th className="numero">Despesas</th>
                  <th className="numero">Créditos</th>
                  <th className="numero" title="O saldo do funcionário agora: todas as rotas e os créditos sem rota">
                    Saldo Atual
                  </th>
                  <th>Detalhes</th>
                </tr>
              </thead>
              <tbody>
                {linhas.map((l) => (
                  <tr key={l.rota_id}>
                    <td className="coluna-selecao">
                      <input type="checkbox" aria-label={`Selecionar ${l.rota_nome}`} checked={selecao.marcada(l.rota_id)} onChange={() => selecao.alternar(l.rota_id)} />
                    </td>
                    <td className="coluna-rota coluna-rota--larga" title={`${formatarData(l.data_inicio)} a ${formatarData(l.data_fim)}`}>
                      <CelulaDupla principal={<strong>{l.rota_nome}</strong>} secundario={l.funcionario_nome} />
                    </td>
                    <td title="O acerto da rota: o que o funcionário devolve ou recebe (numa rota ativa, até agora)">
                      <CelulaDupla
                        principal={<SeloStatus status={l.status} />}
                        secundario={
                          <span className="acerto-da-linha">
                            {acertoDaLinha(l).rotulo}
                            {acertoDaLinha(l).valor && <span className="acerto-da-linha__valor">{acertoDaLinha(l).valor}</span>}
                          </span>
                        }
                      />
                    </td>
                    <td className="numero">{formatarReais(l.total_vendas)}</td>
                    <td className="numero">{formatarReais(l.total_despesas)}</td>
                    <td className="numero">{formatarReais(l.total_creditos)}</td>
                    <td className={['numero', classeDoSaldo(l.saldo_atual)].filter(Boolean).join(' ')}>
                      <CelulaDupla principal={formatarReais(l.saldo_atual)} secundario={notaDoSaldo(l)} />
                    </td>
                    <td>
                      <div className="acoes-linha">
                        <Botao tamanho="sm" variante="outline" icone={<Eye size={15} />} onClick={() => setDetalhes(l.rota_id)} aria-label={`Detalhes de ${l.rota_nome}`}>
                          Ver detalhes
                        </Botao>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <td />
                  <td colSpan={2}>
                    <strong>
                      Total ({contagem(linhas.length, 'rota', 'rotas')})
                    </strong>
                  </td>
                  <td className="numero">
                    <strong>{formatarReais(totais.vendas)}</strong>
                  </td>
                  <td className="numero">
                    <strong>{formatarReais(totais.despesas)}</strong>
                  </td>
                  <td className="numero">
                    <strong>{formatarReais(totais.creditos)}</strong>
                  </td>
                  <td colSpan={3} />
                </tr>
              </tfoot>
            </table>
          </div>
        )}
      </section>
      )}

      {/* Trend charts: the period and employee of the filters as charts (the last 30 days without dates). */}
      {!conexao.semConexao && (
        <PainelTendencias
          titulo="Tendências do período"
          filtros={{ data_inicio: filtros.data_inicio, data_fim: filtros.data_fim, usuario_id: filtros.funcionario_id }}
        />
      )}

      <ModalDetalhesRota
        rotaId={detalhes}
        aoFechar={() => {
          setDetalhes(null);
          if (endereco.valor !== null) endereco.esquecer();
        }}
      />
    </div>
  );
}

function SeloStatus({ status }: { status: StatusRota }) {
  return <Selo cor={status === 'ativa' ? 'verde' : status === 'cancelada' ? 'vermelho' : 'cinza'}>{ROTULO_STATUS_ROTA[status]}</Selo>;
}

function ListaCartoes({
  linhas,
  selecao,
  abrir,
}: {
  linhas: LinhaRelatorioRota[];
  selecao: SelecaoVisivel<number>;
  abrir: (id: number) => void;
}) {
  const [abertos, setAbertos] = useState<Set<number>>(new Set());
  return (
    <ul className="cartoes-linha">
      {linhas.map((l) => {
        const aberto = abertos.has(l.rota_id);
        return (
          <li key={l.rota_id} className="cartao-linha">
            <div className="cartao-relatorio__topo">
              <input type="checkbox" aria-label={`Selecionar ${l.rota_nome}`} checked={selecao.marcada(l.rota_id)} onChange={() => selecao.alternar(l.rota_id)} />
              <div className="cartao-relatorio__titulo">
                <strong>{l.rota_nome}</strong>
                <span className="campo__ajuda">{l.funcionario_nome}</span>
              </div>
              <SeloStatus status={l.status} />
              <button
                type="button"
                className="botao-icone"
                aria-expanded={aberto}
                aria-label={aberto ? `Recolher ${l.rota_nome}` : `Expandir ${l.rota_nome}`}
                onClick={() =>
                  setAbertos((s) => {
                    const n = new Set(s);
                    if (n.has(l.rota_id)) n.delete(l.rota_id);
                    else n.add(l.rota_id);
                    return n;
                  })
                }
              >
                {aberto ? <ChevronUp size={20} /> : <ChevronDown size={20} />}
              </button>
            </div>
            <div className="cartao-linha__campo">
              <span className="cartao-linha__rotulo">Vendas</span>
              <span className="cartao-linha__valor">{formatarReais(l.total_vendas)}</span>
            </div>
            {aberto && (
              <>
                <div className="cartao-linha__campo">
                  <span className="cartao-linha__rotulo">Período</span>
                  <span className="cartao-linha__valor">
                    {formatarData(l.data_inicio)} a {formatarData(l.data_fim)}
                  </span>
                </div>
                <div className="cartao-linha__campo">
                  <span className="cartao-linha__rotulo">Despesas</span>
                  <span className="cartao-linha__valor">{formatarReais(l.total_despesas)}</span>
                </div>
                <div className="cartao-linha__campo">
                  <span className="cartao-linha__rotulo">Créditos</span>
                  <span className="cartao-linha__valor">{formatarReais(l.total_creditos)}</span>
                </div>
                <div className="cartao-linha__campo">
                  <span className="cartao-linha__rotulo">Acerto da rota: {acertoDaLinha(l).rotulo.toLowerCase()}</span>
                  <span className="cartao-linha__valor">{acertoDaLinha(l).valor || '—'}</span>
                </div>
                <div className="cartao-linha__campo">
                  <span className="cartao-linha__rotulo">Saldo Atual do funcionário{notaDoSaldo(l) ? ` (${notaDoSaldo(l)})` : ''}</span>
                  <span className={['cartao-linha__valor', classeDoSaldo(l.saldo_atual)].filter(Boolean).join(' ')}>{formatarReais(l.saldo_atual)}</span>
                </div>
                <div className="cartao-linha__acoes">
                  <Botao tamanho="sm" variante="outline" icone={<Eye size={15} />} onClick={() => abrir(l.rota_id)}>
                    Detalhes
                  </Botao>
                </div>
              </>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** The route's settlement under its status: which way and how much is open, or when it was settled. */
function acertoDaLinha(l: LinhaRelatorioRota): { rotulo: string; valor: string } {
  if (l.acertada_em) return { rotulo: `Acertada em ${formatarData(dataNoFuso(new Date(l.acertada_em), fusoDoApp()))}`, valor: '' };
  if (l.a_devolver > 0) return { rotulo: 'A devolver', valor: formatarReais(l.a_devolver) };
  if (l.a_receber > 0) return { rotulo: 'A receber', valor: formatarReais(l.a_receber) };
  return { rotulo: 'Nada em aberto', valor: '' };
}

/** Saldo Atual is the employee's, not the route's: it names the credits given without a route, when there are any. */
function notaDoSaldo(l: LinhaRelatorioRota): string | undefined {
  return l.creditos_sem_rota > 0 ? `inclui ${formatarReais(l.creditos_sem_rota)} sem rota` : undefined;
}
