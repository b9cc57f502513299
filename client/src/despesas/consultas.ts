/**
 * Expenses: query keys, reads (the employee's through the device cache, so the screen opens offline)
 * and the admin's approve/reject mutations. Employee writes go through the outbox (operacoes.ts).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useLiveQuery } from 'dexie-react-hooks';
import type { Despesa, ListaDespesas, StatusAprovacao, TipoDespesa } from '../../../shared/schemas/despesas';
import type { Rota } from '../../../shared/schemas/rotas';
import type { Usuario } from '../../../shared/schemas/usuarios';
import { api, ErroOffline, type Parametros } from '../api/client';
import { lerTodasAsPaginas } from '../api/paginas';
import { useReleituraPorPassada } from '../offline';
import { buscarComCache } from '../offline/cache';
import { bancoLocal } from '../offline/db';
import { itensDoUsuario, lerConfirmacoes } from '../offline/outbox';
import { chavesSaldo } from '../saldo/consultas';
import { operacoesDeDespesa, type ItemFilaDespesa } from './fila';
import { lerNoticias, novidadesDasDespesas, registrarNovidades, type Noticia } from './noticias';
import { releituraDoCelular } from './releitura';

export interface FiltrosDespesas {
  funcionario_id: string;
  rota_id: string;
  status_rota: '' | 'ativa' | 'finalizada';
  data_inicio: string;
  data_fim: string;
  tipo: TipoDespesa | '';
  status_aprovacao: StatusAprovacao | '';
  /** The admin's 'Só acima do limite diário'. */
  acima_do_limite?: boolean;
}

export const chavesDespesas = {
  todos: ['despesas'] as const,
  lista: (usuarioId: number, filtros: FiltrosDespesas, pagina: number) => [...chavesDespesas.todos, 'lista', usuarioId, filtros, pagina] as const,
  rotasDoFiltro: (funcionarioId: string) => [...chavesDespesas.todos, 'rotas-filtro', funcionarioId] as const,
  novidades: (usuarioId: number) => [...chavesDespesas.todos, 'novidades', usuarioId] as const,
  uma: (id: string) => [...chavesDespesas.todos, 'uma', id] as const,
};

export const LISTA_VAZIA: ListaDespesas = {
  despesas: [],
  totais: { geral: 0, alimentacao: 0, hospedagem: 0, combustivel: 0, pedagio: 0, aluguel_sala: 0, outro: 0 },
  page: 1,
  limit: 20,
  total: 0,
};

export interface ResultadoLista {
  lista: ListaDespesas;
  /** 'cache': shown from the device (offline); 'falha': nothing to show. */
  origem: 'servidor' | 'cache' | 'falha';
  atualizadoEm: string | null;
}

/** The role's filters as query parameters (an employee has no employee, route or status filters). */
export function parametrosDaLista(filtros: FiltrosDespesas, pagina: number, admin: boolean): Parametros {
  const comuns = { data_inicio: filtros.data_inicio, data_fim: filtros.data_fim, tipo: filtros.tipo, page: pagina, limit: 20 };
  if (!admin) return comuns;
  return {
    ...comuns,
    funcionario_id: filtros.funcionario_id,
    rota_id: filtros.rota_id,
    // The route's own status rules once a route is picked.
    status_rota: filtros.rota_id ? '' : filtros.status_rota,
    status_aprovacao: filtros.status_aprovacao,
    acima_do_limite: filtros.acima_do_limite ? 'true' : '',
  };
}

/** The page of expenses. A failed load is logged and shows an empty list (spec section 8). */
export function useListaDespesas(usuario: Usuario, filtros: FiltrosDespesas, pagina: number) {
  const admin = usuario.tipo === 'admin';
  return useQuery({
    queryKey: chavesDespesas.lista(usuario.id, filtros, pagina),
    // Offline the employee's list still comes from the device cache.
    networkMode: admin ? 'online' : 'always',
    ...(admin ? {} : releituraDoCelular),
    placeholderData: (anterior) => anterior,
    queryFn: async (): Promise<ResultadoLista> => {
      const params = parametrosDaLista(filtros, pagina, admin);
      const buscar = () => api.get<ListaDespesas>('/despesas', { params });
      try {
        if (admin) return { lista: await buscar(), origem: 'servidor', atualizadoEm: new Date().toISOString() };
        const r = await buscarComCache(bancoLocal, `despesas:lista:${JSON.stringify(params)}`, usuario.id, buscar);
        return { lista: r.dados, origem: r.origem, atualizadoEm: r.atualizadoEm };
      } catch (erro) {
        // The admin's screen is online only: without an answer it says 'Sem conexão', not an empty list.
        if (admin && erro instanceof ErroOffline) throw erro;
        console.error('Erro ao carregar despesas:', erro);
        return { lista: { ...LISTA_VAZIA, page: pagina }, origem: 'falha', atualizadoEm: null };
      }
    },
  });
}

/**
 * The employee's expenses evaluated since this phone last looked: each new approval or
 * rejection becomes a notice kept on the device. Only online; read every minute and on focus.
 */
export function useNovidadesDespesas(usuarioId: number, ativo: boolean) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: chavesDespesas.novidades(usuarioId),
    enabled: ativo,
    ...releituraDoCelular,
    queryFn: async (): Promise<Noticia[]> => {
      const { vistos } = await lerNoticias(bancoLocal, usuarioId);
      const params = { limit: 100, page: 1, ...(vistos.avaliadasAte ? { avaliadas_desde: vistos.avaliadasAte } : {}) };
      const { despesas } = await api.get<ListaDespesas>('/despesas', { params });
      // Shown by the page's 'Novidades' (a live region) rather than toasts: they would cover the form.
      const novas = await registrarNovidades(bancoLocal, usuarioId, (v) => novidadesDasDespesas(v, despesas));
      // A decision changes the list and the balance screen: read them again when something came.
      if (novas.length > 0) void queryClient.invalidateQueries({ queryKey: [...chavesDespesas.todos, 'lista'] });
      return novas;
    },
  });
}

/** The expense an address asks to open ('/despesas?despesa=<id>', the audit trail's link), whatever the list shows. */
export function useDespesaDoEndereco(id: string | null) {
  return useQuery({
    queryKey: chavesDespesas.uma(id ?? ''),
    enabled: id !== null,
    queryFn: async () => (await api.get<{ despesa: Despesa }>(`/despesas/${encodeURIComponent(id!)}`)).despesa,
  });
}

/** Routes for the admin's Rota filter (of the chosen employee, or all). */
export function useRotasDoFiltro(funcionarioId: string, ativo: boolean) {
  return useQuery({
    queryKey: chavesDespesas.rotasDoFiltro(funcionarioId),
    enabled: ativo,
    queryFn: async () => (await lerTodasAsPaginas<{ rotas: Rota[] }, 'rotas'>('/rotas', 'rotas', { funcionario_id: funcionarioId })).rotas,
  });
}

/**
 * The employee's queued expense changes, live from IndexedDB. When items leave the queue (the
 * server took them), the lists and the balance are read again so the confirmed numbers include
 * them: once, when the sync pass ends, not once per confirmed item.
 */
export function useFilaDeDespesas(usuarioId: number): ItemFilaDespesa[] {
  const queryClient = useQueryClient();
  const itens = useLiveQuery(async () => operacoesDeDespesa(await itensDoUsuario(bancoLocal, usuarioId)), [usuarioId]);
  const confirmacoes = useLiveQuery(() => lerConfirmacoes(bancoLocal), []);
  useReleituraPorPassada(confirmacoes, undefined, () => {
    void queryClient.invalidateQueries({ queryKey: [...chavesDespesas.todos, 'lista'] });
    void queryClient.invalidateQueries({ queryKey: chavesSaldo.todos });
  });
  return itens ?? [];
}

function useInvalidarDespesas() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: chavesDespesas.todos });
}

export function useAprovarDespesa() {
  const invalidar = useInvalidarDespesas();
  return useMutation({
    mutationFn: (id: string) => api.patch<{ despesa: Despesa }>(`/despesas/${id}/aprovar`).then((r) => r.despesa),
    onSuccess: invalidar,
  });
}

export function useRejeitarDespesa() {
  const invalidar = useInvalidarDespesas();
  return useMutation({
    mutationFn: ({ id, motivo }: { id: string; motivo: string }) => api.patch<{ despesa: Despesa }>(`/despesas/${id}/rejeitar`, { motivo }).then((r) => r.despesa),
    onSuccess: invalidar,
  });
}

/** The admin list's filters for its whole-set export (GET /despesas/exportar): the same as the list's, without the page. */
export function parametrosDaExportacao(filtros: FiltrosDespesas): Parametros {
  const { page: _pagina, limit: _limite, ...filtro } = parametrosDaLista(filtros, 1, true);
  return filtro;
}
