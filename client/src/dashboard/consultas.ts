/**
 * Dashboards: query keys and loaders.
 * - Admin: GET /relatorios/dashboard-admin, online only; a failed load is logged and reads as zeros
 *   and empty tables (spec section 8, 'Dashboard load failures'), except without connection, which
 *   the screen says ('Sem conexão').
 * - Employee: the base of the route's salary (GET /relatorios/rota/:id) through the device cache, so
 *   the dashboard opens offline; the other pieces are the route, balance and queue hooks of their domains.
 */
import { useQuery } from '@tanstack/react-query';
import type { BaseSalario, DashboardAdmin, RelatorioSalarioRota } from '../../../shared/schemas/relatorios';
import type { Rota } from '../../../shared/schemas/rotas';
import { api } from '../api/client';
import { ouVazio } from '../api/ouVazio';
import { carregarComCache } from '../offline/cache';
import { bancoLocal } from '../offline/db';

export const chavesDashboard = {
  todos: ['dashboard'] as const,
  admin: () => [...chavesDashboard.todos, 'admin'] as const,
  funcionario: (usuarioId: number) => [...chavesDashboard.todos, 'funcionario', usuarioId] as const,
  salario: (usuarioId: number, rotaId: number) => [...chavesDashboard.funcionario(usuarioId), 'salario', rotaId] as const,
};

export const DASHBOARD_ADMIN_VAZIO: DashboardAdmin = {
  funcionariosEmRota: 0,
  funcionariosSemRota: 0,
  rotasAtivas: 0,
  vendasDia: 0,
  despesasDia: 0,
  rotas: [],
  funcionarios: [],
  celulares: [],
};

/**
 * The admin's overview of the day; read again every minute while it is open, and every time the admin
 * comes back to it (a route just created or a credit just given must show, not a 30-second-old copy).
 */
export function useDashboardAdmin() {
  return useQuery({
    queryKey: chavesDashboard.admin(),
    refetchInterval: 60_000,
    refetchOnMount: 'always',
    // Without an answer the screen says 'Sem conexão' (not zeros): the failure goes on.
    queryFn: () => ouVazio(() => api.get<DashboardAdmin>('/relatorios/dashboard-admin'), DASHBOARD_ADMIN_VAZIO, 'Erro ao carregar o dashboard:'),
  });
}

/** Device-cache key of the route's salary base. */
export const chaveCacheSalario = (rotaId: number) => `relatorios:salario:${rotaId}`;

/**
 * What the server computed the route's salary from (rent, visited cities, sales), for the phone to
 * add its queued work. A failed load reads as nothing done yet on the route's rent.
 */
export function useBaseDoSalario(usuarioId: number, rota: Rota | null) {
  return useQuery({
    networkMode: 'always',
    retry: false,
    queryKey: chavesDashboard.salario(usuarioId, rota?.id ?? 0),
    enabled: rota !== null,
    queryFn: () =>
      carregarComCache<BaseSalario>(
        bancoLocal,
        chaveCacheSalario(rota!.id),
        usuarioId,
        async () => (await api.get<RelatorioSalarioRota>(`/relatorios/rota/${rota!.id}`)).base,
        { valor_aluguel: rota!.valor_aluguel, cidades_visitadas_ids: [], vendas: [] },
        'o salário estimado',
      ),
  });
}
