/**
 * Bulk evaluation on the admin's screen: tick several expenses (or the whole page) and approve them
 * in one action, or reject them with one reason; the ones the server could not evaluate stay ticked.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { AvaliacaoEmLote, Despesa } from '../../../shared/schemas/despesas';
import { motorSync } from '../offline';
import { despesaDeTeste, listaDeDespesas } from '../test/despesas';
import { definirLarguraDaJanela } from '../test/janela';
import { ADMIN_TESTE, entrarComo, FUNCIONARIO_TESTE, renderizarApp, simularApi } from '../test/renderizar';
import { rotaDeTeste } from '../test/rotas';
import { resumirAvaliacao } from './avaliacaoEmLote';
import { PaginaDespesas } from './PaginaDespesas';

afterEach(() => {
  motorSync.parar();
});

const DESPESAS = [
  despesaDeTeste('d1', { descricao: 'Primeira', valor: 10 }),
  despesaDeTeste('d2', { descricao: 'Segunda', tipo: 'hospedagem', valor: 120.5 }),
  despesaDeTeste('d3', { descricao: 'Terceira', tipo: 'pedagio', valor: 7.3 }),
];

/** The server's bulk answer: every id evaluated, except the ones in `falham` (gone). */
function respostaDoLote(ids: string[], status: 'aprovada' | 'rejeitada', falham: string[] = [], motivo: string | null = null): AvaliacaoEmLote {
  const resultados = ids.map((id) =>
    falham.includes(id)
      ? { id, ok: false, error: 'Despesa não encontrada.' }
      : { id, ok: true, despesa: despesaDeTeste(id, { status_aprovacao: status, aprovada: status === 'aprovada', rejeitada: status === 'rejeitada', motivo_rejeicao: motivo }) },
  );
  return { resultados, avaliadas: ids.length - falham.length, falhas: falham.length };
}

function montarAdmin(despesas: Despesa[], falham: string[] = []) {
  entrarComo(ADMIN_TESTE);
  const api = simularApi({
    'GET /auth/me': () => ({ corpo: { usuario: ADMIN_TESTE } }),
    'GET /despesas': () => ({ corpo: listaDeDespesas(despesas) }),
    'GET /saldo/funcionarios': () => ({ corpo: { funcionarios: [] } }),
    'GET /rotas': () => ({ corpo: { rotas: [] } }),
    'PATCH /despesas/aprovar': (corpo) => ({ corpo: respostaDoLote((corpo as { ids: string[] }).ids, 'aprovada', falham) }),
    'PATCH /despesas/rejeitar': (corpo) => {
      const { ids, motivo } = corpo as { ids: string[]; motivo: string };
      return { corpo: respostaDoLote(ids, 'rejeitada', falham, motivo) };
    },
  });
  renderizarApp([{ path: '/despesas', element: <PaginaDespesas /> }], { em: '/despesas' });
  return api;
}

describe('aprovação em lote no computador', () => {
  it('marca duas linhas, vê quantas e o total, e aprova as duas num pedido só', async () => {
    const api = montarAdmin(DESPESAS);
    const usuario = userEvent.setup();
    await usuario.click(await screen.findByRole('checkbox', { name: /^Selecionar: Alimentação de R\$\s10,00/ }));
    await usuario.click(screen.getByRole('checkbox', { name: /^Selecionar: Hospedagem/ }));
    const barra = screen.getByRole('region', { name: 'Ações em lote' });
    expect(within(barra).getByText('2 despesas selecionadas · R$ 130,50')).toBeInTheDocument();

    await usuario.click(within(barra).getByRole('button', { name: 'Aprovar selecionadas' }));
    expect(await screen.findByText('2 despesas aprovadas.')).toBeInTheDocument();
    expect(api.chamadas.filter((c) => c.metodo === 'PATCH')).toEqual([{ metodo: 'PATCH', caminho: '/despesas/aprovar', corpo: { ids: ['d1', 'd2'] } }]);
    // Done: nothing stays ticked and the bar goes away.
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Ações em lote' })).not.toBeInTheDocument());
    expect(screen.getByRole('checkbox', { name: /^Selecionar: Hospedagem/ })).not.toBeChecked();
  });

  it("'Selecionar todas da página' e rejeitar com um motivo; a que falhou continua marcada e o aviso diz por quê", async () => {
    const api = montarAdmin(DESPESAS, ['d3']);
    const usuario = userEvent.setup();
    const todas = await screen.findByRole('checkbox', { name: 'Selecionar todas da página' });
    await usuario.click(screen.getByRole('checkbox', { name: /^Selecionar: Pedágio/ }));
    expect(todas).not.toBeChecked();
    expect((todas as HTMLInputElement).indeterminate).toBe(true);
    await usuario.click(todas);
    for (const caixa of screen.getAllByRole('checkbox', { name: /^Selecionar: / })) expect(caixa).toBeChecked();

    await usuario.click(screen.getByRole('button', { name: 'Rejeitar selecionadas' }));
    const modal = screen.getByRole('dialog', { name: 'Rejeitar 3 despesas' });
    expect(within(modal).getByText(/3 despesas selecionadas, R\$ 137,80 no total/)).toBeInTheDocument();
    await usuario.click(within(modal).getByRole('button', { name: 'Rejeitar' }));
    expect(within(modal).getByText('Informe o motivo da rejeição.')).toBeInTheDocument();
    expect(api.chamadas.some((c) => c.metodo === 'PATCH')).toBe(false);
    await usuario.type(within(modal).getByLabelText(/Motivo da rejeição/), 'Sem nota fiscal');
    await usuario.click(within(modal).getByRole('button', { name: 'Rejeitar' }));

    expect(await screen.findByText('2 despesas rejeitadas; 1 não pôde ser rejeitada: Despesa não encontrada.')).toBeInTheDocument();
    expect(api.chamadas.find((c) => c.metodo === 'PATCH')).toEqual({ metodo: 'PATCH', caminho: '/despesas/rejeitar', corpo: { ids: ['d1', 'd2', 'd3'], motivo: 'Sem nota fiscal' } });
    expect(screen.queryByRole('dialog', { name: 'Rejeitar 3 despesas' })).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('checkbox', { name: /^Selecionar: Alimentação/ })).not.toBeChecked());
    expect(screen.getByRole('checkbox', { name: /^Selecionar: Pedágio/ })).toBeChecked();
    expect(within(screen.getByRole('region', { name: 'Ações em lote' })).getByText('1 despesa selecionada · R$ 7,30')).toBeInTheDocument();
  });
});

describe('aprovação em lote no celular e permissões', () => {
  it('no celular, os cartões têm caixa e a barra traz "Selecionar todas da página"', async () => {
    definirLarguraDaJanela(390);
    const api = montarAdmin(DESPESAS);
    const usuario = userEvent.setup();
    const barra = await screen.findByRole('region', { name: 'Ações em lote' });
    await usuario.click(within(barra).getByLabelText('Selecionar todas da página'));
    expect(within(barra).getByText('3 despesas selecionadas · R$ 137,80')).toBeInTheDocument();
    await usuario.click(screen.getByRole('checkbox', { name: /^Selecionar: Hospedagem/ }));
    await usuario.click(within(barra).getByRole('button', { name: 'Aprovar selecionadas' }));
    expect(await screen.findByText('2 despesas aprovadas.')).toBeInTheDocument();
    expect(api.chamadas.find((c) => c.metodo === 'PATCH')?.corpo).toEqual({ ids: ['d1', 'd3'] });
  });

  it('o funcionário não vê caixas nem ações em lote', async () => {
    entrarComo(FUNCIONARIO_TESTE);
    simularApi({
      'GET /auth/me': () => ({ corpo: { usuario: FUNCIONARIO_TESTE } }),
      'GET /despesas': () => ({ corpo: listaDeDespesas(DESPESAS) }),
      'GET /rotas/ativas/funcionario': () => ({ corpo: { rotas: [rotaDeTeste()] } }),
      'GET /saldo/resumo': () => ({ corpo: { saldo_atual: 100, data_ultima_atualizacao: '2026-11-20T10:00:00.000Z' } }),
    });
    renderizarApp([{ path: '/despesas', element: <PaginaDespesas /> }], { em: '/despesas' });
    expect(await screen.findByText('Primeira')).toBeInTheDocument();
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Ações em lote' })).not.toBeInTheDocument();
  });
});

describe('resumirAvaliacao', () => {
  it('diz as avaliadas e cada motivo das que falharam, concordando em número', () => {
    expect(resumirAvaliacao('aprovar', respostaDoLote(['a'], 'aprovada'))).toEqual({ mensagem: '1 despesa aprovada.', tudoCerto: true, naoAvaliadas: [] });
    expect(resumirAvaliacao('rejeitar', respostaDoLote(['a', 'b', 'c'], 'rejeitada', ['b', 'c']))).toEqual({
      mensagem: '1 despesa rejeitada; 2 não puderam ser rejeitadas: Despesa não encontrada.',
      tudoCerto: false,
      naoAvaliadas: ['b', 'c'],
    });
    expect(resumirAvaliacao('aprovar', respostaDoLote(['a'], 'aprovada', ['a'])).mensagem).toBe('1 não pôde ser aprovada: Despesa não encontrada.');
  });
});
