/** Reports and dashboards (spec sections 2, 3 and 7): response shapes and filters. */
import { z } from '../zod';
import { dataOpcional, idInteiro, opcao } from './campos';
import { celularComFilaSchema } from './dispositivos';
import { STATUS_ROTA } from './rotas';
import { acertoRotaSchema } from './acerto';
import { tardiaSchema } from './tardias';

export const filtroRelatorioRotasSchema = z.object({
  status: z.preprocess((v) => (v === '' || v === 'todas' ? undefined : v), opcao('Status', STATUS_ROTA).optional()),
  funcionario_id: z.preprocess((v) => (v === '' ? undefined : v), idInteiro('Funcionário').optional()),
  data_inicio: dataOpcional('Data inicial'),
  data_fim: dataOpcional('Data final'),
});
export type FiltroRelatorioRotas = z.infer<typeof filtroRelatorioRotasSchema>;

export const FORMATOS_EXPORTACAO = ['pdf', 'excel', 'csv'] as const;
export type FormatoExportacao = (typeof FORMATOS_EXPORTACAO)[number];

export const exportacaoSchema = filtroRelatorioRotasSchema.extend({
  formato: opcao('Formato', FORMATOS_EXPORTACAO),
  /** Selected route ids, comma-separated ('1,2,3'); empty means every route of the filters. */
  rotas: z.preprocess(
    (v) => (v === undefined || v === '' ? undefined : String(v).split(',').map((s) => s.trim())),
    z.array(idInteiro('Rota', 'f')).max(1000, 'Selecione no máximo 1000 rotas.').optional(),
  ),
});

export const linhaRelatorioRotaSchema = z.object({
  rota_id: z.number(),
  rota_nome: z.string(),
  funcionario_id: z.number(),
  funcionario_nome: z.string(),
  status: z.enum(STATUS_ROTA),
  data_inicio: z.string(),
  data_fim: z.string(),
  total_vendas: z.number(),
  total_despesas: z.number(),
  total_creditos: z.number(),
  /** The employee's balance now (all their routes and credits without a route), not this route's. */
  saldo_atual: z.number(),
  /** The employee's credits without a route: part of saldo_atual, never of a route's settlement. */
  creditos_sem_rota: z.number(),
  /** The route's settlement still open (shared/acerto.ts): one of the two is zero. */
  a_devolver: z.number(),
  a_receber: z.number(),
  acertada_em: z.string().nullable(),
});
export type LinhaRelatorioRota = z.infer<typeof linhaRelatorioRotaSchema>;

export const calculoSalarioSchema = z.object({
  total_vendas: z.number(),
  total_bolsas: z.number(),
  media_bolsas_cidade: z.number(),
  valor_por_bolsa: z.number(),
  valor_bolsas: z.number(),
  valor_fixo_por_cidade: z.number(),
  cidades_visitadas: z.number(),
  valor_cidades: z.number(),
  boletos: z.number(),
  valor_boletos: z.number(),
  valor_aluguel: z.number(),
  desconto_aluguel: z.number(),
  quem_paga_aluguel: z.enum(['funcionario', 'metade', 'escola']),
  total_salario: z.number(),
});
export type CalculoSalarioApi = z.infer<typeof calculoSalarioSchema>;

/**
 * What the salary was computed from, so the employee's phone can add the work still queued on it
 * (a queued sale replaces the server's sale of the same city and day; a queued visit adds a city).
 */
export const baseSalarioSchema = z.object({
  valor_aluguel: z.number(),
  cidades_visitadas_ids: z.array(z.number()),
  vendas: z.array(z.object({ cidade_id: z.number(), data_venda: z.string(), total: z.number(), boletos: z.number() })),
});
export type BaseSalario = z.infer<typeof baseSalarioSchema>;

/**
 * What the route came to, for its employee (Minhas Rotas): the money of the route besides the salary.
 * saldo_final is the settlement still open (shared/acerto.ts: créditos − despesas aprovadas − pendentes −
 * acertos): positive is what is left to return, negative what the company owes the employee.
 */
export const resultadoRotaSchema = z.object({
  rota_nome: z.string(),
  status: z.enum(STATUS_ROTA),
  data_inicio: z.string(),
  data_fim: z.string(),
  finalizada_em: z.string().nullable(),
  total_cidades: z.number(),
  cidades_visitadas: z.number(),
  total_vendas: z.number(),
  total_despesas: z.number(),
  total_creditos: z.number(),
  saldo_final: z.number(),
  /** Expenses of the route by type ('outro' together), in the order of the types. */
  despesas_por_tipo: z.array(z.object({ tipo: z.string(), quantidade: z.number(), total: z.number() })),
  /** The settlement (absent in results a phone stored before the settlement existed). */
  acerto: acertoRotaSchema.optional(),
});
export type ResultadoRota = z.infer<typeof resultadoRotaSchema>;

export const relatorioSalarioRotaSchema = z.object({
  rota_id: z.number(),
  calculo_salario: calculoSalarioSchema,
  desconto_aluguel_funcionario: z.number(),
  base: baseSalarioSchema,
  resultado: resultadoRotaSchema,
  /** What the phones sent after the route was finished, and what the admin decided (absent in older stored copies). */
  tardios: z.array(tardiaSchema).optional(),
});
export type RelatorioSalarioRota = z.infer<typeof relatorioSalarioRotaSchema>;

export const despesaDoRelatorioSchema = z.object({
  id: z.string(),
  data_despesa: z.string(),
  cidade_id: z.number(),
  cidade_nome: z.string(),
  tipo: z.string(),
  tipo_outro: z.string().nullable(),
  valor: z.number(),
  descricao: z.string(),
  status_aprovacao: z.string(),
  cupom_url: z.string().nullable(),
  cupom_mime: z.string().nullable(),
  /** How many receipts the expense has (up to 5; cupom_url is the first's). */
  cupons_quantidade: z.number().optional(),
});

export const detalhesRotaSchema = z.object({
  rota_id: z.number(),
  rota_nome: z.string(),
  funcionario_nome: z.string(),
  status: z.enum(STATUS_ROTA),
  data_inicio: z.string(),
  data_fim: z.string(),
  data_inicio_formatada: z.string(),
  data_fim_formatada: z.string(),
  cidades: z.array(
    z.object({ cidade_id: z.number(), cidade_nome: z.string(), uf: z.string(), visitada: z.boolean(), total_vendas: z.number(), total_despesas: z.number() }),
  ),
  total_cidades: z.number(),
  cidades_visitadas: z.number(),
  media_bolsas_cidade: z.number(),
  calculo_salario: calculoSalarioSchema,
  total_vendas: z.number(),
  total_despesas: z.number(),
  total_creditos: z.number(),
  total_salario: z.number(),
  valor_aluguel: z.number(),
  desconto_aluguel_funcionario: z.number(),
  desconto_aluguel_escola: z.number(),
  quem_pagou_aluguel: z.string(),
  /** The settlement still open (acerto.a_devolver − acerto.a_receber): negative is what the company owes. */
  saldo_final: z.number(),
  despesas: z.array(despesaDoRelatorioSchema),
  funcionario_id: z.number(),
  acerto: acertoRotaSchema,
  /** Writes that reached the route after its finish, waiting for the admin. */
  tardios_pendentes: z.number(),
});
export type DetalhesRota = z.infer<typeof detalhesRotaSchema>;

export const dashboardAdminSchema = z.object({
  funcionariosEmRota: z.number(),
  funcionariosSemRota: z.number(),
  rotasAtivas: z.number(),
  vendasDia: z.number(),
  despesasDia: z.number(),
  rotas: z.array(
    z.object({
      id: z.number(),
      nome: z.string(),
      funcionario_nome: z.string(),
      /** False when the route's employee was deactivated and the route not yet closed by an admin. */
      funcionario_ativo: z.boolean(),
      vendasHoje: z.number(),
      despesasHoje: z.number(),
      status: z.enum(STATUS_ROTA),
    }),
  ),
  funcionarios: z.array(
    z.object({
      id: z.number(),
      nome: z.string(),
      /** A deactivated employee whose active route is still open counts as in route. */
      ativo: z.boolean(),
      rota_id: z.number(),
      rota_nome: z.string(),
      saldo: z.number(),
      vendas: z.number(),
      cidadesAtendidas: z.number(),
      totalCidades: z.number(),
    }),
  ),
  /** 'Pendências nos celulares': what each employee's phone last said is waiting on it. */
  celulares: z.array(celularComFilaSchema),
});
export type DashboardAdmin = z.infer<typeof dashboardAdminSchema>;

/** The longest period the trend charts take (one bar per day). */
export const MAXIMO_DIAS_TENDENCIAS = 366;
/** Without dates, the charts show the last 30 days up to today (APP_TZ). */
export const DIAS_PADRAO_TENDENCIAS = 30;

/**
 * GET /relatorios/tendencias (admin): the period (both ends included, 'yyyy-mm-dd' in APP_TZ) and
 * optionally one route and/or one employee. A period backwards or longer than a year is refused.
 */
export const filtroTendenciasSchema = z
  .object({
    data_inicio: dataOpcional('Data inicial'),
    data_fim: dataOpcional('Data final'),
    rota_id: z.preprocess((v) => (v === '' ? undefined : v), idInteiro('Rota', 'f').optional()),
    usuario_id: z.preprocess((v) => (v === '' ? undefined : v), idInteiro('Funcionário').optional()),
  })
  .refine((f) => !f.data_inicio || !f.data_fim || f.data_inicio <= f.data_fim, { message: 'A data inicial deve ser igual ou anterior à data final.', path: ['data_inicio'] })
  .refine(
    (f) => !f.data_inicio || !f.data_fim || (Date.parse(f.data_fim) - Date.parse(f.data_inicio)) / 86_400_000 < MAXIMO_DIAS_TENDENCIAS,
    { message: `O período pode ter no máximo ${MAXIMO_DIAS_TENDENCIAS} dias.`, path: ['data_fim'] },
  );
export type FiltroTendencias = z.input<typeof filtroTendenciasSchema>;

/**
 * The admin's trend charts. Money in integer centavos (these numbers only feed
 * charts and their tables, drawn with formatarCentavos); boletos are a count, never money.
 */
export const tendenciasSchema = z.object({
  data_inicio: z.string(),
  data_fim: z.string(),
  /** Every day of the period, in order, zeros included (a day without sales is a gap in the chart, not a missing bar). */
  vendas_por_dia: z.array(
    z.object({ data: z.string(), dinheiro_centavos: z.number(), pix_centavos: z.number(), cartao_centavos: z.number(), link_centavos: z.number(), boletos: z.number() }),
  ),
  /** Routes whose period crosses the filter's or with sales/expenses in it: sales and expenses of the period; cities planned and visited of the whole route. */
  por_rota: z.array(
    z.object({
      rota_id: z.number(),
      rota_nome: z.string(),
      funcionario_nome: z.string(),
      vendas_centavos: z.number(),
      despesas_centavos: z.number(),
      cidades_planejadas: z.number(),
      cidades_visitadas: z.number(),
    }),
  ),
  /** Employees with sales or expenses in the period. */
  por_funcionario: z.array(z.object({ funcionario_id: z.number(), funcionario_nome: z.string(), vendas_centavos: z.number(), despesas_centavos: z.number() })),
  /** Expenses of the period (not deleted) by type, in the order of the types. */
  despesas_por_tipo: z.array(z.object({ tipo: z.string(), quantidade: z.number(), total_centavos: z.number() })),
});
export type Tendencias = z.infer<typeof tendenciasSchema>;
