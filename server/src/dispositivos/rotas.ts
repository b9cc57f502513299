/**
 * POST /api/dispositivos/relato: an employee's phone reporting its queue when it changed and no other
 * request went out (the queue just emptied after a sync). The report is the request's headers, read
 * by the hook in plugin.ts like on any other request; there is no body and nothing to answer.
 */
import { z } from 'zod';
import type { App } from '../tipos';

export default async function rotasDispositivos(app: App) {
  app.post('/relato', { onRequest: app.exigirFuncionario, schema: { response: { 204: z.null() } } }, async (_request, reply) => reply.code(204).send(null));
}
