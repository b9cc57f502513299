import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { api } from '../api/client';
import { ADMIN_TESTE, entrarComo, FUNCIONARIO_TESTE, renderizarApp, simularApi } from '../test/renderizar';
import { useAuth } from './AuthProvider';
import { RotaProtegida } from './RotaProtegida';

function QuemSou() {
  const { estado } = useAuth();
  return <p>{estado.status === 'autenticado' ? `logado: ${estado.usuario.nome}` : estado.status}</p>;
}

const rotas = [
  { path: '/login', element: <h1>Tela de login</h1> },
  { path: '/dashboard', element: <h1>Painel</h1> },
  {
    path: '/usuarios',
    element: (
      <RotaProtegida tipos={['admin']}>
        <h1>Usuários</h1>
      </RotaProtegida>
    ),
  },
  {
    path: '/vendas',
    element: (
      <RotaProtegida>
        <QuemSou />
      </RotaProtegida>
    ),
  },
];

describe('useAuth', () => {
  it('fora do AuthProvider falha com uma mensagem clara', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() =>
      render(
        <QueryClientProvider client={new QueryClient()}>
          <QuemSou />
        </QueryClientProvider>,
      ),
    ).toThrow('useAuth deve ser usado dentro de um AuthProvider');
  });
});

describe('sessão e guarda de rotas', () => {
  it('sem sessão: mostra o carregamento e depois manda para o login', async () => {
    simularApi({ 'GET /auth/me': () => ({ status: 401, corpo: { error: 'Não autenticado.' } }), 'POST /auth/logout': () => ({ corpo: {} }) });
    renderizarApp(rotas, { em: '/vendas' });
    expect(screen.getByText('Carregando...')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Tela de login' })).toBeInTheDocument();
  });

  it('sessão guardada abre na hora, mesmo sem internet (o servidor não responde)', async () => {
    entrarComo(FUNCIONARIO_TESTE);
    simularApi({ 'GET /auth/me': () => 'offline' });
    renderizarApp(rotas, { em: '/vendas' });
    expect(screen.getByText('logado: Bruno Campo')).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.getByText('logado: Bruno Campo')).toBeInTheDocument();
    expect(localStorage.getItem('user')).not.toBeNull();
  });

  it('o servidor recusa a sessão guardada (401): limpa tudo e vai para o login', async () => {
    entrarComo(FUNCIONARIO_TESTE);
    const chamadas = simularApi({
      'GET /auth/me': () => ({ status: 401, corpo: { error: 'Sessão expirada. Faça login novamente.' } }),
      'POST /auth/logout': () => ({ corpo: {} }),
    });
    renderizarApp(rotas, { em: '/vendas' });
    expect(await screen.findByRole('heading', { name: 'Tela de login' })).toBeInTheDocument();
    expect(localStorage.getItem('user')).toBeNull();
    expect(localStorage.getItem('token')).toBeNull();
    await waitFor(() => expect(chamadas.chamadas.some((c) => c.caminho === '/auth/logout')).toBe(true));
  });

  it('usa o usuário atualizado que o servidor devolve (de "usuario" ou a resposta inteira)', async () => {
    entrarComo(FUNCIONARIO_TESTE);
    simularApi({ 'GET /auth/me': () => ({ corpo: { ...FUNCIONARIO_TESTE, nome: 'Bruno Renomeado' } }) });
    renderizarApp(rotas, { em: '/vendas' });
    expect(await screen.findByText('logado: Bruno Renomeado')).toBeInTheDocument();
  });

  it('um funcionário que abre /usuarios vai para o dashboard', async () => {
    entrarComo(FUNCIONARIO_TESTE);
    simularApi({ 'GET /auth/me': () => ({ corpo: { usuario: FUNCIONARIO_TESTE } }) });
    renderizarApp(rotas, { em: '/usuarios' });
    expect(await screen.findByRole('heading', { name: 'Painel' })).toBeInTheDocument();
  });

  it('um admin abre /usuarios', async () => {
    entrarComo(ADMIN_TESTE);
    simularApi({ 'GET /auth/me': () => ({ corpo: { usuario: ADMIN_TESTE } }) });
    renderizarApp(rotas, { em: '/usuarios' });
    expect(await screen.findByRole('heading', { name: 'Usuários' })).toBeInTheDocument();
  });

  it('um 401 em qualquer chamada fora do /login encerra a sessão e leva ao login', async () => {
    entrarComo(ADMIN_TESTE);
    simularApi({
      'GET /auth/me': () => ({ corpo: { usuario: ADMIN_TESTE } }),
      'GET /usuarios': () => ({ status: 401, corpo: { error: 'Sessão expirada. Faça login novamente.' } }),
    });
    renderizarApp(rotas, { em: '/vendas' });
    expect(await screen.findByText('logado: Ana Admin')).toBeInTheDocument();
    await expect(api.get('/usuarios')).rejects.toThrow('Sessão expirada');
    expect(await screen.findByRole('heading', { name: 'Tela de login' })).toBeInTheDocument();
    expect(localStorage.getItem('user')).toBeNull();
  });
});
