/**
 * Sales' keys: the queries' (React Query) and the device copies' (IndexedDB). Without Dexie or the API
 * client: the boot's read of the opening screen's copies (app/copiasDeAbertura.ts) uses them.
 */
import type { Parametros } from '../api/client';

export const chavesVendas = {
  todas: ['vendas'] as const,
  funcionario: (usuarioId: number) => [...chavesVendas.todas, 'funcionario', usuarioId] as const,
  dia: (usuarioId: number, rotaId: number, data: string) => [...chavesVendas.funcionario(usuarioId), 'dia', rotaId, data] as const,
  historico: (usuarioId: number, rotaId: number) => [...chavesVendas.funcionario(usuarioId), 'historico', rotaId] as const,
  fechamento: (filtros: Parametros) => [...chavesVendas.todas, 'fechamento', filtros] as const,
  rotasAdmin: () => [...chavesVendas.todas, 'rotas'] as const,
};

/** Device-cache keys (IndexedDB), one per piece of the employee's screen (the active route's is in rotas/chaves.ts). */
export const chavesCache = {
  dia: (rotaId: number, data: string) => `vendas:dia:${rotaId}:${data}`,
  historico: (rotaId: number) => `vendas:historico:${rotaId}`,
};
