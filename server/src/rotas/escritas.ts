/** The route writes a phone queues (see sync/escritas.ts): used by /api/rotas and by the batch sync. */
import { z } from 'zod';
import { hoje } from '../../../shared/dates';
import { idInteiro, paramsId } from '../../../shared/schemas/campos';
import { desfazerVisitaSchema, visitaSchema } from '../../../shared/schemas/rotas';
import { definirEscrita } from '../sync/escritas';
import { apresentarRotas } from './repositorio';
import { desfazerVisita, finalizarRota, registrarVisita } from './servico';

export const escritaVisitar = definirEscrita({
  metodo: 'POST',
  caminho: '/rotas/:rotaId/cidades/:cidadeId/visitar',
  preservaRotas: true,
  params: z.object({ rotaId: idInteiro('Rota', 'f'), cidadeId: idInteiro('Cidade', 'f') }),
  // The spec's call has no payload; the offline client sends the visit's id and date.
  corpo: z.preprocess((v) => v ?? {}, visitaSchema),
  async executar(ctx, usuario, params, corpo) {
    const visita = await registrarVisita(ctx.db, usuario, ctx.fuso, params.rotaId, params.cidadeId, {
      ...(corpo.id ? { id: corpo.id } : {}),
      ...(corpo.data ? { data: corpo.data } : {}),
      ...(corpo.registrado_em ? { registradoEm: corpo.registrado_em } : {}),
    });
    return {
      status: 200,
      corpo: async () => ({ visita: { id: visita.id, rota_id: visita.rotaId, cidade_id: visita.cidadeId, data: visita.data, recebido_em: visita.recebidoEm } }),
      recebidoEm: async () => visita.recebidoEm,
    };
  },
});

/** The phone's 'Desfazer' of a visit the server already has (rotas/servico.ts, desfazerVisita). */
export const escritaDesfazerVisita = definirEscrita({
  metodo: 'POST',
  caminho: '/rotas/:rotaId/cidades/:cidadeId/desfazer-visita',
  preservaRotas: true,
  params: z.object({ rotaId: idInteiro('Rota', 'f'), cidadeId: idInteiro('Cidade', 'f') }),
  corpo: desfazerVisitaSchema,
  async executar(ctx, usuario, params, corpo) {
    const removida = await desfazerVisita(ctx.db, usuario, ctx.fuso, params.rotaId, params.cidadeId, corpo.data);
    const recebidoEm = new Date().toISOString();
    return { status: 200, corpo: async () => ({ removida }), recebidoEm: async () => recebidoEm };
  },
});

export const escritaFinalizarRota = definirEscrita({
  metodo: 'PATCH',
  caminho: '/rotas/:id/finalizar',
  params: paramsId,
  corpo: z.unknown(),
  async executar(ctx, usuario, params) {
    const rota = await finalizarRota(ctx.db, usuario, params.id);
    return {
      status: 200,
      corpo: async () => ({ rota: (await apresentarRotas(ctx.db, [rota], hoje(ctx.fuso)))[0]! }),
      recebidoEm: async () => rota.finalizadaEm,
    };
  },
});
