import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ADMIN_TESTE, renderizarApp, simularApi } from '../test/renderizar';
import { PaginaLogin, validarLogin } from './PaginaLogin';

const rotas = [
  { path: '/login', element: <PaginaLogin /> },
  { path: '/dashboard', element: <h1>Painel</h1> },
  { path: '/usuarios', element: <h1>Usuários</h1> },
];

describe('validarLogin', () => {
  it('usa os textos da especificação', () => {
    expect(validarLogin('  ', '')).toEqual({ email: 'Email é obrigatório', senha: 'Senha é obrigatória' });
    expect(validarLogin('ana@', 'x')).toEqual({ email: 'Email inválido' });
    expect(validarLogin(' ana@escola.com.br ', 'x')).toEqual({});
  });
});

describe('PaginaLogin', () => {
  it('mostra os erros de validação e limpa o de um campo ao digitar nele', async () => {
    const api = simularApi({ 'GET /auth/me': () => ({ status: 401, corpo: { error: 'Não autenticado.' } }) });
    renderizarApp(rotas, { em: '/login' });
    const usuario = userEvent.setup();
    await usuario.click(await screen.findByRole('button', { name: 'Entrar' }));
    expect(screen.getByText('Email é obrigatório')).toBeInTheDocument();
    expect(screen.getByText('Senha é obrigatória')).toBeInTheDocument();
    await usuario.type(screen.getByLabelText('Email'), 'a');
    expect(screen.queryByText('Email é obrigatório')).not.toBeInTheDocument();
    expect(screen.getByText('Senha é obrigatória')).toBeInTheDocument();
    expect(api.chamadas.filter((c) => c.caminho === '/auth/login')).toHaveLength(0);
  });

  it('entra, avisa o sucesso e vai para o dashboard', async () => {
    let liberar!: () => void;
    const espera = new Promise<void>((r) => (liberar = r));
    simularApi({
      'GET /auth/me': () => ({ status: 401, corpo: { error: 'Não autenticado.' } }),
      'POST /auth/login': async () => {
        await espera;
        return { corpo: { token: 'tok', usuario: ADMIN_TESTE } };
      },
    });
    renderizarApp(rotas, { em: '/login' });
    const usuario = userEvent.setup();
    await usuario.type(await screen.findByLabelText('Email'), 'ana@escola.com.br');
    await usuario.type(screen.getByLabelText('Senha'), 'segredo1');
    await usuario.click(screen.getByRole('button', { name: 'Entrar' }));
    const botao = await screen.findByRole('button', { name: 'Entrando...' });
    expect(botao).toBeDisabled();
    liberar();
    expect(await screen.findByRole('heading', { name: 'Painel' })).toBeInTheDocument();
    expect(await screen.findByText('Login realizado com sucesso!')).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBe('tok');
    expect(JSON.parse(localStorage.getItem('user')!)).toMatchObject({ nome: 'Ana Admin' });
  });

  it('volta para a página de origem lembrada pelo guarda de rota', async () => {
    simularApi({
      'GET /auth/me': () => ({ status: 401, corpo: { error: 'x' } }),
      'POST /auth/login': () => ({ corpo: { token: 'tok', usuario: ADMIN_TESTE } }),
    });
    const { roteador } = renderizarApp(rotas, { em: '/login' });
    await roteador.navigate('/login', { state: { de: { pathname: '/usuarios', search: '' } } });
    const usuario = userEvent.setup();
    await usuario.type(await screen.findByLabelText('Email'), 'ana@escola.com.br');
    await usuario.type(screen.getByLabelText('Senha'), 'segredo1');
    await usuario.click(screen.getByRole('button', { name: 'Entrar' }));
    expect(await screen.findByRole('heading', { name: 'Usuários' })).toBeInTheDocument();
  });

  it('mostra a mensagem do servidor quando o login é recusado', async () => {
    simularApi({
      'GET /auth/me': () => ({ status: 401, corpo: { error: 'x' } }),
      'POST /auth/login': () => ({ status: 401, corpo: { error: 'Email ou senha inválidos.', codigo: 'credenciais_invalidas' } }),
    });
    renderizarApp(rotas, { em: '/login' });
    const usuario = userEvent.setup();
    await usuario.type(await screen.findByLabelText('Email'), 'ana@escola.com.br');
    await usuario.type(screen.getByLabelText('Senha'), 'errada');
    await usuario.click(screen.getByRole('button', { name: 'Entrar' }));
    expect(await screen.findByText('Email ou senha inválidos.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Entrar' })).toBeEnabled();
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('sem o campo de mensagem, usa "Erro no login"; sem conexão, explica', async () => {
    let modo: 'sem-mensagem' | 'offline' = 'sem-mensagem';
    simularApi({
      'GET /auth/me': () => ({ status: 401, corpo: { error: 'x' } }),
      'POST /auth/login': () => (modo === 'offline' ? 'offline' : { status: 500, corpo: {} }),
    });
    renderizarApp(rotas, { em: '/login' });
    const usuario = userEvent.setup();
    await usuario.type(await screen.findByLabelText('Email'), 'ana@escola.com.br');
    await usuario.type(screen.getByLabelText('Senha'), 'x');
    await usuario.click(screen.getByRole('button', { name: 'Entrar' }));
    expect(await screen.findByText('Erro no login')).toBeInTheDocument();
    modo = 'offline';
    await usuario.click(screen.getByRole('button', { name: 'Entrar' }));
    await waitFor(() => expect(screen.getByText(/Conecte-se à internet para entrar/)).toBeInTheDocument());
  });
});
