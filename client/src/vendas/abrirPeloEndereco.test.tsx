/**
 * Vendas (admin) opened at a sale's address ('/vendas?rota=<id>&cidade=<id>&data=<aaaa-mm-dd>', the audit
 * trail's link): the filters that show exactly that sale (its route, its city, its day, any route status).
 */
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { FechamentoDiario } from '../../../shared/schemas/vendas';
import { ADMIN_TESTE, entrarComo, renderizarApp, simularApi } from '../test/renderizar';
import { PaginaVendas } from './PaginaVendas';

function montar(em: string) {
  entrarComo(ADMIN_TESTE);
  const pedidos: URLSearchParams[] = [];
  simularApi({
    'GET /auth/me': () => ({ corpo: { usuario: ADMIN_TESTE } }),
    'GET /usuarios/funcionarios': () => ({ corpo: { funcionarios: [] } }),
    'GET /rotas': () => ({ corpo: { rotas: [{ id: 7, nome: 'Rota Antiga', funcionario_id: 2, status: 'finalizada', cidades: [{ id: 5208707, nome: 'Goiânia', uf: 'GO' }] }] } }),
    'GET /vendas/fechamento-diario': (_c, url) => {
      pedidos.push(url.searchParams);
      const corpo: FechamentoDiario = { totais: { dinheiro: 0, pix: 0, cartao: 0, link: 0, boletos: 0, total_geral: 0 }, vendas: [], total: 0, page: 1, limit: 10 };
      return { corpo };
    },
  });
  renderizarApp([{ path: '/vendas', element: <PaginaVendas /> }], { em });
  return pedidos;
}

describe('Vendas aberta no endereço de uma venda', () => {
  it('pede ao servidor a rota, a cidade e o dia da venda, com qualquer status da rota', async () => {
    const pedidos = montar('/vendas?rota=7&cidade=5208707&data=2026-12-03');
    await waitFor(() => expect(pedidos.length).toBeGreaterThan(0));
    const primeiro = pedidos[0]!;
    expect(Object.fromEntries(primeiro)).toMatchObject({ rota_id: '7', cidade_id: '5208707', data_inicio: '2026-12-03', data_fim: '2026-12-03' });
    expect(primeiro.get('status_rota')).toBeNull();
    // The 'Filtrar' button counts the filters in force (route, cities, start and end).
    expect(await screen.findByRole('button', { name: /Filtrar.*4/ })).toBeInTheDocument();
  });

  it('um endereço incompleto ou malformado abre Vendas como sempre', async () => {
    const pedidos = montar('/vendas?rota=7&cidade=abc&data=03/12/2026');
    await waitFor(() => expect(pedidos.length).toBeGreaterThan(0));
    expect(pedidos[0]!.get('rota_id')).toBeNull();
    expect(pedidos[0]!.get('status_rota')).toBe('ativa');
  });
});
