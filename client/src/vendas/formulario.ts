/**
 * The closing form of a city (spec section 5): Dinheiro, Pix, Cartão, Link (money, '12,50' accepted),
 * Boletos (a whole count), Observações. Blank is 0. A sale is sent only when something was sold or
 * noted; otherwise the city is only marked visited.
 */
import { temConteudo, type VendaDoDia } from './estadoCidades';
import type { ValoresVendaCentavos } from './fila';

export const CAMPOS_DINHEIRO = [
  { campo: 'valor_dinheiro', rotulo: 'Dinheiro' },
  { campo: 'valor_pix', rotulo: 'Pix' },
  { campo: 'valor_cartao', rotulo: 'Cartão' },
  { campo: 'valor_link', rotulo: 'Link' },
] as const;

export interface CamposVenda {
  valor_dinheiro: string;
  valor_pix: string;
  valor_cartao: string;
  valor_link: string;
  valor_boletos: string;
  observacoes: string;
}


/** 12.5 -> '12,50'; 0 -> '' (blank is 0, and an empty field is quicker to type into). */
function paraCampo(reais: number): string {
  return reais > 0 ? reais.toFixed(2).replace('.', ',') : '';
}

export function camposDe(venda: VendaDoDia | null): CamposVenda {
  return {
    valor_dinheiro: paraCampo(venda?.valor_dinheiro ?? 0),
    valor_pix: paraCampo(venda?.valor_pix ?? 0),
    valor_cartao: paraCampo(venda?.valor_cartao ?? 0),
    valor_link: paraCampo(venda?.valor_link ?? 0),
    valor_boletos: venda && venda.valor_boletos > 0 ? String(venda.valor_boletos) : '',
    observacoes: venda?.observacoes ?? '',
  };
}

/**
 * The form's reader (lerCampos.ts) with the API's schema: zod and the shared schemas are some 90 KB
 * the list of cities does not need to appear on a repeat visit, so they load when a card is
 * opened for editing, and Salvar waits for the same promise.
 */
let leitor: Promise<typeof import('./lerCampos')> | null = null;
export function carregarLeitorDoFormulario(): Promise<typeof import('./lerCampos')> {
  leitor ??= import('./lerCampos').catch((erro: unknown) => {
    leitor = null; // not kept: the next tap tries again
    throw erro;
  });
  return leitor;
}

/**
 * 'venda' sends the closing; 'visita' only marks the city visited. A city that already has a closing
 * keeps it and gets the new values even when they are all blank: otherwise clearing a wrong closing
 * would be silently ignored.
 */
export function oQueEnviar(valores: ValoresVendaCentavos, jaTemVenda: boolean): 'venda' | 'visita' {
  return jaTemVenda || temConteudo(valores) ? 'venda' : 'visita';
}
