/**
 * The admin's trend charts: sales per day by payment form, sales and expenses per
 * route and per employee, expenses by type, cities visited against planned. All sums in integer
 * centavos computed in SQL. Sale and expense dates are already calendar days in APP_TZ
 * ('yyyy-mm-dd', written so by the phone and checked by the server), so the period compares them as
 * text; only the default period needs today's date in APP_TZ.
 */
import { sql, type SQL } from 'drizzle-orm';
import { somarDias } from '../../../shared/dates';
import { DIAS_PADRAO_TENDENCIAS, type Tendencias } from '../../../shared/schemas/relatorios';
import { TIPOS_DESPESA } from '../../../shared/schemas/tiposDespesa';
import { ordenarPorNome } from '../../../shared/texto';
import { linhas, type Db } from '../db';

export interface FiltroTendencias {
  /** Both ends included. */
  dataInicio: string;
  dataFim: string;
  rotaId?: number;
  funcionarioId?: number;
}

/** The period asked for, or the last 30 days up to `hoje` (APP_TZ); one end alone counts 30 days from or to it. */
export function periodoDasTendencias(hoje: string, dataInicio?: string, dataFim?: string): { dataInicio: string; dataFim: string } {
  if (dataInicio && dataFim) return { dataInicio, dataFim };
  if (dataInicio) return { dataInicio, dataFim: somarDias(dataInicio, DIAS_PADRAO_TENDENCIAS - 1) };
  const fim = dataFim ?? hoje;
  return { dataInicio: somarDias(fim, -(DIAS_PADRAO_TENDENCIAS - 1)), dataFim: fim };
}

/** Conditions on a table of sales or expenses (alias `t`, with rota_id and funcionario_id) for the filter. */
function condicoesDoFiltro(f: FiltroTendencias, colunaData: string): SQL {
  const c: SQL[] = [sql`${sql.raw(`t.${colunaData}`)} between ${f.dataInicio} and ${f.dataFim}`];
  if (f.rotaId !== undefined) c.push(sql`t.rota_id = ${f.rotaId}`);
  if (f.funcionarioId !== undefined) c.push(sql`t.funcionario_id = ${f.funcionarioId}`);
  return sql.join(c, sql` and `);
}

const TOTAL_VENDA = sql.raw('(t.dinheiro_centavos + t.pix_centavos + t.cartao_centavos + t.link_centavos)');

interface VendaDoDia {
  data: string;
  dinheiro: number;
  pix: number;
  cartao: number;
  link: number;
  boletos: number;
}

interface LinhaRota {
  rotaId: number;
  rotaNome: string;
  funcionarioNome: string;
  vendas: number;
  despesas: number;
  planejadas: number;
  visitadas: number;
}

export async function tendencias(db: Db, f: FiltroTendencias): Promise<Tendencias> {
  const vendas = condicoesDoFiltro(f, 'data_venda');
  const despesas = sql`${condicoesDoFiltro(f, 'data_despesa')} and t.excluida_em is null`;

  const dias = new Map(
    (
      await linhas<VendaDoDia>(
        db,
        sql`
        select t.data_venda as data, sum(t.dinheiro_centavos) as dinheiro, sum(t.pix_centavos) as pix, sum(t.cartao_centavos) as cartao,
          sum(t.link_centavos) as link, sum(t.boletos) as boletos
        from vendas t where ${vendas} group by t.data_venda`,
      )
    ).map((d) => [d.data, d]),
  );
  const vendasPorDia: Tendencias['vendas_por_dia'] = [];
  // Bounded: the schema refuses periods over MAXIMO_DIAS_TENDENCIAS days.
  for (let dia = f.dataInicio; dia <= f.dataFim; dia = somarDias(dia, 1)) {
    const d = dias.get(dia);
    vendasPorDia.push({
      data: dia,
      dinheiro_centavos: d?.dinheiro ?? 0,
      pix_centavos: d?.pix ?? 0,
      cartao_centavos: d?.cartao ?? 0,
      link_centavos: d?.link ?? 0,
      boletos: d?.boletos ?? 0,
    });
  }

  // A route shows when its period crosses the filter's (cancelled ones only with sales or expenses
  // in it) or when it has sales or expenses in the period. Cities: of the whole route, as the
  // dashboard counts them (a city with a visit or a sale is visited).
  const rotasCondicoes: SQL[] = [
    sql`((r.status <> 'cancelada' and r.data_inicio <= ${f.dataFim} and r.data_fim >= ${f.dataInicio})
      or exists(select 1 from vendas t where t.rota_id = r.id and ${vendas})
      or exists(select 1 from despesas t where t.rota_id = r.id and ${despesas}))`,
  ];
  if (f.rotaId !== undefined) rotasCondicoes.push(sql`r.id = ${f.rotaId}`);
  if (f.funcionarioId !== undefined) rotasCondicoes.push(sql`r.funcionario_id = ${f.funcionarioId}`);
  const rotas = await linhas<LinhaRota>(db, sql`
    select r.id as "rotaId", r.nome as "rotaNome", u.nome as "funcionarioNome",
      coalesce((select sum(${TOTAL_VENDA}) from vendas t where t.rota_id = r.id and ${vendas}), 0) as vendas,
      coalesce((select sum(t.valor_centavos) from despesas t where t.rota_id = r.id and ${despesas}), 0) as despesas,
      (select count(*) from rota_cidades rc where rc.rota_id = r.id) as planejadas,
      (select count(*) from rota_cidades rc where rc.rota_id = r.id
        and (exists(select 1 from visitas vi where vi.rota_id = r.id and vi.cidade_id = rc.cidade_id)
          or exists(select 1 from vendas v where v.rota_id = r.id and v.cidade_id = rc.cidade_id))) as visitadas
    from rotas r join usuarios u on u.id = r.funcionario_id
    where ${sql.join(rotasCondicoes, sql` and `)}
    order by r.data_inicio, r.id`);

  const funcionarios = await linhas<{ id: number; nome: string; vendas: number; despesas: number }>(db, sql`
    with v as (select t.funcionario_id as id, sum(${TOTAL_VENDA}) as total from vendas t where ${vendas} group by t.funcionario_id),
      d as (select t.funcionario_id as id, sum(t.valor_centavos) as total from despesas t where ${despesas} group by t.funcionario_id)
    select u.id as id, u.nome as nome, coalesce(v.total, 0) as vendas, coalesce(d.total, 0) as despesas
    from usuarios u left join v on v.id = u.id left join d on d.id = u.id
    where v.id is not null or d.id is not null`);

  const ordem = (tipo: string) => {
    const i = (TIPOS_DESPESA as readonly string[]).indexOf(tipo);
    return i < 0 ? TIPOS_DESPESA.length : i;
  };
  const porTipo = (
    await linhas<{ tipo: string; quantidade: number; total: number }>(
      db,
      sql`
      select t.tipo as tipo, count(*) as quantidade, sum(t.valor_centavos) as total from despesas t where ${despesas} group by t.tipo`,
    )
  ).sort((a, b) => ordem(a.tipo) - ordem(b.tipo));

  return {
    data_inicio: f.dataInicio,
    data_fim: f.dataFim,
    vendas_por_dia: vendasPorDia,
    por_rota: rotas.map((r) => ({
      rota_id: r.rotaId,
      rota_nome: r.rotaNome,
      funcionario_nome: r.funcionarioNome,
      vendas_centavos: r.vendas,
      despesas_centavos: r.despesas,
      cidades_planejadas: r.planejadas,
      cidades_visitadas: r.visitadas,
    })),
    por_funcionario: ordenarPorNome(funcionarios, (u) => u.nome).map((u) => ({
      funcionario_id: u.id,
      funcionario_nome: u.nome,
      vendas_centavos: u.vendas,
      despesas_centavos: u.despesas,
    })),
    despesas_por_tipo: porTipo.map((d) => ({ tipo: d.tipo, quantidade: d.quantidade, total_centavos: d.total })),
  };
}
