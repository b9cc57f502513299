/** Reports: query keys, loaders, and the export download. */
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AcertoRotaApi, RegistrarAcertoPedido } from '../../../shared/schemas/acerto';
import type { Tardia } from '../../../shared/schemas/tardias';
import type { DetalhesRota, FormatoExportacao, LinhaRelatorioRota, Tendencias } from '../../../shared/schemas/relatorios';
import type { StatusRota } from '../../../shared/schemas/rotas';
import { api, montarUrl, TEMPO_LIMITE_MS } from '../api/client';
import { lerToken } from '../auth/sessaoLocal';
import { baixarArquivo } from '../components/baixarArquivo';
import { chavesSaldo } from '../saldo/consultas';

export interface FiltrosRelatorio {
  status: StatusRota | '';
  funcionario_id: string;
  data_inicio: string;
  data_fim: string;
}

export const FILTROS_INICIAIS: FiltrosRelatorio = { status: '', funcionario_id: '', data_inicio: '', data_fim: '' };

export const chavesRelatorios = {
  todos: ['relatorios'] as const,
  rotas: (f: FiltrosRelatorio) => [...chavesRelatorios.todos, 'rotas', f] as const,
  detalhes: (id: number) => [...chavesRelatorios.todos, 'detalhes', id] as const,
  tendencias: (f: FiltrosTendencias) => [...chavesRelatorios.todos, 'tendencias', f] as const,
};

/** The trend charts' filters: blank means the server's default (the last 30 days, everyone). */
export interface FiltrosTendencias {
  data_inicio?: string;
  data_fim?: string;
  rota_id?: string;
  usuario_id?: string;
}

export const consultasRelatorios = {
  /** GET /relatorios/tendencias (admin); the previous period's charts stay while the next one loads. */
  tendencias: (f: FiltrosTendencias = {}) =>
    queryOptions({
      queryKey: chavesRelatorios.tendencias(f),
      queryFn: () => api.get<Tendencias>('/relatorios/tendencias', { params: { ...f } }),
      placeholderData: keepPreviousData,
    }),
};

export function useRelatorioRotas(filtros: FiltrosRelatorio) {
  return useQuery({
    queryKey: chavesRelatorios.rotas(filtros),
    queryFn: async () => (await api.get<{ rotas: LinhaRelatorioRota[] }>('/relatorios/rotas', { params: { ...filtros } })).rotas,
    placeholderData: (anterior) => anterior,
  });
}

export function useDetalhesRota(id: number | null) {
  return useQuery({
    queryKey: chavesRelatorios.detalhes(id ?? 0),
    queryFn: () => api.get<DetalhesRota>(`/relatorios/rota/${id}/detalhes`),
    enabled: id !== null,
  });
}

/** The writes that reached a finished route after its finish (the admin accepts or refuses each). */
export function useTardiosDaRota(id: number | null) {
  return useQuery({
    queryKey: [...chavesRelatorios.detalhes(id ?? 0), 'tardios'] as const,
    queryFn: async () => (await api.get<{ tardios: Tardia[] }>(`/rotas/${id}/tardios`)).tardios,
    enabled: id !== null,
  });
}

/** An acerto or a decision moves the route's figures, the report's rows and the balances: all re-read. */
function useInvalidarRelatorios() {
  const queryClient = useQueryClient();
  return () => Promise.all([queryClient.invalidateQueries({ queryKey: chavesRelatorios.todos }), queryClient.invalidateQueries({ queryKey: chavesSaldo.todos })]);
}

export function useRegistrarAcerto(rotaId: number) {
  const invalidar = useInvalidarRelatorios();
  return useMutation({
    mutationFn: (pedido: RegistrarAcertoPedido) => api.post<{ acerto: AcertoRotaApi }>(`/rotas/${rotaId}/acerto`, pedido).then((r) => r.acerto),
    onSuccess: invalidar,
  });
}

export function useDecidirTardio(rotaId: number) {
  const invalidar = useInvalidarRelatorios();
  return useMutation({
    mutationFn: ({ operacaoId, decisao, motivo }: { operacaoId: string; decisao: 'aceitar' | 'recusar'; motivo?: string }) =>
      api.patch<{ tardio: Tardia }>(`/rotas/${rotaId}/tardios/${operacaoId}/${decisao}`, decisao === 'recusar' ? { motivo } : undefined).then((r) => r.tardio),
    onSuccess: invalidar,
  });
}

export type { FormatoExportacao } from '../../../shared/schemas/relatorios';

const EXTENSAO: Record<FormatoExportacao, string> = { pdf: 'pdf', excel: 'xlsx', csv: 'csv' };

export class ErroExportacao extends Error {}

/**
 * Downloads the file (spec: bearer token from localStorage; named relatorio_rotas.pdf/.xlsx/.csv).
 * `rotas` are the selected ids; none selected exports everything the filters show.
 */
export async function exportarRelatorio(formato: FormatoExportacao, filtros: FiltrosRelatorio, rotas: number[]): Promise<void> {
  const token = lerToken();
  if (!token) throw new ErroExportacao('Você precisa estar logado para exportar relatórios.');
  const url = montarUrl('/relatorios/rotas/exportar', { formato, ...filtros, rotas: rotas.length ? rotas.join(',') : undefined });
  let resposta: Response;
  try {
    // Building a big PDF can take longer than the usual 10 s.
    resposta = await fetch(url, { headers: { Authorization: `Bearer ${token}` }, credentials: 'include', signal: AbortSignal.timeout(TEMPO_LIMITE_MS * 6) });
  } catch {
    throw new ErroExportacao('Erro ao exportar relatório. Tente novamente.');
  }
  if (!resposta.ok) throw new ErroExportacao('Erro ao exportar relatório. Tente novamente.');
  baixarArquivo(await resposta.blob(), `relatorio_rotas.${EXTENSAO[formato]}`);
}
