/** Expenses as the API answers them, for client tests that only care about a few of the fields. */
import type { Despesa, ListaDespesas } from '../../../shared/schemas/despesas';
import type { Rota } from '../../../shared/schemas/rotas';
import { FUNCIONARIO_TESTE } from './renderizar';

/** A pending R$ 45,90 lunch in Anápolis of FUNCIONARIO_TESTE, on `rota` (id and name): each test overrides what it looks at. */
export function despesaDeTeste(id: string, extra: Partial<Despesa> = {}, rota: Pick<Rota, 'id' | 'nome'> = { id: 7, nome: 'Rota Centro-Oeste' }): Despesa {
  return {
    id,
    rota_id: rota.id,
    cidade_id: 5201108,
    funcionario_id: FUNCIONARIO_TESTE.id,
    data_despesa: '2026-11-20',
    tipo: 'alimentacao',
    tipo_outro: null,
    valor: 45.9,
    descricao: 'Almoço',
    arquivo_cupom: null,
    cupom_url: null,
    cupom_mime: null,
    cupom_nome: null,
    chave_nfce: null,
    status_aprovacao: 'pendente',
    motivo_rejeicao: null,
    aprovada: false,
    rejeitada: false,
    avaliado_em: null,
    funcionario_nome: FUNCIONARIO_TESTE.nome,
    rota_nome: rota.nome,
    rota_status: 'ativa',
    cidade_nome: 'Anápolis',
    cidade_uf: 'GO',
    registrado_em: '2026-11-20T15:00:00.000Z',
    recebido_em: '2026-11-20T15:00:02.000Z',
    atualizado_em: '2026-11-20T15:00:02.000Z',
    excluida: false,
    ...extra,
  };
}

/** One page of the list with the totals the server would compute for exactly these rows. */
export function listaDeDespesas(despesas: Despesa[], extra: Partial<ListaDespesas> = {}): ListaDespesas {
  const totais = { geral: 0, alimentacao: 0, hospedagem: 0, combustivel: 0, pedagio: 0, aluguel_sala: 0, outro: 0 };
  for (const d of despesas) {
    totais[d.tipo] += Math.round(d.valor * 100);
    totais.geral += Math.round(d.valor * 100);
  }
  for (const k of Object.keys(totais) as (keyof typeof totais)[]) totais[k] /= 100;
  return { despesas, totais, page: 1, limit: 20, total: despesas.length, ...extra };
}
