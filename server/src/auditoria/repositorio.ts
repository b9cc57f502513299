/**
 * Reading the audit trail, for its list (GET /api/auditoria) and its export (exportacoes/listas.ts): the
 * filters (by admin, action and business day of APP_TZ) and the rows described in words (descricao.ts),
 * newest first, the records the page is about read for all its rows at once.
 */
import { and, desc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { inicioDoDia, somarDias } from '../../../shared/dates';
import type { AcaoAuditoria, AlvoAuditoria, NomesCitados, RegistroAuditoria } from '../../../shared/schemas/auditoria';
import type { Db } from '../db';
import { auditoria, usuarios } from '../db/tabelas';
import { buscarAlvos, descreverAlvo, nomesCitados, type RegistroParaDescrever } from './descricao';

export interface FiltroAuditoria {
  adminId?: number;
  acao?: AcaoAuditoria;
  dataInicio?: string;
  dataFim?: string;
}

/** Where a keyset read stops: the last row of the page before (newest first). */
export interface CursorAuditoria {
  criadoEm: string;
  id: number;
}

/** The filter's conditions; business days: from the first instant of dataInicio to before the first of the day after dataFim. */
export function ondeDaAuditoria(f: FiltroAuditoria, fuso: string, cursor: CursorAuditoria | null = null): SQL | undefined {
  const c: SQL[] = [];
  if (f.adminId !== undefined) c.push(eq(auditoria.adminId, f.adminId));
  if (f.acao) c.push(eq(auditoria.acao, f.acao));
  if (f.dataInicio) c.push(gte(auditoria.criadoEm, inicioDoDia(f.dataInicio, fuso)));
  if (f.dataFim) c.push(lt(auditoria.criadoEm, inicioDoDia(somarDias(f.dataFim, 1), fuso)));
  if (cursor) c.push(sql`(${auditoria.criadoEm}, ${auditoria.id}) < (${cursor.criadoEm}, ${cursor.id})`);
  return c.length ? and(...c) : undefined;
}

const lerJson = (texto: string | null): Record<string, unknown> | null => (texto === null ? null : (JSON.parse(texto) as Record<string, unknown>));

/** Rows of the trail newest first, `limite` of them after `deslocamento`, described (with the names their changes cite). */
export async function lerAuditoria(
  db: Db,
  onde: SQL | undefined,
  { limite, deslocamento = 0 }: { limite: number; deslocamento?: number },
): Promise<{ registros: RegistroAuditoria[]; nomes: NomesCitados }> {
  const linhas = await db
    .select({ r: auditoria, adminNome: usuarios.nome })
    .from(auditoria)
    .innerJoin(usuarios, eq(usuarios.id, auditoria.adminId))
    .where(onde)
    .orderBy(desc(auditoria.criadoEm), desc(auditoria.id))
    .limit(limite)
    .offset(deslocamento);
  const lidos = linhas.map(({ r, adminNome }) => ({
    r,
    adminNome,
    alvo: {
      acao: r.acao as AcaoAuditoria,
      alvo_tipo: r.alvoTipo as AlvoAuditoria,
      alvo_id: r.alvoId,
      antes: lerJson(r.antes),
      depois: lerJson(r.depois),
    } satisfies RegistroParaDescrever,
  }));
  // What the page's rows are about, read for all of them at once, then told row by row (descricao.ts).
  const alvos = await buscarAlvos(
    db,
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
  return { registros, nomes: nomesCitados(alvos) };
}

/** What an admin does that ends someone's sessions (each revokes, then records, in one transaction). */
const ACOES_QUE_ENCERRAM_SESSOES: AcaoAuditoria[] = ['usuario.encerrar_sessoes', 'usuario.senha'];
/** The revocation and its audit row are stamped by two clock reads of one transaction. */
const MESMO_ATO_MS = 10_000;

/**
 * Was the session revoked at `revogadaEm` ended by an admin? Yes when an admin's act on this user
 * that ends sessions was recorded right then; a person's own password change is not recorded, so it
 * is never told as the admin's doing.
 */
export async function sessaoEncerradaPorAdmin(db: Db, usuarioId: number, revogadaEm: string): Promise<boolean> {
  const ate = new Date(Date.parse(revogadaEm) + MESMO_ATO_MS).toISOString();
  const [ato] = await db
    .select({ id: auditoria.id })
    .from(auditoria)
    .where(
      and(
        eq(auditoria.alvoTipo, 'usuario'),
        eq(auditoria.alvoId, String(usuarioId)),
        inArray(auditoria.acao, ACOES_QUE_ENCERRAM_SESSOES),
        gte(auditoria.criadoEm, revogadaEm),
        lt(auditoria.criadoEm, ate),
      ),
    )
    .limit(1);
  return ato !== undefined;
}
