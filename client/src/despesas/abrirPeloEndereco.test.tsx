/**
 * Despesas opened at an expense's address ('/despesas?despesa=<id>', the audit trail's link): the admin
 * sees that expense's details whatever the list's filters show; one that does not exist says so.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { despesaDeTeste, listaDeDespesas } from '../test/despesas';
import { ADMIN_TESTE, entrarComo, renderizarApp, simularApi } from '../test/renderizar';
import { PaginaDespesas } from './PaginaDespesas';

const ID = '0193a2b4-0000-7000-8000-000000000001';

function Endereco() {
  const local = useLocation();
  return <p data-testid="endereco">{`${local.pathname}${local.search}`}</p>;
}

function montar(existe = true) {
  entrarComo(ADMIN_TESTE);
  const api = simularApi({
    'GET /auth/me': () => ({ corpo: { usuario: ADMIN_TESTE } }),
    // The page on screen (active routes) does not hold the expense: it belongs to a finished route.
    'GET /despesas': () => ({ corpo: listaDeDespesas([despesaDeTeste('outra', { descricao: 'Outra despesa' })]) }),
    'GET /despesas/:id': () =>
      existe
        ? { corpo: { despesa: despesaDeTeste(ID, { tipo: 'outro', tipo_outro: 'Lavagem do carro', valor: 35.5, rota_nome: 'Rota Norte', rota_status: 'finalizada', descricao: 'Lava-jato' }) } }
        : { status: 404, corpo: { error: 'Despesa não encontrada.', codigo: 'nao_encontrado' } },
    'GET /saldo/funcionarios': () => ({ corpo: { funcionarios: [] } }),
    'GET /rotas': () => ({ corpo: { rotas: [] } }),
  });
  renderizarApp(
    [
      {
        path: '/despesas',
        element: (
          <>
            <PaginaDespesas />
            <Endereco />
          </>
        ),
      },
    ],
    { em: `/despesas?despesa=${ID}` },
  );
  return api;
}

describe('Despesas aberta no endereço de uma despesa', () => {
  it('abre os detalhes dela, mesmo fora da página da lista; fechar tira o endereço', async () => {
    const api = montar();
    const detalhes = await screen.findByRole('dialog', { name: 'Detalhes da Despesa' });
    expect(within(detalhes).getAllByText('Lavagem do carro').length).toBeGreaterThan(0);
    expect(within(detalhes).getByText('Rota Norte')).toBeInTheDocument();
    expect(within(detalhes).getByText('Lava-jato')).toBeInTheDocument();
    expect(within(detalhes).getAllByText('R$ 35,50').length).toBeGreaterThan(0);
    expect(api.chamadas.filter((c) => c.caminho === `/despesas/${ID}`)).toHaveLength(1);

    await userEvent.setup().click(within(detalhes).getAllByRole('button', { name: 'Fechar' }).at(-1)!);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Detalhes da Despesa' })).not.toBeInTheDocument());
    expect(screen.getByTestId('endereco')).toHaveTextContent(/^\/despesas$/);
  });

  it('uma despesa que não existe mais: o aviso do servidor, e a lista como sempre', async () => {
    montar(false);
    expect(await screen.findByText('Despesa não encontrada.')).toBeInTheDocument();
    expect(await screen.findByText('Outra despesa')).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Detalhes da Despesa' })).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('endereco')).toHaveTextContent(/^\/despesas$/));
  });
});
