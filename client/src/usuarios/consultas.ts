/** Users: query keys and one mutation hook per action (each refreshes the lists). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ResumoDesativacao, Usuario, UsuarioCriarPedido, UsuarioEditarPedido } from '../../../shared/schemas/usuarios';
import { api } from '../api/client';
import { ouVazio } from '../api/ouVazio';
import { lerTodasAsPaginas } from '../api/paginas';

export const chavesUsuarios = {
  todos: ['usuarios'] as const,
  lista: () => [...chavesUsuarios.todos, 'lista'] as const,
  funcionarios: () => [...chavesUsuarios.todos, 'funcionarios'] as const,
  funcionariosComInativos: () => [...chavesUsuarios.funcionarios(), 'inativos-com-rotas'] as const,
  desativacao: (id: number) => [...chavesUsuarios.todos, 'desativacao', id] as const,
  administradores: () => [...chavesUsuarios.todos, 'administradores'] as const,
};

/** All users. A failed load is logged and shows an empty list (spec section 8); without connection it fails ('Sem conexão'). */
export function useUsuarios() {
  return useQuery({
    queryKey: chavesUsuarios.lista(),
    queryFn: () => ouVazio(async () => (await lerTodasAsPaginas<{ usuarios: Usuario[] }, 'usuarios'>('/usuarios', 'usuarios')).usuarios, [], 'Erro ao carregar usuários:'),
  });
}

/** Active employees, for the pickers of other screens. */
export function useFuncionarios() {
  return useQuery({
    queryKey: chavesUsuarios.funcionarios(),
    queryFn: async () => {
      const r = await api.get<{ funcionarios: Usuario[] } | Usuario[]>('/usuarios/funcionarios');
      return Array.isArray(r) ? r : r.funcionarios;
    },
  });
}

/**
 * Relatórios' filter: the active employees and the deactivated ones who have routes (their routes are
 * still reported and exported), each with `ativo` to mark them.
 */
export function useFuncionariosComInativos() {
  return useQuery({
    queryKey: chavesUsuarios.funcionariosComInativos(),
    queryFn: async () => (await api.get<{ funcionarios: Usuario[] }>('/usuarios/funcionarios', { params: { inativos_com_rotas: 'true' } })).funcionarios,
  });
}

/** What stays with the person if deactivated (route, balance, phones' unsent records), read when the confirmation opens. */
export function useResumoDesativacao(id: number | null) {
  return useQuery({
    queryKey: chavesUsuarios.desativacao(id ?? 0),
    enabled: id !== null,
    // Read fresh each time the confirmation opens: a phone may have synced a minute ago.
    staleTime: 0,
    gcTime: 0,
    retry: false,
    queryFn: () => api.get<ResumoDesativacao>(`/usuarios/${id}/desativacao`),
  });
}

/** The admins only (the Auditoria filter), without reading every employee. */
export function useAdministradores() {
  return useQuery({
    queryKey: chavesUsuarios.administradores(),
    queryFn: async () => (await lerTodasAsPaginas<{ usuarios: Usuario[] }, 'usuarios'>('/usuarios', 'usuarios', { tipo: 'admin' })).usuarios,
  });
}

function useInvalidarUsuarios() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: chavesUsuarios.todos });
}

export function useCriarUsuario() {
  const invalidar = useInvalidarUsuarios();
  return useMutation({
    mutationFn: (dados: UsuarioCriarPedido) => api.post<{ usuario: Usuario }>('/usuarios', dados).then((r) => r.usuario),
    onSuccess: invalidar,
  });
}

export function useEditarUsuario() {
  const invalidar = useInvalidarUsuarios();
  return useMutation({
    mutationFn: async ({ id, dados, novaSenha }: { id: number; dados: UsuarioEditarPedido; novaSenha?: string }) => {
      const { usuario } = await api.patch<{ usuario: Usuario }>(`/usuarios/${id}`, dados);
      if (novaSenha) await api.patch(`/usuarios/${id}/senha`, { novaSenha });
      return usuario;
    },
    onSuccess: invalidar,
  });
}

export function useAlterarStatusUsuario() {
  const invalidar = useInvalidarUsuarios();
  return useMutation({
    mutationFn: ({ id, ativar }: { id: number; ativar: boolean }) =>
      api.patch<{ usuario: Usuario }>(`/usuarios/${id}/${ativar ? 'ativar' : 'desativar'}`).then((r) => r.usuario),
    onSuccess: invalidar,
  });
}

export function useDesbloquearUsuario() {
  const invalidar = useInvalidarUsuarios();
  return useMutation({
    mutationFn: (id: number) => api.patch<{ usuario: Usuario }>(`/usuarios/${id}/desbloquear`).then((r) => r.usuario),
    onSuccess: invalidar,
  });
}
