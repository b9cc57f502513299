/**
 * 'Vendas', admin view (spec section 2): summary cards (toggled), the filter modal, and the table
 * 'Vendas Registradas'. The table is paged by the server (a year of sales is 10 MB): one
 * page of 10 (5 on the phone) at a time, the filters sent with it; the cards are the server's totals
 * of the whole filtered set. The query key holds the filters and the page, so every change reloads.
 */
import { Banknote, CreditCard, Eye, EyeOff, Filter, Link2, QrCode, Receipt, Wallet } from 'lucide-react';
import { useMemo, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { formatarData } from '../../../shared/dates';
import { formatarCentavos, formatarReais } from '../../../shared/money';
import { formatarNumero } from '../../../shared/numeros';
import { ROTULO_STATUS_ROTA, type StatusRota } from '../../../shared/schemas/rotas';
import { totalDePaginas } from '../../../shared/limitesPaginacao';
import { BONUS_BOLETO_CENTAVOS, type VendaListada } from '../../../shared/schemas/vendas';
import { contagem } from '../../../shared/texto';
import { Botao } from '../components/Botao';
import { SemConexao, useSemConexao } from '../components/SemConexao';
import { Selo, type CorSelo } from '../components/Selo';
import { CelulaDupla, POR_PAGINA, POR_PAGINA_CELULAR, TabelaDados, type Coluna } from '../components/TabelaDados';
import { LARGURA_CELULAR, useLarguraMaxima } from '../components/useLarguraMaxima';
import { useFuncionarios } from '../usuarios/consultas';
import { FECHAMENTO_VAZIO, useFechamentoDiario, useRotasParaFiltro } from './consultas';
import { FILTROS_PADRAO, filtrosAtivos, filtrosDoEndereco, paramsDosFiltros, type FiltrosVendas } from './filtrosAdmin';
import { ModalFiltrosVendas } from './ModalFiltrosVendas';
import { BotaoExportarCsv } from '../exportacoes/BotaoExportarCsv';

/** '14.148 boletos' in a year: counts in pt-BR with the thousands point. */
const formatarInteiro = (n: number) => formatarNumero(n);

const COR_STATUS: Record<StatusRota, CorSelo> = { ativa: 'verde', finalizada: 'cinza', cancelada: 'vermelho' };

interface PropsCartaoResumo {
  titulo: string;
  valor: string;
  icone: ReactNode;
  destaque?: boolean;
  /** Full width on the phone (the Boletos card's explanation). */
  largo?: boolean;
  children?: ReactNode;
}

function CartaoResumo({ titulo, valor, icone, destaque, largo, children }: PropsCartaoResumo) {
  const classes = ['cartao', 'resumo-vendas__cartao', destaque && 'resumo-vendas__cartao--destaque', largo && 'resumo-vendas__cartao--largo'].filter(Boolean).join(' ');
  return (
    <div className={classes}>
      <div className="resumo-vendas__topo">
        <span className="resumo-vendas__titulo">{titulo}</span>
        <span className="resumo-vendas__icone" aria-hidden="true">
          {icone}
        </span>
      </div>
      <div className="resumo-vendas__valor">{valor}</div>
      {children}
    </div>
  );
}

function SeloStatus({ venda }: { venda: VendaListada }) {
  return <Selo cor={COR_STATUS[venda.rota_status]}>{ROTULO_STATUS_ROTA[venda.rota_status]}</Selo>;
}

/** 'Goiânia (GO)' as the table and the search show it. */
const cidadeComUf = (v: VendaListada) => `${v.cidade_nome} (${v.cidade_uf})`;

export function VendasAdmin() {
  // A sale's address (the audit trail's link) opens with the filters that show that sale.
  const [busca] = useSearchParams();
  const [filtros, setFiltros] = useState<FiltrosVendas>(() => filtrosDoEndereco(busca) ?? FILTROS_PADRAO);
  const [cardsVisiveis, setCardsVisiveis] = useState(true);
  const [filtrando, setFiltrando] = useState(false);
  const [pagina, setPagina] = useState(1);
  const porPagina = useLarguraMaxima(LARGURA_CELULAR) ? POR_PAGINA_CELULAR : POR_PAGINA;
  const params = useMemo(() => ({ ...paramsDosFiltros(filtros), page: pagina, limit: porPagina }), [filtros, pagina, porPagina]);
  const fechamento = useFechamentoDiario(params);
  const { data = FECHAMENTO_VAZIO, isPending, isFetching } = fechamento;
  const conexao = useSemConexao(fechamento);
  const { data: funcionarios = [] } = useFuncionarios();
  const { data: rotas = [] } = useRotasParaFiltro();
  const totais = data.totais;
  const quantosFiltros = filtrosAtivos(filtros);
  // An answer without the paging fields (a server from before lists were paged) is the whole list.
  const total = typeof data.total === 'number' ? data.total : data.vendas.length;
  const totalPaginas = totalDePaginas(total, porPagina);
  // A narrower window (5 a page) or a smaller result can leave the page past the end: show the last.
  const paginaMostrada = Math.min(pagina, totalPaginas);

  const colunas: Coluna<VendaListada>[] = [
    { chave: 'data_venda', titulo: 'Data', classe: 'sem-quebra', render: (v) => formatarData(v.data_venda), textoBusca: (v) => formatarData(v.data_venda) },
    { chave: 'funcionario_nome', titulo: 'Funcionário', so: 'celular' },
    { chave: 'rota_nome', titulo: 'Rota', so: 'celular' },
    {
      chave: 'rota_status',
      titulo: 'Status',
      so: 'celular',
      render: (v) => <SeloStatus venda={v} />,
      textoBusca: (v) => ROTULO_STATUS_ROTA[v.rota_status],
    },
    // On the computer who, on which route and its status share a cell: twelve columns do not fit beside the sidebar.
    {
      chave: 'funcionario_rota',
      titulo: 'Funcionário e Rota',
      so: 'computador',
      classe: 'coluna-rota',
      render: (v) => (
        <CelulaDupla
          principal={v.funcionario_nome}
          secundario={
            <>
              {v.rota_nome} <SeloStatus venda={v} />
            </>
          }
        />
      ),
      textoBusca: (v) => `${v.funcionario_nome} ${v.rota_nome} ${ROTULO_STATUS_ROTA[v.rota_status]}`,
      csv: false,
    },
    { chave: 'cidade', titulo: 'Cidade', render: cidadeComUf, textoBusca: cidadeComUf },
    { chave: 'valor_dinheiro', titulo: 'Dinheiro', numerica: true, render: (v) => formatarReais(v.valor_dinheiro) },
    { chave: 'valor_pix', titulo: 'Pix', numerica: true, render: (v) => formatarReais(v.valor_pix) },
    { chave: 'valor_cartao', titulo: 'Cartão', numerica: true, render: (v) => formatarReais(v.valor_cartao) },
    { chave: 'valor_link', titulo: 'Link', numerica: true, render: (v) => formatarReais(v.valor_link) },
    { chave: 'valor_boletos', titulo: 'Boletos', numerica: true, render: (v) => String(v.valor_boletos) },
    { chave: 'total_vendas', titulo: 'Total', numerica: true, render: (v) => <strong>{formatarReais(v.total_vendas)}</strong> },
    // On the computer the note goes whole on a line under the sale (linhaExtra); on the phone it is a field.
    { chave: 'observacoes', titulo: 'Observações', so: 'celular', render: (v) => v.observacoes || '—', csv: (v) => v.observacoes },
  ];

  return (
    <div>
      <div className="pagina__topo">
        <div>
          <h1>Vendas</h1>
          <p className="pagina__descricao">Fechamentos diários das cidades, por funcionário e rota.</p>
        </div>
        <div className="pagina__acoes">
          <Botao variante="outline" icone={cardsVisiveis ? <EyeOff size={18} /> : <Eye size={18} />} onClick={() => setCardsVisiveis((v) => !v)} aria-pressed={cardsVisiveis}>
            {cardsVisiveis ? 'Ocultar Cards' : 'Mostrar Cards'}
          </Botao>
          <Botao icone={<Filter size={18} />} onClick={() => setFiltrando(true)}>
            Filtrar{quantosFiltros > 0 ? ` (${quantosFiltros})` : ''}
          </Botao>
        </div>
      </div>

      {conexao.semConexao && <SemConexao conexao={conexao} />}

      {cardsVisiveis && !conexao.semConexao && (
        <section className="resumo-vendas" aria-label="Resumo das vendas" aria-busy={isFetching}>
          <CartaoResumo titulo="Total de Vendas" valor={formatarReais(totais.total_geral)} icone={<Wallet size={20} />} destaque>
            <p className="resumo-vendas__nota">Dinheiro + Pix + Cartão + Link</p>
          </CartaoResumo>
          <CartaoResumo titulo="Dinheiro" valor={formatarReais(totais.dinheiro)} icone={<Banknote size={20} />} />
          <CartaoResumo titulo="Pix" valor={formatarReais(totais.pix)} icone={<QrCode size={20} />} />
          <CartaoResumo titulo="Cartão" valor={formatarReais(totais.cartao)} icone={<CreditCard size={20} />} />
          <CartaoResumo titulo="Link" valor={formatarReais(totais.link)} icone={<Link2 size={20} />} />
          <CartaoResumo titulo="Boletos" valor={formatarInteiro(totais.boletos)} icone={<Receipt size={20} />} largo>
            <p className="resumo-vendas__nota">
              Boletos não contam no valor vendido. Cada boleto rende R$ 5,50 de bônus no salário.
            </p>
            <p className="resumo-vendas__bonus">
              Bônus: <strong>{formatarCentavos(totais.boletos * BONUS_BOLETO_CENTAVOS)}</strong>
            </p>
          </CartaoResumo>
        </section>
      )}

      {!conexao.semConexao && (
      <div className="tabela-vendas">
        <TabelaDados
          titulo="Vendas Registradas"
          colunas={colunas}
          linhas={data.vendas}
          chaveLinha={(v) => v.id}
          carregando={isPending}
          placeholderBusca="Buscar nesta página..."
          paginacaoServidor={{ pagina: paginaMostrada, totalPaginas, resumo: contagem(total, 'venda', 'vendas'), aoMudar: setPagina }}
          vazio="Nenhuma venda encontrada para os filtros escolhidos."
          tituloCartao={(v) => `${formatarData(v.data_venda)} · ${cidadeComUf(v)}`}
          exportar={<BotaoExportarCsv caminho="/vendas/exportar" params={paramsDosFiltros(filtros)} arquivo="vendas.csv" desabilitado={isPending} />}
          linhaExtra={(v) =>
            v.observacoes ? (
              <>
                <span className="linha-extra__rotulo">Observações:</span> {v.observacoes}
              </>
            ) : null
          }
        />
      </div>
      )}

      <ModalFiltrosVendas
        aberto={filtrando}
        filtros={filtros}
        funcionarios={funcionarios}
        rotas={rotas}
        aoFechar={() => setFiltrando(false)}
        aoAplicar={(f) => {
          setFiltros(f);
          setPagina(1);
          setFiltrando(false);
        }}
      />
    </div>
  );
}
