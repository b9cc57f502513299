/**
 * Sales: query keys and loaders.
 * - The employee's data (the day's city status and closings, the history) goes through
 *   the device cache, so the screen opens offline after one online visit (queries run even when the
 *   browser says it is offline: the cache answers).
 * - The admin's daily closing is online only, one server page at a time; its key holds the
 *   filters and the page, so any change reloads it. The cards are the server's totals of the whole filter.
 * - The employee's day of a route is read whole (every page): the phone's copy must hold all of it.
 */
import { useQuery } from '@tanstack/react-query';
import type { CidadeStatus, Rota } from '../../../shared/schemas/rotas';
import type { FechamentoDiario, HistoricoResposta, VendaHistorico, VendaListada } from '../../../shared/schemas/vendas';
import { api, type Parametros } from '../api/client';
import { ouVazio } from '../api/ouVazio';
import { lerTodasAsPaginas } from '../api/paginas';
import { carregarComCache } from '../offline/cache';
import { bancoLocal } from '../offline/db';
import { chavesCache, chavesVendas } from './chaves';

export { chavesCache, chavesVendas } from './chaves';

const opcoesFuncionario = { networkMode: 'always', retry: false } as const;

export interface DiaDaRota {
  status: CidadeStatus[];
  vendas: VendaListada[];
}

/** The day's city status and closings of the route, fetched together so they always agree. */
export function useDiaDaRota(usuarioId: number, rotaId: number | null, data: string) {
  return useQuery({
    ...opcoesFuncionario,
    queryKey: chavesVendas.dia(usuarioId, rotaId ?? 0, data),
    enabled: rotaId !== null,
    queryFn: () =>
      carregarComCache<DiaDaRota | null>(
        bancoLocal,
        chavesCache.dia(rotaId!, data),
        usuarioId,
        async () => {
          const [status, fechamento] = await Promise.all([
            api.get<{ cidades: CidadeStatus[] }>(`/rotas/${rotaId}/cidades-status`, { params: { data } }),
            lerTodasAsPaginas<FechamentoDiario, 'vendas'>('/vendas/fechamento-diario', 'vendas', { rota_id: rotaId, data }),
          ]);
          return { status: status.cidades, vendas: fechamento.vendas };
        },
        null,
        'as cidades do dia',
      ),
  });
}

/** The last closings of each city of the route ('Histórico de vendas'). */
export function useHistoricoDaRota(usuarioId: number, rotaId: number | null) {
  return useQuery({
    ...opcoesFuncionario,
    queryKey: chavesVendas.historico(usuarioId, rotaId ?? 0),
    enabled: rotaId !== null,
    queryFn: () =>
      carregarComCache<VendaHistorico[]>(
        bancoLocal,
        chavesCache.historico(rotaId!),
        usuarioId,
        async () => (await api.get<HistoricoResposta>(`/vendas/rota/${rotaId}/historico`)).historico,
        [],
        'o histórico de vendas',
      ),
  });
}

export const FECHAMENTO_VAZIO: FechamentoDiario = {
  totais: { dinheiro: 0, pix: 0, cartao: 0, link: 0, boletos: 0, total_geral: 0 },
  vendas: [],
  total: 0,
  page: 1,
  limit: 0,
};

/** The admin's 'Vendas': one page of the daily closing with the applied filters (params carry page and limit). */
export function useFechamentoDiario(params: Parametros) {
  return useQuery({
    queryKey: chavesVendas.fechamento(params),
    queryFn: () => ouVazio(() => api.get<FechamentoDiario>('/vendas/fechamento-diario', { params }), FECHAMENTO_VAZIO, 'Erro ao carregar vendas:'),
    placeholderData: (anterior) => anterior,
  });
}

/** Every route, for the admin's filter. */
export function useRotasParaFiltro() {
  return useQuery({
    queryKey: chavesVendas.rotasAdmin(),
    queryFn: () => ouVazio(async () => (await lerTodasAsPaginas<{ rotas: Rota[] }, 'rotas'>('/rotas', 'rotas')).rotas, [], 'Erro ao carregar rotas:'),
  });
}
