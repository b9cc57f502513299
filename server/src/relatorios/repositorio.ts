/** Read-only queries for reports and dashboards. All sums are integer centavos computed in SQL. */
import { sql, type SQL } from 'drizzle-orm';
import type { StatusRota } from '../../../shared/schemas/rotas';
import { linha, linhas, type Db } from '../db';
import { sqlSaldoAtualCentavos } from '../saldo/repositorio';
import { ordenarPorNome } from '../../../shared/texto';

export interface TotaisRota {
  rotaId: number;
  rotaNome: string;
  funcionarioId: number;
  funcionarioNome: string;
  status: StatusRota;
  dataInicio: string;
  dataFim: string;
  finalizadaEm: string | null;
  valorAluguelCentavos: number;
  vendasCentavos: number;
  despesasCentavos: number;
  creditosCentavos: number;
  saldoAtualCentavos: number;
}

export interface FiltroTotais {
  status?: StatusRota;
  funcionarioId?: number;
  /** Routes whose period overlaps [dataInicio, dataFim]. */
  dataInicio?: string;
  dataFim?: string;
  ids?: number[];
}

/** Sales, expenses and credits of each route, with the employee's current balance. */
export async function totaisDasRotas(db: Db, filtro: FiltroTotais): Promise<TotaisRota[]> {
  const condicoes: SQL[] = [sql`1 = 1`];
  if (filtro.status) condicoes.push(sql`r.status = ${filtro.status}`);
  if (filtro.funcionarioId !== undefined) condicoes.push(sql`r.funcionario_id = ${filtro.funcionarioId}`);
  if (filtro.dataInicio) condicoes.push(sql`r.data_fim >= ${filtro.dataInicio}`);
  if (filtro.dataFim) condicoes.push(sql`r.data_inicio <= ${filtro.dataFim}`);
  if (filtro.ids) condicoes.push(filtro.ids.length > 0 ? sql`r.id in (${sql.join(filtro.ids.map((id) => sql`${id}`), sql`, `)})` : sql`1 = 0`);
  return linhas<TotaisRota>(db, sql`
    select r.id as "rotaId", r.nome as "rotaNome", r.funcionario_id as "funcionarioId", u.nome as "funcionarioNome",
      r.status as status, r.data_inicio as "dataInicio", r.data_fim as "dataFim", r.finalizada_em as "finalizadaEm", r.valor_aluguel_centavos as "valorAluguelCentavos",
      coalesce((select sum(v.dinheiro_centavos + v.pix_centavos + v.cartao_centavos + v.link_centavos) from vendas v where v.rota_id = r.id), 0) as "vendasCentavos",
      coalesce((select sum(d.valor_centavos) from despesas d where d.rota_id = r.id and d.excluida_em is null), 0) as "despesasCentavos",
      coalesce((select sum(m.valor_centavos) from movimentacoes_saldo m where m.rota_id = r.id and m.tipo = 'credito'), 0) as "creditosCentavos",
      ${sqlSaldoAtualCentavos(sql.raw('r.funcionario_id'))} as "saldoAtualCentavos"
    from rotas r join usuarios u on u.id = r.funcionario_id
    where ${sql.join(condicoes, sql` and `)}
    order by case r.status when 'ativa' then 0 else 1 end, r.data_inicio desc, r.id desc`);
}

export interface CidadeDoRelatorio {
  cidadeId: number;
  cidadeNome: string;
  uf: string;
  visitada: number;
  vendasCentavos: number;
  despesasCentavos: number;
}

/** Every city of the route, in the route's order, with whether it was visited and its totals. */
export async function cidadesDoRelatorio(db: Db, rotaId: number): Promise<CidadeDoRelatorio[]> {
  return linhas<CidadeDoRelatorio>(db, sql`
    select c.id as "cidadeId", c.nome as "cidadeNome", c.uf as uf,
      case when exists(select 1 from visitas vi where vi.rota_id = rc.rota_id and vi.cidade_id = c.id)
        or exists(select 1 from vendas v where v.rota_id = rc.rota_id and v.cidade_id = c.id) then 1 else 0 end as visitada,
      coalesce((select sum(v.dinheiro_centavos + v.pix_centavos + v.cartao_centavos + v.link_centavos) from vendas v where v.rota_id = rc.rota_id and v.cidade_id = c.id), 0) as "vendasCentavos",
      coalesce((select sum(d.valor_centavos) from despesas d where d.rota_id = rc.rota_id and d.cidade_id = c.id and d.excluida_em is null), 0) as "despesasCentavos"
    from rota_cidades rc join cidades c on c.id = rc.cidade_id
    where rc.rota_id = ${rotaId}
    order by rc.ordem, rc.id`);
}

export interface VendaBase {
  cidadeId: number;
  dataVenda: string;
  totalCentavos: number;
  boletos: number;
}

export async function vendasDaRota(db: Db, rotaId: number): Promise<VendaBase[]> {
  return linhas<VendaBase>(db, sql`
    select cidade_id as "cidadeId", data_venda as "dataVenda",
      dinheiro_centavos + pix_centavos + cartao_centavos + link_centavos as "totalCentavos", boletos
    from vendas where rota_id = ${rotaId} order by data_venda, cidade_id`);
}

export interface DespesaDoRelatorio {
  id: string;
  dataDespesa: string;
  cidadeId: number;
  cidadeNome: string;
  tipo: string;
  tipoOutro: string | null;
  valorCentavos: number;
  descricao: string;
  statusAprovacao: string;
  arquivoCupom: string | null;
  cupomMime: string | null;
  /** How many receipts it has (the grid's count). */
  cuponsQuantidade: number;
}

export async function despesasDaRota(db: Db, rotaId: number): Promise<DespesaDoRelatorio[]> {
  return linhas<DespesaDoRelatorio>(db, sql`
    select d.id as id, d.data_despesa as "dataDespesa", d.cidade_id as "cidadeId", c.nome as "cidadeNome", d.tipo as tipo,
      d.tipo_outro as "tipoOutro", d.valor_centavos as "valorCentavos", d.descricao as descricao,
      d.status_aprovacao as "statusAprovacao", d.arquivo_cupom as "arquivoCupom", d.cupom_mime as "cupomMime",
      (select count(*) from despesa_cupons dc where dc.despesa_id = d.id) as "cuponsQuantidade"
    from despesas d join cidades c on c.id = d.cidade_id
    where d.rota_id = ${rotaId} and d.excluida_em is null
    order by d.data_despesa, d.registrado_em`);
}

export interface DespesasDoTipo {
  tipo: string;
  quantidade: number;
  totalCentavos: number;
}

/** The route's expenses (not deleted) summed by type. */
export async function despesasPorTipo(db: Db, rotaId: number): Promise<DespesasDoTipo[]> {
  return linhas<DespesasDoTipo>(db, sql`
    select tipo, count(*) as quantidade, sum(valor_centavos) as "totalCentavos"
    from despesas where rota_id = ${rotaId} and excluida_em is null
    group by tipo`);
}

export interface ResumoDia {
  funcionariosEmRota: number;
  funcionariosSemRota: number;
  rotasAtivas: number;
  vendasDiaCentavos: number;
  despesasDiaCentavos: number;
}

/**
 * The dashboard's counts add up: an employee with an active route is in route whether or not still
 * active (the route stays open until an admin closes it), so with one active route per employee
 * rotasAtivas = funcionariosEmRota; 'sem rota' are the active employees without one.
 */
export async function resumoDoDia(db: Db, dia: string): Promise<ResumoDia> {
  return (await linha<ResumoDia>(db, sql`
    select
      (select count(*) from usuarios u where u.tipo = 'funcionario'
        and exists(select 1 from rotas r where r.funcionario_id = u.id and r.status = 'ativa')) as "funcionariosEmRota",
      (select count(*) from usuarios u where u.tipo = 'funcionario' and u.ativo = true
        and not exists(select 1 from rotas r where r.funcionario_id = u.id and r.status = 'ativa')) as "funcionariosSemRota",
      (select count(*) from rotas where status = 'ativa') as "rotasAtivas",
      coalesce((select sum(dinheiro_centavos + pix_centavos + cartao_centavos + link_centavos) from vendas where data_venda = ${dia}), 0) as "vendasDiaCentavos",
      coalesce((select sum(valor_centavos) from despesas where data_despesa = ${dia} and excluida_em is null), 0) as "despesasDiaCentavos"`))!;
}

export interface FuncionarioEmRota {
  id: number;
  nome: string;
  ativo: boolean;
  rotaId: number;
  rotaNome: string;
  saldoCentavos: number;
  vendasHojeCentavos: number;
  cidadesAtendidas: number;
  totalCidades: number;
}

/** Employees on an active route (deactivated ones too, as resumoDoDia counts them): balance, today's sales, cities served of the route's total. */
export async function funcionariosEmRota(db: Db, dia: string): Promise<FuncionarioEmRota[]> {
  const emRota = await linhas<Omit<FuncionarioEmRota, 'ativo'> & { ativo: boolean | number }>(db, sql`
    select u.id as id, u.nome as nome, u.ativo as ativo, r.id as "rotaId", r.nome as "rotaNome",
      ${sqlSaldoAtualCentavos(sql.raw('u.id'))} as "saldoCentavos",
      coalesce((select sum(v.dinheiro_centavos + v.pix_centavos + v.cartao_centavos + v.link_centavos) from vendas v where v.rota_id = r.id and v.data_venda = ${dia}), 0) as "vendasHojeCentavos",
      (select count(*) from rota_cidades rc where rc.rota_id = r.id
        and (exists(select 1 from visitas vi where vi.rota_id = r.id and vi.cidade_id = rc.cidade_id)
          or exists(select 1 from vendas v where v.rota_id = r.id and v.cidade_id = rc.cidade_id))) as "cidadesAtendidas",
      (select count(*) from rota_cidades rc where rc.rota_id = r.id) as "totalCidades"
    from usuarios u join rotas r on r.funcionario_id = u.id and r.status = 'ativa'
    where u.tipo = 'funcionario'
    order by u.nome, u.id`);
  // SQLite answers the boolean column as 0/1 in hand-written SQL.
  return ordenarPorNome(
    emRota.map((l) => ({ ...l, ativo: Boolean(l.ativo) })),
    (l) => l.nome,
  );
}
