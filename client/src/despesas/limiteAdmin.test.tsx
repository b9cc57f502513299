/**
 * The daily meal limit on the admin's expense screen: a badge with that route's limit on each meal of
 * a day above it (table, phone cards, details), and the filter 'Só acima do limite diário'.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { Despesa } from '../../../shared/schemas/despesas';
import { motorSync } from '../offline';
import { despesaDeTeste, listaDeDespesas } from '../test/despesas';
import { definirLarguraDaJanela } from '../test/janela';
import { ADMIN_TESTE, entrarComo, renderizarApp, simularApi } from '../test/renderizar';
import { PaginaDespesas } from './PaginaDespesas';

afterEach(() => {
  motorSync.parar();
});

const DESPESAS = [
  despesaDeTeste('acima', { descricao: 'Jantar caro', valor: 150, acima_do_limite: true, limite_diario: 180 }),
  despesaDeTeste('secretario', { descricao: 'Almoço com o secretário', valor: 240, acima_do_limite: true, limite_diario: 220, rota_nome: 'Rota Norte' }),
  despesaDeTeste('dentro', { descricao: 'Lanche', valor: 20, acima_do_limite: false, limite_diario: 180 }),
];

function montarAdmin(despesas: Despesa[] = DESPESAS) {
  entrarComo(ADMIN_TESTE);
  const leituras: URLSearchParams[] = [];
  simularApi({
    'GET /auth/me': () => ({ corpo: { usuario: ADMIN_TESTE } }),
    'GET /despesas': (_corpo, url) => {
      leituras.push(url.searchParams);
      return { corpo: listaDeDespesas(url.searchParams.get('acima_do_limite') === 'true' ? despesas.filter((d) => d.acima_do_limite) : despesas) };
    },
    'GET /saldo/funcionarios': () => ({ corpo: { funcionarios: [] } }),
    'GET /rotas': () => ({ corpo: { rotas: [] } }),
  });
  renderizarApp([{ path: '/despesas', element: <PaginaDespesas /> }], { em: '/despesas' });
  return leituras;
}

/** The table row of an expense found by its description (on a line of its own under the row). */
const linhaDe = (descricao: string) => screen.getByText(descricao).closest('tr')!.previousElementSibling as HTMLElement;

describe('limite diário na tela do admin', () => {
  it('no computador, a linha acima do limite tem o selo com o limite da sua rota; a que está dentro, não', async () => {
    definirLarguraDaJanela(1280);
    montarAdmin();
    await screen.findByText('Jantar caro');
    expect(within(linhaDe('Jantar caro')).getByText('Acima do limite diário (R$ 180,00)')).toBeInTheDocument();
    expect(within(linhaDe('Almoço com o secretário')).getByText('Acima do limite diário (R$ 220,00)')).toBeInTheDocument();
    expect(within(linhaDe('Lanche')).queryByText(/Acima do limite/)).not.toBeInTheDocument();
  });

  it('no celular, o cartão mostra o selo; os detalhes também', async () => {
    definirLarguraDaJanela(390);
    montarAdmin();
    const cartao = (await screen.findByText('Jantar caro')).closest('li')!;
    expect(within(cartao).getByText('Acima do limite diário (R$ 180,00)')).toBeInTheDocument();
    expect(within(screen.getByText('Lanche').closest('li')!).queryByText(/Acima do limite/)).not.toBeInTheDocument();

    const usuario = userEvent.setup();
    await usuario.click(within(cartao).getByRole('button', { name: /^Ações:/ }));
    await usuario.click(screen.getByRole('menuitem', { name: 'Ver Detalhes' }));
    const detalhes = screen.getByRole('dialog', { name: 'Detalhes da Despesa' });
    expect(within(detalhes).getByText('Acima do limite diário (R$ 180,00)')).toBeInTheDocument();
  });

  it("o filtro 'Só acima do limite diário' pede só as marcadas ao servidor", async () => {
    definirLarguraDaJanela(1280);
    const leituras = montarAdmin();
    await screen.findByText('Lanche');
    expect(leituras.at(-1)!.has('acima_do_limite')).toBe(false);
    const usuario = userEvent.setup();
    const filtro = screen.getByRole('checkbox', { name: 'Só acima do limite diário' });
    expect(filtro).not.toBeChecked();
    await usuario.click(filtro);
    await usuario.click(screen.getByRole('button', { name: 'Filtrar' }));
    await waitFor(() => expect(screen.queryByText('Lanche')).not.toBeInTheDocument());
    expect(screen.getByText('Jantar caro')).toBeInTheDocument();
    expect(leituras.at(-1)!.get('acima_do_limite')).toBe('true');
    // The route's status filter stays as it was (the default 'Ativas').
    expect(leituras.at(-1)!.get('status_rota')).toBe('ativa');
  });
});
