/**
 * The balance ledger (saldo): request and response schemas shared by the API and the balance forms.
 * Amounts are reais with 2 decimals on the wire; the server computes in integer centavos.
 */
import { z } from '../zod';
import { SENTIDOS_ACERTO } from '../acerto';
import { dinheiro, idInteiro, opcao, textoOpcional } from './campos';
import { camposPaginacao, camposRespostaPaginada, LIMITE_MAXIMO_PAGINA } from './paginacao';

export const TIPOS_MOVIMENTACAO = ['credito', 'debito', 'devolucao', 'acerto'] as const;
export type TipoMovimentacao = (typeof TIPOS_MOVIMENTACAO)[number];

export const ROTULO_TIPO_MOVIMENTACAO: Record<TipoMovimentacao, string> = {
  credito: 'Crédito',
  debito: 'Débito',
  devolucao: 'Devolução',
  acerto: 'Acerto',
};

export const DESCRICAO_PADRAO_SALDO = 'Movimentação de saldo';
export const DESCRICAO_SALDO_MAXIMA = 300;

export const MOVIMENTACOES_POR_PAGINA = 100;

export const adicionarSaldoSchema = z.object({
  funcionario_id: idInteiro('Funcionário'),
  valor: dinheiro('Valor').refine((v) => v > 0, 'Valor deve ser maior que zero.'),
  descricao: textoOpcional('Descrição', DESCRICAO_SALDO_MAXIMA).transform((v) => v || DESCRICAO_PADRAO_SALDO),
  /** Optional on the dashboard's modal ('Sem rota específica'); when given, an active route of that employee. */
  rota_id: z.preprocess((v) => (v === '' || v === undefined ? null : v), idInteiro('Rota', 'f').nullable()),
});
export type AdicionarSaldoPedido = z.input<typeof adicionarSaldoSchema>;

const vazioComoAusente = (v: unknown) => (v === '' || v === 'todos' ? undefined : v);

export const movimentacoesFiltroSchema = z.object({
  tipo: z.preprocess(vazioComoAusente, opcao('Tipo', TIPOS_MOVIMENTACAO).optional()),
  funcionario_id: z.preprocess(vazioComoAusente, idInteiro('Funcionário').optional()),
  ...camposPaginacao(MOVIMENTACOES_POR_PAGINA),
});

export const saldoFuncionarioSchema = z.object({
  funcionario_id: z.number(),
  funcionario_nome: z.string(),
  funcionario_email: z.string(),
  /** False for a deactivated employee still listed because the balance is not zero. */
  funcionario_ativo: z.boolean(),
  saldo_atual: z.number(),
  /** When the last movement happened; null without any. */
  data_ultima_atualizacao: z.string().nullable(),
});
export type SaldoFuncionario = z.infer<typeof saldoFuncionarioSchema>;

export const saldosRespostaSchema = z.object({ saldos: z.array(saldoFuncionarioSchema) });

export const movimentacaoSchema = z.object({
  id: z.number(),
  data_movimentacao: z.string(),
  funcionario_id: z.number(),
  funcionario_nome: z.string(),
  tipo: z.enum(TIPOS_MOVIMENTACAO),
  /** Never negative; `tipo` (and an acerto's `sentido`) says the direction. */
  valor: z.number(),
  /** An acerto's direction ('devolvido': the balance went down; 'pago': up); null for the other types. */
  sentido: z.enum(SENTIDOS_ACERTO).nullable(),
  saldo_anterior: z.number(),
  saldo_novo: z.number(),
  descricao: z.string(),
  admin_nome: z.string().nullable(),
  rota_id: z.number().nullable(),
  rota_nome: z.string().nullable(),
  despesa_id: z.string().nullable(),
});
export type Movimentacao = z.infer<typeof movimentacaoSchema>;

export const movimentacoesRespostaSchema = z.object({
  movimentacoes: z.array(movimentacaoSchema),
  ...camposRespostaPaginada,
});
export type MovimentacoesResposta = z.infer<typeof movimentacoesRespostaSchema>;

/** GET /saldo/resumo for an employee: their own balance. */
/** A credit as the employee's phone sees it, to say 'Crédito de R$ 200,00 no saldo'. */
export const creditoRecenteSchema = z.object({
  id: z.number(),
  valor: z.number(),
  data_movimentacao: z.string(),
  descricao: z.string(),
});
export type CreditoRecente = z.infer<typeof creditoRecenteSchema>;

/** How many of the latest credits the employee's balance summary carries. */
export const CREDITOS_RECENTES = 10;

export const resumoSaldoFuncionarioSchema = z.object({
  saldo_atual: z.number(),
  data_ultima_atualizacao: z.string().nullable(),
  /** GET /saldo/resumo for the employee: the latest credits, newest first (absent elsewhere). */
  creditos_recentes: z.array(creditoRecenteSchema).optional(),
});
export type ResumoSaldoFuncionario = z.infer<typeof resumoSaldoFuncionarioSchema>;

/** GET /saldo/resumo for an admin: the three cards of the 'Saldo dos Funcionários' page. */
export const resumoSaldoAdminSchema = z.object({
  total_funcionarios: z.number(),
  saldo_total: z.number(),
  movimentacoes_hoje: z.number(),
});
export type ResumoSaldoAdmin = z.infer<typeof resumoSaldoAdminSchema>;

export const funcionarioComSaldoSchema = z.object({ id: z.number(), nome: z.string(), email: z.string(), saldo_atual: z.number() });
export type FuncionarioComSaldo = z.infer<typeof funcionarioComSaldoSchema>;
export const funcionariosComSaldoSchema = z.object({ funcionarios: z.array(funcionarioComSaldoSchema) });

export const relatorioSaldoLinhaSchema = z.object({
  funcionario_id: z.number(),
  funcionario_nome: z.string(),
  funcionario_ativo: z.boolean(),
  /** Null for credits given without a route. */
  rota_id: z.number().nullable(),
  rota_nome: z.string().nullable(),
  total_creditado: z.number(),
  /** Expenses on the route: debits minus refunds. */
  total_gasto: z.number(),
  saldo_atual: z.number(),
  /** The route's settlement still open (shared/acerto.ts) and when it was settled; null for credits without a route. */
  a_devolver: z.number().nullable(),
  a_receber: z.number().nullable(),
  acertada_em: z.string().nullable(),
});
export type RelatorioSaldoLinha = z.infer<typeof relatorioSaldoLinhaSchema>;
export const relatorioSaldoSchema = z.object({ relatorio: z.array(relatorioSaldoLinhaSchema), ...camposRespostaPaginada });
/** GET /saldo/relatorio: one line per route; a page is as large as allowed (all of them, in any real year). */
export const relatorioSaldoFiltroSchema = z.object(camposPaginacao(LIMITE_MAXIMO_PAGINA));

export const saldoDeUmFuncionarioSchema = z.object({ saldo: resumoSaldoFuncionarioSchema });

export const adicionarSaldoRespostaSchema = z.object({
  message: z.string(),
  movimentacao: movimentacaoSchema,
  saldo: resumoSaldoFuncionarioSchema,
});
