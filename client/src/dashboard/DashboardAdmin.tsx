/**
 * Dashboard, admin view (spec section 2): welcome banner, the five numbers of the day, the three
 * action cards (the balance modal, Nova Rota, Ver Relatórios) and the tables of active routes and
 * of employees in route, then the trend charts of the last 30 days. Online only; a failed load shows zeros and empty tables (logged); without
 * connection the screen says 'Sem conexão' instead.
 */
import { useQueryClient } from '@tanstack/react-query';
import { BarChart3, HandCoins, MapPlus, Receipt, Route, TrendingUp, UserCheck, UserX } from 'lucide-react';
import { useState } from 'react';
import { formatarDataPorExtenso, horaNoFuso } from '../../../shared/dates';
import { formatarReais } from '../../../shared/money';
import type { DashboardAdmin as DadosDashboard } from '../../../shared/schemas/relatorios';
import { ROTULO_STATUS_ROTA, type StatusRota } from '../../../shared/schemas/rotas';
import type { Usuario } from '../../../shared/schemas/usuarios';
import { NomeComSituacao, textoComSituacao } from '../components/NomeComSituacao';
import { classeDoSaldo } from '../components/saldo';
import { SemConexao, useSemConexao } from '../components/SemConexao';
import { Selo, type CorSelo } from '../components/Selo';
import { TabelaDados, type Coluna } from '../components/TabelaDados';
import { fusoDoApp, hojeNoApp } from '../config/configApp';
import { PainelTendencias } from '../relatorios/PainelTendencias';
import { MENSAGENS_PAINEL, ModalMovimentacaoSaldo } from '../saldo/ModalMovimentacaoSaldo';
import { saudacao } from './apresentacao';
import { CelularesPendentes } from './CelularesPendentes';
import { CartaoAcao, CartaoEstatistica } from './componentes';
import { chavesDashboard, DASHBOARD_ADMIN_VAZIO, useDashboardAdmin } from './consultas';

type RotaDoPainel = DadosDashboard['rotas'][number];
type FuncionarioDoPainel = DadosDashboard['funcionarios'][number];

const COR_STATUS: Record<StatusRota, CorSelo> = { ativa: 'verde', finalizada: 'cinza', cancelada: 'cinza' };

/** Red when the employee spent own money (negative), green when there is money left. */
function Saldo({ valor }: { valor: number }) {
  return <span className={classeDoSaldo(valor)}>{formatarReais(valor)}</span>;
}

const colunasRotas: Coluna<RotaDoPainel>[] = [
  { chave: 'nome', titulo: 'Rota' },
  {
    chave: 'funcionario_nome',
    titulo: 'Funcionário',
    render: (r) => <NomeComSituacao nome={r.funcionario_nome} ativo={r.funcionario_ativo} />,
    textoBusca: (r) => textoComSituacao(r.funcionario_nome, r.funcionario_ativo),
    csv: (r) => r.funcionario_nome,
  },
  { chave: 'vendasHoje', titulo: 'Vendas Hoje', numerica: true, render: (r) => formatarReais(r.vendasHoje), textoBusca: (r) => formatarReais(r.vendasHoje) },
  { chave: 'despesasHoje', titulo: 'Despesas Hoje', numerica: true, render: (r) => formatarReais(r.despesasHoje), textoBusca: (r) => formatarReais(r.despesasHoje) },
  { chave: 'status', titulo: 'Status', render: (r) => <Selo cor={COR_STATUS[r.status]}>{ROTULO_STATUS_ROTA[r.status]}</Selo>, textoBusca: (r) => ROTULO_STATUS_ROTA[r.status] },
];

const colunasFuncionarios: Coluna<FuncionarioDoPainel>[] = [
  // Deactivated with the route still open: in route until an admin closes it, marked 'Inativo'.
  { chave: 'nome', titulo: 'Nome', render: (f) => <NomeComSituacao nome={f.nome} ativo={f.ativo} />, textoBusca: (f) => textoComSituacao(f.nome, f.ativo), csv: (f) => f.nome },
  { chave: 'rota_nome', titulo: 'Rota Atual' },
  { chave: 'saldo', titulo: 'Saldo', numerica: true, render: (f) => <Saldo valor={f.saldo} />, textoBusca: (f) => formatarReais(f.saldo) },
  { chave: 'vendas', titulo: 'Vendas Hoje', numerica: true, render: (f) => formatarReais(f.vendas), textoBusca: (f) => formatarReais(f.vendas) },
  {
    chave: 'cidades',
    titulo: 'Cidades Atendidas',
    numerica: true,
    render: (f) => `${f.cidadesAtendidas}/${f.totalCidades}`,
    textoBusca: (f) => `${f.cidadesAtendidas}/${f.totalCidades}`,
    // '3/4' would open as a date in a spreadsheet.
    csv: (f) => `${f.cidadesAtendidas} de ${f.totalCidades}`,
  },
];

export function DashboardAdmin({ usuario }: { usuario: Usuario }) {
  const queryClient = useQueryClient();
  const consulta = useDashboardAdmin();
  const conexao = useSemConexao(consulta);
  const [modalAberto, setModalAberto] = useState(false);
  const dados = consulta.data ?? DASHBOARD_ADMIN_VAZIO;
  const carregando = consulta.isPending;
  const fuso = fusoDoApp();
  const primeiroNome = usuario.nome.trim().split(/\s+/)[0] ?? usuario.nome;

  return (
    <div className="dashboard">
      <section className="boas-vindas" aria-label="Boas-vindas">
        <p className="boas-vindas__data">{formatarDataPorExtenso(hojeNoApp())}</p>
        <h1>
          {saudacao(horaNoFuso(new Date(), fuso))}, {primeiroNome}!
        </h1>
        <p className="boas-vindas__texto">Acompanhe as rotas ativas, as vendas e as despesas de hoje, e envie saldo para a equipe.</p>
      </section>

      {conexao.semConexao ? (
        <SemConexao conexao={conexao} />
      ) : (
        <>
          <section className="grade-resumo painel-admin__numeros" aria-label="Resumo do dia">
            <CartaoEstatistica rotulo="Funcionários em Rota" icone={<UserCheck size={22} />} carregando={carregando}>
              {dados.funcionariosEmRota}
            </CartaoEstatistica>
            <CartaoEstatistica rotulo="Funcionários sem Rota" icone={<UserX size={22} />} carregando={carregando}>
              {dados.funcionariosSemRota}
            </CartaoEstatistica>
            <CartaoEstatistica rotulo="Rotas Ativas" icone={<Route size={22} />} carregando={carregando}>
              {dados.rotasAtivas}
            </CartaoEstatistica>
            <CartaoEstatistica rotulo="Vendas do Dia" icone={<TrendingUp size={22} />} carregando={carregando} className="estatistica--dinheiro">
              {formatarReais(dados.vendasDia)}
            </CartaoEstatistica>
            <CartaoEstatistica rotulo="Despesas do Dia" icone={<Receipt size={22} />} carregando={carregando} className="estatistica--dinheiro">
              {formatarReais(dados.despesasDia)}
            </CartaoEstatistica>
          </section>

          <nav className="grade-acoes" aria-label="Ações rápidas">
            <CartaoAcao
              titulo="Adicionar/Enviar Saldo"
              descricao="Crédito para as despesas da rota de um funcionário."
              icone={<HandCoins size={22} />}
              cor="verde"
              aoClicar={() => setModalAberto(true)}
            />
            <CartaoAcao titulo="Nova Rota" descricao="Crie e acompanhe as rotas da equipe." icone={<MapPlus size={22} />} cor="azul" para="/rotas" />
            <CartaoAcao titulo="Ver Relatórios" descricao="Vendas, despesas e salários por rota, com PDF e Excel." icone={<BarChart3 size={22} />} cor="laranja" para="/relatorios" />
          </nav>

          <CelularesPendentes celulares={dados.celulares} carregando={carregando} />

          <div className="painel-admin__tabelas">
            <TabelaDados
              titulo="Rotas Ativas"
              colunas={colunasRotas}
              linhas={dados.rotas}
              chaveLinha={(r) => r.id}
              carregando={carregando}
              placeholderBusca="Buscar rota ou funcionário..."
              vazio="Nenhuma rota ativa"
              tituloCartao={(r) => r.nome}
              arquivoCsv={`rotas-ativas-${hojeNoApp()}`}
            />
            <TabelaDados
              titulo="Funcionários em Rota"
              colunas={colunasFuncionarios}
              linhas={dados.funcionarios}
              chaveLinha={(f) => f.id}
              carregando={carregando}
              placeholderBusca="Buscar funcionário ou rota..."
              vazio="Nenhum funcionário em rota"
              tituloCartao={(f) => <NomeComSituacao nome={f.nome} ativo={f.ativo} />}
              arquivoCsv={`funcionarios-em-rota-${hojeNoApp()}`}
            />
          </div>

          {/* Trend charts: the last 30 days as charts, each with its numbers as a table. */}
          <PainelTendencias titulo="Tendências dos últimos 30 dias" />
        </>
      )}

      <ModalMovimentacaoSaldo
        aberto={modalAberto}
        aoFechar={() => setModalAberto(false)}
        aoConcluir={() => void queryClient.invalidateQueries({ queryKey: chavesDashboard.admin() })}
        rotaObrigatoria={false}
        titulo="Adicionar/Enviar Saldo"
        mensagens={MENSAGENS_PAINEL}
      />
    </div>
  );
}
