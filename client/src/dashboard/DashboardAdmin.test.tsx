import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatarDataPorExtenso } from '../../../shared/dates';
import { formatarData, somarDias } from '../../../shared/dates';
import type { DashboardAdmin, Tendencias } from '../../../shared/schemas/relatorios';
import type { Rota } from '../../../shared/schemas/rotas';
import { hojeNoApp } from '../config/configApp';
import { definirLarguraDaJanela } from '../test/janela';
import { ADMIN_TESTE, entrarComo, renderizarApp, simularApi, type ManipuladorApi } from '../test/renderizar';
import { rotaDeTeste } from '../test/rotas';
import { capturarDownload, textoComBom } from '../test/download';
import { PaginaDashboard } from './PaginaDashboard';

const sp = (t: string | null | undefined) => (t ?? '').replace(/\u00a0/g, ' ');

const DADOS: DashboardAdmin = {
  funcionariosEmRota: 2,
  funcionariosSemRota: 1,
  rotasAtivas: 2,
  vendasDia: 1500.3,
  despesasDia: 45.5,
  rotas: [
    { id: 7, nome: 'Rota Goiás', funcionario_nome: 'Bruno Campo', funcionario_ativo: true, vendasHoje: 1500.3, despesasHoje: 45.5, status: 'ativa' },
    { id: 8, nome: 'Rota Minas', funcionario_nome: 'Carla Estrada', funcionario_ativo: true, vendasHoje: 0, despesasHoje: 0, status: 'ativa' },
  ],
  funcionarios: [
    { id: 2, nome: 'Bruno Campo', ativo: true, rota_id: 7, rota_nome: 'Rota Goiás', saldo: 254.1, vendas: 1500.3, cidadesAtendidas: 3, totalCidades: 4 },
    { id: 3, nome: 'Carla Estrada', ativo: true, rota_id: 8, rota_nome: 'Rota Minas', saldo: -12.5, vendas: 0, cidadesAtendidas: 0, totalCidades: 2 },
  ],
  celulares: [],
};

const VAZIO: DashboardAdmin = { funcionariosEmRota: 0, funcionariosSemRota: 0, rotasAtivas: 0, vendasDia: 0, despesasDia: 0, rotas: [], funcionarios: [], celulares: [] };

const HOJE = hojeNoApp();
const dias = (n: number) => Array.from({ length: n }, (_, i) => somarDias(HOJE, i - n + 1));
const diaZerado = (data: string) => ({ data, dinheiro_centavos: 0, pix_centavos: 0, cartao_centavos: 0, link_centavos: 0, boletos: 0 });

/** The server's trends of the last 30 days: sales yesterday and today, two routes, two employees, two expense types. */
const TENDENCIAS: Tendencias = {
  data_inicio: somarDias(HOJE, -29),
  data_fim: HOJE,
  vendas_por_dia: dias(30).map((data) =>
    data === HOJE
      ? { data, dinheiro_centavos: 120_050, pix_centavos: 30_000, cartao_centavos: 0, link_centavos: 0, boletos: 2 }
      : data === somarDias(HOJE, -1)
        ? { data, dinheiro_centavos: 0, pix_centavos: 0, cartao_centavos: 50_000, link_centavos: 9_990, boletos: 0 }
        : diaZerado(data),
  ),
  por_rota: [
    { rota_id: 7, rota_nome: 'Rota Goiás', funcionario_nome: 'Bruno Campo', vendas_centavos: 200_040, despesas_centavos: 4_590, cidades_planejadas: 4, cidades_visitadas: 3 },
    { rota_id: 8, rota_nome: 'Rota Minas', funcionario_nome: 'Carla Estrada', vendas_centavos: 9_990, despesas_centavos: 8_000, cidades_planejadas: 2, cidades_visitadas: 1 },
  ],
  por_funcionario: [
    { funcionario_id: 2, funcionario_nome: 'Bruno Campo', vendas_centavos: 200_040, despesas_centavos: 4_590 },
    { funcionario_id: 3, funcionario_nome: 'Carla Estrada', vendas_centavos: 9_990, despesas_centavos: 8_000 },
  ],
  despesas_por_tipo: [
    { tipo: 'alimentacao', quantidade: 1, total_centavos: 4_590 },
    { tipo: 'hospedagem', quantidade: 1, total_centavos: 8_000 },
  ],
};

const TENDENCIAS_VAZIAS: Tendencias = { data_inicio: somarDias(HOJE, -29), data_fim: HOJE, vendas_por_dia: dias(30).map(diaZerado), por_rota: [], por_funcionario: [], despesas_por_tipo: [] };

const rotaAtiva = (id: number, nome: string): Rota => rotaDeTeste({ id, nome, criado_em: '' });

function montar(painel: ManipuladorApi, extra: Record<string, ManipuladorApi> = {}) {
  entrarComo(ADMIN_TESTE);
  const api = simularApi({
    'GET /auth/me': () => ({ corpo: { usuario: ADMIN_TESTE } }),
    'GET /relatorios/dashboard-admin': painel,
    'GET /relatorios/tendencias': () => ({ corpo: TENDENCIAS }),
    ...extra,
  });
  const tela = renderizarApp(
    [
      { path: '/dashboard', element: <PaginaDashboard /> },
      { path: '/rotas', element: <h1>Tela de Rotas</h1> },
      { path: '/relatorios', element: <h1>Tela de Relatórios</h1> },
    ],
    { em: '/dashboard' },
  );
  return { api, tela };
}

/** A stat card's value, found by its label. */
const valorDe = (rotulo: string) => sp(within(screen.getByRole('group', { name: rotulo })).getByText((_, e) => !!e?.classList.contains('cartao-resumo__valor')).textContent);
const tabela = (titulo: string) => screen.getByRole('heading', { name: titulo }).closest('section')!;
/** The cells of a row of a chart's table, spaces normalised. */
const celulas = (linha: HTMLElement) => within(linha).getAllByRole('cell').map((c) => sp(c.textContent));

afterEach(() => {
  vi.restoreAllMocks();
});

describe('Dashboard do admin', () => {
  it('as duas tabelas exportam CSV (planilha brasileira): valores com vírgula decimal, cidades como texto', async () => {
    montar(() => ({ corpo: DADOS }));
    await waitFor(() => expect(valorDe('Funcionários em Rota')).toBe('2'));
    const baixado = capturarDownload();
    await userEvent.click(within(tabela('Funcionários em Rota')).getByRole('button', { name: 'Exportar CSV' }));
    expect(baixado.nome).toBe(`funcionarios-em-rota-${HOJE}.csv`);
    expect(await textoComBom(baixado.blob!)).toBe(
      '\uFEFFNome;Rota Atual;Saldo;Vendas Hoje;Cidades Atendidas\r\nBruno Campo;Rota Goiás;254,10;1500,30;3 de 4\r\nCarla Estrada;Rota Minas;-12,50;0;0 de 2\r\n',
    );
    await userEvent.click(within(tabela('Rotas Ativas')).getByRole('button', { name: 'Exportar CSV' }));
    expect(baixado.nome).toBe(`rotas-ativas-${HOJE}.csv`);
    expect(await textoComBom(baixado.blob!)).toContain('Rota Goiás;Bruno Campo;1500,30;45,50;Ativa\r\n');
  });

  it('boas-vindas com o nome e a data de hoje por extenso; os cinco números do dia; as duas tabelas', async () => {
    montar(() => ({ corpo: DADOS }));
    const banner = await screen.findByRole('region', { name: 'Boas-vindas' });
    expect(within(banner).getByRole('heading', { level: 1 })).toHaveTextContent(/^(Bom dia|Boa tarde|Boa noite), Ana!$/);
    expect(within(banner).getByText(formatarDataPorExtenso(hojeNoApp()))).toBeInTheDocument();

    await waitFor(() => expect(valorDe('Funcionários em Rota')).toBe('2'));
    expect(valorDe('Funcionários sem Rota')).toBe('1');
    expect(valorDe('Rotas Ativas')).toBe('2');
    expect(valorDe('Vendas do Dia')).toBe('R$ 1.500,30');
    expect(valorDe('Despesas do Dia')).toBe('R$ 45,50');

    const rotas = tabela('Rotas Ativas');
    for (const c of ['Rota', 'Funcionário', 'Vendas Hoje', 'Despesas Hoje', 'Status']) expect(within(rotas).getByRole('columnheader', { name: c })).toBeInTheDocument();
    const goias = within(rotas).getByRole('row', { name: /Rota Goiás/ });
    expect(within(goias).getAllByRole('cell').map((c) => sp(c.textContent))).toEqual(['Rota Goiás', 'Bruno Campo', 'R$ 1.500,30', 'R$ 45,50', 'Ativa']);

    const funcionarios = tabela('Funcionários em Rota');
    for (const c of ['Nome', 'Rota Atual', 'Saldo', 'Vendas Hoje', 'Cidades Atendidas']) expect(within(funcionarios).getByRole('columnheader', { name: c })).toBeInTheDocument();
    const bruno = within(funcionarios).getByRole('row', { name: /Bruno Campo/ });
    expect(within(bruno).getAllByRole('cell').map((c) => sp(c.textContent))).toEqual(['Bruno Campo', 'Rota Goiás', 'R$ 254,10', 'R$ 1.500,30', '3/4']);
    const carla = within(funcionarios).getByRole('row', { name: /Carla Estrada/ });
    // A negative balance (the employee used own money) is red.
    expect(within(carla).getByText('-R$ 12,50', { normalizer: sp })).toHaveClass('valor-negativo');
    expect(within(carla).getByText('0/2')).toBeInTheDocument();
  });

  it("o funcionário desativado que ainda tem rota ativa aparece em rota, com o selo 'Inativo'", async () => {
    const comCarlaInativa: DashboardAdmin = {
      ...DADOS,
      rotas: DADOS.rotas.map((r) => (r.id === 8 ? { ...r, funcionario_ativo: false } : r)),
      funcionarios: DADOS.funcionarios.map((f) => (f.id === 3 ? { ...f, ativo: false } : f)),
    };
    montar(() => ({ corpo: comCarlaInativa }));
    const funcionarios = tabela('Funcionários em Rota');
    const carla = await within(funcionarios).findByRole('row', { name: /Carla Estrada/ });
    expect(within(within(carla).getAllByRole('cell')[0]!).getByText('Inativo')).toHaveClass('selo');
    expect(within(within(funcionarios).getByRole('row', { name: /Bruno Campo/ })).queryByText('Inativo')).not.toBeInTheDocument();
    const minas = within(tabela('Rotas Ativas')).getByRole('row', { name: /Rota Minas/ });
    expect(within(within(minas).getAllByRole('cell')[1]!).getByText('Inativo')).toBeInTheDocument();
    // The CSV keeps the plain name.
    const baixado = capturarDownload();
    await userEvent.click(within(funcionarios).getByRole('button', { name: 'Exportar CSV' }));
    expect(await textoComBom(baixado.blob!)).toContain('\r\nCarla Estrada;Rota Minas;-12,50;0;0 de 2\r\n');
  });

  it('sistema vazio: zeros e os textos das tabelas vazias', async () => {
    montar(() => ({ corpo: VAZIO }));
    expect(await screen.findByText('Nenhuma rota ativa')).toBeInTheDocument();
    expect(screen.getByText('Nenhum funcionário em rota')).toBeInTheDocument();
    expect(valorDe('Funcionários em Rota')).toBe('0');
    expect(valorDe('Vendas do Dia')).toBe('R$ 0,00');
  });

  it('falha ao carregar: zeros e tabelas vazias, sem mensagem na tela; o erro vai para o console', async () => {
    const erro = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    montar(() => ({ status: 500, corpo: { error: 'Erro interno', codigo: 'erro_interno' } }));
    expect(await screen.findByText('Nenhuma rota ativa')).toBeInTheDocument();
    expect(screen.getByText('Nenhum funcionário em rota')).toBeInTheDocument();
    expect(valorDe('Rotas Ativas')).toBe('0');
    expect(valorDe('Despesas do Dia')).toBe('R$ 0,00');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(erro).toHaveBeenCalledWith('Erro ao carregar o dashboard:', expect.anything());
  });

  it('Nova Rota leva a /rotas e Ver Relatórios a /relatorios', async () => {
    const usuario = userEvent.setup();
    const { tela } = montar(() => ({ corpo: DADOS }));
    await usuario.click(screen.getByRole('link', { name: /^Nova Rota/ }));
    expect(await screen.findByRole('heading', { name: 'Tela de Rotas' })).toBeInTheDocument();
    await tela.roteador.navigate('/dashboard');
    await usuario.click(await screen.findByRole('link', { name: /^Ver Relatórios/ }));
    expect(await screen.findByRole('heading', { name: 'Tela de Relatórios' })).toBeInTheDocument();
  });

  it('Adicionar/Enviar Saldo: rota opcional; o sucesso avisa, limpa, fecha depois de 1,5 s e o painel mostra o saldo novo', async () => {
    let saldoBruno = 254.1;
    const { api } = montar(
      () => ({ corpo: { ...DADOS, funcionarios: DADOS.funcionarios.map((f) => (f.id === 2 ? { ...f, saldo: saldoBruno } : f)) } }),
      {
        'GET /saldo/funcionarios': () => ({ corpo: { funcionarios: [{ id: 2, nome: 'Bruno Campo', email: 'b', saldo_atual: saldoBruno }] } }),
        'GET /rotas': () => ({ corpo: { rotas: [rotaAtiva(7, 'Rota Goiás')] } }),
        'POST /saldo/adicionar': (corpo) => {
          saldoBruno += (corpo as { valor: number }).valor;
          return { status: 201, corpo: { message: 'Saldo adicionado com sucesso!', movimentacao: {} } };
        },
      },
    );
    const usuario = userEvent.setup();
    const funcionarios = tabela('Funcionários em Rota');
    await within(funcionarios).findByText('R$ 254,10', { normalizer: sp });

    await usuario.click(screen.getByRole('button', { name: /^Adicionar\/Enviar Saldo/ }));
    const modal = screen.getByRole('dialog', { name: 'Adicionar/Enviar Saldo' });
    await waitFor(() => expect(within(modal).getAllByRole('option').length).toBeGreaterThan(1));
    await usuario.selectOptions(within(modal).getByLabelText(/Funcionário/), '2');
    // The dashboard's form: the route is optional and the first active route comes chosen.
    await waitFor(() => expect(within(modal).getByLabelText(/Rota/)).toHaveValue('7'));
    expect(within(within(modal).getByLabelText(/Rota/)).getByRole('option', { name: 'Sem rota específica' })).toBeInTheDocument();
    await usuario.type(within(modal).getByLabelText(/Valor/), '150,00');
    await usuario.click(within(modal).getByRole('button', { name: 'Adicionar Saldo' }));

    expect(await within(modal).findByText('Saldo adicionado com sucesso!')).toBeInTheDocument();
    expect(within(modal).getByLabelText(/Valor/)).toHaveValue('');
    expect(api.chamadas.find((c) => c.metodo === 'POST')?.corpo).toEqual({ funcionario_id: 2, valor: 150, descricao: 'Movimentação de saldo', rota_id: 7 });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument(), { timeout: 3000 });
    expect(await within(funcionarios).findByText('R$ 404,10', { normalizer: sp })).toBeInTheDocument();
  });

  it('no celular as tabelas viram cartões com o nome como título', async () => {
    definirLarguraDaJanela(390);
    montar(() => ({ corpo: DADOS }));
    const funcionarios = tabela('Funcionários em Rota');
    const cartao = (await within(funcionarios).findAllByRole('listitem'))[0]!;
    expect(sp(cartao.textContent)).toContain('Bruno Campo');
    expect(sp(cartao.textContent)).toContain('Cidades Atendidas3/4');
  });

  it('tendências dos últimos 30 dias: cada gráfico é uma figura com nome em português e seus números numa tabela (R$, dd/mm)', async () => {
    const usuario = userEvent.setup();
    const { api } = montar(() => ({ corpo: DADOS }));
    const painel = await screen.findByRole('region', { name: 'Tendências dos últimos 30 dias' });
    expect(await within(painel).findByText(`De ${formatarData(somarDias(HOJE, -29))} a ${formatarData(HOJE)}`)).toBeInTheDocument();
    // Without filters the server's default period: no dates in the request.
    const pedido = api.chamadas.find((c) => c.caminho.startsWith('/relatorios/tendencias'));
    expect(pedido?.caminho).toBe('/relatorios/tendencias');

    const nomes = within(painel).getAllByRole('figure').map((f) => f.getAttribute('aria-labelledby') && document.getElementById(f.getAttribute('aria-labelledby')!)?.textContent);
    expect(nomes).toEqual([
      'Vendas por dia e forma de pagamento',
      'Vendas e despesas por rota',
      'Vendas e despesas por funcionário',
      'Despesas por tipo',
      'Cidades visitadas e planejadas por rota',
    ]);

    const vendas = within(painel).getByRole('figure', { name: 'Vendas por dia e forma de pagamento' });
    expect(within(vendas).getByRole('img', { name: /^Vendas por dia e forma de pagamento: gráfico de barras/ })).toBeInTheDocument();
    expect(within(vendas).getByRole('list', { name: 'Legenda' })).toHaveTextContent(/Dinheiro.*Pix.*Cartão.*Link.*Boletos/);
    await usuario.click(within(vendas).getByText('Ver números'));
    const tabelaVendas = within(vendas).getByRole('table', { name: 'Vendas por dia e forma de pagamento' });
    expect(within(tabelaVendas).getAllByRole('columnheader').map((c) => c.textContent)).toEqual(['Dia', 'Dinheiro', 'Pix', 'Cartão', 'Link', 'Boletos']);
    const hoje = formatarData(HOJE).slice(0, 5);
    const ontem = formatarData(somarDias(HOJE, -1)).slice(0, 5);
    expect(celulas(within(tabelaVendas).getByRole('row', { name: new RegExp(`^${hoje}`) }))).toEqual(['R$ 1.200,50', 'R$ 300,00', 'R$ 0,00', 'R$ 0,00', '2']);
    expect(celulas(within(tabelaVendas).getByRole('row', { name: new RegExp(`^${ontem}`) }))).toEqual(['R$ 0,00', 'R$ 0,00', 'R$ 500,00', 'R$ 99,90', '0']);
    expect(celulas(within(tabelaVendas).getByRole('row', { name: /^Total/ }))).toEqual(['R$ 1.200,50', 'R$ 300,00', 'R$ 500,00', 'R$ 99,90', '2']);
    expect(within(tabelaVendas).getAllByRole('row')).toHaveLength(1 + 30 + 1);

    const porRota = within(painel).getByRole('figure', { name: 'Vendas e despesas por rota' });
    await usuario.click(within(porRota).getByText('Ver números'));
    expect(celulas(within(porRota).getByRole('row', { name: /^Rota Goiás/ }))).toEqual(['R$ 2.000,40', 'R$ 45,90']);
    expect(celulas(within(porRota).getByRole('row', { name: /^Total/ }))).toEqual(['R$ 2.100,30', 'R$ 125,90']);

    const porFuncionario = within(painel).getByRole('figure', { name: 'Vendas e despesas por funcionário' });
    expect(celulas(within(porFuncionario).getByRole('row', { name: /^Carla Estrada/, hidden: true }))).toEqual(['R$ 99,90', 'R$ 80,00']);

    const porTipo = within(painel).getByRole('figure', { name: 'Despesas por tipo' });
    expect(celulas(within(porTipo).getByRole('row', { name: /^Hospedagem/, hidden: true }))).toEqual(['R$ 80,00', '1']);

    const cidades = within(painel).getByRole('figure', { name: 'Cidades visitadas e planejadas por rota' });
    expect(within(cidades).getAllByRole('columnheader', { hidden: true }).map((c) => c.textContent)).toEqual(['Rota', 'Planejadas', 'Visitadas']);
    expect(celulas(within(cidades).getByRole('row', { name: /^Rota Minas/, hidden: true }))).toEqual(['2', '1']);
  });

  it('período sem vendas: cada gráfico diz em português que não há o que mostrar, sem eixo vazio nem tabela', async () => {
    montar(() => ({ corpo: VAZIO }), { 'GET /relatorios/tendencias': () => ({ corpo: TENDENCIAS_VAZIAS }) });
    const painel = await screen.findByRole('region', { name: 'Tendências dos últimos 30 dias' });
    const vendas = await within(painel).findByRole('figure', { name: 'Vendas por dia e forma de pagamento' });
    expect(within(vendas).getByText('Sem vendas no período')).toBeInTheDocument();
    expect(within(vendas).queryByRole('img')).not.toBeInTheDocument();
    expect(within(vendas).queryByRole('table', { hidden: true })).not.toBeInTheDocument();
    expect(within(painel).getByRole('figure', { name: 'Despesas por tipo' })).toHaveTextContent('Sem despesas no período');
    expect(within(painel).getByRole('figure', { name: 'Cidades visitadas e planejadas por rota' })).toHaveTextContent('Sem rotas no período');
    expect(within(painel).getByRole('figure', { name: 'Vendas e despesas por funcionário' })).toHaveTextContent('Sem vendas nem despesas no período');
  });
});
