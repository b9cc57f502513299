/** GET /api/auditoria: the admin reads the trail, newest first, paged, by admin, action and business day. */
import { and, count, desc, eq, gte, lt, type SQL } from 'drizzle-orm';
import { inicioDoDia, somarDias } from '../../../shared/dates';
import { auditoriaFiltroSchema, listaAuditoriaSchema, type ListaAuditoria, type RegistroAuditoria } from '../../../shared/schemas/auditoria';
import { auditoria, usuarios } from '../db/tabelas';
import { camposDaPagina, janelaDaPagina } from '../paginacao';
import type { App } from '../tipos';
import { buscarAlvos, descreverAlvo, nomesCitados, type RegistroParaDescrever } from './descricao';

const lerJson = (texto: string | null): Record<string, unknown> | null => (texto === null ? null : (JSON.parse(texto) as Record<string, unknown>));

export default async function rotasAuditoria(app: App) {
  app.addHook('onRequest', app.autenticar);

  app.get('/', { onRequest: app.exigirAdmin, schema: { querystring: auditoriaFiltroSchema, response: { 200: listaAuditoriaSchema } } }, async (request): Promise<ListaAuditoria> => {
    const q = request.query;
    const condicoes: SQL[] = [];
    if (q.admin_id !== undefined) condicoes.push(eq(auditoria.adminId, q.admin_id));
    if (q.acao) condicoes.push(eq(auditoria.acao, q.acao));
    // Business days (APP_TZ): from the first instant of data_inicio to before the first of the day after data_fim.
    if (q.data_inicio) condicoes.push(gte(auditoria.criadoEm, inicioDoDia(q.data_inicio, app.config.appTz)));
    if (q.data_fim) condicoes.push(lt(auditoria.criadoEm, inicioDoDia(somarDias(q.data_fim, 1), app.config.appTz)));
    const onde = condicoes.length > 0 ? and(...condicoes) : undefined;
    const { limite, deslocamento } = janelaDaPagina(q);
    const linhas = await app.db
      .select({ r: auditoria, adminNome: usuarios.nome })
      .from(auditoria)
      .innerJoin(usuarios, eq(usuarios.id, auditoria.adminId))
      .where(onde)
      .orderBy(desc(auditoria.criadoEm), desc(auditoria.id))
      .limit(limite)
      .offset(deslocamento);
    const [contagem] = await app.db.select({ n: count() }).from(auditoria).where(onde);
    const total = contagem?.n ?? 0;
    const lidos = linhas.map(({ r, adminNome }) => ({
      r,
      adminNome,
      alvo: {
        acao: r.acao as RegistroAuditoria['acao'],
        alvo_tipo: r.alvoTipo as RegistroAuditoria['alvo_tipo'],
        alvo_id: r.alvoId,
        antes: lerJson(r.antes),
        depois: lerJson(r.depois),
      } satisfies RegistroParaDescrever,
    }));
    // What the page's rows are about, read for all of them at once, then told row by row (descricao.ts).
    const alvos = await buscarAlvos(
      app.db,
      lidos.map((l) => l.alvo),
    );
    const registros = lidos.map(({ r, adminNome, alvo }): RegistroAuditoria => {
      const descricao = descreverAlvo(alvo, alvos);
      return {
        id: r.id,
        admin_id: r.adminId,
        admin_nome: adminNome,
        ...alvo,
        alvo_nome: descricao.nome,
        alvo_descricao: descricao.texto,
        alvo_link: descricao.link,
        criado_em: r.criadoEm,
      };
    });
    return { registros, nomes: nomesCitados(alvos), ...camposDaPagina(total, q) };
  });
}
