/**
 * The reads of the exports that no list already does: the period's sales oldest first, the routes with
 * something in the period, and the audit trail page after page. Every read is one bounded page (the
 * caller asks for the next one after the last row it sent), so a year of data never sits in memory.
 */
import { and, asc, eq, gte, lte, sql, type SQL } from 'drizzle-orm';
import { inicioDoDia, somarDias } from '../../../shared/dates';
import { centavosParaReais } from '../../../shared/money';
import type { NomesCitados, RegistroAuditoria } from '../../../shared/schemas/auditoria';
import type { StatusRota } from '../../../shared/schemas/rotas';
import type { VendaListada } from '../../../shared/schemas/vendas';
import { lerAuditoria, ondeDaAuditoria, type CursorAuditoria, type FiltroAuditoria } from '../auditoria/repositorio';
import { linhas, type Db } from '../db';
import { cidades, rotas, usuarios, vendas } from '../db/tabelas';

/** Rows read per query: a few hundred KB at most, whatever the period. */
export const LINHAS_POR_LEITURA = 500;

export interface Periodo {
  inicio: string;
  fim: string;
  funcionarioId?: number;
}

export interface CursorVendas {
  dataVenda: string;
  id: string;
}

/** A page of the period's sales, oldest first (date, then id: time-ordered UUIDs), after `cursor`. */
export async function vendasDoPeriodo(db: Db, p: Periodo, cursor: CursorVendas | null, limite = LINHAS_POR_LEITURA): Promise<VendaListada[]> {
  const c: SQL[] = [gte(vendas.dataVenda, p.inicio), lte(vendas.dataVenda, p.fim)];
  if (p.funcionarioId !== undefined) c.push(eq(vendas.funcionarioId, p.funcionarioId));
  if (cursor) c.push(sql`(${vendas.dataVenda}, ${vendas.id}) > (${cursor.dataVenda}, ${cursor.id})`);
  const lidas = await db
    .select({ v: vendas, funcionarioNome: usuarios.nome, rotaNome: rotas.nome, rotaStatus: rotas.status, cidadeNome: cidades.nome, cidadeUf: cidades.uf })
    .from(vendas)
    .innerJoin(rotas, eq(rotas.id, vendas.rotaId))
    .innerJoin(usuarios, eq(usuarios.id, vendas.funcionarioId))
    .innerJoin(cidades, eq(cidades.id, vendas.cidadeId))
    .where(and(...c))
    .orderBy(asc(vendas.dataVenda), asc(vendas.id))
    .limit(limite);
  const reais = centavosParaReais;
  return lidas.map(({ v, ...l }) => ({
    id: v.id,
    rota_id: v.rotaId,
    cidade_id: v.cidadeId,
    funcionario_id: v.funcionarioId,
    data_venda: v.dataVenda,
    valor_dinheiro: reais(v.dinheiroCentavos),
    valor_pix: reais(v.pixCentavos),
    valor_cartao: reais(v.cartaoCentavos),
    valor_link: reais(v.linkCentavos),
    valor_boletos: v.boletos,
    observacoes: v.observacoes,
    funcionario_nome: l.funcionarioNome,
    rota_nome: l.rotaNome,
    rota_status: l.rotaStatus as StatusRota,
    cidade_nome: l.cidadeNome,
    cidade_uf: l.cidadeUf,
    total_vendas: reais(v.dinheiroCentavos + v.pixCentavos + v.cartaoCentavos + v.linkCentavos),
    registrado_em: v.registradoEm,
    recebido_em: v.recebidoEm,
    atualizado_em: v.atualizadoEm,
    versao: v.versao,
  }));
}

export interface RotaDoPeriodo {
  rotaId: number;
  rotaNome: string;
  status: StatusRota;
  dataInicio: string;
  dataFim: string;
  funcionarioId: number;
  funcionarioNome: string;
}

/**
 * The routes with something dated in the period: a sale, a visit, an expense (not deleted) or a ledger
 * movement of the route (a credit, an acerto). One row per route: a few hundred in a year.
 */
export async function rotasComMovimento(db: Db, p: Periodo, fuso: string): Promise<RotaDoPeriodo[]> {
  const de = inicioDoDia(p.inicio, fuso);
  const ate = inicioDoDia(somarDias(p.fim, 1), fuso);
  const doFuncionario = p.funcionarioId !== undefined ? sql`r.funcionario_id = ${p.funcionarioId} and` : sql``;
  const lidas = await linhas<RotaDoPeriodo>(db, sql`
    select r.id as "rotaId", r.nome as "rotaNome", r.status as status, r.data_inicio as "dataInicio", r.data_fim as "dataFim",
      r.funcionario_id as "funcionarioId", u.nome as "funcionarioNome"
    from rotas r join usuarios u on u.id = r.funcionario_id
    where ${doFuncionario} (
      exists (select 1 from vendas v where v.rota_id = r.id and v.data_venda >= ${p.inicio} and v.data_venda <= ${p.fim})
      or exists (select 1 from visitas x where x.rota_id = r.id and x.data >= ${p.inicio} and x.data <= ${p.fim})
      or exists (select 1 from despesas d where d.rota_id = r.id and d.excluida_em is null and d.data_despesa >= ${p.inicio} and d.data_despesa <= ${p.fim})
      or exists (select 1 from movimentacoes_saldo m where m.rota_id = r.id and m.data_movimentacao >= ${de} and m.data_movimentacao < ${ate})
    )`);
  // PostgreSQL answers bigint columns as text: numbers here, once.
  return lidas.map((r) => ({ ...r, rotaId: Number(r.rotaId), funcionarioId: Number(r.funcionarioId) }));
}

export type { CursorAuditoria, FiltroAuditoria } from '../auditoria/repositorio';

/**
 * A page of the audit trail as GET /api/auditoria filters and orders it (newest first; the business days
 * of APP_TZ), after `cursor`, each row described in words by auditoria/descricao.ts (as the list), with
 * the names its changes cite (the screen's 'Rota: Rota Sul (#7)').
 */
export function paginaDaAuditoria(
  db: Db,
  f: FiltroAuditoria,
  fuso: string,
  cursor: CursorAuditoria | null,
  limite = LINHAS_POR_LEITURA,
): Promise<{ registros: RegistroAuditoria[]; nomes: NomesCitados }> {
  return lerAuditoria(db, ondeDaAuditoria(f, fuso, cursor), { limite });
}
