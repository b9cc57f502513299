/**
 * News said as a toast away from Despesas: the toast names the expense and opens it
 * ('Ver despesa' -> /despesas?despesa=<id>, where the employee's page shows its details).
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { bancoLocal } from '../offline/db';
import { despesaDeTeste, listaDeDespesas } from '../test/despesas';
import { entrarComo, FUNCIONARIO_TESTE, renderizarApp, simularApi } from '../test/renderizar';
import { chaveNoticias, type EstadoNoticias } from './noticias';
import { PaginaDespesas } from './PaginaDespesas';
import { VigiaDeNoticias } from './VigiaDeNoticias';

const ID = '0193a2b4-0000-7000-8000-0000000000d1';

function Endereco() {
  const local = useLocation();
  return <p data-testid="endereco">{`${local.pathname}${local.search}`}</p>;
}

afterEach(async () => {
  await Promise.all(bancoLocal.tables.map((t) => t.clear()));
});

describe('VigiaDeNoticias', () => {
  it('fora de Despesas, a rejeição vira um aviso que nomeia a despesa; "Ver despesa" abre os detalhes dela', async () => {
    const visto: EstadoNoticias = { vistos: { avaliadasAte: '2026-12-01T00:00:00.000Z', avaliacoes: {}, creditoAte: 0 }, pendentes: [] };
    await bancoLocal.meta.put({ chave: chaveNoticias(FUNCIONARIO_TESTE.id), valor: visto });
    const rejeitada = despesaDeTeste(ID, {
      data_despesa: '2026-12-03',
      valor: 48,
      descricao: 'Almoço em Anápolis',
      status_aprovacao: 'rejeitada',
      rejeitada: true,
      motivo_rejeicao: 'Sem nota',
      avaliado_em: '2026-12-04T10:00:00.000Z',
    });
    entrarComo(FUNCIONARIO_TESTE);
    const api = simularApi({
      'GET /auth/me': () => ({ corpo: { usuario: FUNCIONARIO_TESTE } }),
      'GET /despesas': () => ({ corpo: listaDeDespesas([rejeitada]) }),
      'GET /rotas/ativas/funcionario': () => ({ corpo: { rotas: [] } }),
      'GET /saldo/resumo': () => ({ corpo: { saldo_atual: 100, data_ultima_atualizacao: '2026-11-20T10:00:00.000Z', creditos_recentes: [] } }),
    });
    // Outside the router, as the app mounts it (app/Provedores.tsx).
    renderizarApp(
      [
        { path: '/dashboard', element: <Endereco /> },
        { path: '/despesas', element: <><PaginaDespesas /><Endereco /></> },
      ],
      { em: '/dashboard', extra: <VigiaDeNoticias usuarioId={FUNCIONARIO_TESTE.id} /> },
    );
    const texto = await screen.findByText(/^Alimentação · R\$\s48,00 · 03\/12 rejeitada: Sem nota$/);
    const aviso = texto.closest('[role="alert"]') as HTMLElement;
    await userEvent.setup().click(within(aviso).getByRole('button', { name: 'Ver despesa' }));
    const detalhes = await screen.findByRole('dialog', { name: 'Detalhes da Despesa' });
    expect(within(detalhes).getByText('Almoço em Anápolis')).toBeInTheDocument();
    // From the employee's own list on the device: no read of the single expense.
    expect(api.chamadas.filter((c) => c.caminho === `/despesas/${ID}`)).toEqual([]);
    await waitFor(() => expect(screen.getByTestId('endereco')).toHaveTextContent(`/despesas?despesa=${ID}`));
  });
});
