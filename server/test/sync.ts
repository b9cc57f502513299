/** What the sync tests send: a queued write as the phone's engine makes it. */
import { v7 as uuidv7 } from 'uuid';

/**
 * A sale's data as the phone queues it (shared/sync/esquemas.ts, the usual form: amounts in centavos,
 * every field present, `registrado_em` as toISOString writes it), without the route, which the tests
 * give in `mudar` or when the batch is sent. `mudar` overrides or removes (undefined) any field.
 */
export function dadosDeVendaNaFila(cidadeId: number, data: string, mudar: Record<string, unknown> = {}) {
  return {
    id: uuidv7(),
    cidade_id: cidadeId,
    data_venda: data,
    valor_dinheiro: 1_000,
    valor_pix: 250,
    valor_cartao: 0,
    valor_link: 0,
    valor_boletos: 1,
    observacoes: '',
    registrado_em: `${data}T20:00:00.000Z`,
    versao_base: null,
    ...mudar,
  };
}
