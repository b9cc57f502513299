/**
 * What a version conflict of a day's closing is about, field by field: the totals alone
 * ('R$ 2.670,40 · 3 boletos' against 'R$ 2.550,90 · 3 boletos') do not say which payment changed.
 * Only the fields that differ, in the form's order, with the form's labels; money in pt-BR. The
 * comparison is the server's (exact values): a conflict is raised only when some field differs.
 */
import type { ConflitoDeVersao, ValoresEmConflito } from '../api/errors';
import { formatarCentavos } from '../money';

/** The conflict's first words, in the server's refusal and above the panel's table of differences. */
export const MENSAGEM_CONFLITO_DE_VERSAO = 'Este fechamento foi alterado em outro aparelho depois que este aparelho o leu.';

export interface DiferencaDoConflito {
  campo: keyof ValoresEmConflito;
  rotulo: string;
  /** What this device sent, ready to show. */
  aparelho: string;
  /** What the server holds now, ready to show. */
  servidor: string;
}

const SEM_OBSERVACAO = 'sem observação';

const CAMPOS: { campo: keyof ValoresEmConflito; rotulo: string; texto: (v: ValoresEmConflito) => string }[] = [
  { campo: 'valor_dinheiro', rotulo: 'Dinheiro', texto: (v) => formatarCentavos(v.valor_dinheiro) },
  { campo: 'valor_pix', rotulo: 'Pix', texto: (v) => formatarCentavos(v.valor_pix) },
  { campo: 'valor_cartao', rotulo: 'Cartão', texto: (v) => formatarCentavos(v.valor_cartao) },
  { campo: 'valor_link', rotulo: 'Link', texto: (v) => formatarCentavos(v.valor_link) },
  // A count, never money.
  { campo: 'valor_boletos', rotulo: 'Boletos', texto: (v) => String(v.valor_boletos) },
  { campo: 'observacoes', rotulo: 'Observações', texto: (v) => v.observacoes || SEM_OBSERVACAO },
];

/** The fields where this device's values and the server's differ. Pure. */
export function diferencasDoConflito(conflito: Pick<ConflitoDeVersao, 'servidor' | 'enviado'>): DiferencaDoConflito[] {
  return CAMPOS.filter(({ campo }) => conflito.servidor[campo] !== conflito.enviado[campo]).map(({ campo, rotulo, texto }) => ({
    campo,
    rotulo,
    aparelho: texto(conflito.enviado),
    servidor: texto(conflito.servidor),
  }));
}
