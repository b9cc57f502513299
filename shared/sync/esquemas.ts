/**
 * The schema of each offline write's data on the wire (money in integer centavos), checked by the
 * server for the batch and the rescue import. Each is typed against DadosOperacao (./operacoes.ts):
 * a schema that drifts from the declared data is a compile error.
 */
import { z } from '../zod';
import { diaExiste, digitosEm, ehDataValida } from '../dates';
import { MAXIMO_CENTAVOS } from '../money';
import { CONTAGEM_MAXIMA, centavos, contagem, data, idInteiro, opcao, textoOpcional, uuidCliente } from '../schemas/campos';
import { camposDespesa, exigirTipoOutro } from '../schemas/despesas';
import { visitaSchema } from '../schemas/rotas';
import { TIPOS_DESPESA } from '../schemas/tiposDespesa';
import { OBSERVACOES_MAXIMO, registradoEm } from '../schemas/vendas';
import { MAXIMO_CUPONS_POR_DESPESA, type DadosOperacao, type TipoOperacao } from './operacoes';

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
    remover_cupons: z.array(idInteiro('Comprovante'), { error: 'Lista de comprovantes a remover inválida.' }).max(MAXIMO_CUPONS_POR_DESPESA, 'Lista de comprovantes a remover inválida.').optional(),
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
  'visita.desfazer': z.object({
    id: uuidCliente('Identificador da operação'),
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


const UUID_CANONICO = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** 'yyyy-mm-ddThh:mm:ss.sssZ': where toISOString puts each separator. */
const SEPARADORES_DO_INSTANTE = [[4, '-'], [7, '-'], [10, 'T'], [13, ':'], [16, ':'], [19, '.'], [23, 'Z']] as const;

/**
 * An instant exactly as toISOString writes it (what the phone sends) for the years 1000-2999, checked by
 * its digits: the same answer as `new Date(t).toISOString() === t`, without two Dates (or a regex's
 * groups) per sale.
 */
function instanteCanonico(texto: string): boolean {
  if (texto.length !== 24) return false;
  for (const [i, c] of SEPARADORES_DO_INSTANTE) if (texto[i] !== c) return false;
  const ano = digitosEm(texto, 0, 4);
  const hora = digitosEm(texto, 11, 2);
  const minuto = digitosEm(texto, 14, 2);
  const segundo = digitosEm(texto, 17, 2);
  if (ano < 1000 || hora < 0 || hora > 23 || minuto < 0 || minuto > 59 || segundo < 0 || segundo > 59 || digitosEm(texto, 20, 3) < 0) return false;
  const mes = digitosEm(texto, 5, 2);
  const dia = digitosEm(texto, 8, 2);
  return mes >= 0 && dia >= 0 && diaExiste(ano, mes, dia);
}

const inteiroPositivo = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;
const inteiroEntre = (v: unknown, max: number): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= max;
const objetoSimples = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;

/**
 * A sale's data in the form the phone always sends (every field present and already normal: a
 * lowercase id, numbers as numbers, a trimmed note, `registrado_em` as toISOString writes it),
 * checked without zod: answers exactly what ESQUEMAS_OPERACAO['venda.salvar'] answers for it, or
 * null for anything else, which then goes through the schema (its normalising and its messages).
 * Every queued sale is checked, and the schema cost a third of the server's time per sale
 * (docs/decisions/vazao-da-sincronizacao.md, 'A conferência sem o zod'). esquemas.test.ts holds it to the schema on generated inputs.
 */
export function vendaCanonica(dados: unknown): DadosValidados<'venda.salvar'> | null {
  if (!objetoSimples(dados)) return null;
  const { id, rota_id, cidade_id, data_venda, valor_dinheiro, valor_pix, valor_cartao, valor_link, valor_boletos, observacoes, registrado_em, versao_base } = dados;
  if (typeof id !== 'string' || !UUID_CANONICO.test(id)) return null;
  if (!inteiroPositivo(rota_id) || !inteiroPositivo(cidade_id)) return null;
  if (typeof data_venda !== 'string' || !ehDataValida(data_venda)) return null;
  if (!inteiroEntre(valor_dinheiro, MAXIMO_CENTAVOS) || !inteiroEntre(valor_pix, MAXIMO_CENTAVOS) || !inteiroEntre(valor_cartao, MAXIMO_CENTAVOS) || !inteiroEntre(valor_link, MAXIMO_CENTAVOS)) return null;
  if (!inteiroEntre(valor_boletos, CONTAGEM_MAXIMA)) return null;
  if (typeof observacoes !== 'string' || observacoes.length > OBSERVACOES_MAXIMO || observacoes.trim() !== observacoes) return null;
  if (typeof registrado_em !== 'string' || !instanteCanonico(registrado_em)) return null;
  const temVersao = 'versao_base' in dados;
  if (temVersao && versao_base !== null && !inteiroPositivo(versao_base)) return null;
  // Two literals, not a spread: copying the object into another cost more than every check above.
  if (!temVersao) return { id, rota_id, cidade_id, data_venda, valor_dinheiro, valor_pix, valor_cartao, valor_link, valor_boletos, observacoes, registrado_em };
  const versao = versao_base as number | null;
  return { id, rota_id, cidade_id, data_venda, valor_dinheiro, valor_pix, valor_cartao, valor_link, valor_boletos, observacoes, registrado_em, versao_base: versao };
}

/** The checks without zod, per kind, for the data in the phone's usual form (null: use the schema). */
export const VALIDACOES_CANONICAS: { [T in TipoOperacao]?: (dados: unknown) => DadosValidados<T> | null } = {
  'venda.salvar': vendaCanonica,
};

/** operacaoSyncSchema's answer for an envelope in the usual form, without zod (null: use the schema). */
export function operacaoCanonica(bruta: unknown): z.output<typeof operacaoSyncSchema> | null {
  if (!objetoSimples(bruta)) return null;
  const { id, tipo, seq } = bruta;
  if (typeof id !== 'string' || id.length < 1 || id.length > 100) return null;
  if (typeof tipo !== 'string' || tipo.length > 60) return null;
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0 || !('dados' in bruta)) return null;
  return { id, tipo, seq, dados: bruta.dados };
}
