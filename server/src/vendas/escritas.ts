/** The sale writes a phone queues (see sync/escritas.ts): used by /api/vendas and by the batch sync. */
import { z } from 'zod';
import { paramsVenda, vendaCriarSchema, vendaEditarSchema } from '../../../shared/schemas/vendas';
import { depois, type Talvez } from '../db/talvez';
import { definirEscrita, type ContextoEscrita, type RespostaEscrita } from '../sync/escritas';
import { buscarVenda, buscarVendaApresentada } from './repositorio';
import { editarVenda, salvarVenda } from './servico';

/**
 * The sale as the screens list it; its receipt is when it last changed on the server. A class, not
 * an object of closures: a batch builds one per write and most are only asked for the receipt.
 */
export class RespostaVenda implements RespostaEscrita {
  constructor(
    private readonly ctx: ContextoEscrita,
    readonly status: number,
    private readonly id: string,
    /** Known when this write created the sale. */
    private readonly atualizadaEm?: string,
  ) {}

  async corpo() {
    return { venda: (await buscarVendaApresentada(this.ctx.db, this.id))! };
  }

  recebidoEm(): Talvez<string> {
    return this.atualizadaEm ?? depois(buscarVenda(this.ctx.db, this.id), (venda) => venda!.atualizadoEm);
  }
}

export const escritaSalvarVenda = definirEscrita({
  metodo: 'POST',
  caminho: '/vendas',
  preservaRotas: true,
  params: z.object({}),
  corpo: vendaCriarSchema,
  async executar(ctx, usuario, _params, dados) {
    const { id, criada, recebidaEm } = await salvarVenda(ctx.db, usuario, dados, ctx.fuso);
    return new RespostaVenda(ctx, criada ? 201 : 200, id, recebidaEm);
  },
});

export const escritaEditarVenda = definirEscrita({
  metodo: 'PUT',
  caminho: '/vendas/:id',
  preservaRotas: true,
  params: paramsVenda,
  corpo: vendaEditarSchema,
  async executar(ctx, usuario, params, dados) {
    return new RespostaVenda(ctx, 200, await editarVenda(ctx.db, usuario, params.id, dados, ctx.fuso));
  },
});
