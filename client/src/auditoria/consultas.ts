/** The audit trail's reads: one queryOptions factory per query (the key and the loader in one place). */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AcaoAuditoria, ListaAuditoria } from '../../../shared/schemas/auditoria';
import { api } from '../api/client';

export interface FiltrosAuditoria {
  admin_id: string;
  acao: AcaoAuditoria | '';
  data_inicio: string;
  data_fim: string;
}

export const FILTROS_AUDITORIA_INICIAIS: FiltrosAuditoria = { admin_id: '', acao: '', data_inicio: '', data_fim: '' };

export const chavesAuditoria = {
  todos: ['auditoria'] as const,
  lista: (filtros: FiltrosAuditoria, page: number) => [...chavesAuditoria.todos, 'lista', filtros, page] as const,
};

export const consultaAuditoria = (filtros: FiltrosAuditoria, page: number) =>
  queryOptions({
    queryKey: chavesAuditoria.lista(filtros, page),
    queryFn: () => api.get<ListaAuditoria>('/auditoria', { params: { ...filtros, page } }),
    placeholderData: keepPreviousData,
  });

export const useAuditoria = (filtros: FiltrosAuditoria, page: number) => useQuery(consultaAuditoria(filtros, page));
