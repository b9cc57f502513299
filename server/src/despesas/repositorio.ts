/** Table access for expenses: lookups, the filtered list with its totals, inserts and updates. */
import { and, desc, eq, gt, gte, isNull, lte, sql, type SQL } from 'drizzle-orm';
import { centavosParaReais } from '../../../shared/money';
import { TIPOS_DESPESA, type Despesa, type StatusAprovacao, type TipoDespesa, type TotaisDespesas } from '../../../shared/schemas/despesas';
import type { StatusRota } from '../../../shared/schemas/rotas';
import type { Db } from '../db';
import type { Janela } from '../paginacao';
import { cidades, despesas, rotas, usuarios } from '../db/schema';

export type LinhaDespesa = typeof despesas.$inferSelect;
export type NovaLinhaDespesa = typeof despesas.$inferInsert;

/** Any expense with this id, deleted or not (ids are client UUIDs: a replay must find it). */
export function buscarDespesa(db: Db, id: string): LinhaDespesa | undefined {
  return db.select().from(despesas).where(eq(despesas.id, id)).get();
}

export function inserirDespesa(db: Db, linha: NovaLinhaDespesa): LinhaDespesa {
  return db.insert(despesas).values(linha).returning().get();
}

export function atualizarDespesa(db: Db, id: string, campos: Partial<NovaLinhaDespesa>): LinhaDespesa {
  return db
    .update(despesas)
    .set({ ...campos, atualizadoEm: new Date().toISOString() })
    .where(eq(despesas.id, id))
    .returning()
    .get()!;
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
}

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
  return and(...c)!;
}

const colunasApresentacao = {
  d: despesas,
  funcionarioNome: usuarios.nome,
  rotaNome: rotas.nome,
  rotaStatus: rotas.status,
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
  };
}

/** One expense as the API shows it (deleted ones too: a replayed create answers them). */
export function buscarDespesaApresentada(db: Db, id: string): Despesa | undefined {
  const l = consultaApresentacao(db).where(eq(despesas.id, id)).get();
  return l ? apresentarDespesa(l) : undefined;
}

/**
 * A page of the filtered list, newest expense date first. Deleted expenses never appear. Unfiltered,
 * the page is read in the order of the partial index despesas_lista (date, registered, id of the
 * expenses not deleted): the first 20 rows, no sort of the table (issue 19). Filtered by the route's
 * status, SQLite starts from those routes and sorts only their expenses.
 */
export function listarDespesas(db: Db, filtro: FiltroDespesas, janela: Janela): Despesa[] {
  return consultaApresentacao(db)
    .where(condicoes(filtro))
    .orderBy(desc(despesas.dataDespesa), desc(despesas.registradoEm), desc(despesas.id))
    .limit(janela.limite)
    .offset(janela.deslocamento)
    .all()
    .map(apresentarDespesa);
}

/** Count and per-type sums (centavos, summed by SQLite as integers) of the whole filtered set. */
export function totaisDespesas(db: Db, filtro: FiltroDespesas): { total: number; totais: TotaisDespesas } {
  const q = db.select({ tipo: despesas.tipo, n: sql<number>`count(*)`, soma: sql<number>`sum(${despesas.valorCentavos})` }).from(despesas);
  // The routes table only for the route's status: without it, one pass over a covering index (despesas_tipo_valor).
  const porStatus = filtro.rotaId === undefined && filtro.statusRota !== undefined;
  const linhas = (porStatus ? q.innerJoin(rotas, eq(rotas.id, despesas.rotaId)) : q).where(condicoes(filtro)).groupBy(despesas.tipo).all();
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
