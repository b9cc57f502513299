import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Rota } from '../../../shared/schemas/rotas';
import type { Movimentacao } from '../../../shared/schemas/saldo';
import { definirLarguraDaJanela } from '../test/janela';
import { ADMIN_TESTE, entrarComo, FUNCIONARIO_TESTE, renderizarApp, simularApi, type ManipuladorApi } from '../test/renderizar';
import { rotaDeTeste } from '../test/rotas';
import { ModalMovimentacaoSaldo } from './ModalMovimentacaoSaldo';
import { PaginaSaldo } from './PaginaSaldo';

const rota = (id: number, nome: string, funcionarioId: number): Rota =>
  rotaDeTeste({ id, nome, funcionario_id: funcionarioId, funcionario_nome: '', criado_em: '' });

const movimentacao = (id: number, extra: Partial<Movimentacao>): Movimentacao => ({
  id,
  data_movimentacao: '2026-11-22T13:10:00.000Z',
  funcionario_id: 2,
  funcionario_nome: 'Bruno Campo',
  tipo: 'credito',
  valor: 300,
  sentido: null,
  saldo_anterior: 0,
  saldo_novo: 300,
  descricao: 'Movimentação de saldo',
  admin_nome: 'Ana Admin',
  rota_id: 7,
  rota_nome: 'Rota Centro',
  despesa_id: null,
  ...extra,
});

function montar(extra: Record<string, ManipuladorApi> = {}) {
  entrarComo(ADMIN_TESTE);
  const urls: URL[] = [];
  const api = simularApi({
    'GET /auth/me': () => ({ corpo: { usuario: ADMIN_TESTE } }),
    'GET /saldo': () => ({
      corpo: {
        saldos: [
          { funcionario_id: 2, funcionario_nome: 'Bruno Campo', funcionario_email: 'bruno@escola.com.br', funcionario_ativo: true, saldo_atual: 254.1, data_ultima_atualizacao: '2026-11-22T13:10:00.000Z' },
          { funcionario_id: 3, funcionario_nome: 'Carla Zerada', funcionario_email: 'carla@escola.com.br', funcionario_ativo: true, saldo_atual: -12.5, data_ultima_atualizacao: null },
        ],
      },
    }),
    'GET /saldo/resumo': () => ({ corpo: { total_funcionarios: 2, saldo_total: 241.6, movimentacoes_hoje: 3 } }),
    'GET /saldo/movimentacoes': (_c, url) => {
      urls.push(url);
      const todas = [movimentacao(2, { tipo: 'debito', valor: 45.9, saldo_anterior: 300, saldo_novo: 254.1, descricao: 'Despesa: Alimentação — Anápolis', admin_nome: null }), movimentacao(1, {})];
      const tipo = url.searchParams.get('tipo');
      const movimentacoes = tipo ? todas.filter((m) => m.tipo === tipo) : todas;
      return { corpo: { movimentacoes, page: 1, limit: 500, total: movimentacoes.length } };
    },
    'GET /saldo/relatorio': () => ({
      corpo: { relatorio: [{ funcionario_id: 2, funcionario_nome: 'Bruno Campo', funcionario_ativo: true, rota_id: 7, rota_nome: 'Rota Centro', total_creditado: 300, total_gasto: 45.9, saldo_atual: 254.1 }] },
    }),
    'GET /saldo/funcionarios': () => ({
      corpo: {
        funcionarios: [
          { id: 2, nome: 'Bruno Campo', email: 'b', saldo_atual: 254.1 },
          { id: 3, nome: 'Carla Zerada', email: 'c', saldo_atual: -12.5 },
          { id: 4, nome: 'Davi Duas Rotas', email: 'd', saldo_atual: 0 },
        ],
      },
    }),
    'GET /rotas': (_c, url) => {
      const id = Number(url.searchParams.get('funcionario_id'));
      const rotas = id === 2 ? [rota(7, 'Rota Centro', 2)] : id === 4 ? [rota(8, 'Rota Norte', 4), rota(9, 'Rota Sul', 4)] : [];
      return { corpo: { rotas } };
    },
    'POST /saldo/adicionar': (corpo) => ({ status: 201, corpo: { message: 'Saldo adicionado com sucesso!', movimentacao: movimentacao(3, corpo as object) } }),
    ...extra,
  });
  return { api, urls };
}

describe('Saldo dos Funcionários', () => {
  it('quem não é admin vê Acesso Negado', () => {
    entrarComo(FUNCIONARIO_TESTE);
    simularApi({ 'GET /auth/me': () => ({ corpo: { usuario: FUNCIONARIO_TESTE } }) });
    renderizarApp([{ path: '/saldo', element: <PaginaSaldo /> }], { em: '/saldo' });
    expect(screen.getByRole('heading', { name: 'Acesso Negado' })).toBeInTheDocument();
    expect(screen.getByText('Você não tem permissão para acessar esta página.')).toBeInTheDocument();
  });

  it('mostra os três cartões e as três abas com suas colunas', async () => {
    const { urls } = montar();
    renderizarApp([{ path: '/saldo', element: <PaginaSaldo /> }], { em: '/saldo' });
    const usuario = userEvent.setup();
    expect(await screen.findByText('Bruno Campo')).toBeInTheDocument();
    expect(screen.getByText('Total de Funcionários').nextElementSibling).toHaveTextContent('2');
    expect(screen.getByText('Saldo Total').nextElementSibling).toHaveTextContent('R$ 241,60');
    expect(screen.getByText('Movimentações Hoje').nextElementSibling).toHaveTextContent('3');
    for (const c of ['Funcionário', 'Email', 'Saldo Atual', 'Última Atualização']) expect(screen.getByRole('columnheader', { name: c })).toBeInTheDocument();
    expect(screen.getByText('-R$ 12,50', { normalizer: (t) => t.replace(/\s/g, ' ') })).toHaveClass('valor-negativo');
    expect(screen.getByText('Sem movimentações')).toBeInTheDocument();

    await usuario.click(screen.getByRole('tab', { name: 'Histórico de Movimentações' }));
    // On the computer the route goes under the employee (nine columns do not fit beside the sidebar at 1280 px).
    for (const c of ['Data', 'Funcionário e Rota', 'Tipo', 'Valor', 'Saldo Anterior', 'Saldo Novo', 'Descrição', 'Admin']) {
      expect(screen.getByRole('columnheader', { name: c })).toBeInTheDocument();
    }
    expect(await screen.findByText('Despesa: Alimentação — Anápolis')).toBeInTheDocument();
    await usuario.click(screen.getByRole('button', { name: 'Crédito' }));
    await waitFor(() => expect(screen.queryByText('Despesa: Alimentação — Anápolis')).not.toBeInTheDocument());
    expect(urls.at(-1)!.searchParams.get('tipo')).toBe('credito');
    await usuario.click(screen.getByRole('button', { name: 'Devolução' }));
    expect(await screen.findByText('Nenhuma movimentação encontrada.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Todos' })).toHaveAttribute('aria-pressed', 'false');

    await usuario.click(screen.getByRole('tab', { name: 'Relatório' }));
    for (const c of ['Funcionário', 'Rota', 'Total Creditado', 'Total Gasto']) expect(screen.getByRole('columnheader', { name: c })).toBeInTheDocument();
    expect(await screen.findByText('R$ 45,90', { normalizer: (t) => t.replace(/\s/g, ' ') })).toBeInTheDocument();
  });

  it('relatório que falha mostra "Erro ao carregar relatório"', async () => {
    montar({ 'GET /saldo/relatorio': () => ({ status: 500, corpo: { error: 'x' } }) });
    renderizarApp([{ path: '/saldo', element: <PaginaSaldo /> }], { em: '/saldo' });
    await userEvent.setup().click(await screen.findByRole('tab', { name: 'Relatório' }));
    expect(await screen.findByText('Erro ao carregar relatório')).toBeInTheDocument();
  });
});

describe('funcionário desativado com saldo', () => {
  /** Ana was deactivated holding R$ 700,00: the server keeps her in the lists, marked inactive. */
  const comAna = () =>
    montar({
      'GET /saldo': () => ({
        corpo: {
          saldos: [
            { funcionario_id: 9, funcionario_nome: 'Ana Estrada', funcionario_email: 'ana@escola.com.br', funcionario_ativo: false, saldo_atual: 700, data_ultima_atualizacao: '2026-11-22T13:10:00.000Z' },
            { funcionario_id: 2, funcionario_nome: 'Bruno Campo', funcionario_email: 'bruno@escola.com.br', funcionario_ativo: true, saldo_atual: 254.1, data_ultima_atualizacao: '2026-11-22T13:10:00.000Z' },
          ],
        },
      }),
      'GET /saldo/relatorio': () => ({
        corpo: {
          relatorio: [
            { funcionario_id: 9, funcionario_nome: 'Ana Estrada', funcionario_ativo: false, rota_id: 5, rota_nome: 'Rota Goiás', total_creditado: 700, total_gasto: 0, saldo_atual: 700 },
            { funcionario_id: 2, funcionario_nome: 'Bruno Campo', funcionario_ativo: true, rota_id: 7, rota_nome: 'Rota Centro', total_creditado: 300, total_gasto: 45.9, saldo_atual: 254.1 },
          ],
        },
      }),
    });

  it("a tabela e o relatório mostram o selo 'Inativo' ao lado do nome; o ativo não tem selo", async () => {
    comAna();
    renderizarApp([{ path: '/saldo', element: <PaginaSaldo /> }], { em: '/saldo' });
    const ana = (await screen.findByText('Ana Estrada')).closest('tr')!;
    expect(within(within(ana).getAllByRole('cell')[0]!).getByText('Inativo')).toHaveClass('selo');
    const bruno = screen.getByText('Bruno Campo').closest('tr')!;
    expect(within(bruno).queryByText('Inativo')).not.toBeInTheDocument();

    await userEvent.setup().click(screen.getByRole('tab', { name: 'Relatório' }));
    const linha = (await screen.findByText('Rota Goiás')).closest('tr')!;
    expect(within(within(linha).getAllByRole('cell')[0]!).getByText('Inativo')).toBeInTheDocument();
    expect(within(screen.getByText('Rota Centro').closest('tr')!).queryByText('Inativo')).not.toBeInTheDocument();
  });

  it("no celular o cartão traz o selo 'Inativo' no título", async () => {
    definirLarguraDaJanela(390);
    comAna();
    renderizarApp([{ path: '/saldo', element: <PaginaSaldo /> }], { em: '/saldo' });
    const cartao = (await screen.findAllByText('Ana Estrada'))[0]!.closest('li')!;
    expect(within(cartao).getAllByText('Inativo')[0]).toHaveClass('selo');
    expect(within(screen.getAllByText('Bruno Campo')[0]!.closest('li')!).queryByText('Inativo')).not.toBeInTheDocument();
  });
});

describe('Adicionar Saldo', () => {
  it('rota obrigatória: escolhida sozinha quando é só uma; sem rota ativa, avisa e não deixa enviar', async () => {
    const { api } = montar();
    renderizarApp([{ path: '/saldo', element: <PaginaSaldo /> }], { em: '/saldo' });
    const usuario = userEvent.setup();
    await usuario.click(await screen.findByRole('button', { name: 'Adicionar Saldo' }));
    const modal = screen.getByRole('dialog', { name: 'Adicionar Saldo' });
    const funcionario = within(modal).getByLabelText(/Funcionário/);
    await waitFor(() => expect(within(funcionario).getAllByRole('option').map((o) => o.textContent?.replace(/\s/g, ' '))).toEqual([
      'Selecione um funcionário',
      'Bruno Campo — R$ 254,10',
      'Carla Zerada — -R$ 12,50',
      'Davi Duas Rotas — R$ 0,00',
    ]));
    expect(within(modal).getByLabelText(/Descrição/)).toHaveValue('Movimentação de saldo');
    const enviar = within(modal).getByRole('button', { name: 'Adicionar Saldo' });
    expect(enviar).toBeDisabled();

    await usuario.selectOptions(funcionario, '3');
    expect((await within(modal).findAllByText('Funcionário não possui rota ativa')).length).toBeGreaterThan(0);
    expect(enviar).toBeDisabled();

    await usuario.selectOptions(funcionario, '4');
    await waitFor(() => expect(within(modal).getByLabelText(/Rota/)).not.toBeDisabled());
    expect(within(modal).getByLabelText(/Rota/)).toHaveValue('');
    expect(enviar).toBeDisabled();

    await usuario.selectOptions(funcionario, '2');
    await waitFor(() => expect(within(modal).getByLabelText(/Rota/)).toHaveValue('7'));
    expect(enviar).toBeEnabled();
    await usuario.type(within(modal).getByLabelText(/Valor/), '0');
    await usuario.click(enviar);
    expect(within(modal).getByText('Valor deve ser maior que zero.')).toBeInTheDocument();
    await usuario.clear(within(modal).getByLabelText(/Valor/));
    await usuario.type(within(modal).getByLabelText(/Valor/), '1.250,50');
    await usuario.click(enviar);
    expect(await within(modal).findByText('Saldo adicionado com sucesso!')).toBeInTheDocument();
    expect(api.chamadas.find((c) => c.metodo === 'POST')?.corpo).toEqual({ funcionario_id: 2, valor: 1250.5, descricao: 'Movimentação de saldo', rota_id: 7 });
    expect(within(modal).getByLabelText(/Valor/)).toHaveValue('');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Adicionar Saldo' })).not.toBeInTheDocument(), { timeout: 3000 });
  });

  it('erro do servidor aparece; sem mensagem, "Erro ao adicionar saldo"', async () => {
    let resposta: { status: number; corpo: unknown } = { status: 422, corpo: { error: 'A rota escolhida não é uma rota ativa deste funcionário.', codigo: 'regra_de_negocio' } };
    montar({ 'POST /saldo/adicionar': () => resposta });
    renderizarApp([{ path: '/saldo', element: <PaginaSaldo /> }], { em: '/saldo' });
    const usuario = userEvent.setup();
    await usuario.click(await screen.findByRole('button', { name: 'Adicionar Saldo' }));
    const modal = screen.getByRole('dialog');
    await waitFor(() => expect(within(modal).getAllByRole('option').length).toBeGreaterThan(2));
    await usuario.selectOptions(within(modal).getByLabelText(/Funcionário/), '2');
    await waitFor(() => expect(within(modal).getByLabelText(/Rota/)).toHaveValue('7'));
    await usuario.type(within(modal).getByLabelText(/Valor/), '10');
    await usuario.click(within(modal).getByRole('button', { name: 'Adicionar Saldo' }));
    expect(await within(modal).findByText('A rota escolhida não é uma rota ativa deste funcionário.')).toBeInTheDocument();
    resposta = { status: 500, corpo: null };
    await usuario.click(within(modal).getByRole('button', { name: 'Adicionar Saldo' }));
    expect(await within(modal).findByText('Erro ao adicionar saldo')).toBeInTheDocument();
  });

  it('no painel a rota é opcional ("Sem rota específica"), a primeira rota ativa vem escolhida e os textos são os do painel', async () => {
    const { api } = montar({ 'POST /saldo/adicionar': () => ({ status: 500, corpo: null }), 'GET /saldo/funcionarios': () => ({ status: 500, corpo: null }) });
    renderizarApp([{ path: '/', element: <ModalMovimentacaoSaldo aberto aoFechar={() => undefined} rotaObrigatoria={false} titulo="Adicionar/Enviar Saldo" /> }]);
    const modal = await screen.findByRole('dialog', { name: 'Adicionar/Enviar Saldo' });
    expect(await within(modal).findByText('Erro ao carregar lista de funcionários')).toBeInTheDocument();
    expect(api.chamadas.some((c) => c.caminho === '/saldo/funcionarios')).toBe(true);
  });

  it('no painel, sem rota é aceito e a primeira rota ativa vem marcada', async () => {
    const { api } = montar({ 'POST /saldo/adicionar': () => ({ status: 500, corpo: null }) });
    renderizarApp([{ path: '/', element: <ModalMovimentacaoSaldo aberto aoFechar={() => undefined} rotaObrigatoria={false} /> }]);
    const usuario = userEvent.setup();
    const modal = await screen.findByRole('dialog');
    await waitFor(() => expect(within(modal).getAllByRole('option').length).toBeGreaterThan(2));
    await usuario.selectOptions(within(modal).getByLabelText(/Funcionário/), '4');
    await waitFor(() => expect(within(modal).getByLabelText(/Rota/)).toHaveValue('8'));
    await usuario.selectOptions(within(modal).getByLabelText(/Rota/), 'Sem rota específica');
    await usuario.type(within(modal).getByLabelText(/Valor/), '5');
    await usuario.click(within(modal).getByRole('button', { name: 'Adicionar Saldo' }));
    expect(await within(modal).findByText('Erro ao processar movimentação de saldo')).toBeInTheDocument();
    expect(api.chamadas.find((c) => c.metodo === 'POST')?.corpo).toMatchObject({ funcionario_id: 4, rota_id: null });
  });
});
