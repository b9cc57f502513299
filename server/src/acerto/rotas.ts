/** POST /api/rotas/:id/acerto: the admin records a finished route's settlement (acerto/servico.ts). */
import { z } from 'zod';
import { idInteiro } from '../../../shared/schemas/campos';
import { acertoRotaSchema, registrarAcertoSchema } from '../../../shared/schemas/acerto';
import { acertoDaRota } from '../relatorios/servico';
import type { App } from '../tipos';
import { registrarAcerto } from './servico';

export default async function rotasAcerto(app: App) {
  app.addHook('onRequest', app.autenticar);

  app.post(
    '/:id/acerto',
    {
      onRequest: app.exigirAdmin,
      schema: { params: z.object({ id: idInteiro('Rota', 'f') }), body: registrarAcertoSchema, response: { 201: z.object({ acerto: acertoRotaSchema }) } },
    },
    async (request, reply) => {
      await registrarAcerto(app.db, request.usuario, request.params.id, request.body);
      request.log.info({ rotaId: request.params.id, por: request.usuario.id }, 'acerto registrado');
      return reply.code(201).send({ acerto: await acertoDaRota(app.db, request.params.id) });
    },
  );
}
