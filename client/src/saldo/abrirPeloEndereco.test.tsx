/**
 * Saldo opened at an employee's address ('/saldo?funcionario=<id>', the audit trail's link to a credit):
 * 'Histórico de Movimentações' with that employee's movements only, asked of the server by employee;
 * 'Ver de todos' goes back to everyone's.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import type { Movimentacao } from '../../../shared/schemas/saldo';
import { ADMIN_TESTE, entrarComo, renderizarApp, simularApi } from '../test/renderizar';
import { PaginaSaldo } from './PaginaSaldo';

const movimentacao = (id: number, funcionarioId: number, nome: string, valor: number): Movimentacao => ({
  id,
  data_movimentacao: '2026-11-22T13:10:00.000Z',
  funcionario_id: funcionarioId,
  funcionario_nome: nome,
  tipo: 'credito',
  valor,
  sentido: null,
  saldo_anterior: 0,
  saldo_novo: valor,
  descricao: `Adiantamento de ${nome}`,
  admin_nome: 'Ana Admin',
  rota_id: null,
  rota_nome: null,
  despesa_id: null,
});

const TODAS = [movimentacao(2, 2, 'Bruno Campo', 300), movimentacao(1, 3, 'Carla Souza', 120)];

function Endereco() {
  const local = useLocation();
  return <p data-testid="endereco">{`${local.pathname}${local.search}`}</p>;
}

function montar(em: string) {
  entrarComo(ADMIN_TESTE);
  const urls: URL[] = [];
  simularApi({
    'GET /auth/me': () => ({ corpo: { usuario: ADMIN_TESTE } }),
    'GET /saldo': () => ({
      corpo: { saldos: [{ funcionario_id: 2, funcionario_nome: 'Bruno Campo', funcionario_email: 'bruno@escola.com.br', saldo_atual: 300, data_ultima_atualizacao: null }] },
    }),
    'GET /saldo/resumo': () => ({ corpo: { total_funcionarios: 2, saldo_total: 420, movimentacoes_hoje: 2 } }),
    'GET /saldo/movimentacoes': (_c, url) => {
      urls.push(url);
      const funcionario = url.searchParams.get('funcionario_id');
      const movimentacoes = funcionario ? TODAS.filter((m) => m.funcionario_id === Number(funcionario)) : TODAS;
      return { corpo: { movimentacoes, page: 1, limit: 500, total: movimentacoes.length } };
    },
    'GET /saldo/relatorio': () => ({ corpo: { relatorio: [] } }),
    'GET /saldo/funcionarios': () => ({ corpo: { funcionarios: [] } }),
  });
  renderizarApp(
    [
      {
        path: '/saldo',
        element: (
          <>
            <PaginaSaldo />
            <Endereco />
          </>
        ),
      },
    ],
    { em },
  );
  return urls;
}

describe('Saldo aberta no endereço de um funcionário', () => {
  it('o histórico só dele, pedido ao servidor por funcionário; Ver de todos volta a todos', async () => {
    const urls = montar('/saldo?funcionario=2');
    expect(await screen.findByRole('tab', { name: 'Histórico de Movimentações' })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByText('Adiantamento de Bruno Campo')).toBeInTheDocument();
    expect(screen.queryByText('Adiantamento de Carla Souza')).not.toBeInTheDocument();
    expect(urls.at(-1)!.searchParams.get('funcionario_id')).toBe('2');
    const faixa = screen.getByRole('status');
    expect(faixa).toHaveTextContent('Movimentações de Bruno Campo.');

    await userEvent.setup().click(within(faixa).getByRole('button', { name: 'Ver de todos' }));
    expect(await screen.findByText('Adiantamento de Carla Souza')).toBeInTheDocument();
    expect(urls.at(-1)!.searchParams.get('funcionario_id')).toBeNull();
    await waitFor(() => expect(screen.getByTestId('endereco')).toHaveTextContent(/^\/saldo$/));
  });

  it('sem o parâmetro, abre nos saldos, como sempre', async () => {
    const urls = montar('/saldo');
    expect(await screen.findByRole('tab', { name: 'Saldos dos Funcionários' })).toHaveAttribute('aria-selected', 'true');
    await waitFor(() => expect(urls.length).toBeGreaterThan(0));
    expect(urls.every((u) => u.searchParams.get('funcionario_id') === null)).toBe(true);
  });
});
