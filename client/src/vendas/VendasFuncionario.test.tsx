import { QueryClient } from '@tanstack/react-query';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Rota } from '../../../shared/schemas/rotas';
import type { VendaHistorico, VendaListada } from '../../../shared/schemas/vendas';
import { lerCopiasDeAbertura } from '../app/copiasDeAbertura';
import { criarQueryClient } from '../app/Provedores';
import { hojeNoApp } from '../config/configApp';
import { motorSync } from '../offline';
import { bancoLocal } from '../offline/db';
import { descartarItem } from '../offline/outbox';
import { definirLarguraDaJanela } from '../test/janela';
import { anotarLeiturasDeValores } from '../test/leiturasDoBanco';
import type { EntradaCache } from '../offline/db';
import { ADMIN_TESTE, entrarComo, FUNCIONARIO_TESTE, renderizarApp, simularApi, type ManipuladorApi, type RespostaFalsa } from '../test/renderizar';
import { rotaDeTeste } from '../test/rotas';
import { PaginaVendas } from './PaginaVendas';
import { MENSAGEM_SUCESSO } from './VendasFuncionario';
import './operacoes';
import { enfileirarVenda } from './operacoes';

const HOJE = hojeNoApp();
const CIDADES = [
  { id: 5208707, nome: 'Goiânia', uf: 'GO' },
  { id: 5201108, nome: 'Anápolis', uf: 'GO' },
  { id: 5204508, nome: 'Caldas Novas', uf: 'GO' },
];

function rota(cidades = CIDADES): Rota {
  return rotaDeTeste({ data_inicio: '2026-01-01', data_fim: '2026-12-31', cidades, criado_em: '2026-01-01T00:00:00.000Z' });
}

interface Servidor {
  rota: Rota | null;
  vendas: VendaListada[];
  visitas: { cidade_id: number; data: string }[];
  historico: VendaHistorico[];
  offline: boolean;
  /** Online, but the server's answers never arrive (a 3G link at its worst): every GET hangs. */
  semResposta?: boolean;
}

/** Every GET hangs while `s.semResposta` (the screen must not wait for them). */
function pendurarLeituras(s: Servidor, manipuladores: Record<string, ManipuladorApi>): Record<string, ManipuladorApi> {
  return Object.fromEntries(
    Object.entries(manipuladores).map(([rota, m]) => [rota, rota.startsWith('GET ') ? (c, url) => (s.semResposta ? new Promise<RespostaFalsa>(() => undefined) : m(c, url)) : m]),
  );
}

function montar(servidor: Partial<Servidor> = {}, em = '/vendas', queryClient?: QueryClient) {
  const s: Servidor = { rota: rota(), vendas: [], visitas: [], historico: [], offline: false, ...servidor };
  entrarComo(FUNCIONARIO_TESTE);
  const seOnline = (f: () => RespostaFalsa) => () => (s.offline ? 'offline' : f());
  const api = simularApi(pendurarLeituras(s, {
    'GET /auth/me': seOnline(() => ({ corpo: { usuario: FUNCIONARIO_TESTE } })),
    'GET /rotas/ativas/funcionario': seOnline(() => ({ corpo: { rotas: s.rota ? [s.rota] : [] } })),
    'GET /rotas/:id/cidades-status': (_c, url) => {
      if (s.offline) return 'offline';
      const data = url.searchParams.get('data');
      return {
        corpo: {
          data,
          cidades: s.rota!.cidades.map((c, i) => {
            const venda = s.vendas.find((v) => v.cidade_id === c.id && v.data_venda === data);
            const visitada = !!venda || s.visitas.some((v) => v.cidade_id === c.id && v.data === data);
            return { cidade_id: c.id, cidade_nome: c.nome, uf: c.uf, rota_id: 7, rota_cidade_id: i + 1, fechada: venda ? 1 : 0, visitada, venda_id: venda?.id ?? null };
          }),
        },
      };
    },
    'GET /vendas/fechamento-diario': (_c, url) => {
      if (s.offline) return 'offline';
      const vendas = s.vendas.filter((v) => v.data_venda === url.searchParams.get('data'));
      return { corpo: { totais: { dinheiro: 0, pix: 0, cartao: 0, link: 0, boletos: 0, total_geral: 0 }, vendas } };
    },
    'GET /vendas/rota/:id/historico': seOnline(() => ({ corpo: { historico: s.historico } })),
    'POST /vendas': (corpo) => {
      if (s.offline) return 'offline';
      const c = corpo as Omit<VendaListada, 'funcionario_id'>;
      const cidade = CIDADES.find((x) => x.id === c.cidade_id)!;
      const agora = new Date().toISOString();
      const venda: VendaListada = {
        ...c,
        funcionario_id: FUNCIONARIO_TESTE.id,
        funcionario_nome: FUNCIONARIO_TESTE.nome,
        rota_nome: 'Rota Sul Goiano',
        rota_status: 'ativa',
        cidade_nome: cidade.nome,
        cidade_uf: cidade.uf,
        total_vendas: (Math.round(c.valor_dinheiro * 100) + Math.round(c.valor_pix * 100) + Math.round(c.valor_cartao * 100) + Math.round(c.valor_link * 100)) / 100,
        recebido_em: agora,
        atualizado_em: agora,
      };
      s.vendas = [...s.vendas.filter((v) => !(v.cidade_id === c.cidade_id && v.data_venda === c.data_venda)), venda];
      return { status: 201, corpo: { venda } };
    },
    'POST /rotas/:rota/cidades/:cidade/desfazer-visita': (corpo, url) => {
      if (s.offline) return 'offline';
      const cidadeId = Number(url.pathname.split('/')[5]);
      const { data } = corpo as { data: string };
      const antes = s.visitas.length;
      s.visitas = s.visitas.filter((v) => !(v.cidade_id === cidadeId && v.data === data));
      return { corpo: { removida: s.visitas.length < antes } };
    },
    'POST /rotas/:rota/cidades/:cidade/visitar': (corpo, url) => {
      if (s.offline) return 'offline';
      const cidadeId = Number(url.pathname.split('/')[5]);
      const { data } = corpo as { data: string };
      s.visitas.push({ cidade_id: cidadeId, data });
      return { corpo: { visita: { id: 'v', rota_id: 7, cidade_id: cidadeId, data, recebido_em: new Date().toISOString() } } };
    },
  }));
  const tela = renderizarApp(
    [
      { path: '/vendas', element: <PaginaVendas /> },
      { path: '/dashboard', element: <p>Painel</p> },
    ],
    { em, ...(queryClient ? { queryClient } : {}) },
  );
  return { api, s, tela };
}


const cartao = (nome: string) => screen.getByRole('listitem', { name: new RegExp(`^${nome} \\(`) });

async function editar(nome: string, valores: Partial<Record<'Dinheiro' | 'Pix' | 'Cartão' | 'Link' | 'Boletos' | 'Observações', string>>) {
  const usuario = userEvent.setup();
  await usuario.click(within(cartao(nome)).getByRole('button', { name: `Editar ${nome}` }));
  const form = within(cartao(nome)).getByRole('form', { name: `Fechamento de ${nome}` });
  for (const [rotulo, valor] of Object.entries(valores)) {
    const campo = within(form).getByLabelText(rotulo);
    await usuario.clear(campo);
    await usuario.type(campo, valor);
  }
  return { usuario, form };
}

beforeEach(async () => {
  await Promise.all(bancoLocal.tables.map((t) => t.clear()));
});
afterEach(() => {
  motorSync.parar();
  definirConexao(true, { avisar: false });
});

/** The browser's view of the connection (navigator.onLine and its events), as a phone losing and finding signal. */
function definirConexao(online: boolean, { avisar = true } = {}) {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
  if (avisar) window.dispatchEvent(new Event(online ? 'online' : 'offline'));
}

/** As the app's own client (app/Provedores.tsx): answers stay fresh for 30 s. */
const clienteComoOApp = () => new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 30_000 }, mutations: { retry: false } } });

const MENSAGEM_OFFLINE = /^Fechamento guardado neste aparelho; será enviado quando houver sinal\.$/;

describe('Registro Diário de Vendas (funcionário)', () => {
  it('mostra a data de hoje, a busca, as abas com contagem e as cidades da rota ativa', async () => {
    montar({ visitas: [{ cidade_id: 5201108, data: HOJE }] });
    expect(await screen.findByRole('heading', { name: 'Registro Diário de Vendas' })).toBeInTheDocument();
    expect(await screen.findByText('Goiânia')).toBeInTheDocument();
    expect(screen.getByLabelText('Data')).toHaveValue(HOJE);
    // From the route's first day (the server refuses earlier sales) up to today. Created at
    // 2026-01-01T00:00Z, which in São Paulo is still 31/12: that day comes before data_inicio.
    expect(screen.getByLabelText('Data')).toHaveAttribute('min', '2025-12-31');
    expect(screen.getByLabelText('Data')).toHaveAttribute('max', HOJE);
    expect(screen.getByPlaceholderText('Buscar cidade...')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Em aberto (2)' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'Fechadas (1)' })).toBeInTheDocument();
    expect(within(cartao('Caldas Novas')).getByText('GO')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('tab', { name: 'Fechadas (1)' }));
    expect(within(cartao('Anápolis')).getByText('Visitada (sem venda)')).toBeInTheDocument();
    await userEvent.click(within(cartao('Anápolis')).getByRole('button', { name: 'Mostrar detalhes de Anápolis' }));
    expect(within(cartao('Anápolis')).getByText('Histórico de vendas')).toBeInTheDocument();
    expect(within(cartao('Anápolis')).getByText('Sem vendas registradas')).toBeInTheDocument();
  });

  it('sem cidades fechadas, a aba Fechadas diz que não há nenhuma', async () => {
    montar();
    await screen.findByText('Goiânia');
    await userEvent.click(screen.getByRole('tab', { name: 'Fechadas (0)' }));
    expect(screen.getByText('No momento não há cidades com fechamento ou visitadas.')).toBeInTheDocument();
  });

  it('salvar um fechamento: aparece na hora em Fechadas e chega ao servidor pela fila, com os valores em reais', async () => {
    const { api, s } = montar();
    await screen.findByText('Goiânia');
    const { usuario, form } = await editar('Goiânia', { Dinheiro: '100,50', Pix: '0,10', Cartão: '0,20', Boletos: '2', Observações: 'Feira' });
    expect(within(form).getByText('R$ 100,80')).toBeInTheDocument();
    await usuario.click(within(form).getByRole('button', { name: 'Salvar' }));

    expect(await screen.findByText('Fechamento realizado com sucesso!')).toBeInTheDocument();
    expect(await screen.findByRole('tab', { name: 'Fechadas (1)' })).toBeInTheDocument();
    await waitFor(() => expect(s.vendas).toHaveLength(1));
    const post = api.chamadas.find((c) => c.metodo === 'POST' && c.caminho === '/vendas')!;
    expect(post.corpo).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7/),
      rota_id: 7,
      cidade_id: 5208707,
      data_venda: HOJE,
      valor_dinheiro: 100.5,
      valor_pix: 0.1,
      valor_cartao: 0.2,
      valor_link: 0,
      valor_boletos: 2,
      observacoes: 'Feira',
      registrado_em: expect.any(String),
    });
    await usuario.click(await screen.findByRole('tab', { name: 'Fechadas (1)' }));
    const goiania = cartao('Goiânia');
    expect(within(goiania).getByText('Fechada · R$ 100,80')).toBeInTheDocument();
    expect(await within(goiania).findByText(/Recebido pelo servidor às \d\d:\d\d/)).toBeInTheDocument();
    await usuario.click(within(goiania).getByRole('button', { name: 'Mostrar detalhes de Goiânia' }));
    expect(within(goiania).getByText('Feira')).toBeInTheDocument();
    expect(within(goiania).getByText('R$ 100,50')).toBeInTheDocument();
  });

  it('salvar tudo em branco só marca a visita: "Visitada (sem venda)", sem venda enviada', async () => {
    const { api, s } = montar();
    await screen.findByText('Caldas Novas');
    const { usuario, form } = await editar('Caldas Novas', {});
    await usuario.click(within(form).getByRole('button', { name: 'Salvar' }));
    await usuario.click(await screen.findByRole('tab', { name: 'Fechadas (1)' }));
    expect(within(cartao('Caldas Novas')).getByText('Visitada (sem venda)')).toBeInTheDocument();
    await waitFor(() => expect(s.visitas).toEqual([{ cidade_id: 5204508, data: HOJE }]));
    expect(api.chamadas.some((c) => c.caminho === '/vendas' && c.metodo === 'POST')).toBe(false);
  });

  it('editar um fechamento reaproveita o id da venda da cidade no dia', async () => {
    const { api } = montar();
    await screen.findByText('Anápolis');
    let passo = await editar('Anápolis', { Dinheiro: '50' });
    await passo.usuario.click(within(passo.form).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(api.chamadas.filter((c) => c.caminho === '/vendas')).toHaveLength(1));
    // The sale may reach the server before the tabs redraw: wait for the count, not for the request.
    await passo.usuario.click(await screen.findByRole('tab', { name: 'Fechadas (1)' }));
    passo = await editar('Anápolis', { Dinheiro: '75,25' });
    expect(within(passo.form).getByLabelText('Dinheiro')).toHaveValue('75,25');
    await passo.usuario.click(within(passo.form).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(api.chamadas.filter((c) => c.caminho === '/vendas')).toHaveLength(2));
    const [primeira, segunda] = api.chamadas.filter((c) => c.caminho === '/vendas').map((c) => c.corpo as { id: string; valor_dinheiro: number });
    expect(segunda!.id).toBe(primeira!.id);
    expect(segunda!.valor_dinheiro).toBe(75.25);
  });

  it('valores inválidos mostram o erro no campo e nada é guardado', async () => {
    const { api } = montar();
    await screen.findByText('Goiânia');
    const { usuario, form } = await editar('Goiânia', { Dinheiro: '-5', Boletos: '1.5' });
    await usuario.click(within(form).getByRole('button', { name: 'Salvar' }));
    expect(within(form).getByText('Dinheiro não pode ser negativo.')).toBeInTheDocument();
    expect(within(form).getByText('Boletos deve ser um número inteiro.')).toBeInTheDocument();
    expect(await bancoLocal.outbox.count()).toBe(0);
    expect(api.chamadas.some((c) => c.metodo === 'POST')).toBe(false);
  });

  it('a verificação recusada leva o foco ao primeiro campo recusado; Cancelar sem nada digitado fecha sem perguntar', async () => {
    montar();
    await screen.findByText('Goiânia');
    const { usuario, form } = await editar('Goiânia', { Dinheiro: '10', Pix: '-3', Boletos: '1.5' });
    await usuario.click(within(form).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(within(form).getByLabelText('Pix')).toHaveFocus());

    await usuario.click(within(cartao('Anápolis')).getByRole('button', { name: 'Editar Anápolis' }));
    const outro = within(cartao('Anápolis')).getByRole('form', { name: 'Fechamento de Anápolis' });
    await usuario.click(within(outro).getByRole('button', { name: 'Cancelar' }));
    expect(within(cartao('Anápolis')).queryByRole('form')).toBeNull();
    expect(screen.queryByRole('dialog', { name: 'Fechar sem salvar?' })).toBeNull();
  });

  it('sem conexão o fechamento aparece na hora, "Aguardando envio", e fica na fila', async () => {
    const { s } = montar();
    await screen.findByText('Goiânia');
    s.offline = true;
    const { usuario, form } = await editar('Goiânia', { Pix: '30' });
    await usuario.click(within(form).getByRole('button', { name: 'Salvar' }));
    await usuario.click(await screen.findByRole('tab', { name: 'Fechadas (1)' }));
    expect(within(cartao('Goiânia')).getByText('Fechada · R$ 30,00')).toBeInTheDocument();
    expect(within(cartao('Goiânia')).getByText('Aguardando envio')).toBeInTheDocument();
    await waitFor(async () => expect((await bancoLocal.outbox.toArray()).map((i) => i.tipo)).toEqual(['venda.salvar']));
    expect(s.vendas).toEqual([]);
  });

  it('uma recusa do servidor aparece no cartão; descartada, a cidade volta a ficar em aberto', async () => {
    montar();
    await screen.findByText('Goiânia');
    simularApi({
      'GET /auth/me': () => ({ corpo: { usuario: FUNCIONARIO_TESTE } }),
      'POST /vendas': () => ({ status: 409, corpo: { error: 'Esta rota já foi finalizada e não aceita novos registros.', codigo: 'conflito' } }),
    });
    const { usuario, form } = await editar('Goiânia', { Dinheiro: '10' });
    await usuario.click(within(form).getByRole('button', { name: 'Salvar' }));
    // The notice says the server's reason, never that the closing was received.
    expect(await screen.findByText('Esta rota já foi finalizada e não aceita novos registros.')).toBeInTheDocument();
    expect(screen.queryByText(MENSAGEM_SUCESSO)).toBeNull();
    await usuario.click(await screen.findByRole('tab', { name: 'Fechadas (1)' }));
    expect(await within(cartao('Goiânia')).findByText(/Precisa de atenção: Esta rota já foi finalizada/)).toBeInTheDocument();
    const [item] = await bancoLocal.outbox.toArray();
    await descartarItem(bancoLocal, item!.id);
    expect(await screen.findByText('No momento não há cidades com fechamento ou visitadas.')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Em aberto (3)' })).toBeInTheDocument();
  });

  it('o que está sendo digitado sobrevive à página ser descarregada (rascunho) e some ao salvar', async () => {
    const { tela } = montar();
    await screen.findByText('Goiânia');
    await editar('Goiânia', { Dinheiro: '123,45', Observações: 'Escola do centro' });
    await waitFor(async () => expect(await bancoLocal.rascunhos.count()).toBe(1));
    tela.unmount(); // Android unloads the page while the person checks an amount elsewhere

    montar();
    const form = await screen.findByRole('form', { name: 'Fechamento de Goiânia' });
    expect(within(form).getByLabelText('Dinheiro')).toHaveValue('123,45');
    expect(within(form).getByLabelText('Observações')).toHaveValue('Escola do centro');
    await userEvent.click(within(form).getByRole('button', { name: 'Salvar' }));
    await waitFor(async () => expect(await bancoLocal.rascunhos.count()).toBe(0));
  });

  it('"Editar" de um fechamento recusado abre a cidade com os valores, e salvar corrige o mesmo item na fila', async () => {
    const { s } = montar();
    await screen.findByText('Goiânia');
    simularApi({
      'GET /auth/me': () => ({ corpo: { usuario: FUNCIONARIO_TESTE } }),
      'POST /vendas': () => ({ status: 409, corpo: { error: 'Esta rota já foi finalizada e não aceita novos registros.', codigo: 'conflito' } }),
    });
    const { usuario, form } = await editar('Goiânia', { Dinheiro: '10' });
    await usuario.click(within(form).getByRole('button', { name: 'Salvar' }));
    await waitFor(async () => expect((await bancoLocal.outbox.toArray())[0]?.estado).toBe('erro'));
    const [recusado] = await bancoLocal.outbox.toArray();

    // What the sync panel's 'Editar' opens.
    cleanup();
    s.offline = true; // keep the corrected item in the queue to look at it
    montar({ offline: true }, `/vendas?data=${HOJE}&cidade=5208707`);
    const aberto = await screen.findByRole('form', { name: 'Fechamento de Goiânia' });
    expect(within(aberto).getByLabelText('Dinheiro')).toHaveValue('10,00');
    await userEvent.clear(within(aberto).getByLabelText('Dinheiro'));
    await userEvent.type(within(aberto).getByLabelText('Dinheiro'), '20');
    await userEvent.click(within(aberto).getByRole('button', { name: 'Salvar' }));
    await waitFor(async () => expect((await bancoLocal.outbox.toArray())[0]?.estado).toBe('pendente'));
    const itens = await bancoLocal.outbox.toArray();
    expect(itens).toHaveLength(1);
    expect(itens[0]).toMatchObject({ id: recusado!.id, estado: 'pendente', dados: expect.objectContaining({ valor_dinheiro: 2000 }) });
  });

  it('abre sem conexão com o que ficou guardada da última visita online, com a fila por cima', async () => {
    const primeira = montar({ historico: [{ id: 'h', cidade_id: 5208707, data_venda: '2026-01-10', total_vendas: 42, valor_boletos: 0, registrado_em: '2026-01-10T12:00:00.000Z' }] });
    await screen.findByText('Goiânia');
    await waitFor(async () => expect(await bancoLocal.cache.count()).toBe(3));
    primeira.tela.unmount();

    const { s } = montar({ offline: true });
    s.offline = true;
    expect(await screen.findByText('Goiânia')).toBeInTheDocument();
    expect(await screen.findByText(/Sem conexão: dados guardados neste aparelho em/)).toBeInTheDocument();
    await userEvent.click(within(cartao('Goiânia')).getByRole('button', { name: 'Mostrar detalhes de Goiânia' }));
    expect(within(cartao('Goiânia')).getByText('R$ 42,00')).toBeInTheDocument();
    expect(within(cartao('Goiânia')).getByText('10/01/2026')).toBeInTheDocument();
  });

  it('visita repetida com internet: mostra a cópia do aparelho na hora, sem esperar o servidor que não responde, e diz que está atualizando', async () => {
    const primeira = montar({ historico: [{ id: 'h', cidade_id: 5208707, data_venda: '2026-01-10', total_vendas: 42, valor_boletos: 0, registrado_em: '2026-01-10T12:00:00.000Z' }] });
    await screen.findByText('Goiânia');
    await waitFor(async () => expect(await bancoLocal.cache.count()).toBe(3));
    primeira.tela.unmount();

    // The browser says online, the requests leave, and no answer ever comes back.
    const { api } = montar({ semResposta: true });
    expect(await screen.findByText('Goiânia')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Em aberto (3)' })).toBeInTheDocument();
    expect(screen.getByText(/^Dados guardados neste aparelho em .*; atualizando\.\.\.$/)).toBeInTheDocument();
    expect(screen.queryByText(/Sem conexão/)).not.toBeInTheDocument();
    await userEvent.click(within(cartao('Goiânia')).getByRole('button', { name: 'Mostrar detalhes de Goiânia' }));
    expect(within(cartao('Goiânia')).getByText('R$ 42,00')).toBeInTheDocument();
    // The refresh did leave (and is still on its way): the screen did not skip the server.
    expect(api.chamadas.some((c) => c.metodo === 'GET' && c.caminho === '/rotas/ativas/funcionario')).toBe(true);
    expect(api.chamadas.some((c) => c.metodo === 'GET' && c.caminho.startsWith('/rotas/7/cidades-status'))).toBe(true);
  });

  it('as cópias lidas na partida do app (enquanto o React desenha, sem o Dexie) são as que a tela mostra: nenhuma é lida de novo', async () => {
    const primeira = montar({ historico: [{ id: 'h', cidade_id: 5208707, data_venda: '2026-01-10', total_vendas: 42, valor_boletos: 0, registrado_em: '2026-01-10T12:00:00.000Z' }] });
    await screen.findByText('Goiânia');
    await waitFor(async () => expect(await bancoLocal.cache.count()).toBe(3));
    primeira.tela.unmount();
    const lidas = await anotarLeiturasDeValores(bancoLocal, 'cache', (valor) => (valor as EntradaCache).chave);

    // What main.tsx does at boot for an employee opening /vendas: read without Dexie, into the screen's queries.
    const consultas = criarQueryClient();
    await lerCopiasDeAbertura('/vendas', FUNCIONARIO_TESTE.id, hojeNoApp, consultas);
    montar({ semResposta: true }, '/vendas', consultas);
    expect(await screen.findByText('Goiânia')).toBeInTheDocument();
    await userEvent.click(within(cartao('Goiânia')).getByRole('button', { name: 'Mostrar detalhes de Goiânia' }));
    expect(within(cartao('Goiânia')).getByText('R$ 42,00')).toBeInTheDocument();
    // The screen drew the boot's copies: it read none of them again through Dexie.
    expect(lidas).toEqual([]);
  });

  it('a resposta do servidor substitui a cópia do aparelho quando chega', async () => {
    const primeira = montar();
    await screen.findByText('Goiânia');
    await waitFor(async () => expect(await bancoLocal.cache.count()).toBe(3));
    primeira.tela.unmount();

    const outras = [...CIDADES, { id: 5205109, nome: 'Catalão', uf: 'GO' }];
    montar({ rota: rota(outras) });
    expect(await screen.findByText('Catalão')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText(/atualizando/)).not.toBeInTheDocument());
    expect(screen.getByRole('tab', { name: 'Em aberto (4)' })).toBeInTheDocument();
  });

  it('sem rota ativa diz isso', async () => {
    montar({ rota: null });
    expect(await screen.findByText('Nenhuma rota ativa no momento.')).toBeInTheDocument();
  });

  it('12 cartões por página, 10 com a janela de 600 px ou menos, e a busca ignora acentos', async () => {
    const muitas = Array.from({ length: 14 }, (_, i) => ({ id: 5300000 + i, nome: `Cidade ${String(i + 1).padStart(2, '0')}`, uf: 'GO' }));
    muitas[13] = { id: 5201108, nome: 'Anápolis', uf: 'GO' };
    montar({ rota: rota(muitas) });
    await screen.findByText('Cidade 01');
    expect(within(screen.getByRole('list', { name: 'Cidades em aberto' })).getAllByRole('listitem')).toHaveLength(12);
    expect(screen.getByText('Página 1 de 2')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Anterior' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Próxima' }));
    expect(screen.getByText('Página 2 de 2')).toBeInTheDocument();
    expect(screen.getByText('Anápolis')).toBeInTheDocument();

    await userEvent.type(screen.getByPlaceholderText('Buscar cidade...'), 'ANAPOLIS');
    expect(within(screen.getByRole('list', { name: 'Cidades em aberto' })).getAllByRole('listitem')).toHaveLength(1);
    expect(screen.queryByText(/Página/)).not.toBeInTheDocument();
  });

  it('no celular pequeno são 10 cartões por página', async () => {
    definirLarguraDaJanela(390);
    const muitas = Array.from({ length: 11 }, (_, i) => ({ id: 5300000 + i, nome: `Cidade ${i + 1}`, uf: 'GO' }));
    montar({ rota: rota(muitas) });
    await screen.findByText('Cidade 1');
    expect(within(screen.getByRole('list', { name: 'Cidades em aberto' })).getAllByRole('listitem')).toHaveLength(10);
    expect(screen.getByText('Página 1 de 2')).toBeInTheDocument();
  });

  it('com uma edição aberta o navegador avisa antes de sair da página', async () => {
    montar();
    await screen.findByText('Goiânia');
    const sair = () => {
      const evento = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(evento);
      return evento.defaultPrevented;
    };
    expect(sair()).toBe(false);
    const { usuario } = await editar('Goiânia', { Dinheiro: '1' });
    expect(sair()).toBe(true);
    await usuario.click(within(cartao('Goiânia')).getByRole('button', { name: 'Cancelar Goiânia' }));
    // What was typed is not dropped without asking.
    expect(sair()).toBe(true);
    await usuario.click(within(await screen.findByRole('dialog', { name: 'Fechar sem salvar?' })).getByRole('button', { name: 'Descartar' }));
    expect(sair()).toBe(false);
  });

  it('com uma edição aberta, trocar de tela ou de data pergunta antes de descartar', async () => {
    const { tela } = montar();
    await screen.findByText('Goiânia');
    const { usuario } = await editar('Goiânia', { Dinheiro: '12' });

    await tela.roteador.navigate('/dashboard');
    const pergunta = await screen.findByRole('dialog', { name: 'Fechamento em edição' });
    await usuario.click(within(pergunta).getByRole('button', { name: 'Continuar editando' }));
    expect(tela.roteador.state.location.pathname).toBe('/vendas');
    expect(within(cartao('Goiânia')).getByLabelText('Dinheiro')).toHaveValue('12');

    fireEvent.change(screen.getByLabelText('Data'), { target: { value: '2026-01-15' } });
    await usuario.click(within(await screen.findByRole('dialog', { name: 'Fechamento em edição' })).getByRole('button', { name: 'Descartar' }));
    expect(screen.getByLabelText('Data')).toHaveValue('2026-01-15');
    const goiania = await screen.findByRole('listitem', { name: /^Goiânia \(/ });
    expect(within(goiania).queryByRole('form')).not.toBeInTheDocument();

    await tela.roteador.navigate('/dashboard');
    expect(await screen.findByText('Painel')).toBeInTheDocument();
  });

  it('o administrador vê a tela de vendas do administrador no mesmo endereço', async () => {
    entrarComo(ADMIN_TESTE);
    simularApi({
      'GET /auth/me': () => ({ corpo: { usuario: ADMIN_TESTE } }),
      'GET /vendas/fechamento-diario': () => ({ corpo: { totais: { dinheiro: 0, pix: 0, cartao: 0, link: 0, boletos: 0, total_geral: 0 }, vendas: [] } }),
      'GET /usuarios/funcionarios': () => ({ corpo: { funcionarios: [] } }),
      'GET /rotas': () => ({ corpo: { rotas: [] } }),
    });
    renderizarApp([{ path: '/vendas', element: <PaginaVendas /> }], { em: '/vendas' });
    expect(await screen.findByRole('heading', { name: 'Vendas' })).toBeInTheDocument();
    expect(screen.queryByText('Registro Diário de Vendas')).not.toBeInTheDocument();
  });
});

describe('Vendas no campo', () => {
  it('"Marcar como visitada" é uma ação direta do cartão em aberto: sem abrir o formulário, a visita vai pela fila e mostra "Recebido pelo servidor"', async () => {
    const { api, s } = montar();
    await screen.findByText('Caldas Novas');
    const usuario = userEvent.setup();
    await usuario.click(within(cartao('Caldas Novas')).getByRole('button', { name: 'Marcar como visitada: Caldas Novas' }));
    expect(within(cartao('Caldas Novas')).queryByRole('form')).not.toBeInTheDocument();
    expect(await screen.findByText('Visita registrada: Caldas Novas ficou como visitada (sem venda).')).toBeInTheDocument();
    await usuario.click(await screen.findByRole('tab', { name: 'Fechadas (1)' }));
    const caldas = cartao('Caldas Novas');
    expect(within(caldas).getByText('Visitada (sem venda)')).toBeInTheDocument();
    await waitFor(() => expect(s.visitas).toEqual([{ cidade_id: 5204508, data: HOJE }]));
    expect(await within(caldas).findByText(/Recebido pelo servidor às \d\d:\d\d/)).toBeInTheDocument();
    expect(api.chamadas.some((c) => c.caminho === '/vendas' && c.metodo === 'POST')).toBe(false);
    // A closed city has no such button: it is already visited.
    expect(within(caldas).queryByRole('button', { name: /como visitada/ })).not.toBeInTheDocument();
  });

  it('dois toques seguidos em "Marcar como visitada" guardam uma visita só', async () => {
    const { s } = montar();
    await screen.findByText('Caldas Novas');
    s.offline = true; // the visit stays in the queue to be counted
    const botao = within(cartao('Caldas Novas')).getByRole('button', { name: 'Marcar como visitada: Caldas Novas' });
    fireEvent.click(botao);
    fireEvent.click(botao);
    await screen.findByRole('tab', { name: 'Fechadas (1)' });
    await waitFor(async () => expect((await bancoLocal.outbox.toArray()).map((i) => i.tipo)).toEqual(['visita.registrar']));
    s.offline = false;
    await motorSync.sincronizarAgora({ ignorarEspera: true });
    // A pass the engine started on its own may be the one that sends it: wait for the state, not for this call.
    await waitFor(() => expect(s.visitas).toEqual([{ cidade_id: 5204508, data: HOJE }]));
    await waitFor(async () => expect(await bancoLocal.outbox.count()).toBe(0));
    expect(s.visitas).toHaveLength(1);
  });

  it('o botão diz a ação, não o selo; marcada, a cidade fica no mesmo lugar com o selo e a seguinte não sobe', async () => {
    const { s } = montar();
    await screen.findByText('Caldas Novas');
    s.offline = true;
    const lista = screen.getByRole('list', { name: 'Cidades em aberto' });
    const nomes = () => within(lista).getAllByRole('listitem').map((li) => li.getAttribute('aria-label'));
    const antes = nomes();
    const botao = within(cartao('Anápolis')).getByRole('button', { name: 'Marcar como visitada: Anápolis' });
    expect(botao).toHaveTextContent(/^Marcar como visitada$/);
    fireEvent.click(botao);
    await screen.findByRole('tab', { name: 'Fechadas (1)' });
    // Kept in place: the same cards in the same order, Anápolis with the badge where its button was.
    expect(nomes()).toEqual(antes);
    expect(within(cartao('Anápolis')).getByText('Visitada (sem venda)')).toBeInTheDocument();
    expect(within(cartao('Anápolis')).queryByRole('button', { name: /Marcar como visitada/ })).not.toBeInTheDocument();
    // Leaving the tab and coming back: it is with the closed ones.
    await userEvent.click(screen.getByRole('tab', { name: 'Fechadas (1)' }));
    await userEvent.click(screen.getByRole('tab', { name: /^Em aberto/ }));
    expect(within(screen.getByRole('list', { name: 'Cidades em aberto' })).queryByRole('listitem', { name: /^Anápolis/ })).not.toBeInTheDocument();
  });

  it('"Desfazer" no aviso, com a visita ainda na fila: sai da fila, nada vai ao servidor, a cidade volta a ficar em aberto', async () => {
    const { s, api } = montar();
    await screen.findByText('Caldas Novas');
    s.offline = true;
    definirConexao(false);
    fireEvent.click(within(cartao('Caldas Novas')).getByRole('button', { name: 'Marcar como visitada: Caldas Novas' }));
    const aviso = (await screen.findByText(/Visita guardada neste aparelho/)).closest('[role="alert"]') as HTMLElement;
    await waitFor(async () => expect(await bancoLocal.outbox.count()).toBe(1));
    // The pass the mark started found no signal and ended: the visit never left the phone.
    await act(async () => {
      await motorSync.sincronizarAgora();
    });
    await userEvent.click(within(aviso).getByRole('button', { name: 'Desfazer' }));
    await waitFor(async () => expect(await bancoLocal.outbox.count()).toBe(0));
    expect(await within(cartao('Caldas Novas')).findByRole('button', { name: 'Marcar como visitada: Caldas Novas' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Fechadas (0)' })).toBeInTheDocument();
    expect(await screen.findByText('Visita desfeita: Caldas Novas voltou a ficar em aberto.')).toBeInTheDocument();
    const antes = api.chamadas.length;
    s.offline = false;
    definirConexao(true);
    await motorSync.sincronizarAgora({ ignorarEspera: true });
    // With signal back, neither the visit nor a removal travels: the undo happened on the device.
    expect(api.chamadas.slice(antes).filter((c) => c.metodo === 'POST' && c.caminho.includes('/cidades/'))).toEqual([]);
    expect(s.visitas).toEqual([]);
  });

  it('"Desfazer" depois que o servidor recebeu a visita: a remoção vai pela fila e o servidor fica sem a visita', async () => {
    const { s } = montar();
    await screen.findByText('Caldas Novas');
    fireEvent.click(within(cartao('Caldas Novas')).getByRole('button', { name: 'Marcar como visitada: Caldas Novas' }));
    await waitFor(() => expect(s.visitas).toEqual([{ cidade_id: 5204508, data: HOJE }]));
    await waitFor(async () => expect(await bancoLocal.outbox.count()).toBe(0));
    const aviso = (await screen.findByText('Visita registrada: Caldas Novas ficou como visitada (sem venda).')).closest('[role="alert"]') as HTMLElement;
    await userEvent.click(within(aviso).getByRole('button', { name: 'Desfazer' }));
    await waitFor(() => expect(s.visitas).toEqual([]));
    await waitFor(async () => expect(await bancoLocal.outbox.count()).toBe(0));
    expect(await within(cartao('Caldas Novas')).findByRole('button', { name: 'Marcar como visitada: Caldas Novas' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('tab', { name: 'Fechadas (0)' })).toBeInTheDocument());
  });

  it('uma visita recebida continua mostrando "Recebido pelo servidor" ao voltar para a tela, como as vendas', async () => {
    const { s, tela } = montar();
    await screen.findByText('Caldas Novas');
    const { usuario, form } = await editar('Caldas Novas', {});
    await usuario.click(within(form).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(s.visitas).toHaveLength(1));
    await waitFor(async () => expect(await bancoLocal.outbox.count()).toBe(0));
    tela.unmount();

    montar({ visitas: s.visitas });
    await userEvent.click(await screen.findByRole('tab', { name: 'Fechadas (1)' }));
    expect(await within(await screen.findByRole('listitem', { name: /^Caldas Novas \(/ })).findByText('Visitada (sem venda)')).toBeInTheDocument();
    expect(await within(cartao('Caldas Novas')).findByText(/Recebido pelo servidor às \d\d:\d\d/)).toBeInTheDocument();
  });

  it('salvar sem conexão diz que o fechamento ficou guardado no aparelho, não que foi realizado', async () => {
    const { s } = montar();
    await screen.findByText('Goiânia');
    s.offline = true;
    definirConexao(false);
    const { usuario, form } = await editar('Goiânia', { Pix: '30' });
    await usuario.click(within(form).getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText(MENSAGEM_OFFLINE)).toBeInTheDocument();
    expect(screen.queryByText('Fechamento realizado com sucesso!')).not.toBeInTheDocument();
  });

  it('com o navegador dizendo "online" mas sem resposta do servidor, o aviso passa a dizer que o fechamento ficou guardado', async () => {
    const { s } = montar();
    await screen.findByText('Goiânia');
    s.offline = true; // lie-fi: navigator.onLine stays true
    const { usuario, form } = await editar('Goiânia', { Pix: '30' });
    await usuario.click(within(form).getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText(MENSAGEM_OFFLINE)).toBeInTheDocument();
    expect(screen.queryByText('Fechamento realizado com sucesso!')).not.toBeInTheDocument();
  });

  it('o aviso "Sem conexão…" some quando a conexão volta e a fila é enviada (a tela relê do servidor)', async () => {
    const primeira = montar();
    await screen.findByText('Goiânia');
    await waitFor(async () => expect(await bancoLocal.cache.count()).toBe(3));
    primeira.tela.unmount();

    definirConexao(false);
    const { s } = montar({ offline: true }, '/vendas', clienteComoOApp());
    await screen.findByText('Goiânia');
    expect(await screen.findByText(/Sem conexão: dados guardados neste aparelho em/)).toBeInTheDocument();
    const { usuario, form } = await editar('Goiânia', { Pix: '30' });
    await usuario.click(within(form).getByRole('button', { name: 'Salvar' }));
    await waitFor(async () => expect((await bancoLocal.outbox.toArray()).map((i) => i.tipo)).toEqual(['venda.salvar']));

    // The signal is back (well within the 30 s the answers stay fresh), and the engine sends the queue.
    s.offline = false;
    definirConexao(true);
    await motorSync.sincronizarAgora();
    await waitFor(() => expect(s.vendas).toHaveLength(1));
    await usuario.click(await screen.findByRole('tab', { name: 'Fechadas (1)' }));
    expect(await within(cartao('Goiânia')).findByText(/Recebido pelo servidor às \d\d:\d\d/)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText(/Sem conexão/)).not.toBeInTheDocument());
  });

  it('"Descartar" ao sair da tela descarta o que foi digitado: ao voltar, a cidade está como estava', async () => {
    const { tela } = montar();
    await screen.findByText('Goiânia');
    const { usuario } = await editar('Goiânia', { Dinheiro: '12' });
    await waitFor(async () => expect(await bancoLocal.rascunhos.count()).toBe(1));

    await tela.roteador.navigate('/dashboard');
    await usuario.click(within(await screen.findByRole('dialog', { name: 'Fechamento em edição' })).getByRole('button', { name: 'Descartar' }));
    expect(await screen.findByText('Painel')).toBeInTheDocument();

    await tela.roteador.navigate('/vendas');
    const goiania = await screen.findByRole('listitem', { name: /^Goiânia \(/ });
    expect(within(goiania).getByRole('button', { name: 'Editar Goiânia' })).toBeInTheDocument();
    expect(within(goiania).queryByRole('form')).not.toBeInTheDocument();
    expect(await bancoLocal.rascunhos.count()).toBe(0);
    await usuario.click(within(goiania).getByRole('button', { name: 'Editar Goiânia' }));
    expect(within(goiania).getByLabelText('Dinheiro')).toHaveValue('');
  });

  it('"Descartar" ao trocar de data descarta o que foi digitado na data anterior', async () => {
    montar();
    await screen.findByText('Goiânia');
    const { usuario } = await editar('Goiânia', { Dinheiro: '12' });
    await waitFor(async () => expect(await bancoLocal.rascunhos.count()).toBe(1));

    fireEvent.change(screen.getByLabelText('Data'), { target: { value: '2026-01-15' } });
    await usuario.click(within(await screen.findByRole('dialog', { name: 'Fechamento em edição' })).getByRole('button', { name: 'Descartar' }));
    await screen.findByRole('listitem', { name: /^Goiânia \(/ });
    fireEvent.change(screen.getByLabelText('Data'), { target: { value: HOJE } });
    expect(screen.queryByRole('dialog', { name: 'Fechamento em edição' })).not.toBeInTheDocument();
    const goiania = await screen.findByRole('listitem', { name: /^Goiânia \(/ });
    await waitFor(async () => expect(await bancoLocal.rascunhos.count()).toBe(0));
    expect(within(goiania).queryByRole('form')).not.toBeInTheDocument();
  });

describe('a cópia completa do aparelho', () => {
  it('sem sinal, a cópia lida antes de uma venda enviada de outra tela continua mostrando a cidade fechada', async () => {
    const primeira = montar();
    await screen.findByText('Goiânia');
    expect(await screen.findByRole('tab', { name: 'Fechadas (0)' })).toBeInTheDocument();
    primeira.tela.unmount();

    // Away from Vendas (the closing kept by the dashboard's shortcut, say), the sale reaches the server...
    await enfileirarVenda(bancoLocal, FUNCIONARIO_TESTE.id, {
      id: 'venda-goiania',
      rota_id: 7,
      cidade_id: 5208707,
      data_venda: HOJE,
      valor_dinheiro: 15000,
      valor_pix: 0,
      valor_cartao: 0,
      valor_link: 0,
      valor_boletos: 1,
      observacoes: '',
      registrado_em: new Date().toISOString(),
      cidade_nome: 'Goiânia',
      cidade_uf: 'GO',
    });
    await motorSync.sincronizarAgora({ ignorarEspera: true });
    expect(primeira.s.vendas).toHaveLength(1);
    expect(await bancoLocal.outbox.count()).toBe(0);

    // ...then the signal goes: Vendas opens from the morning's copy, with the confirmed sale over it.
    definirConexao(false);
    montar({ offline: true });
    await userEvent.click(await screen.findByRole('tab', { name: 'Fechadas (1)' }));
    const goiania = await screen.findByRole('listitem', { name: /^Goiânia \(/ });
    expect(within(goiania).getByText('Fechada · R$ 150,00')).toBeInTheDocument();
  });
});

});
