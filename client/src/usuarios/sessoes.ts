/**
 * A user's sessions: the admin lists the devices signed in with the account and
 * ends one, or all ('Encerrar sessões': every device asks for a login again).
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { SessaoAberta, SessoesEncerradas } from '../../../shared/schemas/usuarios';
import { api } from '../api/client';

export const chavesSessoes = {
  todas: ['sessoes'] as const,
  doUsuario: (id: number) => [...chavesSessoes.todas, id] as const,
};

export const sessoesDoUsuario = (id: number) =>
  queryOptions({
    queryKey: chavesSessoes.doUsuario(id),
    queryFn: async () => (await api.get<{ sessoes: SessaoAberta[] }>(`/usuarios/${id}/sessoes`)).sessoes,
  });

export function useEncerrarSessoes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<SessoesEncerradas>(`/usuarios/${id}/encerrar-sessoes`),
    onSuccess: (_r, id) => queryClient.invalidateQueries({ queryKey: chavesSessoes.doUsuario(id) }),
  });
}

export function useEncerrarSessao() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ usuarioId, ref }: { usuarioId: number; ref: string }) => api.delete<SessoesEncerradas>(`/usuarios/${usuarioId}/sessoes/${ref}`),
    onSuccess: (_r, { usuarioId }) => queryClient.invalidateQueries({ queryKey: chavesSessoes.doUsuario(usuarioId) }),
  });
}
