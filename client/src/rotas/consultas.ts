/**
 * Routes: query keys, the reads of both views, and one mutation hook per admin action (each
 * refreshes the lists). The employee's lists go through the device cache so they open offline:
 * one copy of each list on the device, read by every screen (Minhas Rotas, Vendas, Despesas, Dashboard).
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { maisRecentePrimeiro } from '../../../shared/dates';
import type { RelatorioSalarioRota } from '../../../shared/schemas/relatorios';
import type { CidadeResumo, Rota } from '../../../shared/schemas/rotas';
import { api, ErroOffline } from '../api/client';
import { ouVazio } from '../api/ouVazio';
import { lerTodasAsPaginas } from '../api/paginas';
import { buscarComCache, carregarComCache, lerDoCache, type Carga } from '../offline/cache';
import { bancoLocal } from '../offline/db';
import { mesclarResultados, podeBuscarCidades } from './buscaCidades';
import type { PedidoRota } from './formularioRota';
import { chavesCacheRotas, chavesRotas, type FiltroRotas } from './chaves';

export { chavesCacheRotas, chavesRotas, rotaAtivaDaLista, type FiltroRotas } from './chaves';

/** The admin's list. A failed load is logged and shows an empty list (spec section 8); without connection it fails ('Sem conexão'). */
export function useRotas(filtro: FiltroRotas) {
  return useQuery({
    queryKey: chavesRotas.lista(filtro),
    queryFn: () =>
      ouVazio(
        async () => (await lerTodasAsPaginas<{ rotas: Rota[] }, 'rotas'>('/rotas', 'rotas', { status: filtro.status, funcionario_id: filtro.funcionario_id })).rotas,
        [],
        'Erro ao carregar rotas:',
      ),
  });
}

export interface Estado {
  uf: string;
  nome: string;
}

export function useEstados() {
  return useQuery({
    queryKey: chavesRotas.estados(),
    queryFn: async () => {
      try {
        return (await api.get<{ estados: Estado[] }>('/estados')).estados;
      } catch (erro) {
        console.error('Erro ao carregar estados:', erro);
        return [];
      }
    },
    staleTime: Infinity,
  });
}

/** One search per selected state (spec section 7), merged and de-duplicated by id. */
export function useBuscaCidades(termo: string, estados: string[]) {
  const t = termo.trim();
  return useQuery({
    queryKey: chavesRotas.buscaCidades(t, estados),
    enabled: podeBuscarCidades(t, estados),
    placeholderData: keepPreviousData,
    staleTime: 5 * 60_000,
    queryFn: async ({ signal }) => {
      const listas = await Promise.all(
        estados.map((uf) =>
          api.get<{ cidades: CidadeResumo[] }>('/cidades/search', { params: { q: t, uf }, sinal: signal }).then(
            (r) => r.cidades,
            (erro: unknown) => {
              // One state failing should not hide the others' cities.
              console.error(`Erro ao buscar cidades de ${uf}:`, erro);
              return [];
            },
          ),
        ),
      );
      return mesclarResultados(listas, t);
    },
  });
}

/** Status badge of an expense, as the expenses screen shows it. */
export type StatusAprovacao = 'pendente' | 'aprovada' | 'rejeitada';

/** An expense as GET /despesas lists it (the fields the route expenses modal shows). */
export interface DespesaDaRota {
  id: string;
  data_despesa: string;
  funcionario_nome: string;
  cidade_nome: string;
  cidade_uf: string;
  tipo: string;
  tipo_outro: string | null;
  valor: number;
  status_aprovacao: StatusAprovacao;
  motivo_rejeicao: string | null;
  descricao: string;
  cupom_url: string | null;
  /** The daily meal limit as the server computed it (shared/politicaDespesas.ts). */
  acima_do_limite?: boolean;
  limite_diario?: number;
}

/** The route's expenses (spec: rota_id, limit 100, page 1). A failure is logged and reads as none. */
export function useDespesasDaRota(rotaId: number) {
  return useQuery({
    queryKey: chavesRotas.despesas(rotaId),
    queryFn: async () => {
      try {
        const r = await api.get<{ despesas: DespesaDaRota[] }>('/despesas', { params: { rota_id: rotaId, limit: 100, page: 1 } });
        return r.despesas ?? [];
      } catch (erro) {
        console.error('Erro ao carregar despesas da rota:', erro);
        return [];
      }
    },
  });
}

const buscarAtivas = () => api.get<{ rotas: Rota[] }>('/rotas/ativas/funcionario').then((r) => r.rotas);
const buscarFinalizadas = () => api.get<{ rotas: Rota[] }>('/rotas/finalizadas/funcionario').then((r) => r.rotas);

/** The employee's reads run without a connection too: the device's copy answers. */
const opcoesFuncionario = { networkMode: 'always', retry: false } as const;

/**
 * The employee's active route (one per employee, with its cities), or null; offline from the
 * device's copy, or `semDados` when this device never had one. A failed load reads as no route.
 */
export function useRotaAtivaDoFuncionario(usuarioId: number, ativo = true) {
  return useQuery({
    ...opcoesFuncionario,
    queryKey: chavesRotas.ativaDoFuncionario(usuarioId),
    enabled: ativo,
    queryFn: async (): Promise<Carga<Rota | null>> => {
      const carga = await carregarComCache(bancoLocal, chavesCacheRotas.ativas(usuarioId), usuarioId, buscarAtivas, [], 'a rota ativa');
      // 'status=ativa' lists are filtered to ativa on the client too (spec section 7).
      return 'dados' in carga ? { ...carga, dados: carga.dados.find((r) => r.status === 'ativa') ?? null } : carga;
    },
  });
}

/** The employee's finished routes ('Rotas Concluídas' of the dashboard). */
export function useRotasFinalizadasDoFuncionario(usuarioId: number, ativo = true) {
  return useQuery({
    ...opcoesFuncionario,
    queryKey: chavesRotas.finalizadasDoFuncionario(usuarioId),
    enabled: ativo,
    queryFn: async (): Promise<Carga<Rota[]>> => {
      const carga = await carregarComCache(bancoLocal, chavesCacheRotas.finalizadas(usuarioId), usuarioId, buscarFinalizadas, [], 'as rotas finalizadas');
      return 'dados' in carga ? { ...carga, dados: carga.dados.filter((r) => r.status === 'finalizada') } : carga;
    },
  });
}

export interface ListasDoFuncionario {
  ativas: Rota[];
  finalizadas: Rota[];
  /** Some list came from the device (no connection), with the time it was read from the server. */
  doAparelhoEm: string | null;
}

/** The employee's active and finished routes, from the server or, offline, from the device. */
export function useListasDoFuncionario(usuarioId: number) {
  return useQuery({
    queryKey: chavesRotas.minhas(usuarioId),
    ...opcoesFuncionario,
    queryFn: async (): Promise<ListasDoFuncionario> => {
      const [ativas, finalizadas] = await Promise.all([
        buscarComCache(bancoLocal, chavesCacheRotas.ativas(usuarioId), usuarioId, buscarAtivas),
        buscarComCache(bancoLocal, chavesCacheRotas.finalizadas(usuarioId), usuarioId, buscarFinalizadas),
      ]);
      const doAparelho = [ativas, finalizadas].filter((l) => l.origem === 'cache').map((l) => l.atualizadoEm);
      return {
        // 'status=ativa' lists are filtered to ativa on the client too (spec section 7).
        ativas: ativas.dados.filter((r) => r.status === 'ativa'),
        finalizadas: finalizadas.dados.filter((r) => r.status === 'finalizada'),
        doAparelhoEm: doAparelho.length ? doAparelho.sort()[0]! : null,
      };
    },
  });
}

function useInvalidarRotas() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: chavesRotas.listas() });
}

export function useCriarRota() {
  const invalidar = useInvalidarRotas();
  return useMutation({
    mutationFn: (pedido: PedidoRota) => api.post<{ rota: Rota }>('/rotas', pedido).then((r) => r.rota),
    onSuccess: invalidar,
  });
}

export function useEditarRota() {
  const invalidar = useInvalidarRotas();
  return useMutation({
    mutationFn: ({ id, pedido }: { id: number; pedido: PedidoRota }) => api.put<{ rota: Rota }>(`/rotas/${id}`, pedido).then((r) => r.rota),
    onSuccess: invalidar,
  });
}

export function useExcluirRota() {
  const invalidar = useInvalidarRotas();
  return useMutation({
    mutationFn: (id: number) => api.delete<{ message: string }>(`/rotas/${id}`),
    // A 404 also means the list is out of date.
    onSettled: invalidar,
  });
}

export function useCancelarRota() {
  const invalidar = useInvalidarRotas();
  return useMutation({
    mutationFn: (id: number) => api.patch<{ rota: Rota }>(`/rotas/${id}/cancelar`).then((r) => r.rota),
    onSettled: invalidar,
  });
}

/** A cancelled route back to active (admin). A 409 (not cancelled any more) also means the list is stale. */
export function useReabrirRota() {
  const invalidar = useInvalidarRotas();
  return useMutation({
    mutationFn: (id: number) => api.patch<{ rota: Rota }>(`/rotas/${id}/reabrir`).then((r) => r.rota),
    onSettled: invalidar,
  });
}

const buscarResultado = (rotaId: number) => () => api.get<RelatorioSalarioRota>(`/relatorios/rota/${rotaId}`);

/** A route's result as the screen gets it: from the server or, offline, the device's copy (with its time). */
export type CargaResultado = { resultado: RelatorioSalarioRota; doAparelhoEm: string | null } | { semDados: 'offline' };

/**
 * The result of one of the employee's routes (GET /relatorios/rota/:id: the server answers only the
 * owner). Offline it opens from the device's copy; offline without one is `semDados`; any other
 * failure is an error the screen states (never zeros: a wrong salary is worse than none).
 */
export function useResultadoDaRota(usuarioId: number, rotaId: number | null) {
  return useQuery({
    ...opcoesFuncionario,
    queryKey: chavesRotas.resultado(usuarioId, rotaId ?? 0),
    enabled: rotaId !== null,
    queryFn: async (): Promise<CargaResultado> => {
      try {
        const r = await buscarComCache(bancoLocal, chavesCacheRotas.resultado(usuarioId, rotaId!), usuarioId, buscarResultado(rotaId!));
        return { resultado: r.dados, doAparelhoEm: r.origem === 'cache' ? r.atualizadoEm : null };
      } catch (erro) {
        if (erro instanceof ErroOffline) return { semDados: 'offline' };
        throw erro;
      }
    },
  });
}

/** How many finished routes keep their result on the device without being opened. */
export const RESULTADOS_GUARDADOS = 10;

/**
 * Keeps on the device the results of the most recent finished routes, so they open offline even if
 * never opened before: a route without a copy, or with a copy from before it was finished, is read
 * once. Failures are only logged (the screen reads the server again when a result is opened).
 */
export async function guardarResultados(usuarioId: number, finalizadas: Rota[]): Promise<void> {
  const recentes = [...finalizadas].sort((a, b) => maisRecentePrimeiro(a.finalizada_em, b.finalizada_em)).slice(0, RESULTADOS_GUARDADOS);
  for (const rota of recentes) {
    const chave = chavesCacheRotas.resultado(usuarioId, rota.id);
    const copia = await lerDoCache(bancoLocal, chave, usuarioId);
    if (copia && (!rota.finalizada_em || copia.atualizadoEm >= rota.finalizada_em)) continue;
    try {
      await buscarComCache(bancoLocal, chave, usuarioId, buscarResultado(rota.id));
    } catch (erro) {
      if (erro instanceof ErroOffline) return;
      console.error('Erro ao guardar o resultado da rota:', erro);
    }
  }
}
