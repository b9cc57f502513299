import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { motorSync } from '../offline';
import { bancoLocal } from '../offline/db';
import { enfileirar } from '../offline/outbox';
import { definirLarguraDaJanela } from '../test/janela';
import { ADMIN_TESTE, entrarComo, FUNCIONARIO_TESTE, renderizarApp, simularApi } from '../test/renderizar';
import { Layout } from './Layout';

const rotas = [
  { path: '/login', element: <h1>Tela de login</h1> },
  {
    element: <Layout />,
    children: [
      { path: '/dashboard', element: <h1>Início</h1> },
      { path: '/rotas', element: <h1>Página de rotas</h1> },
    ],
  },
];

function montar(usuario = ADMIN_TESTE) {
  entrarComo(usuario);
  simularApi({
    'GET /auth/me': () => ({ corpo: { usuario } }),
    'GET /config': () => ({ corpo: { centro_nome: 'Centro Educacional Horizonte', app_tz: 'America/Sao_Paulo', versao: '1' } }),
    'POST /auth/logout': () => ({ corpo: { message: 'ok' } }),
  });
  return renderizarApp(rotas, { em: '/dashboard' });
}

afterEach(async () => {
  motorSync.parar();
  await bancoLocal.outbox.clear();
});

describe('Layout', () => {
  it('mostra o nome do centro, "Sistema de Gestão", a saudação e o tipo', async () => {
    montar();
    expect(await screen.findByText('Centro Educacional Horizonte')).toBeInTheDocument();
    expect(screen.getByText('Sistema de Gestão')).toBeInTheDocument();
    expect(screen.getByText('Olá, Ana Admin')).toBeInTheDocument();
    expect(screen.getByText('Administrador')).toBeInTheDocument();
  });

  it('o menu muda com o papel: Usuários, Saldo, Relatórios e Auditoria só para admin', async () => {
    montar(FUNCIONARIO_TESTE);
    const nav = await screen.findByRole('navigation');
    for (const item of ['Dashboard', 'Rotas', 'Vendas', 'Despesas']) expect(screen.getByRole('link', { name: item })).toBeInTheDocument();
    for (const item of ['Usuários', 'Saldo', 'Relatórios', 'Auditoria']) expect(screen.queryByRole('link', { name: item })).not.toBeInTheDocument();
    expect(nav).toBeInTheDocument();
    expect(screen.getByText('Funcionário')).toBeInTheDocument();
  });

  it('no celular o menu é uma gaveta: abre pelo botão, fecha pela sobreposição e ao navegar', async () => {
    definirLarguraDaJanela(390);
    montar();
    const usuario = userEvent.setup();
    await usuario.click(await screen.findByRole('button', { name: 'Abrir menu' }));
    expect(screen.getByRole('complementary', { name: 'Menu principal' })).toHaveClass('lateral--aberta');
    await usuario.click(screen.getByTestId('sobreposicao'));
    expect(screen.queryByTestId('sobreposicao')).not.toBeInTheDocument();

    await usuario.click(screen.getByRole('button', { name: 'Abrir menu' }));
    await usuario.click(screen.getByRole('link', { name: 'Rotas' }));
    expect(await screen.findByRole('heading', { name: 'Página de rotas' })).toBeInTheDocument();
    expect(screen.queryByTestId('sobreposicao')).not.toBeInTheDocument();
  });

  it('Sair encerra a sessão e vai para o login', async () => {
    montar();
    await userEvent.click(await screen.findByRole('button', { name: 'Sair' }));
    expect(await screen.findByRole('heading', { name: 'Tela de login' })).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('um funcionário com registros na fila é avisado antes de sair', async () => {
    montar(FUNCIONARIO_TESTE);
    await act(async () => {
      await enfileirar(bancoLocal, { tipo: 'venda.salvar', usuarioId: FUNCIONARIO_TESTE.id, dados: {}, chaves: [], descricao: 'Fechamento' });
      motorSync.acompanharContagem();
    });
    await waitFor(() => expect(screen.getByRole('button', { name: /1 aguardando envio|Offline · 1 aguardando/ })).toBeInTheDocument());
    await userEvent.click(screen.getByRole('button', { name: 'Sair' }));
    const aviso = screen.getByRole('dialog', { name: 'Registros ainda não enviados' });
    // pt-BR agreement with one record: 'chegou', 'Ele continua guardado', 'será enviado'.
    expect(aviso).toHaveTextContent(
      'Você tem 1 registro que ainda não chegou ao servidor. Ele continua guardado neste aparelho e será enviado quando você entrar de novo',
    );
    expect(localStorage.getItem('token')).not.toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Sair mesmo assim' }));
    expect(await screen.findByRole('heading', { name: 'Tela de login' })).toBeInTheDocument();
    expect(await bancoLocal.outbox.count()).toBe(1); // queued work is never dropped by logging out
  });
});
