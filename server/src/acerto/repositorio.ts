/** What a route's settlement is computed from (shared/acerto.ts), summed in SQL in centavos, for many routes at once. */
import { sql } from 'drizzle-orm';
import type { AcertoFeito, EntradaAcerto, SentidoAcerto } from '../../../shared/acerto';
import { linhas, type Db } from '../db';

/** The settlement's inputs of a route, without the salary (computed by the salary rules, only where shown). */
export type EntradaSemSalario = Omit<EntradaAcerto, 'salarioCentavos' | 'descontoAluguelCentavos'>;

interface LinhaSomas {
  rotaId: number;
  creditos: number;
  creditosSemRota: number;
  aprovadas: number;
  pendentes: number;
  rejeitadas: number;
}

interface LinhaAcerto {
  rotaId: number;
  valor: number;
  sentido: SentidoAcerto;
  data: string;
  adminNome: string | null;
  descricao: string;
}

const lista = (ids: readonly number[]) => sql.join(ids.map((id) => sql`${id}`), sql`, `);

/** Each route's credits, expenses by status and acertos (oldest first), with its employee's credits without a route. */
export async function entradasDoAcerto(db: Db, rotaIds: readonly number[]): Promise<Map<number, EntradaSemSalario>> {
  const entradas = new Map<number, EntradaSemSalario>();
  for (let i = 0; i < rotaIds.length; i += 500) {
    const ids = rotaIds.slice(i, i + 500);
    const somas = await linhas<LinhaSomas>(db, sql`
      select r.id as "rotaId",
        coalesce((select sum(m.valor_centavos) from movimentacoes_saldo m where m.rota_id = r.id and m.tipo = 'credito'), 0) as creditos,
        coalesce((select sum(m.valor_centavos) from movimentacoes_saldo m where m.funcionario_id = r.funcionario_id and m.rota_id is null and m.tipo = 'credito'), 0) as "creditosSemRota",
        coalesce((select sum(d.valor_centavos) from despesas d where d.rota_id = r.id and d.excluida_em is null and d.status_aprovacao = 'aprovada'), 0) as aprovadas,
        coalesce((select sum(d.valor_centavos) from despesas d where d.rota_id = r.id and d.excluida_em is null and d.status_aprovacao = 'pendente'), 0) as pendentes,
        coalesce((select sum(d.valor_centavos) from despesas d where d.rota_id = r.id and d.excluida_em is null and d.status_aprovacao = 'rejeitada'), 0) as rejeitadas
      from rotas r where r.id in (${lista(ids)})`);
    const acertos = await linhas<LinhaAcerto>(db, sql`
      select m.rota_id as "rotaId", m.valor_centavos as valor, m.sentido as sentido, m.data_movimentacao as data, a.nome as "adminNome", m.descricao as descricao
      from movimentacoes_saldo m left join usuarios a on a.id = m.admin_id
      where m.tipo = 'acerto' and m.rota_id in (${lista(ids)})
      order by m.id`);
    const porRota = new Map<number, AcertoFeito[]>();
    for (const a of acertos) {
      const feitos = porRota.get(a.rotaId) ?? [];
      feitos.push({ valorCentavos: Number(a.valor), sentido: a.sentido, data: a.data, adminNome: a.adminNome, observacao: a.descricao });
      porRota.set(a.rotaId, feitos);
    }
    for (const s of somas) {
      entradas.set(Number(s.rotaId), {
        creditosCentavos: Number(s.creditos),
        creditosSemRotaCentavos: Number(s.creditosSemRota),
        despesasAprovadasCentavos: Number(s.aprovadas),
        despesasPendentesCentavos: Number(s.pendentes),
        despesasRejeitadasCentavos: Number(s.rejeitadas),
        acertos: porRota.get(Number(s.rotaId)) ?? [],
      });
    }
  }
  return entradas;
}

export interface DespesaACobrar {
  id: string;
  valorCentavos: number;
}

/** The route's rejected expenses an acerto has not charged to the employee yet. */
export async function rejeitadasNaoCobradas(db: Db, rotaId: number): Promise<DespesaACobrar[]> {
  return linhas<DespesaACobrar>(db, sql`
    select id, valor_centavos as "valorCentavos" from despesas
    where rota_id = ${rotaId} and excluida_em is null and status_aprovacao = 'rejeitada' and cobrada_no_acerto_em is null
    order by data_despesa, registrado_em, id`);
}
