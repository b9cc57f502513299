/** Balances: query keys, the admin's reads, the employee's own balance (cached for the road), crediting. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Rota } from '../../../shared/schemas/rotas';
import type {
  AdicionarSaldoPedido,
  FuncionarioComSaldo,
  Movimentacao,
  MovimentacoesResposta,
  RelatorioSaldoLinha,
  ResumoSaldoAdmin,
  ResumoSaldoFuncionario,
  SaldoFuncionario,
  TipoMovimentacao,
} from '../../../shared/schemas/saldo';
import { api } from '../api/client';
import { lerTodasAsPaginas } from '../api/paginas';
import { buscarComCache } from '../offline/cache';
import { bancoLocal } from '../offline/db';
import { anunciar, releituraDoCelular } from '../despesas/releitura';
import { novidadesDosCreditos, registrarNovidades } from '../despesas/noticias';

export const chavesSaldo = {
  todos: ['saldo'] as const,
  saldos: () => [...chavesSaldo.todos, 'saldos'] as const,
  resumoAdmin: () => [...chavesSaldo.todos, 'resumo-admin'] as const,
  resumoProprio: (usuarioId: number) => [...chavesSaldo.todos, 'resumo', usuarioId] as const,
  movimentacoes: (tipo: TipoMovimentacao | '', funcionarioId: number | null = null) => [...chavesSaldo.todos, 'movimentacoes', tipo, funcionarioId] as const,
  relatorio: () => [...chavesSaldo.todos, 'relatorio'] as const,
  funcionarios: () => [...chavesSaldo.todos, 'funcionarios'] as const,
  rotasAtivas: (funcionarioId: number) => [...chavesSaldo.todos, 'rotas-ativas', funcionarioId] as const,
};

/** The history tab shows the most recent movements; older ones stay in the ledger. */
export const LIMITE_HISTORICO = 500;

/**
 * The employee's own balance: the server's ledger, or the last one kept on the device when offline.
 * Read every minute while online and on focus; a credit the phone had not seen becomes a notice
 * ('Crédito de R$ 200,00 no saldo'), kept until dismissed on the Despesas page.
 */
/** `avisar`: say a new credit as a toast (a function: asked when the answer arrives, e.g. 'not on Despesas'). */
/** Device-cache key of the employee's own balance. */
export const CHAVE_CACHE_SALDO = 'saldo:resumo';

export function useSaldoProprio(usuarioId: number, ativo = true, { avisar = true }: { avisar?: boolean | (() => boolean) } = {}) {
  return useQuery({
    queryKey: chavesSaldo.resumoProprio(usuarioId),
    enabled: ativo,
    networkMode: 'always',
    ...releituraDoCelular,
    queryFn: async () => {
      const r = await buscarComCache(bancoLocal, CHAVE_CACHE_SALDO, usuarioId, () => api.get<ResumoSaldoFuncionario>('/saldo/resumo'));
      const creditos = r.dados.creditos_recentes;
      if (r.origem === 'servidor' && creditos) {
        const novas = await registrarNovidades(bancoLocal, usuarioId, (v) => novidadesDosCreditos(v, creditos));
        // A toast where nothing else shows it (the dashboard); the Despesas page lists it in 'Novidades'.
        if (typeof avisar === 'function' ? avisar() : avisar) anunciar(novas);
      }
      return r;
    },
  });
}

export function useSaldos() {
  return useQuery({ queryKey: chavesSaldo.saldos(), queryFn: async () => (await api.get<{ saldos: SaldoFuncionario[] }>('/saldo')).saldos });
}

export function useResumoAdmin() {
  return useQuery({ queryKey: chavesSaldo.resumoAdmin(), queryFn: () => api.get<ResumoSaldoAdmin>('/saldo/resumo') });
}

/** The history's movements of one type ('' all), of one employee when `funcionarioId` is given. */
export function useMovimentacoes(tipo: TipoMovimentacao | '', funcionarioId: number | null = null) {
  return useQuery({
    queryKey: chavesSaldo.movimentacoes(tipo, funcionarioId),
    queryFn: async (): Promise<{ movimentacoes: Movimentacao[]; total: number }> => {
      const params = { tipo, limit: LIMITE_HISTORICO, ...(funcionarioId !== null ? { funcionario_id: funcionarioId } : {}) };
      const r = await api.get<MovimentacoesResposta>('/saldo/movimentacoes', { params });
      return { movimentacoes: r.movimentacoes, total: r.total };
    },
  });
}

export function useRelatorioSaldo() {
  return useQuery({
    queryKey: chavesSaldo.relatorio(),
    queryFn: async () => (await api.get<{ relatorio: RelatorioSaldoLinha[] }>('/saldo/relatorio')).relatorio,
  });
}

/** Employees with their balance, for the credit modal ('name — R$ balance'). */
export function useFuncionariosComSaldo(ativo = true) {
  return useQuery({
    queryKey: chavesSaldo.funcionarios(),
    enabled: ativo,
    queryFn: async () => {
      const r = await api.get<{ funcionarios: FuncionarioComSaldo[] } | FuncionarioComSaldo[]>('/saldo/funcionarios');
      return Array.isArray(r) ? r : r.funcionarios;
    },
  });
}

/** The employee's active routes, the only ones a credit may be tied to. */
export function useRotasAtivasDoFuncionario(funcionarioId: number | null) {
  return useQuery({
    queryKey: chavesSaldo.rotasAtivas(funcionarioId ?? 0),
    enabled: funcionarioId !== null,
    queryFn: async () => {
      const r = await lerTodasAsPaginas<{ rotas: Rota[] }, 'rotas'>('/rotas', 'rotas', { funcionario_id: funcionarioId, status: 'ativa' });
      // The spec's client filters to 'ativa' again: a server answering more never offers a closed route.
      return r.rotas.filter((rota) => rota.status === 'ativa');
    },
  });
}

export function useAdicionarSaldo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (dados: AdicionarSaldoPedido) => api.post<{ message: string; movimentacao: Movimentacao }>('/saldo/adicionar', dados),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: chavesSaldo.todos }),
  });
}
