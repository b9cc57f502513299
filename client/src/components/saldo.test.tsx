import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PaginaSaldo } from '../saldo/PaginaSaldo';
import { ADMIN_TESTE, entrarComo, renderizarApp, simularApi } from '../test/renderizar';
import { classeDoSaldo } from './saldo';

describe('cor do saldo', () => {
  it('negativo vermelho, positivo verde, zero sem cor', () => {
    expect(classeDoSaldo(-0.01)).toBe('valor-negativo');
    expect(classeDoSaldo(0.01)).toBe('valor-positivo');
    expect(classeDoSaldo(0)).toBeUndefined();
    expect(classeDoSaldo(-0)).toBeUndefined();
  });

  it('na tela Saldo, um funcionário com R$ 0,00 e o saldo total zerado não ficam vermelhos', async () => {
    entrarComo(ADMIN_TESTE);
    simularApi({
      'GET /auth/me': () => ({ corpo: { usuario: ADMIN_TESTE } }),
      'GET /saldo': () => ({
        corpo: {
          saldos: [
            { funcionario_id: 2, funcionario_nome: 'Bruno Zerado', funcionario_email: 'b@x.com', funcionario_ativo: true, saldo_atual: 0, data_ultima_atualizacao: null },
            { funcionario_id: 3, funcionario_nome: 'Carla Negativa', funcionario_email: 'c@x.com', funcionario_ativo: true, saldo_atual: -5, data_ultima_atualizacao: null },
            { funcionario_id: 4, funcionario_nome: 'Davi Positivo', funcionario_email: 'd@x.com', funcionario_ativo: true, saldo_atual: 5, data_ultima_atualizacao: null },
          ],
        },
      }),
      'GET /saldo/resumo': () => ({ corpo: { total_funcionarios: 3, saldo_total: 0, movimentacoes_hoje: 0 } }),
      'GET /saldo/movimentacoes': () => ({ corpo: { movimentacoes: [], page: 1, limit: 500, total: 0 } }),
      'GET /saldo/relatorio': () => ({ corpo: { relatorio: [] } }),
    });
    renderizarApp([{ path: '/saldo', element: <PaginaSaldo /> }], { em: '/saldo' });
    const linha = (nome: string) => screen.getByRole('cell', { name: nome }).closest('tr')!;
    await screen.findByRole('cell', { name: 'Bruno Zerado' });
    const zero = within(linha('Bruno Zerado')).getByText('R$ 0,00', { normalizer: (t) => t.replace(/\u00a0/g, ' ') });
    expect(zero).not.toHaveClass('valor-negativo');
    expect(zero).not.toHaveClass('valor-positivo');
    expect(within(linha('Carla Negativa')).getByText(/5,00/)).toHaveClass('valor-negativo');
    expect(within(linha('Davi Positivo')).getByText(/5,00/)).toHaveClass('valor-positivo');
    const total = screen.getByText('Saldo Total').parentElement!;
    expect(within(total).getByText(/0,00/)).not.toHaveClass('valor-negativo');
  });
});
