/** The admin's sales filters (spec section 2, 'Vendas, admin view') and how they become query params. */
import { ehDataValida } from '../../../shared/dates';
import { idDoEndereco, PARAMETROS_DAS_TELAS } from '../../../shared/enderecosDasTelas';
import type { Parametros } from '../api/client';

export type StatusFiltro = 'ativa' | 'finalizada' | 'cancelada' | 'todas';

export interface FiltrosVendas {
  funcionario_id: string;
  rota_id: string;
  /** Only with a route: its cities' checkboxes. */
  cidades: number[];
  status_rota: StatusFiltro;
  data_inicio: string;
  data_fim: string;
}

/** Status da Rota defaults to Ativa. */
export const FILTROS_PADRAO: FiltrosVendas = { funcionario_id: '', rota_id: '', cidades: [], status_rota: 'ativa', data_inicio: '', data_fim: '' };

/**
 * The request's params. A chosen route answers for itself: its status filter is not sent (a finished
 * route picked with 'Ativa' still set would otherwise show nothing).
 */
export function paramsDosFiltros(f: FiltrosVendas): Parametros {
  const p: Parametros = {};
  if (f.funcionario_id) p.funcionario_id = f.funcionario_id;
  if (f.rota_id) {
    p.rota_id = f.rota_id;
    if (f.cidades.length > 0) p.cidade_id = [...f.cidades].sort((a, b) => a - b).join(',');
  } else if (f.status_rota !== 'todas') {
    p.status_rota = f.status_rota;
  }
  if (f.data_inicio) p.data_inicio = f.data_inicio;
  if (f.data_fim) p.data_fim = f.data_fim;
  return p;
}

/** How many filters differ from the defaults (the 'Filtrar' button's badge). */
export function filtrosAtivos(f: FiltrosVendas): number {
  return [f.funcionario_id, f.rota_id, f.cidades.length > 0, f.status_rota !== FILTROS_PADRAO.status_rota && !f.rota_id, f.data_inicio, f.data_fim].filter(Boolean).length;
}

/**
 * A sale's address (shared/enderecosDasTelas.ts: route, city and day, the audit trail's link) as the
 * filters that show exactly that row, whatever the route's status; null when the address names no sale.
 */
export function filtrosDoEndereco(busca: URLSearchParams): FiltrosVendas | null {
  const rota = idDoEndereco(busca, PARAMETROS_DAS_TELAS.rota);
  const cidade = idDoEndereco(busca, PARAMETROS_DAS_TELAS.cidade);
  const data = busca.get(PARAMETROS_DAS_TELAS.data);
  if (rota === null || cidade === null || data === null || !ehDataValida(data)) return null;
  return { ...FILTROS_PADRAO, rota_id: String(rota), cidades: [cidade], status_rota: 'todas', data_inicio: data, data_fim: data };
}
