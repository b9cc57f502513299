/**
 * The exports of whole sets (docs/decisions/paineis-e-relatorios.md, 'O ZIP do contador'): the accountant's ZIP of a
 * period, and the CSV of everything a list's filters select. Each list's export takes that list's own
 * filter schema (the same validation, the same pt-BR messages); its page fields are accepted and ignored.
 */
import { z } from '../zod';
import { auditoriaFiltroSchema } from './auditoria';
import { data, idInteiro, opcao } from './campos';
import { despesaFiltroSchema } from './despesas';
import { vendasFiltroSchema } from './vendas';

/** GET /api/exportacoes/contabil: the period (both dates required, inclusive) and optionally one employee. */
export const exportacaoContabilSchema = z.object({
  data_inicio: data('Data inicial'),
  data_fim: data('Data final'),
  funcionario_id: z.preprocess((v) => (v === '' || v === 'todos' ? undefined : v), idInteiro('Funcionário').optional()),
});
export type ExportacaoContabil = z.output<typeof exportacaoContabilSchema>;

export const FORMATOS_EXPORTACAO_LISTA = ['csv'] as const;

/** CSV is the only format of a list's export (and the default). */
const formato = { formato: z.preprocess((v) => (v === undefined || v === '' ? 'csv' : v), opcao('Formato', FORMATOS_EXPORTACAO_LISTA)) };

export const exportacaoVendasSchema = vendasFiltroSchema.extend(formato);
export const exportacaoDespesasSchema = despesaFiltroSchema.extend(formato);
export const exportacaoAuditoriaSchema = auditoriaFiltroSchema.extend(formato);
