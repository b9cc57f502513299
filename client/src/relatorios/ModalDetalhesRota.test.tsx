import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { DetalhesRota } from '../../../shared/schemas/relatorios';
import type { StatusRota } from '../../../shared/schemas/rotas';
import { ADMIN_TESTE, entrarComo, renderizarApp, simularApi } from '../test/renderizar';
import { ModalDetalhesRota } from './ModalDetalhesRota';

function detalhes(status: StatusRota): DetalhesRota {
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
    calculo_salario: {
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
    },
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

function montar(status: StatusRota) {
  entrarComo(ADMIN_TESTE);
  simularApi({
    'GET /auth/me': () => ({ corpo: { usuario: ADMIN_TESTE } }),
    'GET /relatorios/rota/:id/detalhes': () => ({ corpo: detalhes(status) }),
  });
  renderizarApp([{ path: '/relatorios', element: <ModalDetalhesRota rotaId={5} aoFechar={() => {}} /> }], { em: '/relatorios' });
}

describe('Detalhes da rota (Relatórios)', () => {
  it('rota finalizada: "Salário pago" com o detalhamento do cálculo', async () => {
    montar('finalizada');
    const totais = await screen.findByRole('region', { name: 'Totais' });
    expect(totais).toHaveTextContent('Salário pagoR$ 96,00');
    const calculo = screen.getByRole('group', { name: 'Como o salário foi calculado' });
    expect(calculo).toHaveTextContent('Bolsas2,25 × R$ 60,00R$ 135,00');
    expect(calculo).toHaveTextContent('Bônus por cidade2 cidades visitadas × R$ 25,00R$ 50,00');
    expect(calculo).toHaveTextContent('Boletos2 × R$ 5,50R$ 11,00');
    expect(calculo).toHaveTextContent('Desconto do aluguelaluguel da rota: R$ 100,00− R$ 100,00');
    expect(calculo).toHaveTextContent('Salário pagoR$ 96,00');
  });

  for (const [status, rotulo] of [
    ['ativa', 'Salário estimado (até agora)'],
    ['cancelada', 'Salário até o cancelamento'],
  ] as const) {
    it(`rota ${status}: o salário não se chama "pago" ("${rotulo}")`, async () => {
      montar(status);
      const totais = await screen.findByRole('region', { name: 'Totais' });
      expect(totais).toHaveTextContent(`${rotulo}R$ 96,00`);
      expect(screen.getByRole('dialog')).not.toHaveTextContent('Salário pago');
      expect(within(screen.getByRole('group', { name: 'Como o salário foi calculado' })).getByText(rotulo)).toBeInTheDocument();
    });
  }
});
