/**
 * Usuários opened at a user's address ('/usuarios?usuario=<id>', the audit trail's link): the tab where
 * the user is listed, with the table searched down to them (their e-mail in the search box, which the
 * admin clears to see everyone).
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Usuario } from '../../../shared/schemas/usuarios';
import { ADMIN_TESTE, entrarComo, renderizarApp, simularApi } from '../test/renderizar';
import { PaginaUsuarios } from './PaginaUsuarios';

const USUARIOS: Usuario[] = [
  ADMIN_TESTE,
  { ...ADMIN_TESTE, id: 2, nome: 'Bruno Campo', email: 'bruno@escola.com.br', tipo: 'funcionario' },
  { ...ADMIN_TESTE, id: 3, nome: 'Carla Inativa', email: 'carla@escola.com.br', tipo: 'funcionario', ativo: false },
  { ...ADMIN_TESTE, id: 5, nome: 'Caio Inativo', email: 'caio@escola.com.br', tipo: 'funcionario', ativo: false },
];

function montar(em: string) {
  entrarComo(ADMIN_TESTE);
  simularApi({
    'GET /auth/me': () => ({ corpo: { usuario: ADMIN_TESTE } }),
    'GET /usuarios': () => ({ corpo: { usuarios: USUARIOS } }),
  });
  renderizarApp([{ path: '/usuarios', element: <PaginaUsuarios /> }], { em });
}

const linhas = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);

describe('Usuários aberta no endereço de um usuário', () => {
  it('mostra a aba do usuário com a tabela buscada até ele', async () => {
    montar('/usuarios?usuario=3');
    await waitFor(() => expect(screen.getByRole('tab', { name: /^Inativos/ })).toHaveAttribute('aria-selected', 'true'));
    expect(screen.getByRole('searchbox')).toHaveValue('carla@escola.com.br');
    expect(linhas()).toHaveLength(1);
    expect(within(linhas()[0]!).getByText('Carla Inativa')).toBeInTheDocument();

    // Clearing the search shows the whole tab, as always.
    await userEvent.setup().clear(screen.getByRole('searchbox'));
    expect(linhas()).toHaveLength(2);
  });

  it('sem o parâmetro, ou com um usuário que não está na lista, a tela abre como sempre', async () => {
    montar('/usuarios?usuario=99');
    expect(await screen.findByText('Bruno Campo')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: /^Ativos/ })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('searchbox')).toHaveValue('');
  });
});
