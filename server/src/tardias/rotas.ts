/** /api/rotas/:id/tardios: writes that reached a finished route, listed, accepted or refused (tardias/servico.ts). */
import { z } from 'zod';
import { idInteiro } from '../../../shared/schemas/campos';
import { recusarTardiaSchema, tardiaRespostaSchema, tardiasRespostaSchema } from '../../../shared/schemas/tardias';
import { pastaTemporaria } from '../arquivos/temporarios';
import { contextoDeEscrita } from '../sync/contexto';
import type { App } from '../tipos';
import { aceitarTardia, listarTardias, recusarTardia } from './servico';

const paramsTardia = z.object({ id: idInteiro('Rota', 'f'), operacaoId: z.string().min(1, 'Registro inválido.').max(100, 'Registro inválido.') });

export default async function rotasTardias(app: App) {
  app.addHook('onRequest', app.autenticar);
  const contexto = contextoDeEscrita(app);

  // The admin, or the route's own employee (their phone shows what became of what it sent late).
  app.get('/:id/tardios', { schema: { params: z.object({ id: idInteiro('Rota', 'f') }), response: { 200: tardiasRespostaSchema } } }, async (request) => ({
    tardios: await listarTardias(app.db, request.usuario, request.params.id),
  }));

  app.patch('/:id/tardios/:operacaoId/aceitar', { onRequest: app.exigirAdmin, schema: { params: paramsTardia, response: { 200: tardiaRespostaSchema } } }, async (request) => {
    const tardio = await aceitarTardia({ ...contexto, pastaTemporaria: pastaTemporaria(app.config.dataDir) }, request.usuario, request.params.id, request.params.operacaoId);
    request.log.info({ rotaId: request.params.id, operacao: request.params.operacaoId, por: request.usuario.id }, 'registro tardio aceito');
    return { tardio };
  });

  app.patch(
    '/:id/tardios/:operacaoId/recusar',
    { onRequest: app.exigirAdmin, schema: { params: paramsTardia, body: recusarTardiaSchema, response: { 200: tardiaRespostaSchema } } },
    async (request) => ({ tardio: await recusarTardia(contexto, request.usuario, request.params.id, request.params.operacaoId, request.body.motivo) }),
  );
}
