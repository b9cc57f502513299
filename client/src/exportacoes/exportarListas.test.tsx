/**
 * Admin Vendas, Despesas and Auditoria export their whole filtered set: 'Exportar CSV' asks the server
 * (GET <lista>/exportar) with the filters the list applies, not the rows on screen, and tells the
 * progress, the file saved, or the server's refusal.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { ListaAuditoria } from '../../../shared/schemas/auditoria';
import type { FechamentoDiario } from '../../../shared/schemas/vendas';
import { PaginaAuditoria } from '../auditoria/PaginaAuditoria';
import { PaginaDespesas } from '../despesas/PaginaDespesas';
import { motorSync } from '../offline';
import { arquivoEmPartes, capturarDownload, textoComBom } from '../test/download';
import { despesaDeTeste, listaDeDespesas } from '../test/despesas';
import { ADMIN_TESTE, entrarComo, FUNCIONARIO_TESTE, renderizarApp, simularApi, type ManipuladorApi } from '../test/renderizar';
import { PaginaVendas } from '../vendas/PaginaVendas';

afterEach(() => {
  motorSync.parar();
});

const CSV = (nome: string) => ({ 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${nome}"` });

function montar(caminho: string, elemento: React.ReactNode, rotas: Record<string, ManipuladorApi>, exportar: ManipuladorApi) {
  entrarComo(ADMIN_TESTE);
  const pedidos: URL[] = [];
  simularApi({
    'GET /auth/me': () => ({ corpo: { usuario: ADMIN_TESTE } }),
    ...rotas,
    [`GET ${caminho}/exportar`]: (corpo, url) => {
      pedidos.push(url);
      return exportar(corpo, url);
    },
  });
  renderizarApp([{ path: caminho, element: elemento }], { em: caminho });
  return pedidos;
}

const FECHAMENTO: FechamentoDiario = { totais: { dinheiro: 0, pix: 0, cartao: 0, link: 0, boletos: 0, total_geral: 0 }, vendas: [], total: 2500, page: 1, limit: 10 };

describe('Exportar CSV das listas do admin: o conjunto filtrado inteiro, pelo servidor', () => {
  it('Vendas: pede /vendas/exportar com os filtros aplicados, mostra o progresso e baixa o arquivo do servidor', async () => {
    const usuario = userEvent.setup();
    const arquivo = arquivoEmPartes(CSV('vendas.csv'));
    const pedidos = montar(
      '/vendas',
      <PaginaVendas />,
      {
        'GET /usuarios/funcionarios': () => ({ corpo: { funcionarios: [FUNCIONARIO_TESTE] } }),
        'GET /rotas': () => ({ corpo: { rotas: [] } }),
        'GET /vendas/fechamento-diario': () => ({ corpo: FECHAMENTO }),
      },
      () => arquivo.resposta,
    );
    const baixado = capturarDownload();
    await usuario.click(await screen.findByRole('button', { name: 'Filtrar' }));
    const modal = screen.getByRole('dialog', { name: 'Filtrar vendas' });
    await usuario.selectOptions(within(modal).getByLabelText('Funcionário'), 'Bruno Campo');
    fireEvent.change(within(modal).getByLabelText('Data Início'), { target: { value: '2026-11-01' } });
    await usuario.click(within(modal).getByRole('button', { name: 'Aplicar Filtros' }));

    await usuario.click(screen.getByRole('button', { name: 'Exportar CSV' }));
    await waitFor(() => expect(pedidos).toHaveLength(1));
    // The list's filters, no page: the server sends every row.
    expect(Object.fromEntries(pedidos[0]!.searchParams)).toEqual({ funcionario_id: '2', status_rota: 'ativa', data_inicio: '2026-11-01', formato: 'csv' });
    arquivo.enviar(5 * 1024, 65);
    expect(await screen.findByText('Baixando… 5 KB recebidos')).toBeInTheDocument();
    arquivo.fechar();
    expect(await screen.findByText('Pronto: vendas.csv (5 KB)')).toBeInTheDocument();
    expect(baixado.nome).toBe('vendas.csv');
    expect((await textoComBom(baixado.blob!)).length).toBe(5 * 1024);
  });

  it('Despesas (admin): pede /despesas/exportar com os filtros aplicados; a recusa do servidor aparece em pt-BR', async () => {
    const usuario = userEvent.setup();
    const pedidos = montar(
      '/despesas',
      <PaginaDespesas />,
      {
        'GET /despesas': () => ({ corpo: listaDeDespesas([despesaDeTeste('d1')]) }),
        'GET /saldo/funcionarios': () => ({ corpo: { funcionarios: [] } }),
        'GET /rotas': () => ({ corpo: { rotas: [] } }),
      },
      () => ({ status: 503, corpo: { error: 'Já há 2 exportações em andamento. Tente novamente em alguns segundos.', codigo: 'indisponivel' } }),
    );
    await screen.findByText('Alimentação', { selector: 'td *, td' });
    await usuario.selectOptions(screen.getByLabelText('Tipo'), 'hospedagem');
    await usuario.selectOptions(screen.getByLabelText('Status'), 'rejeitada');
    await usuario.click(screen.getByRole('button', { name: 'Filtrar' }));
    await usuario.click(screen.getByRole('button', { name: 'Exportar CSV' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Já há 2 exportações em andamento. Tente novamente em alguns segundos.');
    expect(Object.fromEntries(pedidos[0]!.searchParams)).toEqual({ status_rota: 'ativa', tipo: 'hospedagem', status_aprovacao: 'rejeitada', formato: 'csv' });
  });

  it('Auditoria: pede /auditoria/exportar com os filtros aplicados (não os ainda não aplicados)', async () => {
    const usuario = userEvent.setup();
    const vazia: ListaAuditoria = { registros: [], nomes: { usuarios: {}, rotas: {} }, total: 0, page: 1, limit: 50 };
    const pedidos = montar(
      '/auditoria',
      <PaginaAuditoria />,
      {
        'GET /usuarios': () => ({ corpo: { usuarios: [ADMIN_TESTE], total: 1, page: 1, limit: 1000 } }),
        'GET /auditoria': () => ({ corpo: vazia }),
      },
      () => arquivoEmPartes(CSV('auditoria.csv')).resposta,
    );
    await usuario.selectOptions(await screen.findByLabelText('Ação'), 'saldo.creditar');
    fireEvent.change(screen.getByLabelText('Data inicial'), { target: { value: '2026-11-01' } });
    await usuario.click(screen.getByRole('button', { name: 'Filtrar' }));
    // Changed in the form but not applied: the export follows what the list shows.
    fireEvent.change(screen.getByLabelText('Data final'), { target: { value: '2026-11-30' } });
    await usuario.click(screen.getByRole('button', { name: 'Exportar CSV' }));
    await waitFor(() => expect(pedidos).toHaveLength(1));
    expect(Object.fromEntries(pedidos[0]!.searchParams)).toEqual({ acao: 'saldo.creditar', data_inicio: '2026-11-01', formato: 'csv' });
    expect(await screen.findByText('Preparando o arquivo…')).toBeInTheDocument();
  });
});
