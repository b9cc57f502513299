/** Table access for expenses: lookups, the filtered list with its totals, inserts and updates. */
import { and, asc, desc, eq, gt, gte, inArray, isNull, lte, sql, type SQL } from 'drizzle-orm';
import { centavosParaReais } from '../../../shared/money';
import { LIMITE_DIARIO_CENTAVOS, limiteDiarioCentavos, TIPO_COM_LIMITE } from '../../../shared/politicaDespesas';
import { TIPOS_DESPESA, type CupomDespesa, type Despesa, type StatusAprovacao, type TipoDespesa, type TotaisDespesas } from '../../../shared/schemas/despesas';
import type { StatusRota } from '../../../shared/schemas/rotas';
import { alteradas, type Db } from '../db';
import { cidades, despesaCupons, despesas, rotas, usuarios } from '../db/tabelas';
import type { Janela } from '../paginacao';
import { arquivosDeTardiasPendentes } from '../tardias/repositorio';

export type LinhaDespesa = typeof despesas.$inferSelect;
export type NovaLinhaDespesa = typeof despesas.$inferInsert;

/** Any expense with this id, deleted or not (ids are client UUIDs: a replay must find it). */
export async function buscarDespesa(db: Db, id: string): Promise<LinhaDespesa | undefined> {
  const [despesa] = await db.select().from(despesas).where(eq(despesas.id, id)).limit(1);
  return despesa;
}

/** Whose expense it is (null: none with that id): the user whose lock a change to it takes (db/travas.ts). */
export async function donoDaDespesa(db: Db, id: string): Promise<number | null> {
  const [linha] = await db.select({ funcionarioId: despesas.funcionarioId }).from(despesas).where(eq(despesas.id, id)).limit(1);
  return linha?.funcionarioId ?? null;
}

export async function inserirDespesa(db: Db, linha: NovaLinhaDespesa): Promise<LinhaDespesa> {
  const [nova] = await db.insert(despesas).values(linha).returning();
  return nova!;
}

export async function atualizarDespesa(db: Db, id: string, campos: Partial<NovaLinhaDespesa>): Promise<LinhaDespesa> {
  const [atualizada] = await db
    .update(despesas)
    .set({ ...campos, atualizadoEm: new Date().toISOString() })
    .where(eq(despesas.id, id))
    .returning();
  return atualizada!;
}

export type LinhaCupom = typeof despesaCupons.$inferSelect;

/** An expense's receipts in their order. */
export async function cuponsDaDespesa(db: Db, despesaId: string): Promise<LinhaCupom[]> {
  return db.select().from(despesaCupons).where(eq(despesaCupons.despesaId, despesaId)).orderBy(asc(despesaCupons.ordem));
}

/** Receipts of several expenses (a page of the list), by expense, in order: one query. */
async function cuponsDasDespesas(db: Db, ids: string[]): Promise<Map<string, LinhaCupom[]>> {
  const porDespesa = new Map<string, LinhaCupom[]>();
  if (ids.length === 0) return porDespesa;
  const linhas = await db.select().from(despesaCupons).where(inArray(despesaCupons.despesaId, ids)).orderBy(asc(despesaCupons.despesaId), asc(despesaCupons.ordem));
  for (const l of linhas) porDespesa.set(l.despesaId, [...(porDespesa.get(l.despesaId) ?? []), l]);
  return porDespesa;
}

export async function inserirCupom(db: Db, linha: typeof despesaCupons.$inferInsert): Promise<LinhaCupom> {
  const [novo] = await db.insert(despesaCupons).values(linha).returning();
  return novo!;
}

/** Which of these stored names a row still points at (a receipt, or the mirrored first one): the storage sweep keeps those. */
export async function arquivosGuardados(db: Db, nomes: readonly string[]): Promise<Set<string>> {
  const guardados = new Set<string>();
  for (let i = 0; i < nomes.length; i += 500) {
    const parte = nomes.slice(i, i + 500);
    for (const l of await db.select({ arquivo: despesaCupons.arquivo }).from(despesaCupons).where(inArray(despesaCupons.arquivo, parte))) guardados.add(l.arquivo);
    for (const l of await db.select({ arquivo: despesas.arquivoCupom }).from(despesas).where(inArray(despesas.arquivoCupom, parte))) if (l.arquivo) guardados.add(l.arquivo);
    // A late write's receipts wait, under their own names, for the admin's decision.
    for (const nome of await arquivosDeTardiasPendentes(db, parte)) guardados.add(nome);
  }
  return guardados;
}

export async function excluirCupons(db: Db, ids: number[]): Promise<number> {
  if (ids.length === 0) return 0;
  return alteradas(await db.delete(despesaCupons).where(inArray(despesaCupons.id, ids)));
}

/**
 * despesas.arquivo_cupom and its three columns follow the expense's first receipt (or none), for one
 * release: a server rolled back to the previous version still shows it (docs/decisions/comprovantes.md, 'Vários por despesa').
 */
export async function espelharPrimeiroCupom(db: Db, despesaId: string): Promise<void> {
  const [primeiro] = await cuponsDaDespesa(db, despesaId);
  await db
    .update(despesas)
    .set({ arquivoCupom: primeiro?.arquivo ?? null, cupomMime: primeiro?.mime ?? null, cupomNomeOriginal: primeiro?.nomeOriginal ?? null, cupomTamanho: primeiro?.tamanho ?? null })
    .where(eq(despesas.id, despesaId));
}

export const urlDoCupomDaDespesa = (despesaId: string, cupomId: number) => `/api/despesas/${despesaId}/cupons/${cupomId}`;

function apresentarCupons(despesaId: string, linhas: LinhaCupom[]): CupomDespesa[] {
  return linhas.map((c) => ({ id: c.id, mime: c.mime, nome: c.nomeOriginal, tamanho: c.tamanho, url: urlDoCupomDaDespesa(despesaId, c.id) }));
}

export interface FiltroDespesas {
  funcionarioId?: number;
  rotaId?: number;
  statusRota?: StatusRota;
  dataInicio?: string;
  dataFim?: string;
  tipo?: TipoDespesa;
  statusAprovacao?: StatusAprovacao;
  /** ISO instant: only expenses evaluated (approved or rejected) after it, for the phone's notices. */
  avaliadasDesde?: string;
  /** Only the meals of route-days above the daily limit (acimaDoLimiteSql). */
  acimaDoLimite?: boolean;
}

/*
 * The daily meal limit (shared/politicaDespesas.ts) in SQL, the same on SQLite and PostgreSQL: a
 * meal that counts (not deleted, not rejected) of a route-day whose counted meals sum strictly above
 * the route's limit. The constants come from the shared definition; raw SQL because they are numbers
 * of our own (bound parameters would reach PostgreSQL's CASE untyped).
 */
const tipoComLimite = sql.raw(`'${TIPO_COM_LIMITE}'`);
const contaNoLimiteSql = (tabela: string) => sql.raw(`${tabela}.tipo = '${TIPO_COM_LIMITE}' and ${tabela}.status_aprovacao <> 'rejeitada'`);
const limiteDaRota = (temSecretario: SQL) =>
  sql`case when ${temSecretario} then ${sql.raw(String(LIMITE_DIARIO_CENTAVOS.comSecretario))} else ${sql.raw(String(LIMITE_DIARIO_CENTAVOS.semSecretario))} end`;

/**
 * The flag of each row of a page (1 or 0): its day's sum read per row through the route's index, so a
 * page of 20 reads a few route-days, never the whole table.
 */
const acimaDoLimiteDaLinha = sql<number>`case when ${despesas.tipo} = ${tipoComLimite} and ${despesas.statusAprovacao} <> 'rejeitada' and (
    select sum(d2.valor_centavos) from despesas d2
    where d2.rota_id = ${despesas.rotaId} and d2.data_despesa = ${despesas.dataDespesa} and d2.excluida_em is null and ${contaNoLimiteSql('d2')}
  ) > ${limiteDaRota(sql`${rotas.temSecretario}`)} then 1 else 0 end`.mapWith(Number);

/**
 * The filter: the route-days above the limit are found in one grouped pass (not one sum per row, which
 * a count of the whole table would repeat for every meal), and the rows are that set's counted meals.
 */
const acimaDoLimiteSql = sql`${despesas.tipo} = ${tipoComLimite} and ${despesas.statusAprovacao} <> 'rejeitada' and (${despesas.rotaId}, ${despesas.dataDespesa}) in (
    select d2.rota_id, d2.data_despesa from despesas d2 inner join rotas r2 on r2.id = d2.rota_id
    where d2.excluida_em is null and ${contaNoLimiteSql('d2')}
    group by d2.rota_id, d2.data_despesa, r2.tem_secretario
    having sum(d2.valor_centavos) > ${limiteDaRota(sql.raw('r2.tem_secretario'))}
  )`;

function condicoes(f: FiltroDespesas): SQL {
  const c: SQL[] = [isNull(despesas.excluidaEm)];
  if (f.funcionarioId !== undefined) c.push(eq(despesas.funcionarioId, f.funcionarioId));
  if (f.rotaId !== undefined) c.push(eq(despesas.rotaId, f.rotaId));
  else if (f.statusRota) c.push(eq(rotas.status, f.statusRota));
  if (f.dataInicio) c.push(gte(despesas.dataDespesa, f.dataInicio));
  if (f.dataFim) c.push(lte(despesas.dataDespesa, f.dataFim));
  if (f.tipo) c.push(eq(despesas.tipo, f.tipo));
  if (f.statusAprovacao) c.push(eq(despesas.statusAprovacao, f.statusAprovacao));
  if (f.avaliadasDesde) c.push(gt(despesas.avaliadoEm, f.avaliadasDesde));
  if (f.acimaDoLimite) c.push(acimaDoLimiteSql);
  return and(...c)!;
}

const colunasApresentacao = {
  d: despesas,
  funcionarioNome: usuarios.nome,
  rotaNome: rotas.nome,
  rotaStatus: rotas.status,
  rotaTemSecretario: rotas.temSecretario,
  acimaDoLimite: acimaDoLimiteDaLinha,
  cidadeNome: cidades.nome,
  cidadeUf: cidades.uf,
};

function consultaApresentacao(db: Db) {
  return db
    .select(colunasApresentacao)
    .from(despesas)
    .innerJoin(usuarios, eq(usuarios.id, despesas.funcionarioId))
    .innerJoin(rotas, eq(rotas.id, despesas.rotaId))
    .innerJoin(cidades, eq(cidades.id, despesas.cidadeId));
}

type LinhaApresentacao = {
  d: LinhaDespesa;
  funcionarioNome: string;
  rotaNome: string;
  rotaStatus: StatusRota;
  rotaTemSecretario: boolean;
  acimaDoLimite: number;
  cidadeNome: string;
  cidadeUf: string;
};

export function apresentarDespesa(l: LinhaApresentacao): Despesa {
  const d = l.d;
  return {
    id: d.id,
    rota_id: d.rotaId,
    cidade_id: d.cidadeId,
    funcionario_id: d.funcionarioId,
    data_despesa: d.dataDespesa,
    tipo: d.tipo,
    tipo_outro: d.tipoOutro,
    valor: centavosParaReais(d.valorCentavos),
    descricao: d.descricao,
    arquivo_cupom: d.arquivoCupom,
    cupom_url: d.arquivoCupom ? `/api/despesas/${d.id}/cupom` : null,
    cupom_mime: d.arquivoCupom ? d.cupomMime : null,
    cupom_nome: d.arquivoCupom ? d.cupomNomeOriginal : null,
    chave_nfce: d.chaveNfce,
    status_aprovacao: d.statusAprovacao,
    motivo_rejeicao: d.motivoRejeicao,
    aprovada: d.statusAprovacao === 'aprovada',
    rejeitada: d.statusAprovacao === 'rejeitada',
    avaliado_em: d.avaliadoEm,
    funcionario_nome: l.funcionarioNome,
    rota_nome: l.rotaNome,
    rota_status: l.rotaStatus,
    cidade_nome: l.cidadeNome,
    cidade_uf: l.cidadeUf,
    registrado_em: d.registradoEm,
    recebido_em: d.recebidoEm,
    atualizado_em: d.atualizadoEm,
    excluida: d.excluidaEm !== null,
    acima_do_limite: l.acimaDoLimite === 1,
    limite_diario: centavosParaReais(limiteDiarioCentavos({ tem_secretario: l.rotaTemSecretario })),
  };
}

/** One expense as the API shows it (deleted ones too: a replayed create answers them). */
export async function buscarDespesaApresentada(db: Db, id: string): Promise<Despesa | undefined> {
  const [l] = await consultaApresentacao(db).where(eq(despesas.id, id)).limit(1);
  return l ? { ...apresentarDespesa(l), cupons: apresentarCupons(id, await cuponsDaDespesa(db, id)) } : undefined;
}

/**
 * A page of the filtered list, newest expense date first. Deleted expenses never appear. Unfiltered,
 * the page is read in the order of the partial index despesas_lista (date, registered, id of the
 * expenses not deleted): the first 20 rows, no sort of the table. Filtered by the route's
 * status, SQLite starts from those routes and sorts only their expenses.
 */
export async function listarDespesas(db: Db, filtro: FiltroDespesas, janela: Janela): Promise<Despesa[]> {
  const pagina = (
    await consultaApresentacao(db)
      .where(condicoes(filtro))
      .orderBy(desc(despesas.dataDespesa), desc(despesas.registradoEm), desc(despesas.id))
      .limit(janela.limite)
      .offset(janela.deslocamento)
  ).map(apresentarDespesa);
  // Only expenses with a receipt have rows (arquivo_cupom mirrors the first): most pages ask for few.
  const cupons = await cuponsDasDespesas(db, pagina.filter((d) => d.arquivo_cupom !== null).map((d) => d.id));
  return pagina.map((d) => ({ ...d, cupons: apresentarCupons(d.id, cupons.get(d.id) ?? []) }));
}

/** Count and per-type sums (centavos, summed by SQLite as integers) of the whole filtered set. */
export async function totaisDespesas(db: Db, filtro: FiltroDespesas): Promise<{ total: number; totais: TotaisDespesas }> {
  const q = db.select({ tipo: despesas.tipo, n: sql<number>`count(*)`, soma: sql<number>`sum(${despesas.valorCentavos})` }).from(despesas);
  // The routes table only for the route's status: without it, one pass over a covering index (despesas_tipo_valor).
  const porStatus = filtro.rotaId === undefined && filtro.statusRota !== undefined;
  const linhas = await (porStatus ? q.innerJoin(rotas, eq(rotas.id, despesas.rotaId)) : q).where(condicoes(filtro)).groupBy(despesas.tipo);
  const porTipo = Object.fromEntries(TIPOS_DESPESA.map((t) => [t, 0])) as Record<TipoDespesa, number>;
  let geral = 0;
  let total = 0;
  for (const l of linhas) {
    porTipo[l.tipo] = l.soma;
    geral += l.soma;
    total += l.n;
  }
  const reais = Object.fromEntries(TIPOS_DESPESA.map((t) => [t, centavosParaReais(porTipo[t])])) as Record<TipoDespesa, number>;
  return { total, totais: { geral: centavosParaReais(geral), ...reais } };
}

/** Where a streamed export stopped: the last expense sent, by the keys of the list's order. */
export interface CursorDespesas {
  dataDespesa: string;
  registradoEm: string;
  id: string;
}

export type DespesaComCupons = Despesa & { linhasCupons: LinhaCupom[] };

/**
 * A page of the whole filtered set for an export (docs/decisions/paineis-e-relatorios.md, 'O ZIP do contador'): the
 * list's filters and order ('recentes', as the screen) or oldest first ('antigas', the accountant's
 * month), after `cursor` by the order's own keys (no OFFSET over the rows already sent), each expense with
 * its receipts in order. The caller asks page after page until one comes back short.
 */
export async function paginaDeDespesasParaExportar(
  db: Db,
  filtro: FiltroDespesas,
  ordem: 'recentes' | 'antigas',
  cursor: CursorDespesas | null,
  limite: number,
): Promise<DespesaComCupons[]> {
  const chaves = sql`(${despesas.dataDespesa}, ${despesas.registradoEm}, ${despesas.id})`;
  const depois = cursor ? sql`${chaves} ${sql.raw(ordem === 'recentes' ? '<' : '>')} (${cursor.dataDespesa}, ${cursor.registradoEm}, ${cursor.id})` : undefined;
  const sentido = ordem === 'recentes' ? desc : asc;
  const linhas = await consultaApresentacao(db)
    .where(depois ? and(condicoes(filtro), depois) : condicoes(filtro))
    .orderBy(sentido(despesas.dataDespesa), sentido(despesas.registradoEm), sentido(despesas.id))
    .limit(limite);
  const pagina = linhas.map(apresentarDespesa);
  const cupons = await cuponsDasDespesas(db, pagina.filter((d) => d.arquivo_cupom !== null).map((d) => d.id));
  return pagina.map((d) => ({ ...d, linhasCupons: cupons.get(d.id) ?? [] }));
}

/** The cursor after an expense of a page. */
export const cursorDaDespesa = (d: Pick<Despesa, 'data_despesa' | 'registrado_em' | 'id'>): CursorDespesas => ({ dataDespesa: d.data_despesa, registradoEm: d.registrado_em, id: d.id });
