/** Routes as the API answers them, for client tests that only care about a few of the fields. */
import type { Rota } from '../../../shared/schemas/rotas';
import { FUNCIONARIO_TESTE } from './renderizar';

/**
 * An active November route of FUNCIONARIO_TESTE, with no cities and nothing sold: each test
 * overrides what it looks at, so the rest stays one plain default in one place.
 */
export function rotaDeTeste(extra: Partial<Rota> = {}): Rota {
  return {
    id: 7,
    nome: 'Rota Sul Goiano',
    funcionario_id: FUNCIONARIO_TESTE.id,
    funcionario_nome: FUNCIONARIO_TESTE.nome,
    tem_secretario: false,
    secretario_nome: null,
    valor_aluguel: 0,
    data_inicio: '2026-11-01',
    data_fim: '2026-11-30',
    observacoes: '',
    status: 'ativa',
    cidades: [],
    vendasHoje: 0,
    despesasHoje: 0,
    criado_em: '2026-11-01T10:00:00.000Z',
    finalizada_em: null,
    ...extra,
  };
}
