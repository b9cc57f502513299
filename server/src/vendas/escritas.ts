/** The sale writes a phone queues (see sync/escritas.ts): used by /api/vendas and by the batch sync. */
import { z } from 'zod';
import { paramsVenda, vendaCriarSchema, vendaEditarSchema } from '../../../shared/schemas/vendas';
import { definirEscrita, type ContextoEscrita, type RespostaEscrita } from '../sync/escritas';
import { buscarVenda, buscarVendaApresentada } from './repositorio';
import { editarVenda, salvarVenda } from './servico';

/** The sale as the screens list it; its receipt is when it last changed on the server. */
function respostaVenda(ctx: ContextoEscrita, status: number, id: string): RespostaEscrita {
  return { status, corpo: () => ({ venda: buscarVendaApresentada(ctx.db, id)! }), recebidoEm: () => buscarVenda(ctx.db, id)!.atualizadoEm };
}

export const escritaSalvarVenda = definirEscrita({
  metodo: 'POST',
  caminho: '/vendas',
  params: z.object({}),
  corpo: vendaCriarSchema,
  executar(ctx, usuario, _params, dados) {
    const { id, criada } = salvarVenda(ctx.db, usuario, dados, ctx.fuso);
    return respostaVenda(ctx, criada ? 201 : 200, id);
  },
});

export const escritaEditarVenda = definirEscrita({
  metodo: 'PUT',
  caminho: '/vendas/:id',
  params: paramsVenda,
  corpo: vendaEditarSchema,
  executar(ctx, usuario, params, dados) {
    return respostaVenda(ctx, 200, editarVenda(ctx.db, usuario, params.id, dados));
  },
});
