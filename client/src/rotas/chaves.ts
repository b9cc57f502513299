/**
 * Routes' keys: the queries' (React Query) and the device copies' (IndexedDB), and how the active route
 * is read from its copy. Without Dexie or the API client: the boot's read of the opening screen's copies
 * (app/copiasDeAbertura.ts) uses them before the sync engine's chunk has arrived.
 */
import type { Rota, StatusRota } from '../../../shared/schemas/rotas';

export interface FiltroRotas {
  status: StatusRota | '';
  funcionario_id: string;
}

export const chavesRotas = {
  todas: ['rotas'] as const,
  listas: () => [...chavesRotas.todas, 'lista'] as const,
  lista: (filtro: FiltroRotas) => [...chavesRotas.listas(), filtro] as const,
  minhas: (usuarioId: number) => [...chavesRotas.todas, 'minhas', usuarioId] as const,
  /** Under `minhas`: refreshing the employee's lists (a route finished) refreshes these too. */
  ativaDoFuncionario: (usuarioId: number) => [...chavesRotas.minhas(usuarioId), 'ativa'] as const,
  finalizadasDoFuncionario: (usuarioId: number) => [...chavesRotas.minhas(usuarioId), 'finalizadas'] as const,
  resultado: (usuarioId: number, rotaId: number) => [...chavesRotas.minhas(usuarioId), 'resultado', rotaId] as const,
  despesas: (rotaId: number) => [...chavesRotas.todas, 'despesas', rotaId] as const,
  estados: () => ['estados'] as const,
  buscaCidades: (termo: string, estados: string[]) => ['cidades', 'busca', termo, [...estados].sort()] as const,
};

/** Device-cache keys of the employee's two lists (IndexedDB). */
export const chavesCacheRotas = {
  ativas: (usuarioId: number) => `rotas:ativas:${usuarioId}`,
  finalizadas: (usuarioId: number) => `rotas:finalizadas:${usuarioId}`,
  /** A route's result (salary, expenses, credits, balance left), one copy per person and route. */
  resultado: (usuarioId: number, rotaId: number) => `rotas:resultado:${usuarioId}:${rotaId}`,
};

/** The active route in the employee's list, checked (a copy kept by an older version may have another shape). */
export function rotaAtivaDaLista(dados: unknown): Rota | null {
  if (!Array.isArray(dados)) return null;
  const rota = (dados as Partial<Rota>[]).find((r) => r && r.status === 'ativa' && typeof r.id === 'number');
  return rota ? (rota as Rota) : null;
}
