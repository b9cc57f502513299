/**
 * GET /api/auditoria/exportar (admin): the whole trail the list's filters select, as CSV, newest first,
 * streamed page after page (server/src/exportacoes/listas.ts). Beside the list's route, in a file of its
 * own: the same filter schema, the same business days.
 */
import { exportacaoAuditoriaSchema } from '../../../shared/schemas/exportacoes';
import { csvDeAuditoria, responderCsv } from '../exportacoes/listas';
import type { App } from '../tipos';

export default async function rotasExportarAuditoria(app: App) {
  app.addHook('onRequest', app.autenticar);

  app.get('/exportar', { onRequest: app.exigirAdmin, schema: { querystring: exportacaoAuditoriaSchema } }, async (request, reply) => {
    const q = request.query;
    const filtro = {
      ...(q.admin_id !== undefined ? { adminId: q.admin_id } : {}),
      ...(q.acao ? { acao: q.acao } : {}),
      ...(q.data_inicio ? { dataInicio: q.data_inicio } : {}),
      ...(q.data_fim ? { dataFim: q.data_fim } : {}),
    };
    return responderCsv(app, request, reply, 'auditoria.csv', () => csvDeAuditoria(app.db, filtro, app.config.appTz));
  });
}
