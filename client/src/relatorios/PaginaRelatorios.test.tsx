/**
 * Relatórios' Funcionário filter: a deactivated employee who has routes is still offered (marked
 * '(inativo)'), so those routes can be reported and exported; the request carries the choice.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { LinhaRelatorioRota } from '../../../shared/schemas/relatorios';
import type { Usuario } from '../../../shared/schemas/usuarios';
import { ADMIN_TESTE, entrarComo, renderizarApp, simularApi } from '../test/renderizar';
import { PaginaRelatorios } from './PaginaRelatorios';

const funcionario = (id: number, nome: string, ativo: boolean): Usuario => ({ ...ADMIN_TESTE, id, nome, email: `${id}@escola.com.br`, tipo: 'funcionario', ativo });

const linha = (rotaId: number, rotaNome: string, funcionarioId: number, funcionarioNome: string): LinhaRelatorioRota => ({
  rota_id: rotaId,
  rota_nome: rotaNome,
  funcionario_id: funcionarioId,
  funcionario_nome: funcionarioNome,
  status: 'ativa',
  data_inicio: '2026-11-01',
  data_fim: '2026-11-30',
  total_vendas: 0,
  total_despesas: 0,
  total_creditos: 700,
  saldo_atual: 700,
  creditos_sem_rota: 0,
  a_devolver: 700,
  a_receber: 0,
  acertada_em: null,
});

function montar() {
  entrarComo(ADMIN_TESTE);
  const pedidos: URL[] = [];
  const api = simularApi({
    'GET /auth/me': () => ({ corpo: { usuario: ADMIN_TESTE } }),
    'GET /usuarios/funcionarios': (_c, url) => ({
      // The server adds the inactive ones with routes only when asked to.
      corpo: {
        funcionarios:
          url.searchParams.get('inativos_com_rotas') === 'true' ? [funcionario(9, 'Ana Estrada', false), funcionario(2, 'Bruno Campo', true)] : [funcionario(2, 'Bruno Campo', true)],
      },
    }),
    'GET /relatorios/rotas': (_c, url) => {
      pedidos.push(url);
      const todas = [linha(5, 'Rota Goiás', 9, 'Ana Estrada'), linha(7, 'Rota Centro', 2, 'Bruno Campo')];
      const id = url.searchParams.get('funcionario_id');
      return { corpo: { rotas: id ? todas.filter((l) => String(l.funcionario_id) === id) : todas } };
    },
    'GET /relatorios/tendencias': () => ({ corpo: { data_inicio: '2026-11-01', data_fim: '2026-11-30', vendas_por_dia: [], por_rota: [], por_funcionario: [], despesas_por_tipo: [] } }),
  });
  renderizarApp([{ path: '/relatorios', element: <PaginaRelatorios /> }], { em: '/relatorios' });
  return { api, pedidos };
}

describe('Relatórios: filtro de funcionário', () => {
  it("oferece o funcionário desativado que tem rotas, marcado '(inativo)', e filtra as rotas dele", async () => {
    const usuario = userEvent.setup();
    const { pedidos } = montar();
    const filtro = screen.getByLabelText('Funcionário', { exact: true });
    await waitFor(() => expect(within(filtro).getAllByRole('option').map((o) => o.textContent)).toEqual(['Todos', 'Ana Estrada (inativo)', 'Bruno Campo']));
    await usuario.selectOptions(filtro, '9');
    await waitFor(() => expect(pedidos.at(-1)!.searchParams.get('funcionario_id')).toBe('9'));
    await waitFor(() => expect(screen.queryByText('Rota Centro')).not.toBeInTheDocument());
    expect(screen.getAllByText('Rota Goiás').length).toBeGreaterThan(0);
  });
});
