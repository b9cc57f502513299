/** Reports: query keys, loaders, and the export download. */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { DetalhesRota, FormatoExportacao, LinhaRelatorioRota, Tendencias } from '../../../shared/schemas/relatorios';
import type { StatusRota } from '../../../shared/schemas/rotas';
import { api, montarUrl, TEMPO_LIMITE_MS } from '../api/client';
import { lerToken } from '../auth/sessaoLocal';
import { baixarArquivo } from '../components/baixarArquivo';

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

/** The trend charts' filters (issue 20, item 2): blank means the server's default (the last 30 days, everyone). */
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
