/** Route details as the API answers them, for client tests of Relatórios. */
import type { CalculoSalarioApi, DetalhesRota } from '../../../shared/schemas/relatorios';
import type { StatusRota } from '../../../shared/schemas/rotas';

/**
 * The salary of the test route as the API answers it: R$ 1.000,00 in 2 visited cities (2,25 bags at R$ 60), 2 boletos,
 * the whole R$ 100,00 rent paid by the employee: R$ 96,00.
 */
export function calculoSalarioDeTeste(): CalculoSalarioApi {
  return {
    total_vendas: 1000,
    total_bolsas: 2.25,
    media_bolsas_cidade: 1.125,
    valor_por_bolsa: 60,
    valor_bolsas: 135,
    valor_fixo_por_cidade: 25,
    cidades_visitadas: 2,
    valor_cidades: 50,
    boletos: 2,
    valor_boletos: 11,
    valor_aluguel: 100,
    desconto_aluguel: 100,
    quem_paga_aluguel: 'funcionario',
    total_salario: 96,
  };
}

/** A route's details as the API answers them (Rota Norte of Bruno Campo, three cities, two visited), in `status`. */
export function detalhesDeRotaDeTeste(status: StatusRota): DetalhesRota {
  return {
    rota_id: 5,
    rota_nome: 'Rota Norte',
    funcionario_nome: 'Bruno Campo',
    status,
    data_inicio: '2026-11-01',
    data_fim: '2026-11-30',
    data_inicio_formatada: '01/11/2026',
    data_fim_formatada: '30/11/2026',
    cidades: [
      { cidade_id: 1, cidade_nome: 'Goiânia', uf: 'GO', visitada: true, total_vendas: 1000, total_despesas: 75.5 },
      { cidade_id: 2, cidade_nome: 'Anápolis', uf: 'GO', visitada: true, total_vendas: 0, total_despesas: 120 },
      { cidade_id: 3, cidade_nome: 'Catalão', uf: 'GO', visitada: false, total_vendas: 0, total_despesas: 0 },
    ],
    total_cidades: 3,
    cidades_visitadas: 2,
    media_bolsas_cidade: 1.125,
    calculo_salario: calculoSalarioDeTeste(),
    total_vendas: 1000,
    total_despesas: 195.5,
    total_creditos: 300,
    total_salario: 96,
    valor_aluguel: 100,
    desconto_aluguel_funcionario: 100,
    desconto_aluguel_escola: 0,
    quem_pagou_aluguel: 'Funcionário',
    saldo_final: 104.5,
    despesas: [],
    funcionario_id: 2,
    acerto: {
      creditos: 300,
      creditos_sem_rota: 0,
      despesas_aprovadas: 195.5,
      despesas_pendentes: 0,
      despesas_rejeitadas: 0,
      salario: 96,
      desconto_aluguel: 100,
      a_devolver: 104.5,
      a_receber: 0,
      acertada_em: null,
      acertos: [],
    },
    tardios_pendentes: 0,
  };
}
