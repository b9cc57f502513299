/**
 * Reads a city's closing form with the API's own rules (the shared schema), so the phone refuses what
 * the server would. Its own module: the schema brings zod, loaded when a card is opened for editing
 * (formulario.ts, carregarLeitorDoFormulario), not with the list of cities.
 */
import { valoresVendaSchema } from '../../../shared/schemas/vendas';
import { errosPorCampo } from '../components/errosDeFormulario';
import type { CamposVenda } from './formulario';
import type { ValoresVendaCentavos } from './fila';

/**
 * The form's text fields read into centavos (the schema converts the typed reais), or each field's
 * pt-BR error. The one conversion of a sale's money: the queue, the sync and the server keep centavos.
 */
export function lerCampos(campos: CamposVenda): { ok: true; valores: ValoresVendaCentavos } | { ok: false; erros: Record<string, string> } {
  const r = valoresVendaSchema.safeParse(campos);
  if (!r.success) return { ok: false, erros: errosPorCampo(r.error) };
  const { valor_dinheiro, valor_pix, valor_cartao, valor_link, valor_boletos, observacoes } = r.data;
  return { ok: true, valores: { valor_dinheiro, valor_pix, valor_cartao, valor_link, valor_boletos, observacoes } };
}

