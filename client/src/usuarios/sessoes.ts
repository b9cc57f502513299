/** The admin's 'Encerrar sessões' (issue 18): every device of the user asks for a login again. */
import { useMutation } from '@tanstack/react-query';
import type { SessoesEncerradas } from '../../../shared/schemas/usuarios';
import { api } from '../api/client';

export function useEncerrarSessoes() {
  return useMutation({
    mutationFn: (id: number) => api.post<SessoesEncerradas>(`/usuarios/${id}/encerrar-sessoes`),
  });
}
