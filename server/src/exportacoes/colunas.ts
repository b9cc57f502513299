/**
 * The columns of each exported CSV, one place per file: the header and how a row becomes cells (money
 * as numbers the spreadsheet sums, dates dd/mm/aaaa, statuses and types as the screens write them).
 * The list exports take the columns of their screen's table; the accountant's files split city and UF
 * and add what a bookkeeper files (rejection reason, NFC-e key, the receipts' names inside the ZIP).
 */
import type { CelulaCsv } from '../../../shared/csv';
import { formatarData, formatarDataHora } from '../../../shared/dates';
import { descreverMudancas, linhasDasMudancas } from '../../../shared/mudancasAuditoria';
import { ROTULO_ACAO_AUDITORIA, type NomesCitados, type RegistroAuditoria } from '../../../shared/schemas/auditoria';
import { ROTULO_STATUS_APROVACAO, ROTULO_TIPO_DESPESA, type Despesa } from '../../../shared/schemas/despesas';
import { ROTULO_STATUS_ROTA } from '../../../shared/schemas/rotas';
import type { VendaListada } from '../../../shared/schemas/vendas';

export interface ColunasCsv<T> {
  cabecalho: readonly string[];
  celulas: (linha: T) => CelulaCsv[];
}

/** 'Alimentação', or 'Outro: Lavanderia' (the text the employee typed for 'outro'). */
export const tipoDaDespesa = (d: Pick<Despesa, 'tipo' | 'tipo_outro'>) =>
  d.tipo === 'outro' && d.tipo_outro ? `${ROTULO_TIPO_DESPESA.outro}: ${d.tipo_outro}` : ROTULO_TIPO_DESPESA[d.tipo];

const cidadeComUf = (nome: string, uf: string) => `${nome} (${uf})`;
const quantosCupons = (d: Despesa & { linhasCupons?: unknown[] }) => d.linhasCupons?.length ?? d.cupons?.length ?? 0;

/** An expense's kind, value, description, status, rejection reason and NFC-e key: the middle of both expense CSVs. */
const fatosDaDespesa = (d: Despesa) => [
  tipoDaDespesa(d),
  d.valor,
  d.descricao,
  ROTULO_STATUS_APROVACAO[d.status_aprovacao],
  d.status_aprovacao === 'rejeitada' ? d.motivo_rejeicao : '',
  d.chave_nfce,
];

/** Admin Despesas: the table's columns, with the status and its reason apart and the receipts counted. */
export const COLUNAS_DESPESAS: ColunasCsv<Despesa & { linhasCupons?: unknown[] }> = {
  cabecalho: ['Data', 'Registrado por', 'Rota', 'Cidade', 'Tipo', 'Valor', 'Descrição', 'Status', 'Motivo da rejeição', 'Chave da NFC-e', 'Comprovantes'],
  celulas: (d) => [
    formatarData(d.data_despesa),
    d.funcionario_nome,
    d.rota_nome,
    cidadeComUf(d.cidade_nome, d.cidade_uf),
    ...fatosDaDespesa(d),
    quantosCupons(d),
  ],
};

/** The accountant's despesas.csv: every status, the reason, the NFC-e, and where each receipt is in the ZIP. */
export const COLUNAS_DESPESAS_CONTABIL: ColunasCsv<{ despesa: Despesa; arquivos: string[] }> = {
  cabecalho: ['Data', 'Funcionário', 'Rota', 'Cidade', 'UF', 'Tipo', 'Valor', 'Descrição', 'Status', 'Motivo da rejeição', 'Chave da NFC-e', 'Comprovantes', 'Arquivos no ZIP'],
  celulas: ({ despesa: d, arquivos }) => [
    formatarData(d.data_despesa),
    d.funcionario_nome,
    d.rota_nome,
    d.cidade_nome,
    d.cidade_uf,
    ...fatosDaDespesa(d),
    arquivos.length,
    arquivos.join(' | '),
  ],
};

/** A sale's amounts, boletos, total and note: the last cells of both sales CSVs. */
const valoresDaVenda = (v: VendaListada) => [v.valor_dinheiro, v.valor_pix, v.valor_cartao, v.valor_link, v.valor_boletos, v.total_vendas, v.observacoes];

/** Admin Vendas: the table's columns (the screen's 'Exportar CSV' wrote the same ones for its page). */
export const COLUNAS_VENDAS: ColunasCsv<VendaListada> = {
  cabecalho: ['Data', 'Funcionário', 'Rota', 'Status', 'Cidade', 'Dinheiro', 'Pix', 'Cartão', 'Link', 'Boletos', 'Total', 'Observações'],
  celulas: (v) => [
    formatarData(v.data_venda),
    v.funcionario_nome,
    v.rota_nome,
    ROTULO_STATUS_ROTA[v.rota_status],
    cidadeComUf(v.cidade_nome, v.cidade_uf),
    ...valoresDaVenda(v),
  ],
};

/** The accountant's vendas.csv: the same facts, city and UF apart. */
export const COLUNAS_VENDAS_CONTABIL: ColunasCsv<VendaListada> = {
  cabecalho: ['Data', 'Funcionário', 'Rota', 'Status da rota', 'Cidade', 'UF', 'Dinheiro', 'Pix', 'Cartão', 'Link', 'Boletos', 'Total', 'Observações'],
  celulas: (v) => [
    formatarData(v.data_venda),
    v.funcionario_nome,
    v.rota_nome,
    ROTULO_STATUS_ROTA[v.rota_status],
    v.cidade_nome,
    v.cidade_uf,
    ...valoresDaVenda(v),
  ],
};

/** Auditoria: the screen's columns ('Sobre' is the record in words, auditoria/descricao.ts); 'O que mudou' one change a line. */
export function colunasAuditoria(fuso: string): ColunasCsv<{ registro: RegistroAuditoria; nomes: NomesCitados }> {
  return {
    cabecalho: ['Quando', 'Administrador', 'Ação', 'Sobre', 'O que mudou'],
    celulas: ({ registro: r, nomes }) => [
      formatarDataHora(r.criado_em, fuso),
      r.admin_nome,
      ROTULO_ACAO_AUDITORIA[r.acao],
      r.alvo_descricao,
      linhasDasMudancas(descreverMudancas(r, { nomes, fuso })).join('\n'),
    ],
  };
}

export type { CelulaCsv };
