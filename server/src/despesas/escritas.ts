/** The expense writes a phone queues (see sync/escritas.ts): used by /api/despesas and by the batch sync. */
import { z } from 'zod';
import { uuidCliente } from '../../../shared/schemas/campos';
import { despesaCriarSchema, despesaEditarSchema } from '../../../shared/schemas/despesas';
import { definirEscrita } from '../sync/escritas';
import { buscarDespesa, buscarDespesaApresentada } from './repositorio';
import { corrigirDespesa, criarDespesa, editarDespesa, excluirDespesa } from './servico';

export const paramsDespesa = z.object({ id: uuidCliente('Identificador da despesa') });

// Receipts are files: these writes run outside the batch's shared transaction (gravaArquivos).

export const escritaCriarDespesa = definirEscrita({
  metodo: 'POST',
  caminho: '/despesas',
  preservaRotas: true,
  params: z.object({}),
  corpo: despesaCriarSchema,
  gravaArquivos: true,
  async executar(ctx, usuario, _params, dados, cupons) {
    const { despesa, criada } = await criarDespesa(ctx, usuario, dados, cupons);
    return { status: criada ? 201 : 200, corpo: async () => ({ despesa: (await buscarDespesaApresentada(ctx.db, despesa.id))! }), recebidoEm: async () => (await buscarDespesa(ctx.db, despesa.id))!.recebidoEm };
  },
});

export const escritaEditarDespesa = definirEscrita({
  metodo: 'PUT',
  caminho: '/despesas/:id',
  preservaRotas: true,
  params: paramsDespesa,
  corpo: despesaEditarSchema,
  gravaArquivos: true,
  async executar(ctx, usuario, params, dados, cupons) {
    const despesa = await editarDespesa(ctx, usuario, params.id, dados, cupons);
    return { status: 200, corpo: async () => ({ despesa: (await buscarDespesaApresentada(ctx.db, despesa.id))! }), recebidoEm: async () => (await buscarDespesa(ctx.db, despesa.id))!.atualizadoEm };
  },
});

export const escritaExcluirDespesa = definirEscrita({
  metodo: 'DELETE',
  caminho: '/despesas/:id',
  preservaRotas: true,
  params: paramsDespesa,
  corpo: z.unknown(),
  gravaArquivos: true,
  async executar(ctx, usuario, params) {
    const despesa = await excluirDespesa(ctx, usuario, params.id);
    return {
      status: 200,
      corpo: async () => ({ message: 'Despesa excluída com sucesso!', despesa: (await buscarDespesaApresentada(ctx.db, despesa.id))! }),
      recebidoEm: async () => (await buscarDespesa(ctx.db, despesa.id))!.atualizadoEm,
    };
  },
});

/** A rejected expense corrected and sent again (back to Pendente): 'despesa.corrigir'. */
export const escritaCorrigirDespesa = definirEscrita({
  metodo: 'PUT',
  caminho: '/despesas/:id/corrigir',
  preservaRotas: true,
  params: paramsDespesa,
  corpo: despesaEditarSchema,
  gravaArquivos: true,
  async executar(ctx, usuario, params, dados, cupons) {
    const despesa = await corrigirDespesa(ctx, usuario, params.id, dados, cupons);
    return { status: 200, corpo: async () => ({ despesa: (await buscarDespesaApresentada(ctx.db, despesa.id))! }), recebidoEm: async () => (await buscarDespesa(ctx.db, despesa.id))!.atualizadoEm };
  },
});
