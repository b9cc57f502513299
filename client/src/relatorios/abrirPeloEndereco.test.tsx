/**
 * Relatórios opened at a route's address ('/relatorios?rota=<id>', the audit trail's link): the route's
 * details open by themselves, whatever the filters list; closing them leaves the plain address.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { detalhesDeRotaDeTeste } from '../test/relatorios';
import { ADMIN_TESTE, entrarComo, renderizarApp, simularApi } from '../test/renderizar';
import { PaginaRelatorios } from './PaginaRelatorios';

function Endereco() {
  const local = useLocation();
  return <p data-testid="endereco">{`${local.pathname}${local.search}`}</p>;
}

function montar(em: string) {
  entrarComo(ADMIN_TESTE);
  const pedidos: string[] = [];
  simularApi({
    'GET /auth/me': () => ({ corpo: { usuario: ADMIN_TESTE } }),
    // The default filter lists no route: the details do not depend on the table.
    'GET /relatorios/rotas': () => ({ corpo: { rotas: [] } }),
    'GET /usuarios/funcionarios': () => ({ corpo: { funcionarios: [] } }),
    'GET /relatorios/tendencias': () => ({ status: 400, corpo: { error: 'Sem tendências neste teste.', codigo: 'dados_invalidos' } }),
    'GET /relatorios/rota/:id/detalhes': (_c, url) => {
      pedidos.push(url.pathname);
      return { corpo: detalhesDeRotaDeTeste('finalizada') };
    },
  });
  renderizarApp(
    [
      {
        path: '/relatorios',
        element: (
          <>
            <PaginaRelatorios />
            <Endereco />
          </>
        ),
      },
    ],
    { em },
  );
  return pedidos;
}

describe('Relatórios aberta no endereço de uma rota', () => {
  it('abre os detalhes da rota; fechar tira o endereço', async () => {
    const pedidos = montar('/relatorios?rota=5');
    const modal = await screen.findByRole('dialog', { name: 'Rota Norte' });
    expect(await within(modal).findByText('Bruno Campo')).toBeInTheDocument();
    expect(pedidos).toEqual(['/api/relatorios/rota/5/detalhes']);
    await userEvent.setup().click(within(modal).getAllByRole('button', { name: 'Fechar' }).at(-1)!);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Rota Norte' })).not.toBeInTheDocument());
    expect(screen.getByTestId('endereco')).toHaveTextContent(/^\/relatorios$/);
  });

  it('um endereço sem um id de rota válido não abre nada', async () => {
    const pedidos = montar('/relatorios?rota=abc');
    expect(await screen.findByText('Nenhuma rota encontrada')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(pedidos).toEqual([]);
  });
});
