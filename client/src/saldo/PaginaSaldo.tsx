/**
 * 'Saldo dos Funcionários' (admin, spec section 2): Adicionar Saldo and Atualizar, the three cards,
 * and the tabs Saldos dos Funcionários / Histórico de Movimentações / Relatório.
 */
import { useQueryClient } from '@tanstack/react-query';
import { ArrowDownCircle, ArrowUpCircle, Plus, RefreshCw, RotateCcw, Users, Wallet } from 'lucide-react';
import { useState } from 'react';
import { formatarDataHora } from '../../../shared/dates';
import { idDoEndereco, PARAMETROS_DAS_TELAS } from '../../../shared/enderecosDasTelas';
import { formatarReais } from '../../../shared/money';
import { ROTULO_TIPO_MOVIMENTACAO, type Movimentacao, type RelatorioSaldoLinha, type SaldoFuncionario, type TipoMovimentacao } from '../../../shared/schemas/saldo';
import { useAuth } from '../auth/AuthProvider';
import { Abas } from '../components/Abas';
import { classeDoSaldo } from '../components/saldo';
import { Botao } from '../components/Botao';
import { NomeComSituacao, textoComSituacao } from '../components/NomeComSituacao';
import { SemConexao, useSemConexao } from '../components/SemConexao';
import { Selo, type CorSelo } from '../components/Selo';
import { CelulaDupla, TabelaDados, type Coluna } from '../components/TabelaDados';
import { useParametroDoEndereco } from '../components/useParametroDoEndereco';
import { fusoDoApp } from '../config/configApp';
import { chavesSaldo, LIMITE_HISTORICO, useMovimentacoes, useRelatorioSaldo, useResumoAdmin, useSaldos } from './consultas';
import { ModalMovimentacaoSaldo } from './ModalMovimentacaoSaldo';

type AbaSaldo = 'saldos' | 'historico' | 'relatorio';

const COR_TIPO: Record<TipoMovimentacao, CorSelo> = { credito: 'verde', debito: 'laranja', devolucao: 'azul', acerto: 'cinza' };

/** Spec: Todos, Crédito, Devolução; Débito (expenses write debits) and Acerto (a route's settlement) added. */
const FILTROS_HISTORICO: { valor: TipoMovimentacao | ''; rotulo: string }[] = [
  { valor: '', rotulo: 'Todos' },
  { valor: 'credito', rotulo: 'Crédito' },
  { valor: 'debito', rotulo: 'Débito' },
  { valor: 'devolucao', rotulo: 'Devolução' },
  { valor: 'acerto', rotulo: 'Acerto' },
];

/** Red below zero, green above, no colour at zero (classeDoSaldo). */
export function ValorSaldo({ valor }: { valor: number }) {
  return <span className={classeDoSaldo(valor)}>{formatarReais(valor)}</span>;
}

export function PaginaSaldo() {
  const { usuario } = useAuth();
  if (usuario?.tipo !== 'admin') {
    return (
      <div className="cartao acesso-negado" role="alert">
        <h1>Acesso Negado</h1>
        <p>Você não tem permissão para acessar esta página.</p>
      </div>
    );
  }
  return <SaldoDosFuncionarios />;
}

function SaldoDosFuncionarios() {
  const queryClient = useQueryClient();
  // An employee's address (/saldo?funcionario=<id>, the audit trail's link to a credit): their movements only.
  const endereco = useParametroDoEndereco(PARAMETROS_DAS_TELAS.funcionario);
  const funcionarioId = idDoEndereco(endereco.busca, PARAMETROS_DAS_TELAS.funcionario);
  const [aba, setAba] = useState<AbaSaldo>(funcionarioId !== null ? 'historico' : 'saldos');
  const [tipo, setTipo] = useState<TipoMovimentacao | ''>('');
  const [modalAberto, setModalAberto] = useState(false);
  const saldos = useSaldos();
  const resumo = useResumoAdmin();
  const movimentacoes = useMovimentacoes(tipo, funcionarioId);
  const relatorio = useRelatorioSaldo();
  const fuso = fusoDoApp();
  const atualizando = saldos.isFetching || resumo.isFetching || movimentacoes.isFetching || relatorio.isFetching;
  const conexao = useSemConexao(saldos, resumo, movimentacoes, relatorio);
  const erroDados = !conexao.semConexao && (saldos.isError || resumo.isError || movimentacoes.isError);

  const colunasSaldos: Coluna<SaldoFuncionario>[] = [
    // A deactivated employee stays while the balance is not zero, marked 'Inativo'.
    {
      chave: 'funcionario_nome',
      titulo: 'Funcionário',
      render: (s) => <NomeComSituacao nome={s.funcionario_nome} ativo={s.funcionario_ativo} />,
      textoBusca: (s) => textoComSituacao(s.funcionario_nome, s.funcionario_ativo),
      csv: (s) => s.funcionario_nome,
    },
    { chave: 'funcionario_email', titulo: 'Email' },
    { chave: 'saldo_atual', titulo: 'Saldo Atual', numerica: true, render: (s) => <ValorSaldo valor={s.saldo_atual} />, textoBusca: (s) => formatarReais(s.saldo_atual) },
    {
      chave: 'data_ultima_atualizacao',
      titulo: 'Última Atualização',
      render: (s) => (s.data_ultima_atualizacao ? formatarDataHora(s.data_ultima_atualizacao, fuso) : 'Sem movimentações'),
      textoBusca: (s) => formatarDataHora(s.data_ultima_atualizacao, fuso),
    },
  ];

  const colunasHistorico: Coluna<Movimentacao>[] = [
    {
      chave: 'data_movimentacao',
      titulo: 'Data',
      // Date over time: nine columns share the screen.
      render: (m) => {
        const [dia, hora] = formatarDataHora(m.data_movimentacao, fuso).split(' ');
        return (
          <span className="data-hora">
            <span>{dia}</span> <span className="data-hora__hora">{hora}</span>
          </span>
        );
      },
      textoBusca: (m) => formatarDataHora(m.data_movimentacao, fuso),
    },
    { chave: 'funcionario_nome', titulo: 'Funcionário', so: 'celular' },
    // On the computer the route goes under the employee: nine columns beside the sidebar at 1280 px.
    {
      chave: 'funcionario_rota',
      titulo: 'Funcionário e Rota',
      so: 'computador',
      classe: 'coluna-rota',
      render: (m) => <CelulaDupla principal={m.funcionario_nome} secundario={m.rota_nome ?? 'Sem rota específica'} />,
      textoBusca: (m) => `${m.funcionario_nome} ${m.rota_nome ?? ''}`,
      csv: false,
    },
    {
      chave: 'tipo',
      titulo: 'Tipo',
      render: (m) => <Selo cor={COR_TIPO[m.tipo]}>{ROTULO_TIPO_MOVIMENTACAO[m.tipo]}</Selo>,
      textoBusca: (m) => ROTULO_TIPO_MOVIMENTACAO[m.tipo],
    },
    { chave: 'valor', titulo: 'Valor', numerica: true, render: (m) => formatarReais(m.valor), textoBusca: (m) => formatarReais(m.valor) },
    { chave: 'saldo_anterior', titulo: 'Saldo Anterior', numerica: true, render: (m) => formatarReais(m.saldo_anterior), textoBusca: (m) => formatarReais(m.saldo_anterior) },
    { chave: 'saldo_novo', titulo: 'Saldo Novo', numerica: true, render: (m) => <ValorSaldo valor={m.saldo_novo} />, textoBusca: (m) => formatarReais(m.saldo_novo) },
    { chave: 'descricao', titulo: 'Descrição' },
    { chave: 'admin_nome', titulo: 'Admin', render: (m) => m.admin_nome ?? '—' },
    { chave: 'rota_nome', titulo: 'Rota', so: 'celular', render: (m) => m.rota_nome ?? '—' },
  ];

  const colunasRelatorio: Coluna<RelatorioSaldoLinha>[] = [
    {
      chave: 'funcionario_nome',
      titulo: 'Funcionário',
      render: (l) => <NomeComSituacao nome={l.funcionario_nome} ativo={l.funcionario_ativo} />,
      textoBusca: (l) => textoComSituacao(l.funcionario_nome, l.funcionario_ativo),
      csv: (l) => l.funcionario_nome,
    },
    { chave: 'rota_nome', titulo: 'Rota', render: (l) => l.rota_nome ?? 'Sem rota específica', textoBusca: (l) => l.rota_nome ?? 'Sem rota específica' },
    { chave: 'total_creditado', titulo: 'Total Creditado', numerica: true, render: (l) => formatarReais(l.total_creditado), textoBusca: (l) => formatarReais(l.total_creditado) },
    { chave: 'total_gasto', titulo: 'Total Gasto', numerica: true, render: (l) => formatarReais(l.total_gasto), textoBusca: (l) => formatarReais(l.total_gasto) },
  ];

  const historico = movimentacoes.data?.movimentacoes ?? [];
  const nomeDoFuncionario =
    funcionarioId === null
      ? null
      : (saldos.data?.find((s) => s.funcionario_id === funcionarioId)?.funcionario_nome ?? historico.find((m) => m.funcionario_id === funcionarioId)?.funcionario_nome ?? `#${funcionarioId}`);
  const ocultas = (movimentacoes.data?.total ?? 0) - historico.length;

  return (
    <div>
      <div className="pagina__topo">
        <div>
          <h1>Saldo dos Funcionários</h1>
          <p className="pagina__descricao">Envie saldo para a equipe e acompanhe cada movimentação.</p>
        </div>
        <div className="pagina__acoes">
          <Botao icone={<Plus size={18} />} variante="secondary" onClick={() => setModalAberto(true)}>
            Adicionar Saldo
          </Botao>
          <Botao icone={<RefreshCw size={17} />} variante="outline" carregando={atualizando} onClick={() => void queryClient.invalidateQueries({ queryKey: chavesSaldo.todos })}>
            Atualizar
          </Botao>
        </div>
      </div>

      {erroDados && (
        <div className="alerta alerta--erro" role="alert">
          Erro ao carregar dados
        </div>
      )}

      {conexao.semConexao ? (
        <SemConexao conexao={conexao} />
      ) : (
        <>
          <div className="grade-resumo">
            <div className="cartao cartao-resumo">
              <Users size={22} className="cartao-resumo__icone" aria-hidden="true" />
              <div>
                <div className="cartao-resumo__rotulo">Total de Funcionários</div>
                <div className="cartao-resumo__valor">{resumo.data ? resumo.data.total_funcionarios : '...'}</div>
              </div>
            </div>
            <div className="cartao cartao-resumo cartao-resumo--destaque">
              <Wallet size={22} className="cartao-resumo__icone" aria-hidden="true" />
              <div>
                <div className="cartao-resumo__rotulo">Saldo Total</div>
                <div className="cartao-resumo__valor">{resumo.data ? <ValorSaldo valor={resumo.data.saldo_total} /> : '...'}</div>
              </div>
            </div>
            <div className="cartao cartao-resumo">
              <RotateCcw size={22} className="cartao-resumo__icone" aria-hidden="true" />
              <div>
                <div className="cartao-resumo__rotulo">Movimentações Hoje</div>
                <div className="cartao-resumo__valor">{resumo.data ? resumo.data.movimentacoes_hoje : '...'}</div>
              </div>
            </div>
          </div>

          <div className="abas-divididas">
            <Abas
              rotulo="Saldo dos funcionários"
              atual={aba}
              aoMudar={setAba}
              abas={[
                { valor: 'saldos', rotulo: 'Saldos dos Funcionários' },
                { valor: 'historico', rotulo: 'Histórico de Movimentações' },
                { valor: 'relatorio', rotulo: 'Relatório' },
              ]}
            />
          </div>

          {aba === 'saldos' && (
            <TabelaDados
              titulo="Saldos dos Funcionários"
              colunas={colunasSaldos}
              linhas={saldos.data ?? []}
              chaveLinha={(s) => s.funcionario_id}
              carregando={saldos.isLoading}
              placeholderBusca="Buscar funcionário ou email..."
              vazio="Nenhum funcionário ativo encontrado."
              tituloCartao={(s) => <NomeComSituacao nome={s.funcionario_nome} ativo={s.funcionario_ativo} />}
              arquivoCsv="saldos-dos-funcionarios"
            />
          )}

          {aba === 'historico' && (
            <>
              {nomeDoFuncionario && (
                <div className="alerta alerta--info faixa-selecao" role="status">
                  <span>Movimentações de {nomeDoFuncionario}.</span>
                  <button type="button" className="link-botao" onClick={endereco.esquecer}>
                    Ver de todos
                  </button>
                </div>
              )}
              <div className="filtro-botoes" role="group" aria-label="Filtrar movimentações por tipo">
                {FILTROS_HISTORICO.map((f) => (
                  <button key={f.rotulo} type="button" className="filtro-botoes__botao" aria-pressed={tipo === f.valor} onClick={() => setTipo(f.valor)}>
                    {f.valor === 'credito' ? <ArrowUpCircle size={15} /> : f.valor === 'debito' ? <ArrowDownCircle size={15} /> : f.valor === 'devolucao' ? <RotateCcw size={15} /> : null}
                    {f.rotulo}
                  </button>
                ))}
              </div>
              <div className="tabela-compacta">
                <TabelaDados
                  key={tipo}
                  titulo="Histórico de Movimentações"
                  colunas={colunasHistorico}
                  linhas={historico}
                  chaveLinha={(m) => m.id}
                  carregando={movimentacoes.isLoading}
                  placeholderBusca="Buscar por funcionário, descrição, rota..."
                  vazio="Nenhuma movimentação encontrada."
                  tituloCartao={(m) => `${m.funcionario_nome} · ${formatarReais(m.valor)}`}
                  arquivoCsv="movimentacoes"
                />
              </div>
              {ocultas > 0 && <p className="campo__ajuda">Mostrando as {LIMITE_HISTORICO} movimentações mais recentes.</p>}
        </>
      )}

      {aba === 'relatorio' &&
        (relatorio.isError ? (
          <div className="alerta alerta--erro" role="alert">
            Erro ao carregar relatório
          </div>
        ) : (
          <TabelaDados
            titulo="Relatório"
            colunas={colunasRelatorio}
            linhas={relatorio.data ?? []}
            chaveLinha={(l) => `${l.funcionario_id}-${l.rota_id ?? 'sem'}`}
            carregando={relatorio.isLoading}
            placeholderBusca="Buscar funcionário ou rota..."
            vazio="Nenhum saldo enviado ou gasto ainda."
            tituloCartao={(l) => <NomeComSituacao nome={l.funcionario_nome} ativo={l.funcionario_ativo} />}
            arquivoCsv="relatorio-de-saldo"
          />
        ))}
        </>
      )}

      <ModalMovimentacaoSaldo aberto={modalAberto} aoFechar={() => setModalAberto(false)} />
    </div>
  );
}
