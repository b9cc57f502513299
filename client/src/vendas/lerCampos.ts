/**
 * Reads a city's closing form with the API's own rules (the shared schema), so the phone refuses what
 * the server would. Its own module: the schema brings zod, loaded when a card is opened for editing
 * (formulario.ts, carregarLeitorDoFormulario), not with the list of cities.
 */
import { centavosParaReais } from '../../../shared/money';
import { valoresVendaSchema } from '../../../shared/schemas/vendas';
import { errosPorCampo } from '../components/errosDeFormulario';
import type { CamposVenda } from './formulario';
import type { ValoresVendaReais } from './fila';

/** The form's text fields as the API takes them (centavos back to reais for the queue), or each field's pt-BR error. */
export function lerCampos(campos: CamposVenda): { ok: true; valores: ValoresVendaReais } | { ok: false; erros: Record<string, string> } {
  const r = valoresVendaSchema.safeParse(campos);
  if (!r.success) return { ok: false, erros: errosPorCampo(r.error) };
  const v = r.data;
  return {
    ok: true,
    valores: {
      valor_dinheiro: centavosParaReais(v.valor_dinheiro),
      valor_pix: centavosParaReais(v.valor_pix),
      valor_cartao: centavosParaReais(v.valor_cartao),
      valor_link: centavosParaReais(v.valor_link),
      valor_boletos: v.valor_boletos,
      observacoes: v.observacoes,
    },
  };
}

