/**
 * The employee's active route is one read with one copy on the device, shared by Vendas, Despesas,
 * the Dashboard and Minhas Rotas: whichever opened with a connection, the others open offline.
 */
import { screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { PaginaDashboard } from '../dashboard/PaginaDashboard';
import { PaginaDespesas } from '../despesas/PaginaDespesas';
import { bancoLocal } from '../offline/db';
import { entrarComo, FUNCIONARIO_TESTE, renderizarApp, simularApi } from '../test/renderizar';
import { rotaDeTeste } from '../test/rotas';
import { PaginaVendas } from '../vendas/PaginaVendas';
import { chavesCacheRotas, chavesRotas } from './consultas';

// jsdom has no canvas: the receipt compressor Despesas loads is replaced.
vi.mock('browser-image-compression', () => ({ default: vi.fn() }));

const ROTA = rotaDeTeste({ nome: 'Rota Centro-Oeste', cidades: [{ id: 5208707, nome: 'Goiânia', uf: 'GO' }] });

/** Online: only the active route answers (enough for the screens below to know it); offline: nothing does. */
function montar(elemento: ReactNode, caminho: string, online: boolean) {
  entrarComo(FUNCIONARIO_TESTE);
  const seOnline = (corpo: unknown) => () => (online ? { corpo } : ('offline' as const));
  simularApi({
    'GET /auth/me': seOnline({ usuario: FUNCIONARIO_TESTE }),
    'GET /rotas/ativas/funcionario': seOnline({ rotas: [ROTA] }),
    'GET /rotas/finalizadas/funcionario': seOnline({ rotas: [] }),
    'GET /saldo/resumo': seOnline({ saldo_atual: 100, data_ultima_atualizacao: null }),
    'GET /relatorios/rota/:id': seOnline({ base: { valor_aluguel: 0, cidades_visitadas_ids: [], vendas: [] } }),
    'GET /despesas': () => 'offline',
    'GET /rotas/:id/cidades-status': () => 'offline',
    'GET /vendas/fechamento-diario': () => 'offline',
    'GET /vendas/rota/:id/historico': () => 'offline',
  });
  return renderizarApp([{ path: caminho, element: elemento }], { em: caminho });
}

beforeEach(async () => {
  await Promise.all(bancoLocal.tables.map((t) => t.clear()));
});

describe('a rota ativa do funcionário, uma cópia no aparelho para todas as telas', () => {
  it('aberta no Dashboard com internet, Despesas e Vendas a conhecem offline', async () => {
    const painel = montar(<PaginaDashboard />, '/dashboard', true);
    expect(await screen.findByText('Rota Centro-Oeste')).toBeInTheDocument();
    await waitFor(async () => expect(await bancoLocal.cache.get(chavesCacheRotas.ativas(FUNCIONARIO_TESTE.id))).toBeDefined());
    painel.unmount();

    const despesas = montar(<PaginaDespesas />, '/despesas', false);
    expect(await screen.findByRole('button', { name: 'Nova Despesa' })).toBeInTheDocument();
    expect(screen.queryByText('Nenhuma rota ativa no momento.')).not.toBeInTheDocument();
    despesas.unmount();

    montar(<PaginaVendas />, '/vendas', false);
    expect(await screen.findByText(/Rota Centro-Oeste · 1 cidade/)).toBeInTheDocument();
  });

  it('offline sem cópia: Despesas não afirma que não há rota (só falta conexão) e não oferece Nova Despesa', async () => {
    const tela = montar(<PaginaDespesas />, '/despesas', false);
    await waitFor(() => expect(tela.queryClient.getQueryData(chavesRotas.ativaDoFuncionario(FUNCIONARIO_TESTE.id))).toEqual({ semDados: 'offline' }));
    expect(screen.queryByText('Nenhuma rota ativa no momento.')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Nova Despesa' })).not.toBeInTheDocument();
  });
});
