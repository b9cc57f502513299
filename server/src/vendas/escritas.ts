/** The sale writes a phone queues (see sync/escritas.ts): used by /api/vendas and by the batch sync. */
import { z } from 'zod';
import { paramsVenda, vendaCriarSchema, vendaEditarSchema } from '../../../shared/schemas/vendas';
import { definirEscrita } from '../sync/escritas';
import { editarVenda, salvarVenda } from './servico';

export const escritaSalvarVenda = definirEscrita({
  metodo: 'POST',
  caminho: '/vendas',
  params: z.object({}),
  corpo: vendaCriarSchema,
  executar(ctx, usuario, _params, dados) {
    const { venda, criada } = salvarVenda(ctx.db, usuario, dados, ctx.fuso);
    return { status: criada ? 201 : 200, corpo: { venda } };
  },
});

export const escritaEditarVenda = definirEscrita({
  metodo: 'PUT',
  caminho: '/vendas/:id',
  params: paramsVenda,
  corpo: vendaEditarSchema,
  executar(ctx, usuario, params, dados) {
    return { status: 200, corpo: { venda: editarVenda(ctx.db, usuario, params.id, dados) } };
  },
});
