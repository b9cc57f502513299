/** GET /api/auditoria: the admin reads the trail, newest first, paged, by admin, action and business day. */
import { and, count, desc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import { inicioDoDia, somarDias } from '../../../shared/dates';
import { auditoriaFiltroSchema, listaAuditoriaSchema, type ListaAuditoria, type NomesCitados, type RegistroAuditoria } from '../../../shared/schemas/auditoria';
import type { Db } from '../db';
import { auditoria, rotas, usuarios } from '../db/tabelas';
import { camposDaPagina, janelaDaPagina } from '../paginacao';
import type { App } from '../tipos';

const lerJson = (texto: string | null): Record<string, unknown> | null => (texto === null ? null : (JSON.parse(texto) as Record<string, unknown>));

/** The ids a snapshot cites under `campo`, as integers. */
function citados(registros: RegistroAuditoria[], campo: string): number[] {
  const ids = new Set<number>();
  for (const r of registros) for (const retrato of [r.antes, r.depois]) {
    const v = retrato?.[campo];
    if (typeof v === 'number' && Number.isInteger(v)) ids.add(v);
  }
  return [...ids];
}

/** The names of the people and routes the page cites, so 'O que mudou' reads 'Rota: Rota Sul', not '#12'. */
async function nomesCitados(db: Db, registros: RegistroAuditoria[]): Promise<NomesCitados> {
  const idsUsuarios = citados(registros, 'funcionario_id');
  const idsRotas = citados(registros, 'rota_id');
  const porId = (linhas: { id: number; nome: string }[]) => Object.fromEntries(linhas.map((l) => [String(l.id), l.nome]));
  return {
    usuarios: idsUsuarios.length === 0 ? {} : porId(await db.select({ id: usuarios.id, nome: usuarios.nome }).from(usuarios).where(inArray(usuarios.id, idsUsuarios))),
    rotas: idsRotas.length === 0 ? {} : porId(await db.select({ id: rotas.id, nome: rotas.nome }).from(rotas).where(inArray(rotas.id, idsRotas))),
  };
}

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
    // Made here, not at import: `usuarios` is the engine's table only once the database is open (db/tabelas.ts).
    const alvoUsuario = alias(usuarios, 'alvo_usuario');
    // The target's id read as a number only for the kind whose ids are numbers: a CASE, because PostgreSQL
    // may evaluate a join's conditions in any order and a uuid cast to integer is an error there.
    const idDoAlvo = (tipo: string) => sql`case when ${auditoria.alvoTipo} = ${tipo} then cast(${auditoria.alvoId} as integer) end`;
    const linhas = await app.db
      .select({ r: auditoria, adminNome: usuarios.nome, usuarioNome: alvoUsuario.nome, rotaNome: rotas.nome })
      .from(auditoria)
      .innerJoin(usuarios, eq(usuarios.id, auditoria.adminId))
      .leftJoin(alvoUsuario, eq(idDoAlvo('usuario'), alvoUsuario.id))
      .leftJoin(rotas, eq(idDoAlvo('rota'), rotas.id))
      .where(onde)
      .orderBy(desc(auditoria.criadoEm), desc(auditoria.id))
      .limit(limite)
      .offset(deslocamento);
    const [contagem] = await app.db.select({ n: count() }).from(auditoria).where(onde);
    const total = contagem?.n ?? 0;
    const registros = linhas.map(({ r, adminNome, usuarioNome, rotaNome }): RegistroAuditoria => {
      const antes = lerJson(r.antes);
      const depois = lerJson(r.depois);
      const nomeGuardado = (depois?.nome ?? antes?.nome) as string | undefined;
      return {
        id: r.id,
        admin_id: r.adminId,
        admin_nome: adminNome,
        acao: r.acao as RegistroAuditoria['acao'],
        alvo_tipo: r.alvoTipo as RegistroAuditoria['alvo_tipo'],
        alvo_id: r.alvoId,
        alvo_nome: usuarioNome ?? rotaNome ?? nomeGuardado ?? null,
        antes,
        depois,
        criado_em: r.criadoEm,
      };
    });
    return { registros, nomes: await nomesCitados(app.db, registros), ...camposDaPagina(total, q) };
  });
}
