import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { CidadeResumo, Rota } from '../../../shared/schemas/rotas';
import { formatarNumero } from '../../../shared/numeros';
import type { Usuario } from '../../../shared/schemas/usuarios';
import { normalizarBusca } from '../../../shared/texto';
import { definirLarguraDaJanela } from '../test/janela';
import { rotaDeTeste } from '../test/rotas';
import { ADMIN_TESTE, entrarComo, FUNCIONARIO_TESTE, renderizarApp, simularApi, type ManipuladorApi, type RespostaFalsa } from '../test/renderizar';
import { PaginaRotas } from './PaginaRotas';

const CIDADES: CidadeResumo[] = [
  { id: 5208707, nome: 'Goiânia', uf: 'GO' },
  { id: 5201108, nome: 'Anápolis', uf: 'GO' },
  { id: 5204508, nome: 'Caldas Novas', uf: 'GO' },
  { id: 5205109, nome: 'Catalão', uf: 'GO' },
  { id: 5211503, nome: 'Itumbiara', uf: 'GO' },
  { id: 5218805, nome: 'Rio Verde', uf: 'GO' },
  { id: 3170206, nome: 'Uberlândia', uf: 'MG' },
  { id: 3170107, nome: 'Uberaba', uf: 'MG' },
  { id: 3106200, nome: 'Belo Horizonte', uf: 'MG' },
  { id: 3550308, nome: 'São Paulo', uf: 'SP' },
];
const cidade = (nome: string) => CIDADES.find((c) => c.nome === nome)!;

const BRUNO = FUNCIONARIO_TESTE;
const CARLA: Usuario = { ...FUNCIONARIO_TESTE, id: 3, nome: 'Carla Estrada', email: 'carla@escola.com.br' };

const rotaBase = (extra: Partial<Rota> = {}): Rota =>
  rotaDeTeste({
    id: 10,
    valor_aluguel: 350.5,
    cidades: ['Goiânia', 'Anápolis', 'Caldas Novas', 'Catalão', 'Uberlândia'].map(cidade),
    criado_em: '2026-10-30T12:00:00.000Z',
    ...extra,
  });

interface Opcoes {
  rotas?: Rota[];
  excluir?: () => RespostaFalsa | null;
  salvar?: () => RespostaFalsa | null;
  reabrir?: () => RespostaFalsa | null;
  despesas?: ManipuladorApi;
  listaFalha?: boolean;
}

/** Query strings the fake API received, per path (simularApi records paths only). */
let consultas: { caminho: string; params: Record<string, string> }[] = [];
const consultasDe = (caminho: string) => consultas.filter((c) => c.caminho === caminho).map((c) => c.params);

function montar(opcoes: Opcoes = {}) {
  entrarComo(ADMIN_TESTE);
  consultas = [];
  const registrar = (url: URL) => consultas.push({ caminho: url.pathname.replace(/^\/api/, ''), params: Object.fromEntries(url.searchParams) });
  const rotas = opcoes.rotas ?? [
    rotaBase(),
    rotaBase({ id: 11, nome: 'Rota Triângulo', funcionario_id: CARLA.id, funcionario_nome: CARLA.nome, tem_secretario: true, secretario_nome: 'Sônia', valor_aluguel: 0, cidades: [cidade('Uberaba')] }),
    rotaBase({ id: 12, nome: 'Rota Antiga', status: 'finalizada', data_inicio: '2026-09-01', data_fim: '2026-09-30', cidades: [cidade('Goiânia')] }),
  ];
  let proximoId = 100;
  const montarRota = (corpo: Record<string, unknown>, id: number, atual?: Rota): Rota => ({
    ...(atual ?? rotaBase()),
    id,
    nome: String(corpo.nome),
    funcionario_id: Number(corpo.funcionario_id),
    funcionario_nome: [BRUNO, CARLA].find((u) => u.id === Number(corpo.funcionario_id))!.nome,
    tem_secretario: Boolean(corpo.tem_secretario),
    secretario_nome: corpo.tem_secretario ? String(corpo.secretario_nome) : null,
    valor_aluguel: Number(corpo.valor_aluguel),
    data_inicio: String(corpo.data_inicio),
    data_fim: String(corpo.data_fim),
    observacoes: String(corpo.observacoes),
    cidades: (corpo.cidades as number[]).map((cid) => CIDADES.find((c) => c.id === cid)!),
  });
  const idDaUrl = (url: URL) => Number(url.pathname.split('/')[3]);
  const api = simularApi({
    'GET /auth/me': () => ({ corpo: { usuario: ADMIN_TESTE } }),
    'GET /rotas': (_c, url) => {
      registrar(url);
      if (opcoes.listaFalha) return { status: 500, corpo: { error: 'Erro interno do servidor. Tente novamente.', codigo: 'erro_interno' } };
      const status = url.searchParams.get('status');
      const funcionario = url.searchParams.get('funcionario_id');
      return {
        corpo: { rotas: rotas.filter((r) => (!status || r.status === status) && (!funcionario || r.funcionario_id === Number(funcionario))) },
      };
    },
    'GET /usuarios/funcionarios': () => ({ corpo: { funcionarios: [BRUNO, CARLA] } }),
    'GET /estados': () => ({
      corpo: {
        estados: [
          { uf: 'GO', nome: 'Goiás' },
          { uf: 'MG', nome: 'Minas Gerais' },
          { uf: 'SP', nome: 'São Paulo' },
        ],
      },
    }),
    'GET /cidades/search': (_c, url) => {
      registrar(url);
      const q = normalizarBusca(url.searchParams.get('q') ?? '');
      const uf = url.searchParams.get('uf');
      // The server answers a city of another state too, to prove the merge keeps each city once.
      return { corpo: { cidades: CIDADES.filter((c) => (c.uf === uf || c.nome === 'Goiânia') && normalizarBusca(c.nome).includes(q)) } };
    },
    'POST /rotas': (corpo) => {
      const recusa = opcoes.salvar?.();
      if (recusa) return recusa;
      const nova = montarRota(corpo as Record<string, unknown>, proximoId++);
      rotas.unshift(nova);
      return { status: 201, corpo: { rota: nova } };
    },
    'PUT /rotas/:id': (corpo, url) => {
      const recusa = opcoes.salvar?.();
      if (recusa) return recusa;
      const i = rotas.findIndex((r) => r.id === idDaUrl(url));
      rotas[i] = montarRota(corpo as Record<string, unknown>, idDaUrl(url), rotas[i]);
      return { corpo: { rota: rotas[i] } };
    },
    'DELETE /rotas/:id': (_c, url) => {
      const recusa = opcoes.excluir?.();
      if (recusa) return recusa;
      rotas.splice(
        rotas.findIndex((r) => r.id === idDaUrl(url)),
        1,
      );
      return { corpo: { message: 'Rota excluída com sucesso!' } };
    },
    'PATCH /rotas/:id/cancelar': (_c, url) => {
      const r = rotas.find((x) => x.id === idDaUrl(url))!;
      r.status = 'cancelada';
      return { corpo: { rota: r } };
    },
    'PATCH /rotas/:id/reabrir': (_c, url) => {
      const recusa = opcoes.reabrir?.();
      if (recusa) return recusa;
      const r = rotas.find((x) => x.id === idDaUrl(url))!;
      r.status = 'ativa';
      return { corpo: { rota: r } };
    },
    'GET /despesas': opcoes.despesas ?? (() => ({ corpo: { despesas: [] } })),
  });
  renderizarApp([{ path: '/rotas', element: <PaginaRotas /> }], { em: '/rotas' });
  return api;
}

const cartao = (nome: string) => screen.getByRole('listitem', { name: nome });

describe('Rotas (admin): lista e cartões', () => {
  it('abre com o filtro Ativas e mostra cada dado do cartão da especificação', async () => {
    const api = montar();
    // The first test loads the lazy admin chunk cold: on a busy machine that alone can take more than findBy's 1 s.
    expect(await screen.findByRole('heading', { name: 'Rotas' }, { timeout: 5000 })).toBeInTheDocument();
    const sul = await screen.findByRole('listitem', { name: 'Rota Sul Goiano' });
    expect(screen.queryByText('Rota Antiga')).not.toBeInTheDocument();
    // Every page of the filter (lists are paged on the server; one page of 1,000 holds these).
    expect(consultasDe('/rotas')).toEqual([{ status: 'ativa', page: '1', limit: '1000' }]);
    expect(screen.getByLabelText('Status')).toHaveValue('ativa');
    expect(api.chamadas.filter((c) => c.caminho === '/rotas')).toHaveLength(1);

    const selo = within(sul).getByText('Ativa');
    expect(selo).toHaveClass('selo--verde');
    expect(within(sul).getByText('01/11/2026 a 30/11/2026')).toBeInTheDocument();
    expect(within(sul).getByText(BRUNO.nome)).toBeInTheDocument();
    expect(within(sul).getByText('Não')).toBeInTheDocument();
    expect(within(sul).getByText('R$ 350,50')).toBeInTheDocument();
    expect(within(sul).getByText('R$ 180,00')).toBeInTheDocument();
    expect(within(sul).getByText('Cidades (5)')).toBeInTheDocument();
    for (const nome of ['Goiânia - GO', 'Anápolis - GO', 'Caldas Novas - GO']) expect(within(sul).getByText(nome)).toBeInTheDocument();
    expect(within(sul).queryByText('Catalão - GO')).not.toBeInTheDocument();
    for (const botao of ['Editar Rota Sul Goiano', 'Excluir Rota Sul Goiano', 'Ver despesas de Rota Sul Goiano', 'Cancelar Rota Sul Goiano']) {
      expect(within(sul).getByRole('button', { name: botao })).toBeInTheDocument();
    }

    const triangulo = cartao('Rota Triângulo');
    expect(within(triangulo).getByText('Sônia')).toBeInTheDocument();
    expect(within(triangulo).getByText('R$ 220,00')).toBeInTheDocument();
    expect(within(triangulo).getByText('R$ 0,00')).toBeInTheDocument();
    // Only one city: nothing more to see.
    expect(within(triangulo).queryByRole('button', { name: /Ver todas/ })).not.toBeInTheDocument();

    await userEvent.click(within(sul).getByRole('button', { name: 'Ver todas as 5 cidades de Rota Sul Goiano' }));
    const modal = screen.getByRole('dialog', { name: 'Cidades da Rota' });
    expect(within(modal).getByRole('region', { name: 'Cidades de GO' })).toHaveTextContent('GoiâniaAnápolisCaldas NovasCatalão');
    expect(within(modal).getByRole('region', { name: 'Cidades de MG' })).toHaveTextContent('Uberlândia');
  });

  it('os filtros só valem ao clicar em Filtrar; finalizada tem selo cinza e não tem Cancelar', async () => {
    const api = montar();
    await screen.findByText('Rota Sul Goiano');
    const usuario = userEvent.setup();
    await usuario.selectOptions(screen.getByLabelText('Status'), 'Finalizadas');
    await usuario.selectOptions(screen.getByLabelText('Funcionário'), BRUNO.nome);
    expect(screen.getByText('Rota Sul Goiano')).toBeInTheDocument();
    const antes = api.chamadas.filter((c) => c.caminho === '/rotas').length;
    await usuario.click(screen.getByRole('button', { name: 'Filtrar' }));
    expect(await screen.findByText('Rota Antiga')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Rota Sul Goiano')).not.toBeInTheDocument());
    expect(api.chamadas.filter((c) => c.caminho === '/rotas').length).toBe(antes + 1);
    expect(consultasDe('/rotas').at(-1)).toEqual({ status: 'finalizada', funcionario_id: String(BRUNO.id), page: '1', limit: '1000' });
    const antiga = cartao('Rota Antiga');
    expect(within(antiga).getByText('Finalizada')).toHaveClass('selo--cinza');
    expect(within(antiga).queryByRole('button', { name: /Cancelar/ })).not.toBeInTheDocument();

    await usuario.selectOptions(screen.getByLabelText('Status'), 'Todas');
    await usuario.selectOptions(screen.getByLabelText('Funcionário'), 'Todos');
    await usuario.click(screen.getByRole('button', { name: 'Filtrar' }));
    expect(await screen.findByText('Rota Triângulo')).toBeInTheDocument();
    expect(screen.getByText('Rota Antiga')).toBeInTheDocument();
    expect(consultasDe('/rotas').at(-1)).toEqual({ page: '1', limit: '1000' });
  });

  it('lista vazia: "Nenhuma rota encontrada."', async () => {
    montar({ rotas: [] });
    expect(await screen.findByText('Nenhuma rota encontrada.')).toBeInTheDocument();
  });

  it('falha ao carregar a lista: fica vazia, sem quebrar a tela', async () => {
    montar({ listaFalha: true });
    expect(await screen.findByText('Nenhuma rota encontrada.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Nova Rota' })).toBeEnabled();
  });
});

describe('Rotas (admin): criar e editar', () => {
  // The city search waits for a pause in typing (300 ms) each time: the longer flows get more time on a busy machine.
  it('valida com os textos da especificação antes de enviar', async () => {
    const api = montar();
    const usuario = userEvent.setup();
    await usuario.click(await screen.findByRole('button', { name: 'Nova Rota' }));
    const modal = screen.getByRole('dialog', { name: 'Nova Rota' });
    await usuario.click(within(modal).getByRole('button', { name: 'Criar Rota' }));
    for (const texto of [
      'O nome da rota é obrigatório e deve ter pelo menos 2 caracteres.',
      'Selecione pelo menos um estado para a rota.',
      'Funcionário é obrigatório.',
      'Data de início é obrigatória.',
      'Data de fim é obrigatória.',
      'Selecione pelo menos uma cidade para a rota.',
    ]) {
      expect(within(modal).getByText(texto)).toBeInTheDocument();
    }
    await usuario.type(within(modal).getByLabelText(/Nome da rota/), 'R');
    await usuario.type(within(modal).getByLabelText(/Data de início/), '2026-12-01');
    await usuario.type(within(modal).getByLabelText(/Data de fim/), '2026-11-01');
    await usuario.type(within(modal).getByLabelText(/Valor do aluguel/), '-3');
    await usuario.click(await within(modal).findByRole('checkbox', { name: 'GO' }));
    expect(within(modal).queryByText('Selecione pelo menos um estado para a rota.')).not.toBeInTheDocument();
    await usuario.click(within(modal).getByRole('button', { name: 'Criar Rota' }));
    expect(within(modal).getByText('O nome da rota é obrigatório e deve ter pelo menos 2 caracteres.')).toBeInTheDocument();
    expect(within(modal).getByText('A data de fim não pode ser anterior à data de início.')).toBeInTheDocument();
    expect(within(modal).getByText('Valor do aluguel não pode ser negativo.')).toBeInTheDocument();
    expect(api.chamadas.some((c) => c.metodo === 'POST')).toBe(false);
  });

  it('busca cidades só com estado e 2 letras, uma chamada por estado, sem repetir cidade; desmarcar o estado tira as cidades dele', async () => {
    montar();
    const usuario = userEvent.setup();
    await usuario.click(await screen.findByRole('button', { name: 'Nova Rota' }));
    const modal = screen.getByRole('dialog', { name: 'Nova Rota' });
    const busca = within(modal).getByLabelText('Buscar cidade');
    expect(busca).toBeDisabled();
    await usuario.click(await within(modal).findByRole('checkbox', { name: 'GO' }));
    await usuario.click(within(modal).getByRole('checkbox', { name: 'MG' }));
    await usuario.type(busca, 'u');
    await new Promise((r) => setTimeout(r, 400));
    expect(consultasDe('/cidades/search')).toHaveLength(0); // one letter: no search
    await usuario.type(busca, 'b');
    const encontradas = await within(modal).findByRole('list', { name: 'Cidades encontradas' });
    expect(consultasDe('/cidades/search')).toEqual([
      { q: 'ub', uf: 'GO' },
      { q: 'ub', uf: 'MG' },
    ]);
    expect(within(encontradas).getAllByRole('button').map((b) => b.textContent)).toEqual(['Uberaba (MG)', 'Uberlândia (MG)']);
    await usuario.click(within(encontradas).getByRole('button', { name: 'Adicionar: Uberlândia (MG)' }));
    expect(within(encontradas).getByRole('button', { name: 'Já adicionada: Uberlândia (MG)' })).toBeDisabled();

    await usuario.clear(busca);
    await usuario.type(busca, 'an');
    // 'Goiânia' comes in the answers of both states and is listed once.
    await waitFor(() => expect(within(modal).getAllByRole('button', { name: /Adicionar: Goiânia/ })).toHaveLength(1));
    await usuario.click(within(modal).getByRole('button', { name: 'Adicionar: Goiânia (GO)' }));
    const selecionadas = within(modal).getByRole('region', { name: 'Cidades selecionadas' });
    expect(selecionadas).toHaveTextContent('Cidades da rota * (2)');
    expect(selecionadas).toHaveTextContent('Goiás (GO) · 1');
    expect(selecionadas).toHaveTextContent('Minas Gerais (MG) · 1');

    await usuario.click(within(modal).getByRole('checkbox', { name: 'MG' }));
    expect(selecionadas).toHaveTextContent('Cidades da rota * (1)');
    expect(within(selecionadas).queryByRole('button', { name: 'Remover Uberlândia' })).not.toBeInTheDocument();
    // Only the states still selected are searched.
    await usuario.clear(busca);
    await usuario.type(busca, 'ube');
    expect(await within(modal).findByText('Nenhuma cidade encontrada nos estados selecionados.')).toBeInTheDocument();
    expect(consultasDe('/cidades/search').at(-1)).toEqual({ q: 'ube', uf: 'GO' });
  }, 15_000);

  it('cria a rota: prévia de até 6 cidades (+N), corpo da API e a mensagem de sucesso', async () => {
    const api = montar();
    const usuario = userEvent.setup();
    await usuario.click(await screen.findByRole('button', { name: 'Nova Rota' }));
    const modal = screen.getByRole('dialog', { name: 'Nova Rota' });
    const busca = within(modal).getByLabelText('Buscar cidade');
    await usuario.click(await within(modal).findByRole('checkbox', { name: 'GO' }));
    await usuario.click(within(modal).getByRole('checkbox', { name: 'MG' }));
    for (const [termo, nomes] of [
      ['an', ['Goiânia (GO)', 'Anápolis (GO)']],
      ['ca', ['Caldas Novas (GO)', 'Catalão (GO)']],
      ['ra', ['Itumbiara (GO)', 'Uberaba (MG)']],
      ['verde', ['Rio Verde (GO)']],
      ['uberl', ['Uberlândia (MG)']],
    ] as const) {
      await usuario.clear(busca);
      await usuario.type(busca, termo);
      for (const nome of nomes) await usuario.click(await within(modal).findByRole('button', { name: `Adicionar: ${nome}` }));
    }
    const selecionadas = within(modal).getByRole('region', { name: 'Cidades selecionadas' });
    expect(selecionadas).toHaveTextContent('Cidades da rota * (8)');
    const previa = within(selecionadas).getByLabelText('Prévia das cidades');
    expect(previa.querySelectorAll('.tag')).toHaveLength(7);
    expect(previa).toHaveTextContent('GoiâniaAnápolisCaldas NovasCatalãoItumbiaraUberaba+2');
    await usuario.click(within(selecionadas).getByRole('button', { name: 'Remover Rio Verde' }));
    await usuario.click(within(selecionadas).getByRole('button', { name: 'Remover Uberaba' }));

    await usuario.type(within(modal).getByLabelText(/Nome da rota/), 'Rota Nova');
    await usuario.selectOptions(within(modal).getByLabelText(/Funcionário/), CARLA.nome);
    await usuario.type(within(modal).getByLabelText(/Data de início/), '2026-12-01');
    await usuario.type(within(modal).getByLabelText(/Data de fim/), '2026-12-20');
    await usuario.type(within(modal).getByLabelText(/Valor do aluguel/), '1.250,75');
    await usuario.click(within(modal).getByRole('checkbox', { name: 'Tem secretário' }));
    await usuario.type(within(modal).getByLabelText('Nome do secretário'), 'Sérgio');
    await usuario.click(within(modal).getByRole('button', { name: 'Criar Rota' }));

    expect(await screen.findByText('Rota criada com sucesso!')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(api.chamadas.find((c) => c.metodo === 'POST')?.corpo).toEqual({
      nome: 'Rota Nova',
      funcionario_id: CARLA.id,
      tem_secretario: true,
      secretario_nome: 'Sérgio',
      valor_aluguel: 1250.75,
      data_inicio: '2026-12-01',
      data_fim: '2026-12-20',
      observacoes: '',
      cidades: [5208707, 5201108, 5204508, 5205109, 5211503, 3170206],
    });
    expect(await screen.findByRole('listitem', { name: 'Rota Nova' })).toBeInTheDocument();
  }, 15_000);

  it('edita com os estados das cidades já marcados; erro do servidor aparece no formulário', async () => {
    let recusar = true;
    const api = montar({ salvar: () => (recusar ? { status: 409, corpo: { error: 'Este funcionário já tem uma rota ativa ("Outra"). Finalize ou cancele essa rota antes.', codigo: 'conflito' } } : null) });
    const usuario = userEvent.setup();
    await usuario.click(await screen.findByRole('button', { name: 'Editar Rota Sul Goiano' }));
    const modal = screen.getByRole('dialog', { name: 'Editar Rota' });
    expect(await within(modal).findByRole('checkbox', { name: 'GO' })).toBeChecked();
    expect(within(modal).getByRole('checkbox', { name: 'MG' })).toBeChecked();
    expect(within(modal).getByRole('checkbox', { name: 'SP' })).not.toBeChecked();
    expect(within(modal).getByLabelText(/Nome da rota/)).toHaveValue('Rota Sul Goiano');
    expect(within(modal).getByLabelText(/Valor do aluguel/)).toHaveValue('350,50');
    await waitFor(() => expect(within(modal).getByLabelText(/Funcionário/)).toHaveValue(String(BRUNO.id)));

    const nome = within(modal).getByLabelText(/Nome da rota/);
    await usuario.clear(nome);
    await usuario.type(nome, 'Rota Sul Editada');
    await usuario.selectOptions(within(modal).getByLabelText(/Funcionário/), CARLA.nome);
    await usuario.click(within(modal).getByRole('button', { name: 'Salvar alterações' }));
    expect(await within(modal).findByRole('alert')).toHaveTextContent('Este funcionário já tem uma rota ativa ("Outra"). Finalize ou cancele essa rota antes.');

    recusar = false;
    await usuario.selectOptions(within(modal).getByLabelText(/Funcionário/), BRUNO.nome);
    await usuario.click(within(modal).getByRole('button', { name: 'Salvar alterações' }));
    expect(await screen.findByText('Rota atualizada com sucesso!')).toBeInTheDocument();
    const put = api.chamadas.filter((c) => c.metodo === 'PUT').at(-1)!;
    expect(put.caminho).toBe('/rotas/10');
    expect(put.corpo).toMatchObject({ nome: 'Rota Sul Editada', funcionario_id: BRUNO.id, valor_aluguel: 350.5, cidades: rotaBase().cidades.map((c) => c.id) });
    expect(await screen.findByRole('listitem', { name: 'Rota Sul Editada' })).toBeInTheDocument();
  });

  it.each([
    ['350,50', 350.5],
    ['1.280,50', 1280.5],
    ['1280,5', 1280.5],
    ['350.50', 350.5],
  ])('o aluguel é um campo de texto pt-BR: "%s" é salvo como %d reais', async (digitado, reais) => {
    const api = montar();
    const usuario = userEvent.setup();
    await usuario.click(await screen.findByRole('button', { name: 'Editar Rota Sul Goiano' }));
    const modal = screen.getByRole('dialog', { name: 'Editar Rota' });
    await waitFor(() => expect(within(modal).getByLabelText(/Funcionário/)).toHaveValue(String(BRUNO.id)));
    const aluguel = within(modal).getByLabelText(/Valor do aluguel/);
    expect(aluguel).toHaveAttribute('inputmode', 'decimal');
    expect(aluguel).not.toHaveAttribute('type', 'number');
    await usuario.clear(aluguel);
    await usuario.type(aluguel, digitado);
    await usuario.tab();
    // Read back as pt-BR writes it once the field is left.
    expect(aluguel).toHaveValue(formatarNumero(reais, 2));
    await usuario.click(within(modal).getByRole('button', { name: 'Salvar alterações' }));
    expect(await screen.findByText('Rota atualizada com sucesso!')).toBeInTheDocument();
    expect(api.chamadas.filter((c) => c.metodo === 'PUT').at(-1)!.corpo).toMatchObject({ valor_aluguel: reais });
  });

  it('falha sem mensagem do servidor: "Erro ao salvar rota"', async () => {
    montar({ salvar: () => ({ status: 500 }) });
    const usuario = userEvent.setup();
    await usuario.click(await screen.findByRole('button', { name: 'Editar Rota Sul Goiano' }));
    const modal = screen.getByRole('dialog', { name: 'Editar Rota' });
    await waitFor(() => expect(within(modal).getByLabelText(/Funcionário/)).toHaveValue(String(BRUNO.id)));
    await usuario.click(within(modal).getByRole('button', { name: 'Salvar alterações' }));
    expect(await within(modal).findByRole('alert')).toHaveTextContent('Erro ao salvar rota');
  });

  it('fechar com dados preenchidos pede confirmação (X, Cancelar, Escape); sem dados fecha direto', async () => {
    montar();
    const usuario = userEvent.setup();
    await usuario.click(await screen.findByRole('button', { name: 'Nova Rota' }));
    let modal = screen.getByRole('dialog', { name: 'Nova Rota' });
    await usuario.click(within(modal).getByRole('button', { name: 'Cancelar' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await usuario.click(screen.getByRole('button', { name: 'Nova Rota' }));
    modal = screen.getByRole('dialog', { name: 'Nova Rota' });
    await usuario.type(within(modal).getByLabelText(/Nome da rota/), 'Rascunho');
    await usuario.keyboard('{Escape}');
    const pergunta = screen.getByRole('dialog', { name: 'Fechar sem salvar?' });
    expect(within(pergunta).getByText('Os dados preenchidos serão perdidos. Deseja fechar mesmo assim?')).toBeInTheDocument();
    await usuario.click(within(pergunta).getByRole('button', { name: 'Voltar' }));
    expect(screen.getByRole('dialog', { name: 'Nova Rota' })).toBeInTheDocument();
    expect(within(modal).getByLabelText(/Nome da rota/)).toHaveValue('Rascunho');

    await usuario.click(within(modal).getByRole('button', { name: 'Fechar' }));
    await usuario.click(within(screen.getByRole('dialog', { name: 'Fechar sem salvar?' })).getByRole('button', { name: 'Descartar' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    // Editing without changes closes at once.
    await usuario.click(screen.getByRole('button', { name: 'Editar Rota Sul Goiano' }));
    await usuario.click(within(screen.getByRole('dialog', { name: 'Editar Rota' })).getByRole('button', { name: 'Cancelar' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

describe('Rotas (admin): excluir, cancelar e despesas', () => {
  const casos: [string, RespostaFalsa | undefined, string][] = [
    ['sucesso', undefined, 'Rota excluída com sucesso!'],
    ['404', { status: 404, corpo: { error: 'Rota não encontrada ou já foi excluída.', codigo: 'nao_encontrado' } }, 'Rota não encontrada ou já foi excluída'],
    ['403', { status: 403, corpo: { error: 'Você não tem permissão para excluir esta rota.', codigo: 'sem_permissao' } }, 'Você não tem permissão para excluir esta rota'],
    [
      '409',
      { status: 409, corpo: { error: 'Esta rota tem vendas, despesas ou saldo registrados e não pode ser excluída. Finalize ou cancele a rota.', codigo: 'conflito' } },
      'Esta rota tem vendas, despesas ou saldo registrados e não pode ser excluída. Finalize ou cancele a rota.',
    ],
    ['500', { status: 500, corpo: { error: 'Erro interno do servidor. Tente novamente.', codigo: 'erro_interno' } }, 'Erro ao excluir rota. Tente novamente.'],
  ];
  for (const [caso, resposta, mensagem] of casos) {
    it(`excluir depois de confirmar: ${caso} mostra "${mensagem}"`, async () => {
      const api = montar({ excluir: () => resposta ?? null });
      const usuario = userEvent.setup();
      await usuario.click(await screen.findByRole('button', { name: 'Excluir Rota Sul Goiano' }));
      const pergunta = screen.getByRole('dialog', { name: 'Excluir rota' });
      expect(pergunta).toHaveTextContent('Excluir a rota "Rota Sul Goiano"? Essa ação não pode ser desfeita.');
      await usuario.click(within(pergunta).getByRole('button', { name: 'Excluir' }));
      expect(await screen.findByText(mensagem)).toBeInTheDocument();
      expect(api.chamadas.filter((c) => c.metodo === 'DELETE').map((c) => c.caminho)).toEqual(['/rotas/10']);
      if (caso === 'sucesso') await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Rota Sul Goiano' })).not.toBeInTheDocument());
    });
  }

  it('rota finalizada não oferece Excluir (é o histórico do funcionário); ativa e cancelada oferecem', async () => {
    montar({ rotas: [rotaBase(), rotaBase({ id: 12, nome: 'Rota Antiga', status: 'finalizada' }), rotaBase({ id: 13, nome: 'Rota Cancelada', status: 'cancelada' })] });
    const usuario = userEvent.setup();
    await screen.findByText('Rota Sul Goiano');
    await usuario.selectOptions(screen.getByLabelText('Status'), 'Todas');
    await usuario.click(screen.getByRole('button', { name: 'Filtrar' }));
    const antiga = await screen.findByRole('listitem', { name: 'Rota Antiga' });
    expect(within(antiga).queryByRole('button', { name: /Excluir/ })).not.toBeInTheDocument();
    expect(within(antiga).getByRole('button', { name: 'Editar Rota Antiga' })).toBeInTheDocument();
    expect(within(cartao('Rota Sul Goiano')).getByRole('button', { name: 'Excluir Rota Sul Goiano' })).toBeInTheDocument();
    expect(within(cartao('Rota Cancelada')).getByRole('button', { name: 'Excluir Rota Cancelada' })).toBeInTheDocument();
  });

  it('"Cancelar" na confirmação não exclui', async () => {
    const api = montar();
    const usuario = userEvent.setup();
    await usuario.click(await screen.findByRole('button', { name: 'Excluir Rota Sul Goiano' }));
    await usuario.click(within(screen.getByRole('dialog', { name: 'Excluir rota' })).getByRole('button', { name: 'Cancelar' }));
    expect(api.chamadas.some((c) => c.metodo === 'DELETE')).toBe(false);
  });

  it('cancelar rota ativa pede confirmação e a rota sai das ativas', async () => {
    const api = montar();
    const usuario = userEvent.setup();
    await usuario.click(await screen.findByRole('button', { name: 'Cancelar Rota Sul Goiano' }));
    const pergunta = screen.getByRole('dialog', { name: 'Cancelar rota' });
    expect(pergunta).toHaveTextContent('Cancelar a rota "Rota Sul Goiano"? Ela deixa de aceitar registros de depois de hoje');
    await usuario.click(within(pergunta).getByRole('button', { name: 'Cancelar rota' }));
    expect(await screen.findByText('Rota cancelada com sucesso!')).toBeInTheDocument();
    expect(api.chamadas.find((c) => c.metodo === 'PATCH')?.caminho).toBe('/rotas/10/cancelar');
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Rota Sul Goiano' })).not.toBeInTheDocument());
  });

  it('o cartão de uma rota cancelada tem Reabrir (e não Cancelar rota); as ativas e finalizadas não têm', async () => {
    montar({ rotas: [rotaBase(), rotaBase({ id: 12, nome: 'Rota Antiga', status: 'finalizada' }), rotaBase({ id: 13, nome: 'Rota Cancelada', status: 'cancelada' })] });
    const usuario = userEvent.setup();
    await screen.findByText('Rota Sul Goiano');
    expect(within(cartao('Rota Sul Goiano')).queryByRole('button', { name: /Reabrir/ })).not.toBeInTheDocument();
    await usuario.selectOptions(screen.getByLabelText('Status'), 'Todas');
    await usuario.click(screen.getByRole('button', { name: 'Filtrar' }));
    const cancelada = await screen.findByRole('listitem', { name: 'Rota Cancelada' });
    expect(within(cancelada).getByText('Cancelada')).toHaveClass('selo--cinza');
    expect(within(cancelada).getByRole('button', { name: 'Reabrir Rota Cancelada' })).toHaveTextContent('Reabrir');
    expect(within(cancelada).queryByRole('button', { name: /^Cancelar/ })).not.toBeInTheDocument();
    expect(within(cartao('Rota Antiga')).queryByRole('button', { name: /Reabrir/ })).not.toBeInTheDocument();
    expect(within(cartao('Rota Sul Goiano')).queryByRole('button', { name: /Reabrir/ })).not.toBeInTheDocument();
  });

  it('reabrir rota cancelada pede confirmação; confirmada, a rota sai das canceladas; "Voltar" não reabre', async () => {
    const api = montar({ rotas: [rotaBase({ id: 13, nome: 'Rota Cancelada', status: 'cancelada' })] });
    const usuario = userEvent.setup();
    await usuario.selectOptions(await screen.findByLabelText('Status'), 'Canceladas');
    await usuario.click(screen.getByRole('button', { name: 'Filtrar' }));
    await usuario.click(await screen.findByRole('button', { name: 'Reabrir Rota Cancelada' }));
    let pergunta = screen.getByRole('dialog', { name: 'Reabrir rota' });
    expect(pergunta).toHaveTextContent(`Reabrir a rota "Rota Cancelada"? Ela volta a ficar ativa para ${BRUNO.nome} e aceita de novo vendas, visitas e despesas.`);
    await usuario.click(within(pergunta).getByRole('button', { name: 'Voltar' }));
    expect(screen.queryByRole('dialog', { name: 'Reabrir rota' })).not.toBeInTheDocument();
    expect(api.chamadas.some((c) => c.metodo === 'PATCH')).toBe(false);

    await usuario.click(screen.getByRole('button', { name: 'Reabrir Rota Cancelada' }));
    pergunta = screen.getByRole('dialog', { name: 'Reabrir rota' });
    await usuario.click(within(pergunta).getByRole('button', { name: 'Reabrir rota' }));
    expect(await screen.findByText('Rota reaberta com sucesso!')).toBeInTheDocument();
    expect(api.chamadas.filter((c) => c.metodo === 'PATCH').map((c) => c.caminho)).toEqual(['/rotas/13/reabrir']);
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Rota Cancelada' })).not.toBeInTheDocument());
  });

  it('reabrir recusado pelo servidor (o funcionário já tem outra rota ativa) mostra a mensagem dele e a rota continua cancelada', async () => {
    const mensagem = 'Este funcionário já tem uma rota ativa ("Rota Nova"). Finalize ou cancele essa rota antes.';
    montar({ rotas: [rotaBase({ id: 13, nome: 'Rota Cancelada', status: 'cancelada' })], reabrir: () => ({ status: 409, corpo: { error: mensagem, codigo: 'conflito' } }) });
    const usuario = userEvent.setup();
    await usuario.selectOptions(await screen.findByLabelText('Status'), 'Canceladas');
    await usuario.click(screen.getByRole('button', { name: 'Filtrar' }));
    await usuario.click(await screen.findByRole('button', { name: 'Reabrir Rota Cancelada' }));
    await usuario.click(within(screen.getByRole('dialog', { name: 'Reabrir rota' })).getByRole('button', { name: 'Reabrir rota' }));
    expect(await screen.findByText(mensagem)).toBeInTheDocument();
    expect(screen.getByRole('listitem', { name: 'Rota Cancelada' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Reabrir rota' })).not.toBeInTheDocument();
  });

  it('Ver despesas: a tabela da especificação, com o cupom e o motivo da rejeição', async () => {
    montar({
      despesas: () => ({
        corpo: {
          despesas: [
            {
              id: 'd1',
              data_despesa: '2026-11-03',
              funcionario_nome: BRUNO.nome,
              cidade_nome: 'Goiânia',
              cidade_uf: 'GO',
              tipo: 'alimentacao',
              tipo_outro: null,
              valor: 45.9,
              status_aprovacao: 'aprovada',
              motivo_rejeicao: null,
              descricao: 'Almoço',
              cupom_url: '/api/despesas/d1/cupom',
            },
            {
              id: 'd2',
              data_despesa: '2026-11-04',
              funcionario_nome: BRUNO.nome,
              cidade_nome: 'Anápolis',
              cidade_uf: 'GO',
              tipo: 'outro',
              tipo_outro: 'Estacionamento',
              valor: 0.1,
              status_aprovacao: 'rejeitada',
              motivo_rejeicao: 'Sem nota',
              descricao: '',
              cupom_url: null,
            },
          ],
        },
      }),
    });
    const usuario = userEvent.setup();
    await usuario.click(await screen.findByRole('button', { name: 'Ver despesas de Rota Sul Goiano' }));
    const modal = screen.getByRole('dialog', { name: 'Despesas da Rota' });
    expect(await within(modal).findByText('Almoço')).toBeInTheDocument();
    for (const coluna of ['Data', 'Funcionário', 'Cidade', 'Tipo', 'Valor', 'Status', 'Descrição', 'Cupom Fiscal']) {
      expect(within(modal).getByRole('columnheader', { name: coluna })).toBeInTheDocument();
    }
    const almoco = within(modal).getByText('Almoço').closest('tr')!;
    expect(within(almoco).getByText('03/11/2026')).toBeInTheDocument();
    expect(within(almoco).getByText('Goiânia (GO)')).toBeInTheDocument();
    expect(within(almoco).getByText('Alimentação')).toBeInTheDocument();
    expect(within(almoco).getByText('R$ 45,90')).toBeInTheDocument();
    expect(within(almoco).getByText('Aprovada')).toHaveClass('selo--verde');
    expect(within(almoco).getByRole('link', { name: 'Ver Cupom' })).toHaveAttribute('href', '/api/despesas/d1/cupom');
    const estacionamento = within(modal).getByText('Estacionamento').closest('tr')!;
    expect(within(estacionamento).getByText('Rejeitada')).toHaveAttribute('title', 'Motivo: Sem nota');
    expect(within(estacionamento).queryByRole('link')).not.toBeInTheDocument();
    expect(modal).toHaveTextContent('Rota Sul Goiano · 2 despesas · Total R$ 46,00');
  });

  it('Ver despesas: uma refeição de um dia acima do limite diário leva o selo com o limite da rota', async () => {
    const linha = { data_despesa: '2026-11-03', funcionario_nome: BRUNO.nome, cidade_nome: 'Goiânia', cidade_uf: 'GO', tipo: 'alimentacao', tipo_outro: null, status_aprovacao: 'pendente', motivo_rejeicao: null, cupom_url: null };
    montar({
      despesas: () => ({
        corpo: {
          despesas: [
            { ...linha, id: 'd1', valor: 150, descricao: 'Jantar', acima_do_limite: true, limite_diario: 180 },
            { ...linha, id: 'd2', valor: 40, descricao: 'Lanche', data_despesa: '2026-11-04', acima_do_limite: false, limite_diario: 180 },
          ],
        },
      }),
    });
    const usuario = userEvent.setup();
    await usuario.click(await screen.findByRole('button', { name: 'Ver despesas de Rota Sul Goiano' }));
    const modal = screen.getByRole('dialog', { name: 'Despesas da Rota' });
    expect(within((await within(modal).findByText('Jantar')).closest('tr')!).getByText('Acima do limite diário (R$ 180,00)')).toHaveClass('selo--laranja');
    expect(within(within(modal).getByText('Lanche').closest('tr')!).queryByText(/Acima do limite/)).not.toBeInTheDocument();
  });

  it('Ver despesas: a consulta pede rota_id, limit=100 e page=1; falha ou nenhuma despesa mostram o texto vazio', async () => {
    const pedidas: URLSearchParams[] = [];
    montar({
      despesas: (_c, url) => {
        pedidas.push(url.searchParams);
        return pedidas.length === 1 ? { status: 500, corpo: { error: 'Erro interno do servidor. Tente novamente.', codigo: 'erro_interno' } } : { corpo: { despesas: [] } };
      },
    });
    const usuario = userEvent.setup();
    await usuario.click(await screen.findByRole('button', { name: 'Ver despesas de Rota Sul Goiano' }));
    expect(await screen.findByText('Nenhuma despesa registrada nesta rota.')).toBeInTheDocument();
    expect(Object.fromEntries(pedidas[0]!)).toEqual({ rota_id: '10', limit: '100', page: '1' });
    await usuario.click(within(screen.getByRole('dialog')).getAllByRole('button', { name: 'Fechar' })[0]!);
    await usuario.click(screen.getByRole('button', { name: 'Ver despesas de Rota Triângulo' }));
    expect(await screen.findByText('Nenhuma despesa registrada nesta rota.')).toBeInTheDocument();
    expect(Object.fromEntries(pedidas[1]!)).toEqual({ rota_id: '11', limit: '100', page: '1' });
  });

  it('no celular (390 px) os cartões e a tabela de despesas viram cartões empilhados', async () => {
    definirLarguraDaJanela(390);
    montar({
      despesas: () => ({
        corpo: {
          despesas: [
            { id: 'd1', data_despesa: '2026-11-03', funcionario_nome: BRUNO.nome, cidade_nome: 'Goiânia', cidade_uf: 'GO', tipo: 'pedagio', tipo_outro: null, valor: 12, status_aprovacao: 'pendente', motivo_rejeicao: null, descricao: 'Pedágio BR', cupom_url: null },
          ],
        },
      }),
    });
    const usuario = userEvent.setup();
    await usuario.click(await screen.findByRole('button', { name: 'Ver despesas de Rota Sul Goiano' }));
    const modal = screen.getByRole('dialog', { name: 'Despesas da Rota' });
    expect(await within(modal).findByText('03/11/2026 · Pedágio')).toBeInTheDocument();
    expect(within(modal).queryByRole('table')).not.toBeInTheDocument();
    expect(within(modal).getByText('Pendente')).toHaveClass('selo--amarelo');
  });
});
