import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { StatusRota } from '../../../shared/schemas/rotas';
import { detalhesDeRotaDeTeste } from '../test/relatorios';
import { ADMIN_TESTE, entrarComo, renderizarApp, simularApi } from '../test/renderizar';
import { ModalDetalhesRota } from './ModalDetalhesRota';

function montar(status: StatusRota) {
  entrarComo(ADMIN_TESTE);
  simularApi({
    'GET /auth/me': () => ({ corpo: { usuario: ADMIN_TESTE } }),
    'GET /relatorios/rota/:id/detalhes': () => ({ corpo: detalhesDeRotaDeTeste(status) }),
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
