import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Rota } from '../../../shared/schemas/rotas';
import type { FechamentoDiario, VendaListada } from '../../../shared/schemas/vendas';
import { ADMIN_TESTE, entrarComo, FUNCIONARIO_TESTE, renderizarApp, simularApi } from '../test/renderizar';
import { PaginaVendas } from './PaginaVendas';

const venda = (extra: Partial<VendaListada>): VendaListada => ({
  id: 'v1',
  rota_id: 7,
  cidade_id: 5208707,
  funcionario_id: 2,
  data_venda: '2026-11-20',
  valor_dinheiro: 1234.5,
  valor_pix: 0.1,
  valor_cartao: 0.2,
  valor_link: 0,
  valor_boletos: 3,
  observacoes: 'Praça central',
  funcionario_nome: 'Bruno Campo',
  rota_nome: 'Rota Sul Goiano',
  rota_status: 'ativa',
  cidade_nome: 'Goiânia',
  cidade_uf: 'GO',
  total_vendas: 1234.8,
  registrado_em: '2026-11-20T12:00:00.000Z',
  recebido_em: '2026-11-20T12:00:01.000Z',
  atualizado_em: '2026-11-20T12:00:01.000Z',
  versao: 1,
  ...extra,
});

const ROTAS: Partial<Rota>[] = [
  { id: 7, nome: 'Rota Sul Goiano', funcionario_id: 2, status: 'ativa', cidades: [{ id: 5208707, nome: 'Goiânia', uf: 'GO' }, { id: 5201108, nome: 'Anápolis', uf: 'GO' }] },
  { id: 8, nome: 'Rota Antiga', funcionario_id: 3, status: 'finalizada', cidades: [{ id: 5205109, nome: 'Catalão', uf: 'GO' }] },
];

function montar() {
  entrarComo(ADMIN_TESTE);
  const pedidos: URLSearchParams[] = [];
  simularApi({
    'GET /auth/me': () => ({ corpo: { usuario: ADMIN_TESTE } }),
    'GET /usuarios/funcionarios': () => ({ corpo: { funcionarios: [FUNCIONARIO_TESTE, { ...FUNCIONARIO_TESTE, id: 3, nome: 'Carla Norte' }] } }),
    'GET /rotas': () => ({ corpo: { rotas: ROTAS } }),
    'GET /vendas/fechamento-diario': (_c, url) => {
      pedidos.push(url.searchParams);
      const rota = url.searchParams.get('rota_id');
      const pagina = { total: 1, page: 1, limit: 10 };
      const corpo: FechamentoDiario = rota
        ? { totais: { dinheiro: 10, pix: 0, cartao: 0, link: 0, boletos: 1, total_geral: 10 }, vendas: [venda({ id: 'v2', valor_dinheiro: 10, valor_pix: 0, valor_cartao: 0, total_vendas: 10, valor_boletos: 1, cidade_nome: 'Anápolis' })], ...pagina }
        : { totais: { dinheiro: 1234.5, pix: 0.1, cartao: 0.2, link: 0, boletos: 3, total_geral: 1234.8 }, vendas: [venda({})], ...pagina };
      return { corpo };
    },
  });
  renderizarApp([{ path: '/vendas', element: <PaginaVendas /> }], { em: '/vendas' });
  return pedidos;
}

describe('Vendas (administrador)', () => {
  it('cartões de resumo em BRL, com o bônus dos boletos, e o botão que os esconde', async () => {
    montar();
    const resumo = await screen.findByRole('region', { name: 'Resumo das vendas' });
    await within(resumo).findByText('R$ 1.234,80');
    for (const titulo of ['Total de Vendas', 'Dinheiro', 'Pix', 'Cartão', 'Link', 'Boletos']) expect(within(resumo).getByText(titulo)).toBeInTheDocument();
    expect(within(resumo).getByText('R$ 0,10')).toBeInTheDocument();
    expect(within(resumo).getByText(/Boletos não contam no valor vendido. Cada boleto rende R\$ 5,50 de bônus no salário./)).toBeInTheDocument();
    expect(within(resumo).getByText('R$ 16,50')).toBeInTheDocument(); // 5,50 x 3
    await userEvent.click(screen.getByRole('button', { name: 'Ocultar Cards' }));
    expect(screen.queryByRole('region', { name: 'Resumo das vendas' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Mostrar Cards' }));
    expect(screen.getByRole('region', { name: 'Resumo das vendas' })).toBeInTheDocument();
  });

  it("tabela 'Vendas Registradas' com todas as colunas, valores em BRL, boletos inteiros e busca", async () => {
    montar();
    expect(await screen.findByRole('heading', { name: 'Vendas Registradas' })).toBeInTheDocument();
    const linha = (await screen.findByText('Bruno Campo')).closest('tr')!;
    // On the computer employee, route and status share a cell, and the note has a line of its own
    // under the sale (twelve columns do not fit beside the sidebar at 1280 px).
    for (const coluna of ['Data', 'Funcionário e Rota', 'Cidade', 'Dinheiro', 'Pix', 'Cartão', 'Link', 'Boletos', 'Total']) {
      expect(screen.getByRole('columnheader', { name: coluna })).toBeInTheDocument();
    }
    for (const texto of ['20/11/2026', 'Ativa', 'Goiânia (GO)', 'R$ 1.234,50', 'R$ 0,20', '3', 'R$ 1.234,80']) {
      expect(within(linha).getByText(texto)).toBeInTheDocument();
    }
    expect(linha).toHaveTextContent('Rota Sul Goiano');
    const observacao = linha.nextElementSibling as HTMLElement;
    expect(observacao).toHaveTextContent('Observações: Praça central');
    await userEvent.type(screen.getByRole('searchbox'), 'anapolis');
    expect(screen.getByText('Nenhuma venda encontrada para os filtros escolhidos.')).toBeInTheDocument();
  });

  it('o filtro começa em Ativa; cidades só depois de escolher a rota; aplicar recarrega com rota e cidades', async () => {
    const pedidos = montar();
    await screen.findByText('Bruno Campo');
    expect(Object.fromEntries(pedidos.at(-1)!)).toEqual({ status_rota: 'ativa', page: '1', limit: '10' });
    await userEvent.click(screen.getByRole('button', { name: 'Filtrar' }));
    const modal = screen.getByRole('dialog', { name: 'Filtrar vendas' });
    expect(within(modal).getByLabelText('Status da Rota')).toHaveValue('ativa');
    expect(within(modal).getByText('Selecione uma rota para filtrar por cidade')).toBeInTheDocument();
    expect(within(modal).queryByRole('checkbox')).not.toBeInTheDocument();

    await userEvent.selectOptions(within(modal).getByLabelText('Funcionário'), 'Bruno Campo');
    expect(within(modal).queryByRole('option', { name: 'Rota Antiga (Finalizada)' })).not.toBeInTheDocument();
    await userEvent.selectOptions(within(modal).getByLabelText('Rota'), 'Rota Sul Goiano');
    expect(within(modal).getAllByRole('checkbox')).toHaveLength(2);
    await userEvent.click(within(modal).getByRole('checkbox', { name: 'Anápolis (GO)' }));
    await userEvent.type(within(modal).getByLabelText('Data Início'), '2026-11-01');
    await userEvent.click(within(modal).getByRole('button', { name: 'Aplicar Filtros' }));

    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByText('Anápolis (GO)')).toBeInTheDocument());
    expect(Object.fromEntries(pedidos.at(-1)!)).toEqual({ funcionario_id: '2', rota_id: '7', cidade_id: '5201108', data_inicio: '2026-11-01', page: '1', limit: '10' });
    expect(screen.getByRole('button', { name: 'Filtrar (4)' })).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Resumo das vendas' })).getByText('R$ 5,50')).toBeInTheDocument();
  });
});

describe('Vendas (administrador): páginas do servidor', () => {
  /** 23 sales on the server; it answers the page asked for and the totals of all 23. */
  const TODAS = Array.from({ length: 23 }, (_, i) =>
    venda({ id: `p${i + 1}`, funcionario_nome: `Vendedor ${String(i + 1).padStart(2, '0')}`, valor_dinheiro: 1, valor_pix: 0, valor_cartao: 0, total_vendas: 1, valor_boletos: 0 }),
  );
  const TOTAIS_DE_TODAS = { dinheiro: 23, pix: 0, cartao: 0, link: 0, boletos: 0, total_geral: 23 };

  function montarPaginado() {
    entrarComo(ADMIN_TESTE);
    const pedidos: URLSearchParams[] = [];
    simularApi({
      'GET /auth/me': () => ({ corpo: { usuario: ADMIN_TESTE } }),
      'GET /usuarios/funcionarios': () => ({ corpo: { funcionarios: [FUNCIONARIO_TESTE] } }),
      'GET /rotas': () => ({ corpo: { rotas: ROTAS, total: ROTAS.length, page: 1, limit: 1000 } }),
      'GET /vendas/fechamento-diario': (_c, url) => {
        pedidos.push(url.searchParams);
        const page = Number(url.searchParams.get('page') ?? 1);
        const limit = Number(url.searchParams.get('limit') ?? 100);
        const corpo: FechamentoDiario = { totais: TOTAIS_DE_TODAS, vendas: TODAS.slice((page - 1) * limit, page * limit), total: TODAS.length, page, limit };
        return { corpo };
      },
    });
    renderizarApp([{ path: '/vendas', element: <PaginaVendas /> }], { em: '/vendas' });
    return pedidos;
  }

  it('pede uma página de 10 ao servidor, navega com Anterior/Próxima e os cartões mostram os totais de todo o filtro', async () => {
    const pedidos = montarPaginado();
    expect(await screen.findByText('Vendedor 01')).toBeInTheDocument();
    expect(pedidos.at(-1)!.get('page')).toBe('1');
    expect(pedidos.at(-1)!.get('limit')).toBe('10');
    expect(screen.queryByText('Vendedor 11')).not.toBeInTheDocument();
    expect(screen.getByText('Página 1 de 3')).toBeInTheDocument();
    expect(screen.getByText('23 vendas')).toBeInTheDocument();
    // The cards are the server's totals of the 23, not the sum of the 10 on screen.
    const resumo = screen.getByRole('region', { name: 'Resumo das vendas' });
    expect(within(resumo).getAllByText('R$ 23,00').length).toBeGreaterThan(0);
    expect(screen.getByRole('button', { name: 'Anterior' })).toBeDisabled();

    await userEvent.click(screen.getByRole('button', { name: 'Próxima' }));
    expect(await screen.findByText('Vendedor 11')).toBeInTheDocument();
    expect(pedidos.at(-1)!.get('page')).toBe('2');
    expect(screen.getByText('Página 2 de 3')).toBeInTheDocument();
    expect(screen.queryByText('Vendedor 01')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Próxima' }));
    expect(await screen.findByText('Vendedor 21')).toBeInTheDocument();
    expect(screen.getByText('Página 3 de 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Próxima' })).toBeDisabled();
  });

  it('aplicar um filtro manda o filtro ao servidor e volta à página 1', async () => {
    const pedidos = montarPaginado();
    await screen.findByText('Vendedor 01');
    await userEvent.click(screen.getByRole('button', { name: 'Próxima' }));
    await screen.findByText('Página 2 de 3');
    await userEvent.click(screen.getByRole('button', { name: 'Filtrar' }));
    const modal = screen.getByRole('dialog', { name: 'Filtrar vendas' });
    await userEvent.type(within(modal).getByLabelText('Data Início'), '2026-11-01');
    await userEvent.click(within(modal).getByRole('button', { name: 'Aplicar Filtros' }));
    await waitFor(() => expect(pedidos.at(-1)!.get('data_inicio')).toBe('2026-11-01'));
    expect(pedidos.at(-1)!.get('page')).toBe('1');
    expect(await screen.findByText('Página 1 de 3')).toBeInTheDocument();
  });
});
