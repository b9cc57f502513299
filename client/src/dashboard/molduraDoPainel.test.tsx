import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { definicaoDasRotas } from '../app/rotas';
import { ADMIN_TESTE, entrarComo, FUNCIONARIO_TESTE, renderizarApp, simularApi } from '../test/renderizar';

// The page's own chunk still on its way (over 3G, a download after the app's first file).
vi.mock('./PaginaDashboard', () => new Promise(() => undefined));

/** The /dashboard route exactly as the app declares it (the page loaded on demand, and what shows meanwhile). */
const rotaDoDashboard = definicaoDasRotas.flatMap((r) => r.children ?? []).find((r) => r.path === '/dashboard')!;

describe('/dashboard antes de o código da página chegar', () => {
  it('a funcionária já vê o título e a descrição do painel: o maior texto da tela no primeiro quadro, sem esperar um download', async () => {
    entrarComo(FUNCIONARIO_TESTE);
    simularApi({ 'GET /auth/me': () => ({ corpo: { usuario: FUNCIONARIO_TESTE } }) });
    renderizarApp([{ path: '/dashboard', element: rotaDoDashboard.element }], { em: '/dashboard' });

    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
    expect(screen.getByText('Sua rota, seu saldo e o salário estimado até agora.')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Carregando o dashboard...');
  });

  it('o admin vê o indicador de carregamento, não o painel da funcionária', async () => {
    entrarComo(ADMIN_TESTE);
    simularApi({ 'GET /auth/me': () => ({ corpo: { usuario: ADMIN_TESTE } }) });
    renderizarApp([{ path: '/dashboard', element: rotaDoDashboard.element }], { em: '/dashboard' });

    expect(await screen.findByRole('status')).toHaveTextContent('Carregando...');
    expect(screen.queryByRole('heading', { name: 'Dashboard' })).not.toBeInTheDocument();
  });
});
