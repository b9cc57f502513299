/**
 * The schema of each offline write's data on the wire (money in integer centavos), checked by the
 * server for the batch and the rescue import. Each is typed against DadosOperacao (./operacoes.ts):
 * a schema that drifts from the declared data is a compile error.
 */
import { z } from '../zod';
import { centavos, contagem, data, idInteiro, opcao, textoOpcional, uuidCliente } from '../schemas/campos';
import { camposDespesa, exigirTipoOutro } from '../schemas/despesas';
import { visitaSchema } from '../schemas/rotas';
import { TIPOS_DESPESA } from '../schemas/tiposDespesa';
import { OBSERVACOES_MAXIMO, registradoEm } from '../schemas/vendas';
import type { DadosOperacao, TipoOperacao } from './operacoes';

const valorDespesa = centavos('Valor').refine((v) => v > 0, 'Valor deve ser maior que zero.');

const camposDespesaCentavos = {
  ...camposDespesa,
  tipo: opcao('Tipo de despesa', TIPOS_DESPESA),
  valor: valorDespesa,
};

const versaoBase = z
  .number({ error: 'Versão de base inválida.' })
  .int('Versão de base inválida.')
  .positive('Versão de base inválida.')
  .nullable()
  .optional();

const esquemaEditarDespesa = z
  .object({
    id: uuidCliente('Identificador da despesa'),
    rota_id: idInteiro('Rota', 'f'),
    ...camposDespesaCentavos,
    excluir_cupom: z.boolean({ error: 'Excluir cupom inválido.' }).optional().default(false),
  })
  .superRefine(exigirTipoOutro);

export const ESQUEMAS_OPERACAO = {
  'venda.salvar': z.object({
    id: uuidCliente('Identificador da venda'),
    rota_id: idInteiro('Rota', 'f'),
    cidade_id: idInteiro('Cidade', 'f'),
    data_venda: data('Data da venda'),
    valor_dinheiro: centavos('Dinheiro', { obrigatorio: false }),
    valor_pix: centavos('Pix', { obrigatorio: false }),
    valor_cartao: centavos('Cartão', { obrigatorio: false }),
    valor_link: centavos('Link', { obrigatorio: false }),
    valor_boletos: contagem('Boletos'),
    observacoes: textoOpcional('Observações', OBSERVACOES_MAXIMO),
    registrado_em: registradoEm,
    versao_base: versaoBase,
  }),
  'visita.registrar': visitaSchema.extend({
    id: uuidCliente('Identificador da visita'),
    rota_id: idInteiro('Rota', 'f'),
    cidade_id: idInteiro('Cidade', 'f'),
    data: data('Data da visita'),
  }),
  'rota.finalizar': z.object({ rota_id: idInteiro('Rota', 'f') }),
  'despesa.criar': z
    .object({ id: uuidCliente('Identificador da despesa'), rota_id: idInteiro('Rota', 'f'), ...camposDespesaCentavos })
    .superRefine(exigirTipoOutro),
  'despesa.editar': esquemaEditarDespesa,
  'despesa.excluir': z.object({ id: uuidCliente('Identificador da despesa'), rota_id: idInteiro('Rota', 'f').optional() }),
  'despesa.corrigir': esquemaEditarDespesa,
} satisfies { [T in TipoOperacao]: z.ZodType<DadosOperacao[T], unknown> };

export type DadosValidados<T extends TipoOperacao> = z.output<(typeof ESQUEMAS_OPERACAO)[T]>;

const MENSAGEM_OPERACAO = 'Operação desconhecida: atualize o aplicativo e tente de novo.';

/** One operation of a batch or rescue file in the current format: its data is checked per kind later. */
export const operacaoSyncSchema = z.object({
  id: z.string({ error: 'Identificador da operação inválido.' }).min(1, 'Identificador da operação inválido.').max(100, 'Identificador da operação inválido.'),
  tipo: z.string({ error: MENSAGEM_OPERACAO }).max(60, MENSAGEM_OPERACAO),
  seq: z.number({ error: 'Sequência da operação inválida.' }).int('Sequência da operação inválida.').nonnegative('Sequência da operação inválida.'),
  dados: z.unknown(),
});

