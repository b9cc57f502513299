/**
 * Relatórios' trend charts: they follow the page's period and employee filters (the
 * request carries them), and a period the server refuses shows its pt-BR reason instead of charts.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Tendencias } from '../../../shared/schemas/relatorios';
import { ADMIN_TESTE, entrarComo, renderizarApp, simularApi } from '../test/renderizar';
import { PaginaRelatorios } from './PaginaRelatorios';

const sp = (t: string | null | undefined) => (t ?? '').replace(/\u00a0/g, ' ');

function tendencias(inicio: string, fim: string): Tendencias {
  return {
    data_inicio: inicio,
    data_fim: fim,
    vendas_por_dia: [
      { data: inicio, dinheiro_centavos: 0, pix_centavos: 12_345, cartao_centavos: 0, link_centavos: 0, boletos: 1 },
      { data: fim, dinheiro_centavos: 0, pix_centavos: 0, cartao_centavos: 0, link_centavos: 0, boletos: 0 },
    ],
    por_rota: [{ rota_id: 5, rota_nome: 'Rota Norte', funcionario_nome: 'Bruno Campo', vendas_centavos: 12_345, despesas_centavos: 0, cidades_planejadas: 3, cidades_visitadas: 1 }],
    por_funcionario: [{ funcionario_id: 2, funcionario_nome: 'Bruno Campo', vendas_centavos: 12_345, despesas_centavos: 0 }],
    despesas_por_tipo: [],
  };
}

function montar() {
  entrarComo(ADMIN_TESTE);
  const pedidos: URL[] = [];
  const api = simularApi({
    'GET /auth/me': () => ({ corpo: { usuario: ADMIN_TESTE } }),
    'GET /relatorios/rotas': () => ({ corpo: { rotas: [] } }),
    'GET /usuarios/funcionarios': () => ({ corpo: { funcionarios: [{ id: 2, nome: 'Bruno Campo', email: 'b@x.com', tipo: 'funcionario', ativo: true }] } }),
    'GET /relatorios/tendencias': (_corpo, url) => {
      pedidos.push(url);
      const inicio = url.searchParams.get('data_inicio') ?? '2026-10-28';
      const fim = url.searchParams.get('data_fim') ?? '2026-11-26';
      if (inicio > fim) return { status: 400, corpo: { error: 'A data inicial deve ser igual ou anterior à data final.', codigo: 'dados_invalidos' } };
      return { corpo: tendencias(inicio, fim) };
    },
  });
  renderizarApp([{ path: '/relatorios', element: <PaginaRelatorios /> }], { em: '/relatorios' });
  return { api, pedidos };
}

describe('Relatórios: tendências do período', () => {
  it('os gráficos seguem o período e o funcionário dos filtros; datas invertidas mostram o motivo do servidor', async () => {
    const usuario = userEvent.setup();
    const { pedidos } = montar();
    const painel = await screen.findByRole('region', { name: 'Tendências do período' });
    expect(await within(painel).findByText('De 28/10/2026 a 26/11/2026')).toBeInTheDocument();
    expect(pedidos[0]!.search).toBe('');

    await waitFor(() => expect(screen.getByRole('option', { name: 'Bruno Campo' })).toBeInTheDocument());
    await usuario.selectOptions(screen.getByLabelText('Funcionário', { exact: true }), '2');
    await usuario.type(screen.getByLabelText('Data inicial'), '2026-11-01');
    await usuario.type(screen.getByLabelText('Data final'), '2026-11-10');
    expect(await within(painel).findByText('De 01/11/2026 a 10/11/2026')).toBeInTheDocument();
    const ultimo = pedidos.at(-1)!;
    expect(Object.fromEntries(ultimo.searchParams)).toEqual({ data_inicio: '2026-11-01', data_fim: '2026-11-10', usuario_id: '2' });

    const vendas = within(painel).getByRole('figure', { name: 'Vendas por dia e forma de pagamento' });
    const linha = within(vendas).getByRole('row', { name: /^01\/11/, hidden: true });
    expect(within(linha).getAllByRole('cell', { hidden: true }).map((c) => sp(c.textContent))).toEqual(['R$ 0,00', 'R$ 123,45', 'R$ 0,00', 'R$ 0,00', '1']);
    expect(within(painel).getByRole('figure', { name: 'Despesas por tipo' })).toHaveTextContent('Sem despesas no período');

    await usuario.clear(screen.getByLabelText('Data final'));
    await usuario.type(screen.getByLabelText('Data final'), '2026-10-01');
    expect(await within(painel).findByRole('alert')).toHaveTextContent('A data inicial deve ser igual ou anterior à data final.');
  });
});
