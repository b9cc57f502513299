/** GET /api/auditoria: the admin reads the trail, newest first, paged, by admin, action and business day. */
import { count } from 'drizzle-orm';
import { auditoriaFiltroSchema, listaAuditoriaSchema, type ListaAuditoria } from '../../../shared/schemas/auditoria';
import { auditoria } from '../db/tabelas';
import { camposDaPagina, janelaDaPagina } from '../paginacao';
import type { App } from '../tipos';
import { lerAuditoria, ondeDaAuditoria } from './repositorio';

export default async function rotasAuditoria(app: App) {
  app.addHook('onRequest', app.autenticar);

  app.get('/', { onRequest: app.exigirAdmin, schema: { querystring: auditoriaFiltroSchema, response: { 200: listaAuditoriaSchema } } }, async (request): Promise<ListaAuditoria> => {
    const q = request.query;
    const onde = ondeDaAuditoria(
      {
        ...(q.admin_id !== undefined ? { adminId: q.admin_id } : {}),
        ...(q.acao ? { acao: q.acao } : {}),
        ...(q.data_inicio ? { dataInicio: q.data_inicio } : {}),
        ...(q.data_fim ? { dataFim: q.data_fim } : {}),
      },
      app.config.appTz,
    );
    const [contagem] = await app.db.select({ n: count() }).from(auditoria).where(onde);
    const { registros, nomes } = await lerAuditoria(app.db, onde, janelaDaPagina(q));
    return { registros, nomes, ...camposDaPagina(contagem?.n ?? 0, q) };
  });
}
