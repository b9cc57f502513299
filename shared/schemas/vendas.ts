/**
 * Sales (vendas): a city's daily closing. Request and response schemas shared by the API and the
 * employee's form. Amounts arrive in reais (or as typed: '12,50') and leave the schema as centavos.
 */
import { z } from '../zod';
import { contagem, data, dataOpcional, dinheiro, idInteiro, opcao, textoOpcional, uuidCliente } from './campos';
import { camposPaginacao, camposRespostaPaginada } from './paginacao';
import { STATUS_ROTA } from './rotas';

export const OBSERVACOES_MAXIMO = 1000;

/** Each boleto adds this to the employee's salary (spec section 9); boletos are never sold value. */
export const BONUS_BOLETO_CENTAVOS = 550;

export { HISTORICO_POR_CIDADE } from '../historicoDeVendas';

export const registradoEm = z.iso
  .datetime({ error: 'Hora de registro inválida.' })
  // One textual form, so the server compares instants as strings ('...00Z' and '...00.000Z' are equal).
  .transform((v) => new Date(v).toISOString())
  .optional();

/** The amounts and note of a closing, exactly as the employee's form and the API take them (blank is 0). */
export const valoresVendaSchema = z.object({
  valor_dinheiro: dinheiro('Dinheiro', { obrigatorio: false }),
  valor_pix: dinheiro('Pix', { obrigatorio: false }),
  valor_cartao: dinheiro('Cartão', { obrigatorio: false }),
  valor_link: dinheiro('Link', { obrigatorio: false }),
  valor_boletos: contagem('Boletos'),
  observacoes: textoOpcional('Observações', OBSERVACOES_MAXIMO),
});
export type ValoresVenda = z.output<typeof valoresVendaSchema>;

/** POST /vendas: the client creates the id (offline), and says when the device recorded it. */
export const vendaCriarSchema = valoresVendaSchema.extend({
  id: uuidCliente('Identificador da venda'),
  rota_id: idInteiro('Rota', 'f'),
  cidade_id: idInteiro('Cidade', 'f'),
  data_venda: data('Data da venda'),
  registrado_em: registradoEm,
});
export type VendaCriarPedido = z.input<typeof vendaCriarSchema>;
export type VendaCriarDados = z.output<typeof vendaCriarSchema>;

/** PUT /vendas/{id}: the money and note fields (a full replacement: blank is 0). */
export const vendaEditarSchema = valoresVendaSchema.extend({
  registrado_em: registradoEm,
  /** The version this edit was based on (from the listing): refused as a conflict if it changed since. */
  versao_base: z.number({ error: 'Versão de base inválida.' }).int('Versão de base inválida.').positive('Versão de base inválida.').optional(),
});
export type VendaEditarDados = z.output<typeof vendaEditarSchema>;

export const paramsVenda = z.object({ id: uuidCliente('Identificador da venda') });

function vazioComoAusente(v: unknown): unknown {
  return v === '' || v === null ? undefined : v;
}

/** '12', '12,15', [12, 15] or 12: the admin's city checkboxes send several. */
const listaDeCidades = z.preprocess(
  (v) => {
    const partes = (Array.isArray(v) ? v : [v]).flatMap((x) => (typeof x === 'string' ? x.split(',') : [x]));
    const limpas = partes.map((p) => (typeof p === 'string' ? p.trim() : p)).filter((p) => p !== '' && p !== undefined && p !== null);
    return limpas.length === 0 ? undefined : limpas;
  },
  z.array(idInteiro('Cidade', 'f')).max(300, 'Selecione no máximo 300 cidades.').optional(),
);

/** Default page of GET /vendas and /vendas/fechamento-diario (at most LIMITE_MAXIMO_PAGINA a page). */
export const VENDAS_POR_PAGINA = 100;

/** Filters of GET /vendas and GET /vendas/fechamento-diario (spec section 7). */
export const vendasFiltroSchema = z.object({
  funcionario_id: z.preprocess(vazioComoAusente, idInteiro('Funcionário').optional()),
  rota_id: z.preprocess(vazioComoAusente, idInteiro('Rota', 'f').optional()),
  cidade_id: listaDeCidades,
  data: dataOpcional('Data'),
  data_inicio: dataOpcional('Data de início'),
  data_fim: dataOpcional('Data de fim'),
  status_rota: z.preprocess((v) => (v === '' || v === 'todas' ? undefined : v), opcao('Status da rota', STATUS_ROTA).optional()),
  ...camposPaginacao(VENDAS_POR_PAGINA),
});
export type VendasFiltro = z.output<typeof vendasFiltroSchema>;

/** A sale as listed: the record plus the names the screens show. */
export const vendaListadaSchema = z.object({
  id: z.string(),
  rota_id: z.number(),
  cidade_id: z.number(),
  funcionario_id: z.number(),
  data_venda: z.string(),
  valor_dinheiro: z.number(),
  valor_pix: z.number(),
  valor_cartao: z.number(),
  valor_link: z.number(),
  valor_boletos: z.number().int(),
  observacoes: z.string(),
  funcionario_nome: z.string(),
  rota_nome: z.string(),
  rota_status: z.enum(STATUS_ROTA),
  cidade_nome: z.string(),
  cidade_uf: z.string(),
  /** dinheiro + pix + cartão + link (boletos are a count, never money). */
  total_vendas: z.number(),
  /** When the device recorded the values now stored. */
  registrado_em: z.string(),
  /** When the server first received this closing. */
  recebido_em: z.string(),
  /** When the server last stored a change to it (equals recebido_em until an edit arrives). */
  atualizado_em: z.string(),
  /** Goes up with every change: an offline edit sends the version it was based on (versao_base). */
  versao: z.number().int(),
});
export type VendaListada = z.infer<typeof vendaListadaSchema>;

export const totaisVendasSchema = z.object({
  dinheiro: z.number(),
  pix: z.number(),
  cartao: z.number(),
  link: z.number(),
  boletos: z.number().int(),
  total_geral: z.number(),
});
export type TotaisVendas = z.infer<typeof totaisVendasSchema>;

/** `totais` are those of the whole filtered set; `vendas` one page of it (`total` rows in all). */
export const fechamentoDiarioRespostaSchema = z.object({ totais: totaisVendasSchema, vendas: z.array(vendaListadaSchema), ...camposRespostaPaginada });
export type FechamentoDiario = z.infer<typeof fechamentoDiarioRespostaSchema>;

export const vendasRespostaSchema = z.object({ vendas: z.array(vendaListadaSchema), ...camposRespostaPaginada });
export const vendaRespostaSchema = z.object({ venda: vendaListadaSchema });

export const resumoVendasSchema = z.object({
  total_vendas: z.number(),
  total_boletos: z.number().int(),
  total_dinheiro: z.number(),
  total_pix: z.number(),
  total_cartao: z.number(),
  total_link: z.number(),
});
export const resumoRespostaSchema = z.object({ resumo: resumoVendasSchema });
export type ResumoVendas = z.infer<typeof resumoVendasSchema>;

/** One past closing in a city's 'Histórico de vendas'. */
export const vendaHistoricoSchema = z.object({
  id: z.string(),
  cidade_id: z.number(),
  data_venda: z.string(),
  total_vendas: z.number(),
  valor_boletos: z.number().int(),
  registrado_em: z.string(),
});
export type VendaHistorico = z.infer<typeof vendaHistoricoSchema>;

/** GET /vendas/rota/{id}/historico: the last sales of each city of the route, newest first. */
export const historicoRespostaSchema = z.object({ historico: z.array(vendaHistoricoSchema) });
export type HistoricoResposta = z.infer<typeof historicoRespostaSchema>;
