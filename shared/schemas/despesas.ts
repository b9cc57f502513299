/**
 * Expenses (despesas): request and response schemas shared by the API and the expense form.
 * The create and edit calls are multipart (the receipt goes in the file field `cupom`), so every
 * field also accepts the strings a form sends ('12,50', 'true').
 */
import { MENSAGEM_CHAVE_INVALIDA, validarChaveNfce } from '../nfce';
import { z } from '../zod';
import { MAXIMO_CUPONS_POR_DESPESA as MAXIMO_CUPONS_POR_DESPESA_ } from '../sync/operacoes';
import { booleano, data, dataOpcional, dinheiro, idInteiro, opcao, textoOpcional, uuidCliente } from './campos';
import { camposPaginacao, camposRespostaPaginada } from './paginacao';
import { STATUS_ROTA } from './rotas';
import { TIPOS_DESPESA, type TipoDespesa } from './tiposDespesa';

// Zod-free, so the first screen and the offline queue can import them without the schema library.
export { nomeDoTipo, ROTULO_TIPO_DESPESA, TIPOS_DESPESA, type TipoDespesa } from './tiposDespesa';
export { MAXIMO_CUPONS_POR_DESPESA, MENSAGEM_CUPONS_DEMAIS } from '../sync/operacoes';

export const STATUS_APROVACAO = ['pendente', 'aprovada', 'rejeitada'] as const;
export type StatusAprovacao = (typeof STATUS_APROVACAO)[number];

export const ROTULO_STATUS_APROVACAO: Record<StatusAprovacao, string> = {
  pendente: 'Pendente',
  aprovada: 'Aprovada',
  rejeitada: 'Rejeitada',
};

/** Spec section 9: the list's page size. The routes page asks for 100 at once; any `limit` is clamped to LIMITE_MAXIMO_PAGINA. */
export const DESPESAS_POR_PAGINA = 20;

export const TIPO_OUTRO_MAXIMO = 80;
export const DESCRICAO_DESPESA_MAXIMA = 1000;
export const MOTIVO_REJEICAO_MAXIMO = 500;

/** Receipts: what the server keeps (decisions.md) and what the browser does before sending (spec section 9). */
export const CUPOM_TAMANHO_MAXIMO = 20 * 1024 * 1024;
export const CUPOM_LIMITE_COMPRESSAO = 1024 * 1024;
export const CUPOM_AVISO_TAMANHO = 10 * 1024 * 1024;
export const CUPOM_LADO_MAXIMO_PX = 800;
export const CUPOM_QUALIDADE_JPEG = 0.7;
/** The file chooser's `accept` (spec section 5: images, pdf, doc, docx, heic, heif). */
export const CUPOM_ACEITOS = 'image/*,.pdf,.doc,.docx,.heic,.heif';

export const MENSAGEM_ARQUIVO_GRANDE = 'O arquivo é grande demais. O limite é 20 MB.';
export const MENSAGEM_TIPO_ARQUIVO = 'Tipo de arquivo não aceito. Envie imagem (JPG, PNG, WEBP, HEIC), PDF, DOC ou DOCX.';
export const MENSAGEM_ESPECIFICAR_TIPO = 'Especifique o tipo da despesa.';
export const MENSAGEM_JA_AVALIADA = 'Esta despesa já foi avaliada e não pode mais ser alterada.';
export const MENSAGEM_MOTIVO = 'Informe o motivo da rejeição.';

export const CHAVE_NFCE_ENTRADA_MAXIMA = 120;

/**
 * The receipt's NFC-e chave, checked (format and check digit) on both sides.
 * Absent keeps what is stored (an edit queued by an older app); '' or null removes it.
 */
export const campoChaveNfce = z.preprocess(
  (v) => (v === null ? '' : v),
  z
    .string({ error: `${MENSAGEM_CHAVE_INVALIDA}: envie os 44 caracteres como texto.` })
    .max(CHAVE_NFCE_ENTRADA_MAXIMA, `${MENSAGEM_CHAVE_INVALIDA}: ela tem 44 caracteres.`)
    .transform((texto, ctx): string | null => {
      if (texto.trim() === '') return null;
      const r = validarChaveNfce(texto);
      if (r.ok) return r.valor;
      ctx.addIssue({ code: 'custom', message: r.motivo });
      return z.NEVER;
    })
    .optional(),
);

/** Decision: an expense of R$ 0,00 is refused — it is a blank field, and the ledger only records real amounts. */
const valorDespesa = dinheiro('Valor').refine((v) => v > 0, 'Valor deve ser maior que zero.');

export const camposDespesa = {
  cidade_id: idInteiro('Cidade', 'f'),
  data_despesa: data('Data da despesa'),
  tipo: opcao('Tipo de despesa', TIPOS_DESPESA),
  tipo_outro: textoOpcional('Especificar tipo', TIPO_OUTRO_MAXIMO),
  valor: valorDespesa,
  descricao: textoOpcional('Descrição', DESCRICAO_DESPESA_MAXIMA),
  chave_nfce: campoChaveNfce,
  /** When the device recorded it (client clock), kept for the audit trail. */
  registrado_em: z.preprocess((v) => (v === '' ? undefined : v), z.iso.datetime({ error: 'Hora de registro inválida.' }).optional()),
};

export function exigirTipoOutro(v: { tipo: TipoDespesa; tipo_outro: string }, ctx: z.RefinementCtx) {
  if (v.tipo === 'outro' && v.tipo_outro === '') {
    ctx.addIssue({ code: 'custom', path: ['tipo_outro'], message: MENSAGEM_ESPECIFICAR_TIPO });
  }
}

export const despesaCriarSchema = z
  .object({
    /** Client UUID (v7): a replayed create is recognised and changes nothing. */
    id: uuidCliente('Identificador da despesa'),
    rota_id: idInteiro('Rota', 'f'),
    ...camposDespesa,
  })
  .superRefine(exigirTipoOutro);
export type DespesaCriarPedido = z.input<typeof despesaCriarSchema>;
export type DadosDespesaCriar = z.output<typeof despesaCriarSchema>;

export const despesaEditarSchema = z
  .object({
    /** The expense stays on its route; when sent it must be that route. */
    rota_id: idInteiro('Rota', 'f').optional(),
    ...camposDespesa,
    /** Older apps: 'true' removes the stored receipt (ignored when a new one comes in `cupom`). */
    excluir_cupom: booleano('Excluir cupom').optional().default(false),
    /**
     * The receipts to remove by id ('12,15' in a form, a list in JSON; '' removes
     * none); the files in `cupom` are added. Absent: an older app's edit, whose file replaces them all.
     */
    remover_cupons: z.preprocess(
      (v) => (typeof v === 'string' ? (v.trim() === '' ? [] : v.split(',').map((x) => x.trim())) : v),
      z.array(idInteiro('Comprovante'), { error: 'Lista de comprovantes a remover inválida.' }).max(MAXIMO_CUPONS_POR_DESPESA_ * 4, 'Lista de comprovantes a remover inválida.').optional(),
    ),
  })
  .superRefine(exigirTipoOutro);
export type DespesaEditarPedido = z.input<typeof despesaEditarSchema>;
export type DadosDespesaEditar = z.output<typeof despesaEditarSchema>;

export const rejeitarDespesaSchema = z.object({
  motivo: z.preprocess(
    (v) => (v === null || v === undefined ? '' : v),
    z
      .string({ error: MENSAGEM_MOTIVO })
      .max(MOTIVO_REJEICAO_MAXIMO * 4, `Motivo deve ter no máximo ${MOTIVO_REJEICAO_MAXIMO} caracteres.`)
      .trim()
      .min(1, MENSAGEM_MOTIVO)
      .max(MOTIVO_REJEICAO_MAXIMO, `Motivo deve ter no máximo ${MOTIVO_REJEICAO_MAXIMO} caracteres.`),
  ),
});

const vazioComoAusente = (v: unknown) => (v === '' || v === 'todas' || v === 'todos' ? undefined : v);

export const despesaFiltroSchema = z.object({
  funcionario_id: z.preprocess(vazioComoAusente, idInteiro('Funcionário').optional()),
  rota_id: z.preprocess(vazioComoAusente, idInteiro('Rota', 'f').optional()),
  /** Ignored when `rota_id` is given (the route already says its status). */
  status_rota: z.preprocess(vazioComoAusente, opcao('Status da rota', STATUS_ROTA).optional()),
  data_inicio: dataOpcional('Data início'),
  data_fim: dataOpcional('Data fim'),
  tipo: z.preprocess(vazioComoAusente, opcao('Tipo de despesa', TIPOS_DESPESA).optional()),
  status_aprovacao: z.preprocess(vazioComoAusente, opcao('Status', STATUS_APROVACAO).optional()),
  /** Only expenses evaluated after this instant (feeds the phone's notices of what changed). */
  avaliadas_desde: z.preprocess(vazioComoAusente, z.iso.datetime({ error: 'Data de avaliação inválida.' }).optional()),
  /** 'true': only the meals of route-days above the daily limit (shared/politicaDespesas.ts); 'false' or absent: no filter. */
  acima_do_limite: z.preprocess(vazioComoAusente, booleano('Acima do limite diário').optional()),
  ...camposPaginacao(DESPESAS_POR_PAGINA),
});
export type DespesaFiltro = z.input<typeof despesaFiltroSchema>;

/** One receipt of an expense as the API lists it; `url` serves it (admin or owner, bearer or session cookie). */
export const cupomDespesaSchema = z.object({
  id: z.number(),
  mime: z.string(),
  nome: z.string(),
  tamanho: z.number(),
  url: z.string(),
});
export type CupomDespesa = z.infer<typeof cupomDespesaSchema>;

export const despesaSchema = z.object({
  id: z.string(),
  rota_id: z.number(),
  cidade_id: z.number(),
  funcionario_id: z.number(),
  data_despesa: z.string(),
  tipo: z.enum(TIPOS_DESPESA),
  tipo_outro: z.string().nullable(),
  valor: z.number(),
  descricao: z.string(),
  /** Stored file name (random), or null without a receipt. */
  arquivo_cupom: z.string().nullable(),
  /** Where the receipt is served to the admin and the owner (bearer or session cookie). */
  cupom_url: z.string().nullable(),
  cupom_mime: z.string().nullable(),
  cupom_nome: z.string().nullable(),
  /** The NFC-e's chave de acesso (44 characters), or null. */
  chave_nfce: z.string().nullable(),
  /**
   * Every receipt, in order (up to 5); the four cupom fields above are the first one's, for
   * screens and installed apps that know one. Absent in copies kept by older versions.
   */
  cupons: z.array(cupomDespesaSchema).optional(),
  status_aprovacao: z.enum(STATUS_APROVACAO),
  motivo_rejeicao: z.string().nullable(),
  aprovada: z.boolean(),
  rejeitada: z.boolean(),
  avaliado_em: z.string().nullable(),
  funcionario_nome: z.string(),
  rota_nome: z.string(),
  rota_status: z.enum(STATUS_ROTA),
  cidade_nome: z.string(),
  cidade_uf: z.string(),
  registrado_em: z.string(),
  recebido_em: z.string(),
  atualizado_em: z.string(),
  /** True only when a replayed create or a delete answers an expense that was deleted. */
  excluida: z.boolean(),
  /**
   * A meal of a route-day whose meals (not deleted, not rejected) sum strictly above the route's daily
   * limit (shared/politicaDespesas.ts). The server always sends both; absent in copies kept by older
   * versions and in rows still queued on the phone.
   */
  acima_do_limite: z.boolean().optional(),
  /** The route's daily meal limit, in reais (180 or 220 with a secretary). */
  limite_diario: z.number().optional(),
});
export type Despesa = z.infer<typeof despesaSchema>;

export const totaisDespesasSchema = z.object({
  geral: z.number(),
  alimentacao: z.number(),
  hospedagem: z.number(),
  combustivel: z.number(),
  pedagio: z.number(),
  aluguel_sala: z.number(),
  outro: z.number(),
});
export type TotaisDespesas = z.infer<typeof totaisDespesasSchema>;

export const listaDespesasSchema = z.object({
  despesas: z.array(despesaSchema),
  totais: totaisDespesasSchema,
  ...camposRespostaPaginada,
});
export type ListaDespesas = z.infer<typeof listaDespesasSchema>;

export const umaDespesaSchema = z.object({ despesa: despesaSchema });

/** Bulk approval and rejection: at most one page's worth of a generous table, so one request stays short. */
export const AVALIACAO_EM_LOTE_MAXIMO = 100;
export const MENSAGEM_SELECIONE_DESPESAS = 'Selecione ao menos uma despesa.';

const idsEmLote = z.preprocess(
  (v) => (v === undefined || v === null || !Array.isArray(v) ? [] : v),
  z
    .array(uuidCliente('Identificador da despesa'))
    .min(1, MENSAGEM_SELECIONE_DESPESAS)
    .max(AVALIACAO_EM_LOTE_MAXIMO, `Selecione no máximo ${AVALIACAO_EM_LOTE_MAXIMO} despesas por vez.`)
    // The same row ticked twice (two pages of a table that moved) is evaluated once.
    .transform((ids) => [...new Set(ids)]),
);

export const aprovarDespesasSchema = z.object({ ids: idsEmLote });
export const rejeitarDespesasSchema = z.object({ ids: idsEmLote, motivo: rejeitarDespesaSchema.shape.motivo });
export type AprovarDespesasPedido = z.input<typeof aprovarDespesasSchema>;
export type RejeitarDespesasPedido = z.input<typeof rejeitarDespesasSchema>;

/** One result per distinct id, in the order sent: the evaluated expense, or why this one was not. */
export const avaliacaoEmLoteSchema = z.object({
  resultados: z.array(z.object({ id: z.string(), ok: z.boolean(), despesa: despesaSchema.optional(), error: z.string().optional() })),
  avaliadas: z.number(),
  falhas: z.number(),
});
export type AvaliacaoEmLote = z.infer<typeof avaliacaoEmLoteSchema>;
