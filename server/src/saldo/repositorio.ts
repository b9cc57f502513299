/** Table access for the balance ledger (movimentacoes_saldo). Movements are only ever inserted. */
import { and, desc, eq, gte, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Movimentacao, TipoMovimentacao } from '../../../shared/schemas/saldo';
import { centavosParaReais } from '../../../shared/money';
import { linhas as linhasSql, type Db } from '../db';
import { movimentacoesSaldo, rotas, usuarios } from '../db/tabelas';
import { ordenarPorNome } from '../../../shared/texto';

export type LinhaMovimentacao = typeof movimentacoesSaldo.$inferSelect;
export type NovaLinhaMovimentacao = typeof movimentacoesSaldo.$inferInsert;

/**
 * An employee's current balance in centavos, as an SQL expression for queries that list many
 * employees: the saldo_novo of their last movement, 0 without one. `funcionarioId` is the SQL
 * of the column holding the employee's id in the outer query.
 */
export function sqlSaldoAtualCentavos(funcionarioId: SQL): SQL {
  return sql`coalesce((select ms.saldo_novo_centavos from movimentacoes_saldo ms where ms.funcionario_id = ${funcionarioId} order by ms.id desc limit 1), 0)`;
}

/** The employee's last movement: its saldo_novo is the current balance. */
export async function ultimaMovimentacao(db: Db, funcionarioId: number): Promise<LinhaMovimentacao | undefined> {
  const [ultima] = await db
    .select()
    .from(movimentacoesSaldo)
    .where(eq(movimentacoesSaldo.funcionarioId, funcionarioId))
    .orderBy(desc(movimentacoesSaldo.id))
    .limit(1);
  return ultima;
}

export async function inserirMovimentacao(db: Db, linha: NovaLinhaMovimentacao): Promise<LinhaMovimentacao> {
  const [inserida] = await db.insert(movimentacoesSaldo).values(linha).returning();
  return inserida!;
}

interface SaldoDoFuncionario {
  id: number;
  nome: string;
  email: string;
  ativo: boolean;
  saldo: number;
  ultima: string | null;
}

/**
 * Current balance (centavos) and last movement time of each employee the Saldo page lists: every
 * active one (0 and null without movements) and every deactivated one whose balance is not zero
 * (money given or owed does not vanish with the account). `soAtivos`: only the active ones, who may
 * receive a credit (the credit modal).
 */
export async function saldosDosFuncionarios(db: Db, { soAtivos = false } = {}): Promise<SaldoDoFuncionario[]> {
  const quem = soAtivos ? sql`u.ativo = true` : sql`(u.ativo = true or coalesce(m.saldo_novo_centavos, 0) <> 0)`;
  const linhas = await linhasSql<Omit<SaldoDoFuncionario, 'ativo'> & { ativo: boolean | number }>(db, sql`
    select u.id, u.nome, u.email, u.ativo,
      coalesce(m.saldo_novo_centavos, 0) as saldo,
      m.data_movimentacao as ultima
    from usuarios u
    left join movimentacoes_saldo m on m.id = (
      select max(id) from movimentacoes_saldo where funcionario_id = u.id
    )
    where u.tipo = 'funcionario' and ${quem}
    order by lower(u.nome), u.id`);
  // SQLite answers the boolean column as 0/1 in hand-written SQL; PostgreSQL as a boolean.
  return ordenarPorNome(
    linhas.map((l) => ({ ...l, ativo: Boolean(l.ativo) })),
    (l) => l.nome,
  );
}

export interface FiltroMovimentacoes {
  tipo?: TipoMovimentacao;
  funcionarioId?: number;
  /** ISO instant: only movements at or after it. */
  desde?: string;
}

function condicoes(filtro: FiltroMovimentacoes): SQL | undefined {
  const c: SQL[] = [];
  if (filtro.tipo) c.push(eq(movimentacoesSaldo.tipo, filtro.tipo));
  if (filtro.funcionarioId !== undefined) c.push(eq(movimentacoesSaldo.funcionarioId, filtro.funcionarioId));
  if (filtro.desde) c.push(gte(movimentacoesSaldo.dataMovimentacao, filtro.desde));
  return c.length ? and(...c) : undefined;
}

export async function contarMovimentacoes(db: Db, filtro: FiltroMovimentacoes): Promise<number> {
  const [contagem] = await db.select({ n: sql<number>`count(*)` }).from(movimentacoesSaldo).where(condicoes(filtro));
  return contagem!.n;
}

/** Movements as the API shows them, newest first, with the names of the employee, the admin and the route. */
export async function listarMovimentacoes(db: Db, filtro: FiltroMovimentacoes, pagina = 1, limite = 100): Promise<Movimentacao[]> {
  const admin = alias(usuarios, 'admin');
  const linhas = await db
    .select({
      m: movimentacoesSaldo,
      funcionarioNome: usuarios.nome,
      adminNome: admin.nome,
      rotaNome: rotas.nome,
    })
    .from(movimentacoesSaldo)
    .innerJoin(usuarios, eq(usuarios.id, movimentacoesSaldo.funcionarioId))
    .leftJoin(admin, eq(admin.id, movimentacoesSaldo.adminId))
    .leftJoin(rotas, eq(rotas.id, movimentacoesSaldo.rotaId))
    .where(condicoes(filtro))
    .orderBy(desc(movimentacoesSaldo.id))
    .limit(limite)
    .offset((pagina - 1) * limite);
  return linhas.map(({ m, funcionarioNome, adminNome, rotaNome }) => apresentarMovimentacao(m, funcionarioNome, adminNome, rotaNome));
}

export function apresentarMovimentacao(m: LinhaMovimentacao, funcionarioNome: string, adminNome: string | null, rotaNome: string | null): Movimentacao {
  return {
    id: m.id,
    data_movimentacao: m.dataMovimentacao,
    funcionario_id: m.funcionarioId,
    funcionario_nome: funcionarioNome,
    tipo: m.tipo,
    valor: centavosParaReais(m.valorCentavos),
    sentido: m.sentido,
    saldo_anterior: centavosParaReais(m.saldoAnteriorCentavos),
    saldo_novo: centavosParaReais(m.saldoNovoCentavos),
    descricao: m.descricao,
    admin_nome: adminNome,
    rota_id: m.rotaId,
    rota_nome: rotaNome,
    despesa_id: m.despesaId,
  };
}

export async function buscarMovimentacaoApresentada(db: Db, id: number): Promise<Movimentacao | undefined> {
  const admin = alias(usuarios, 'admin');
  const [l] = await db
    .select({ m: movimentacoesSaldo, funcionarioNome: usuarios.nome, adminNome: admin.nome, rotaNome: rotas.nome })
    .from(movimentacoesSaldo)
    .innerJoin(usuarios, eq(usuarios.id, movimentacoesSaldo.funcionarioId))
    .leftJoin(admin, eq(admin.id, movimentacoesSaldo.adminId))
    .leftJoin(rotas, eq(rotas.id, movimentacoesSaldo.rotaId))
    .where(eq(movimentacoesSaldo.id, id))
    .limit(1);
  return l ? apresentarMovimentacao(l.m, l.funcionarioNome, l.adminNome, l.rotaNome) : undefined;
}

/**
 * Per employee and route: credits, spending (debits minus refunds) and the employee's current
 * balance, all in centavos summed by the database (integers, never floats).
 */
export async function relatorioPorRota(db: Db): Promise<
  {
  funcionario_id: number;
  funcionario_nome: string;
  funcionario_ativo: boolean;
  rota_id: number | null;
  rota_nome: string | null;
  creditado: number;
  gasto: number;
  saldo: number;
  }[]
> {
  const linhas = await linhasSql<{ funcionario_id: number; funcionario_nome: string; funcionario_ativo: boolean | number; rota_id: number | null; rota_nome: string | null; creditado: number; gasto: number; saldo: number }>(db, sql`
    select m.funcionario_id, u.nome as funcionario_nome, u.ativo as funcionario_ativo, m.rota_id, r.nome as rota_nome,
      sum(case when m.tipo = 'credito' then m.valor_centavos else 0 end) as creditado,
      sum(case when m.tipo = 'debito' then m.valor_centavos when m.tipo = 'devolucao' then -m.valor_centavos else 0 end) as gasto,
      ${sqlSaldoAtualCentavos(sql.raw('m.funcionario_id'))} as saldo
    from movimentacoes_saldo m
    join usuarios u on u.id = m.funcionario_id
    left join rotas r on r.id = m.rota_id
    group by m.funcionario_id, u.nome, u.ativo, m.rota_id, r.nome, r.data_inicio
    order by lower(u.nome), m.funcionario_id, r.data_inicio desc nulls last, m.rota_id desc nulls last`);
  // pt-BR order of the names; each employee's rows keep the query's order (a stable sort). SQLite's 0/1 as a boolean.
  return ordenarPorNome(
    linhas.map((l) => ({ ...l, funcionario_ativo: Boolean(l.funcionario_ativo) })),
    (l) => l.funcionario_nome,
  );
}
