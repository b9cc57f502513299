import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { entrarComo, FUNCIONARIO_TESTE, renderizarApp, simularApi } from '../test/renderizar';
import { PaginaDashboard } from './PaginaDashboard';

// The employee panel's code (IndexedDB, the sync engine, the queries) still on its way: on a cheap
// phone over 3G it arrives a second or more after the page.
vi.mock('./DashboardFuncionario', () => new Promise(() => undefined));

describe('/dashboard do funcionário enquanto o código do painel chega', () => {
  it('a página já mostra o título, a descrição e os cartões vazios no tamanho final, não um "Carregando"', async () => {
    entrarComo(FUNCIONARIO_TESTE);
    simularApi({ 'GET /auth/me': () => ({ corpo: { usuario: FUNCIONARIO_TESTE } }) });
    renderizarApp([{ path: '/dashboard', element: <PaginaDashboard /> }], { em: '/dashboard' });

    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
    expect(screen.getByText('Sua rota, seu saldo e o salário estimado até agora.')).toBeInTheDocument();
    const resumo = screen.getByTestId('esqueleto-painel');
    for (const cartao of ['Rota Ativa', 'Cidades Atendidas', 'Saldo Disponível', 'Rotas Concluídas']) {
      expect(within(resumo).getByRole('group', { name: cartao })).toBeInTheDocument();
    }
    expect(screen.getByRole('region', { name: 'Salário Estimado (calculando...)' })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Ações rápidas' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Carregando o dashboard...');
  });
});
