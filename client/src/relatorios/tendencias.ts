/**
 * The admin's trend charts from GET /relatorios/tendencias: what each chart draws
 * and, when there is nothing to draw, the friendly pt-BR message instead. Pure: the panel and its
 * tests read the same thing the canvas and the tables show.
 */
import { formatarData } from '../../../shared/dates';
import type { Tendencias } from '../../../shared/schemas/relatorios';
import { nomeDoTipo, type TipoDespesa } from '../../../shared/schemas/tiposDespesa';
import type { DadosGrafico } from '../components/graficos/tipos';

export const CORES = {
  dinheiro: '#15803d',
  pix: '#0e7490',
  cartao: '#1d4ed8',
  link: '#7c3aed',
  boletos: '#c2410c',
  vendas: '#1d4ed8',
  despesas: '#c2410c',
  planejadas: '#64748b',
  visitadas: '#15803d',
} as const;

export interface GraficoDasTendencias {
  chave: 'vendasPorDia' | 'porRota' | 'porFuncionario' | 'despesasPorTipo' | 'cidades';
  titulo: string;
  descricao: string;
  colunaCategoria: string;
  dados: DadosGrafico;
  vazio: string | null;
  totais: boolean;
  largo?: boolean;
}

/** '2026-11-26' -> '26/11' (the period's text carries the year). */
export function diaMes(data: string): string {
  return formatarData(data).slice(0, 5);
}

export function textoDoPeriodo(t: Pick<Tendencias, 'data_inicio' | 'data_fim'>): string {
  return `De ${formatarData(t.data_inicio)} a ${formatarData(t.data_fim)}`;
}

/** Sales and expenses side by side for each route or employee (the same chart, its own rows). */
function vendasEDespesas(
  chave: 'porRota' | 'porFuncionario',
  quem: string,
  colunaCategoria: string,
  linhas: { nome: string; vendas_centavos: number; despesas_centavos: number }[],
): GraficoDasTendencias {
  return {
    chave,
    titulo: `Vendas e despesas por ${quem}`,
    descricao: `O que cada ${quem} vendeu e gastou no período.`,
    colunaCategoria,
    totais: true,
    vazio: linhas.every((l) => l.vendas_centavos === 0 && l.despesas_centavos === 0) ? 'Sem vendas nem despesas no período' : null,
    dados: {
      categorias: linhas.map((l) => l.nome),
      modo: 'agrupado',
      formatoEixo: 'dinheiro',
      series: [
        { rotulo: 'Vendas', cor: CORES.vendas, valores: linhas.map((l) => l.vendas_centavos) },
        { rotulo: 'Despesas', cor: CORES.despesas, valores: linhas.map((l) => l.despesas_centavos) },
      ],
    },
  };
}

export function graficosDasTendencias(t: Tendencias): GraficoDasTendencias[] {
  const dias = t.vendas_por_dia;
  const semVendas = dias.every((d) => d.dinheiro_centavos + d.pix_centavos + d.cartao_centavos + d.link_centavos + d.boletos === 0);
  return [
    {
      chave: 'vendasPorDia',
      titulo: 'Vendas por dia e forma de pagamento',
      descricao: 'Dinheiro, Pix, Cartão e Link somados em cada barra; boletos contados à parte (não somam ao valor vendido).',
      colunaCategoria: 'Dia',
      largo: true,
      totais: true,
      vazio: semVendas ? 'Sem vendas no período' : null,
      dados: {
        categorias: dias.map((d) => diaMes(d.data)),
        modo: 'empilhado',
        formatoEixo: 'dinheiro',
        series: [
          { rotulo: 'Dinheiro', cor: CORES.dinheiro, valores: dias.map((d) => d.dinheiro_centavos) },
          { rotulo: 'Pix', cor: CORES.pix, valores: dias.map((d) => d.pix_centavos) },
          { rotulo: 'Cartão', cor: CORES.cartao, valores: dias.map((d) => d.cartao_centavos) },
          { rotulo: 'Link', cor: CORES.link, valores: dias.map((d) => d.link_centavos) },
          { rotulo: 'Boletos', cor: CORES.boletos, valores: dias.map((d) => d.boletos), eixo: 'direita', formato: 'contagem' },
        ],
      },
    },
    vendasEDespesas('porRota', 'rota', 'Rota', t.por_rota.map((r) => ({ ...r, nome: r.rota_nome }))),
    vendasEDespesas('porFuncionario', 'funcionário', 'Funcionário', t.por_funcionario.map((f) => ({ ...f, nome: f.funcionario_nome }))),
    {
      chave: 'despesasPorTipo',
      titulo: 'Despesas por tipo',
      descricao: 'O total de cada tipo de despesa no período (as excluídas não contam).',
      colunaCategoria: 'Tipo',
      totais: true,
      vazio: t.despesas_por_tipo.length === 0 ? 'Sem despesas no período' : null,
      dados: {
        categorias: t.despesas_por_tipo.map((d) => nomeDoTipo(d.tipo as TipoDespesa)),
        modo: 'agrupado',
        formatoEixo: 'dinheiro',
        series: [
          { rotulo: 'Total', cor: CORES.despesas, valores: t.despesas_por_tipo.map((d) => d.total_centavos) },
          { rotulo: 'Quantidade', cor: CORES.planejadas, valores: t.despesas_por_tipo.map((d) => d.quantidade), eixo: 'direita', formato: 'contagem' },
        ],
      },
    },
    {
      chave: 'cidades',
      titulo: 'Cidades visitadas e planejadas por rota',
      descricao: 'Cidades da rota com visita ou venda, contra as cidades planejadas.',
      colunaCategoria: 'Rota',
      totais: false,
      vazio: t.por_rota.length === 0 ? 'Sem rotas no período' : null,
      dados: {
        categorias: t.por_rota.map((r) => r.rota_nome),
        modo: 'agrupado',
        formatoEixo: 'contagem',
        series: [
          { rotulo: 'Planejadas', cor: CORES.planejadas, valores: t.por_rota.map((r) => r.cidades_planejadas) },
          { rotulo: 'Visitadas', cor: CORES.visitadas, valores: t.por_rota.map((r) => r.cidades_visitadas) },
        ],
      },
    },
  ];
}
