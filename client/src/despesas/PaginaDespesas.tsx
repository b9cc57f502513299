/**
 * 'Despesas' (spec section 2) for both roles. The employee sees the balance card (confirmed and
 * projected), registers expenses through the outbox (shown at once, offline too) and changes own
 * Pendente ones; the admin views everything read-only and approves or rejects.
 */
import { useQueryClient } from '@tanstack/react-query';
import { ChevronDown, Eye, EyeOff, Filter, Plus, WifiOff } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { toast } from '../components/avisos';
import { formatarDataHora } from '../../../shared/dates';
import { formatarReais } from '../../../shared/money';
import { PARAMETROS_DAS_TELAS } from '../../../shared/enderecosDasTelas';
import { DESPESAS_POR_PAGINA, ROTULO_STATUS_APROVACAO, ROTULO_TIPO_DESPESA, STATUS_APROVACAO, TIPOS_DESPESA, type TipoDespesa } from '../../../shared/schemas/despesas';
import type { Usuario } from '../../../shared/schemas/usuarios';
import { mensagemDeErro } from '../api/client';
import { useAuth } from '../auth/AuthProvider';
import { Botao } from '../components/Botao';
import { Carregando } from '../components/Carregando';
import { Confirmacao } from '../components/Confirmacao';
import { BotaoExportarCsv } from '../exportacoes/BotaoExportarCsv';
import { classeDoSaldo } from '../components/saldo';
import { SemConexao, useSemConexao } from '../components/SemConexao';
import { LARGURA_CELULAR, useLarguraMaxima } from '../components/useLarguraMaxima';
import { useParametroDoEndereco } from '../components/useParametroDoEndereco';
import { useSelecaoVisivel } from '../components/useSelecaoVisivel';
import { fusoDoApp } from '../config/configApp';
import { dadosDaCarga } from '../offline/cache';
import { useRotaAtivaDoFuncionario } from '../rotas/consultas';
import { useFuncionariosComSaldo, useSaldoProprio } from '../saldo/consultas';
import { podeAlterar, podeCorrigir } from './apresentacao';
import { resumirAvaliacao, useAvaliarDespesasEmLote, type Decisao } from './avaliacaoEmLote';
import { BarraAvaliacaoEmLote } from './BarraAvaliacaoEmLote';
import './despesas.css';
import {
  chavesDespesas,
  LISTA_VAZIA,
  parametrosDaExportacao,
  useAprovarDespesa,
  useDespesaDoEndereco,
  useFilaDeDespesas,
  useListaDespesas,
  useNovidadesDespesas,
  useRejeitarDespesa,
  useRotasDoFiltro,
  type FiltrosDespesas,
} from './consultas';
import { contarNaFila, mesclarDespesas, saldoProjetado, type DespesaExibida } from './fila';
import { CartoesDespesas, TabelaDespesas, type AcoesDespesa } from './ListaDespesas';
import { ModalDespesa } from './ModalDespesa';
import { ModalDetalhesDespesa } from './ModalDetalhesDespesa';
import { ModalRejeitar } from './ModalRejeitar';
import { NoticiasDespesas } from './NoticiasDespesas';
import { enfileirarExclusao, enviarAgora } from './operacoes';
import { lerRascunho, type RascunhoDespesa } from './rascunho';
import { cuponsParaVer, VisualizadorCupom, type CupomParaVer } from './VisualizadorCupom';

const FILTROS_INICIAIS: FiltrosDespesas = {
  funcionario_id: '',
  rota_id: '',
  status_rota: 'ativa',
  data_inicio: '',
  data_fim: '',
  tipo: '',
  status_aprovacao: '',
  acima_do_limite: false,
};

const CARTOES: { chave: 'geral' | TipoDespesa; rotulo: string }[] = [
  { chave: 'geral', rotulo: 'Total Geral' },
  { chave: 'alimentacao', rotulo: 'Alimentação' },
  { chave: 'hospedagem', rotulo: 'Hospedagem' },
  { chave: 'combustivel', rotulo: 'Combustível' },
  { chave: 'pedagio', rotulo: 'Pedágio' },
  { chave: 'aluguel_sala', rotulo: 'Aluguel de Sala' },
  { chave: 'outro', rotulo: 'Outros' },
];

type EstadoModal = { despesa: DespesaExibida | null; rascunho: RascunhoDespesa | null } | null;

export function PaginaDespesas() {
  const { usuario } = useAuth();
  if (!usuario) return null;
  return <Despesas usuario={usuario} />;
}

function Despesas({ usuario }: { usuario: Usuario }) {
  const admin = usuario.tipo === 'admin';
  const celular = useLarguraMaxima(LARGURA_CELULAR);
  const queryClient = useQueryClient();
  const [filtros, setFiltros] = useState<FiltrosDespesas>(admin ? FILTROS_INICIAIS : { ...FILTROS_INICIAIS, status_rota: '' });
  const [aplicados, setAplicados] = useState<FiltrosDespesas>(filtros);
  const [pagina, setPagina] = useState(1);
  // On the phone the list comes first: the totals are one tap away ('Mostrar Cards').
  const [cartoesVisiveis, setCartoesVisiveis] = useState(!celular);
  const [filtrosAbertos, setFiltrosAbertos] = useState(!celular);
  const [modal, setModal] = useState<EstadoModal>(null);
  const [detalhes, setDetalhes] = useState<DespesaExibida | null>(null);
  const [cupom, setCupom] = useState<CupomParaVer[] | null>(null);
  const [excluindo, setExcluindo] = useState<DespesaExibida | null>(null);
  const [rejeitando, setRejeitando] = useState<DespesaExibida | null>(null);
  const [rejeitandoMarcadas, setRejeitandoMarcadas] = useState(false);
  const [processandoExclusao, setProcessandoExclusao] = useState(false);

  const consulta = useListaDespesas(usuario, aplicados, pagina);
  const conexao = useSemConexao(consulta);
  // Admin screens are online only; the employee's list comes from the device when offline.
  const adminSemConexao = admin && conexao.semConexao;
  const rotaAtiva = useRotaAtivaDoFuncionario(usuario.id, !admin);
  const saldo = useSaldoProprio(usuario.id, !admin, { avisar: false });
  const fila = useFilaDeDespesas(usuario.id);
  useNovidadesDespesas(usuario.id, !admin);
  const aprovar = useAprovarDespesa();
  const rejeitar = useRejeitarDespesa();
  const emLote = useAvaliarDespesasEmLote();
  const funcionarios = useFuncionariosComSaldo(admin);
  const rotasFiltro = useRotasDoFiltro(filtros.funcionario_id, admin);

  // A form left half-filled (the camera or the file chooser unloaded the page) comes back.
  useEffect(() => {
    if (admin) return;
    let cancelado = false;
    void lerRascunho(usuario.id).then((r) => {
      if (!cancelado && r) setModal({ despesa: r.editando, rascunho: r });
    });
    return () => {
      cancelado = true;
    };
  }, [admin, usuario.id]);

  const resultado = consulta.data;
  // Admins see the server's list as it is; an employee's queued changes are laid over it.
  const lista = useMemo(() => mesclarDespesas(resultado?.lista ?? LISTA_VAZIA, admin ? [] : fila, aplicados, pagina), [admin, resultado, fila, aplicados, pagina]);

  // The sync panel's 'Editar' of a refused expense (/despesas?corrigir=<id>): open it once it is listed.
  const local = useLocation();
  const [pedidoTratado, setPedidoTratado] = useState<string | null>(null);
  const corrigir = admin ? null : new URLSearchParams(local.search).get('corrigir');
  const paraCorrigir = corrigir && pedidoTratado !== local.key ? lista.despesas.find((d) => d.id === corrigir) : undefined;
  if (paraCorrigir) {
    setPedidoTratado(local.key);
    setModal({ despesa: paraCorrigir, rascunho: null });
  }

  // One expense's address (/despesas?despesa=<id>: the audit trail's link, a news toast's 'Ver despesa'):
  // its details, whatever the list's filters show; closing them leaves the plain address. An employee's
  // expense in the list on screen opens from it (the device's view, also without signal).
  const endereco = useParametroDoEndereco(PARAMETROS_DAS_TELAS.despesa);
  const idDoEndereco = endereco.valor;
  const listadaNoEndereco = !admin && idDoEndereco ? lista.despesas.find((d) => d.id === idDoEndereco) : undefined;
  const doEndereco = useDespesaDoEndereco(idDoEndereco && !listadaNoEndereco && (admin || consulta.data) ? idDoEndereco : null);
  const [enderecoTratado, setEnderecoTratado] = useState<string | null>(null);
  if (idDoEndereco && (listadaNoEndereco || doEndereco.data) && enderecoTratado !== local.key) {
    setEnderecoTratado(local.key);
    setDetalhes(listadaNoEndereco ?? { ...doEndereco.data!, envio: null, cupomLocal: null });
  }
  const erroDoEndereco = idDoEndereco ? doEndereco.error : null;
  const { esquecer } = endereco;
  useEffect(() => {
    if (!erroDoEndereco) return;
    toast.error(mensagemDeErro(erroDoEndereco, 'Erro ao abrir a despesa.'));
    esquecer();
  }, [erroDoEndereco, esquecer]);
  const abertaPeloEndereco = idDoEndereco !== null && enderecoTratado === local.key;
  useEffect(() => {
    if (detalhes === null && abertaPeloEndereco) esquecer();
  }, [detalhes, abertaPeloEndereco, esquecer]);

  const totalPaginas = Math.max(1, Math.ceil(lista.total / DESPESAS_POR_PAGINA));
  // The admin ticks rows of the page on screen for bulk approval.
  const selecao = useSelecaoVisivel(useMemo(() => (admin ? lista.despesas.map((d) => d.id) : []), [admin, lista.despesas]));
  const marcadas = lista.despesas.filter((d) => selecao.marcada(d.id));
  const rota = dadosDaCarga(rotaAtiva.data) ?? null;
  // Offline with no copy on the device is not 'no active route': nothing is said about the route then.
  const semRotaAtiva = !admin && dadosDaCarga(rotaAtiva.data) === null;

  function filtrar() {
    setAplicados(filtros);
    setPagina(1);
  }

  function acoes(d: DespesaExibida): AcoesDespesa {
    const base: AcoesDespesa = {
      verDetalhes: setDetalhes,
      verCupom: (x) => setCupom(cuponsParaVer(x)),
    };
    if (admin) return { ...base, aprovar: (x) => void aprovarDespesa(x), rejeitar: setRejeitando };
    if (podeCorrigir(d, usuario, rota)) return { ...base, corrigir: (x) => setModal({ despesa: x, rascunho: null }) };
    if (!podeAlterar(d, usuario, rota)) return base;
    return { ...base, editar: (x) => setModal({ despesa: x, rascunho: null }), excluir: setExcluindo };
  }

  async function aprovarDespesa(d: DespesaExibida) {
    try {
      await aprovar.mutateAsync(d.id);
      toast.success('Despesa aprovada.');
      setDetalhes(null);
    } catch (erro) {
      toast.error(mensagemDeErro(erro, 'Erro ao aprovar despesa'));
    }
  }

  /** Evaluates the ticked rows; the ones that could not be stay ticked, and the toast says why. */
  async function avaliarMarcadas(decisao: Decisao, motivo?: string) {
    const r = await emLote.mutateAsync({ decisao, ids: selecao.marcadas, ...(motivo !== undefined ? { motivo } : {}) });
    const resumo = resumirAvaliacao(decisao, r);
    selecao.manter(resumo.naoAvaliadas);
    if (resumo.tudoCerto) toast.success(resumo.mensagem);
    else toast.error(resumo.mensagem);
  }

  async function aprovarMarcadas() {
    try {
      await avaliarMarcadas('aprovar');
    } catch (erro) {
      toast.error(mensagemDeErro(erro, 'Erro ao aprovar despesas'));
    }
  }

  async function confirmarExclusao() {
    if (!excluindo) return;
    setProcessandoExclusao(true);
    try {
      const item = await enfileirarExclusao(usuario.id, excluindo);
      const r = await enviarAgora(item.id);
      if (r.estado === 'recusado') toast.error(r.erro);
      else if (r.estado === 'enviado') toast.success('Despesa excluída com sucesso!');
      else toast.info('Exclusão guardada neste aparelho. Ela será enviada assim que houver conexão.');
    } catch (erro) {
      toast.error(mensagemDeErro(erro, 'Erro ao excluir despesa'));
    } finally {
      setProcessandoExclusao(false);
      setExcluindo(null);
      setDetalhes(null);
    }
  }

  const naFila = contarNaFila(fila);
  const confirmado = saldo.data?.dados.saldo_atual;
  const projetado = confirmado === undefined ? undefined : saldoProjetado(confirmado, fila);

  return (
    <div className="pagina-despesas">
      <div className="pagina__topo">
        <div>
          <h1>Despesas</h1>
          <p className="pagina__descricao">{admin ? 'Despesas de todas as rotas, com comprovantes e aprovação.' : 'Registre seus gastos da rota com o comprovante.'}</p>
        </div>
        <div className="pagina__acoes">
          {!admin && rota && (
            <Botao icone={<Plus size={18} />} onClick={() => setModal({ despesa: null, rascunho: null })}>
              Nova Despesa
            </Botao>
          )}
          <Botao variante="outline" icone={cartoesVisiveis ? <EyeOff size={17} /> : <Eye size={17} />} onClick={() => setCartoesVisiveis((v) => !v)}>
            {cartoesVisiveis ? 'Ocultar Cards' : 'Mostrar Cards'}
          </Botao>
          {/* Every expense of the applied filters, from the server: not just the page on screen. */}
          {admin && <BotaoExportarCsv caminho="/despesas/exportar" params={parametrosDaExportacao(aplicados)} arquivo="despesas.csv" desabilitado={adminSemConexao} />}
        </div>
      </div>

      {!admin && (
        <section className="cartao cartao-saldo" aria-label="Saldo Atual">
          <div className="cartao-saldo__titulo">Saldo Atual</div>
          <div className="cartao-saldo__linhas">
            <div className="cartao-saldo__linha">
              <span>Saldo confirmado</span>
              <strong className={confirmado === undefined ? '' : classeDoSaldo(confirmado)} data-testid="saldo-confirmado">
                {confirmado === undefined ? '...' : formatarReais(confirmado)}
              </strong>
            </div>
            <div className="cartao-saldo__linha">
              <span>Saldo projetado</span>
              <strong className={projetado === undefined ? '' : classeDoSaldo(projetado)} data-testid="saldo-projetado">
                {projetado === undefined ? '...' : formatarReais(projetado)}
              </strong>
            </div>
          </div>
          <p className="cartao-saldo__nota">
            {naFila > 0
              ? `Inclui ${naFila} ${naFila === 1 ? 'alteração aguardando' : 'alterações aguardando'} envio neste aparelho.`
              : 'Nada aguardando envio: o projetado é igual ao confirmado.'}
            {saldo.data?.origem === 'cache' && ` Confirmado em ${formatarDataHora(saldo.data.atualizadoEm, fusoDoApp())} (sem conexão).`}
          </p>
        </section>
      )}

      {!admin && (
        <NoticiasDespesas
          usuarioId={usuario.id}
          aoAbrir={(id) => {
            const d = lista.despesas.find((x) => x.id === id);
            if (d) setDetalhes(d);
            else toast.info('Esta despesa não está na página mostrada. Limpe os filtros para encontrá-la.');
          }}
          statusDe={(id) => lista.despesas.find((x) => x.id === id)?.status_aprovacao}
        />
      )}

      {semRotaAtiva && (
        <div className="alerta alerta--info" role="status">
          Nenhuma rota ativa no momento.
        </div>
      )}

      {adminSemConexao && <SemConexao conexao={conexao} />}

      {cartoesVisiveis && !adminSemConexao && (
        <div className="grade-totais" aria-label="Totais por tipo">
          {CARTOES.map((c) => (
            <div key={c.chave} className={`cartao cartao-total${c.chave === 'geral' ? ' cartao-total--geral' : ''}`}>
              <div className="cartao-total__rotulo">{c.rotulo}</div>
              <div className="cartao-total__valor">{resultado ? formatarReais(lista.totais[c.chave]) : '...'}</div>
            </div>
          ))}
        </div>
      )}

      {!adminSemConexao && (
      <section className="cartao filtros-despesas" aria-label="Filtros">
        {celular && (
          <button type="button" className="filtros-despesas__alternar" aria-expanded={filtrosAbertos} onClick={() => setFiltrosAbertos((a) => !a)}>
            <Filter size={17} aria-hidden="true" /> Filtros
            <ChevronDown size={18} aria-hidden="true" className={filtrosAbertos ? 'girado' : undefined} />
          </button>
        )}
        {(filtrosAbertos || !celular) && (
          <form
            className="filtros-despesas__campos"
            onSubmit={(e) => {
              e.preventDefault();
              filtrar();
            }}
          >
            {admin && (
              <>
                <label className="campo">
                  <span className="campo__rotulo">Funcionário</span>
                  <select className="selecao" value={filtros.funcionario_id} onChange={(e) => setFiltros((f) => ({ ...f, funcionario_id: e.target.value, rota_id: '' }))}>
                    <option value="">Todos</option>
                    {(funcionarios.data ?? []).map((f) => (
                      <option key={f.id} value={f.id}>
                        {f.nome}
                      </option>
                    ))}
                  </select>
                </label>
                <label className="campo">
                  <span className="campo__rotulo">Rota</span>
                  <select className="selecao" value={filtros.rota_id} onChange={(e) => setFiltros((f) => ({ ...f, rota_id: e.target.value }))}>
                    <option value="">Todas</option>
                    {(rotasFiltro.data ?? []).map((r) => (
                      <option key={r.id} value={r.id}>
                        {r.nome}
                      </option>
                    ))}
                  </select>
                </label>
                <label className="campo">
                  <span className="campo__rotulo">Status da Rota</span>
                  <select
                    className="selecao"
                    value={filtros.status_rota}
                    disabled={filtros.rota_id !== ''}
                    onChange={(e) => setFiltros((f) => ({ ...f, status_rota: e.target.value as FiltrosDespesas['status_rota'] }))}
                  >
                    <option value="">Todas</option>
                    <option value="ativa">Ativas</option>
                    <option value="finalizada">Finalizadas</option>
                  </select>
                </label>
                <label className="campo">
                  <span className="campo__rotulo">Status</span>
                  <select className="selecao" value={filtros.status_aprovacao} onChange={(e) => setFiltros((f) => ({ ...f, status_aprovacao: e.target.value as FiltrosDespesas['status_aprovacao'] }))}>
                    <option value="">Todos</option>
                    {STATUS_APROVACAO.map((s) => (
                      <option key={s} value={s}>
                        {ROTULO_STATUS_APROVACAO[s]}
                      </option>
                    ))}
                  </select>
                </label>
              </>
            )}
            <label className="campo">
              <span className="campo__rotulo">Data Início</span>
              <input className="entrada" type="date" value={filtros.data_inicio} onChange={(e) => setFiltros((f) => ({ ...f, data_inicio: e.target.value }))} />
            </label>
            <label className="campo">
              <span className="campo__rotulo">Data Fim</span>
              <input className="entrada" type="date" value={filtros.data_fim} onChange={(e) => setFiltros((f) => ({ ...f, data_fim: e.target.value }))} />
            </label>
            <label className="campo">
              <span className="campo__rotulo">Tipo</span>
              <select className="selecao" value={filtros.tipo} onChange={(e) => setFiltros((f) => ({ ...f, tipo: e.target.value as FiltrosDespesas['tipo'] }))}>
                <option value="">Todos</option>
                {TIPOS_DESPESA.map((t) => (
                  <option key={t} value={t}>
                    {ROTULO_TIPO_DESPESA[t]}
                  </option>
                ))}
              </select>
            </label>
            {admin && (
              <label className="caixa-marcar filtros-despesas__limite">
                <input type="checkbox" checked={filtros.acima_do_limite ?? false} onChange={(e) => setFiltros((f) => ({ ...f, acima_do_limite: e.target.checked }))} />
                Só acima do limite diário
              </label>
            )}
            <div className="filtros-despesas__botao">
              <Botao type="submit" variante="secondary" icone={<Filter size={16} />}>
                Filtrar
              </Botao>
            </div>
          </form>
        )}
      </section>
      )}

      {!adminSemConexao && (
      <section className="cartao lista-despesas" aria-label="Despesas registradas">
        {resultado?.origem === 'cache' && (
          <div className="aviso-cache">
            <WifiOff size={16} aria-hidden="true" /> Sem conexão: mostrando a lista guardada em {formatarDataHora(resultado.atualizadoEm, fusoDoApp())}.
          </div>
        )}
        {resultado?.origem === 'falha' && !admin && (
          <div className="aviso-cache">
            <WifiOff size={16} aria-hidden="true" /> Não foi possível carregar a lista agora. Ela aparece quando a conexão voltar.
          </div>
        )}
        {admin && lista.despesas.length > 0 && (
          <BarraAvaliacaoEmLote
            selecao={selecao}
            marcadas={marcadas}
            celular={celular}
            aprovando={emLote.isPending}
            aoAprovar={() => void aprovarMarcadas()}
            aoRejeitar={() => setRejeitandoMarcadas(true)}
          />
        )}
        {consulta.isLoading ? (
          <Carregando texto="Carregando despesas..." />
        ) : lista.despesas.length === 0 ? (
          <div className="tabela__vazio">Nenhuma despesa encontrada.</div>
        ) : celular ? (
          <CartoesDespesas despesas={lista.despesas} acoes={acoes} admin={admin} {...(admin ? { selecao } : {})} />
        ) : (
          <TabelaDespesas despesas={lista.despesas} acoes={acoes} admin={admin} {...(admin ? { selecao } : {})} />
        )}
        {(pagina > 1 || lista.total > DESPESAS_POR_PAGINA) && (
          <nav className="paginacao" aria-label="Paginação">
            <Botao variante="outline" tamanho="sm" onClick={() => setPagina((p) => p - 1)} disabled={pagina <= 1}>
              Anterior
            </Botao>
            <span>
              Página {pagina} de {totalPaginas}
            </span>
            <Botao variante="outline" tamanho="sm" onClick={() => setPagina((p) => p + 1)} disabled={pagina >= totalPaginas}>
              Próxima
            </Botao>
          </nav>
        )}
      </section>
      )}

      {modal && rota && (
        <ModalDespesa
          usuario={usuario}
          rota={rota}
          despesa={modal.despesa}
          rascunho={modal.rascunho}
          aoFechar={() => {
            setModal(null);
            setDetalhes(null);
            void queryClient.invalidateQueries({ queryKey: chavesDespesas.todos });
          }}
        />
      )}

      <ModalDetalhesDespesa
        despesa={detalhes}
        aoFechar={() => setDetalhes(null)}
        aoVerCupom={(x) => setCupom(cuponsParaVer(x))}
        aprovando={aprovar.isPending}
        admin={admin}
        {...(admin ? { aoAprovar: (x: DespesaExibida) => void aprovarDespesa(x), aoRejeitar: setRejeitando } : {})}
        {...(detalhes && podeAlterar(detalhes, usuario, rota)
          ? {
              aoEditar: (x: DespesaExibida) => {
                setDetalhes(null);
                setModal({ despesa: x, rascunho: null });
              },
              aoExcluir: setExcluindo,
            }
          : {})}
        {...(detalhes && podeCorrigir(detalhes, usuario, rota)
          ? {
              aoCorrigir: (x: DespesaExibida) => {
                setDetalhes(null);
                setModal({ despesa: x, rascunho: null });
              },
            }
          : {})}
      />

      <VisualizadorCupom cupom={cupom} aoFechar={() => setCupom(null)} />

      <ModalRejeitar
        despesas={rejeitando ? [rejeitando] : rejeitandoMarcadas ? marcadas : null}
        aoFechar={() => {
          setRejeitando(null);
          setRejeitandoMarcadas(false);
        }}
        aoRejeitar={async (motivo) => {
          if (!rejeitando) return avaliarMarcadas('rejeitar', motivo);
          await rejeitar.mutateAsync({ id: rejeitando.id, motivo });
          toast.success('Despesa rejeitada.');
          setDetalhes(null);
        }}
      />

      <Confirmacao
        aberto={excluindo !== null}
        titulo="Excluir despesa"
        mensagem="Tem certeza que deseja excluir esta despesa?"
        textoConfirmar="Excluir"
        textoCancelar="Cancelar"
        varianteConfirmar="danger"
        processando={processandoExclusao}
        aoConfirmar={() => void confirmarExclusao()}
        aoCancelar={() => setExcluindo(null)}
      />
    </div>
  );
}
