/**
 * On the employee's phone: news reaches it, a rejected expense is corrected and sent again, and an
 * expense's sync state and approval state read apart.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Despesa } from '../../../shared/schemas/despesas';
import type { CreditoRecente } from '../../../shared/schemas/saldo';
import { motorSync } from '../offline';
import { bancoLocal } from '../offline/db';
import { despesaDeTeste, listaDeDespesas } from '../test/despesas';
import { definirLarguraDaJanela } from '../test/janela';
import { entrarComo, FUNCIONARIO_TESTE, renderizarApp, simularApi, type ManipuladorApi } from '../test/renderizar';
import { rotaDeTeste } from '../test/rotas';
import { chaveNoticias, type EstadoNoticias } from './noticias';
import { PaginaDespesas } from './PaginaDespesas';
import { bytesDe } from '../test/arquivos';

const comprimir = vi.hoisted(() => vi.fn());
vi.mock('browser-image-compression', () => ({ default: comprimir }));

const ROTA = rotaDeTeste({ nome: 'Rota Centro-Oeste', cidades: [{ id: 5201108, nome: 'Anápolis', uf: 'GO' }] });
const MOTIVO = 'Reenvie com a nota fiscal';

const despesa = (id: string, extra: Partial<Despesa> = {}) =>
  despesaDeTeste(id, { data_despesa: '2026-11-24', valor: 24, registrado_em: '2026-11-24T15:00:00.000Z', recebido_em: '2026-11-24T15:00:02.000Z', atualizado_em: '2026-11-24T15:00:02.000Z', ...extra }, ROTA);

const rejeitada = (id: string, extra: Partial<Despesa> = {}) =>
  despesa(id, { status_aprovacao: 'rejeitada', rejeitada: true, motivo_rejeicao: MOTIVO, avaliado_em: '2026-11-25T12:00:00.000Z', ...extra });

const lista = (despesas: Despesa[]) => listaDeDespesas(despesas);

/** A server whose answers the test changes between reads. */
function servidor(inicial: Despesa[], { saldo = 500, creditos = [] as CreditoRecente[], extra = {} as Record<string, ManipuladorApi> } = {}) {
  const estado = { despesas: inicial, saldo, creditos };
  entrarComo(FUNCIONARIO_TESTE);
  const api = simularApi({
    'GET /auth/me': () => ({ corpo: { usuario: FUNCIONARIO_TESTE } }),
    'GET /despesas': () => ({ corpo: lista(estado.despesas) }),
    'GET /rotas/ativas/funcionario': () => ({ corpo: { rotas: [ROTA] } }),
    'GET /saldo/resumo': () => ({ corpo: { saldo_atual: estado.saldo, data_ultima_atualizacao: '2026-11-20T10:00:00.000Z', creditos_recentes: estado.creditos } }),
    ...extra,
  });
  return { estado, api };
}

/** The table row of an expense found by a text in it (the description may sit on a line of its own under the row). */
function linhaDe(el: HTMLElement): HTMLElement {
  const tr = el.closest('tr')!;
  return tr.classList.contains('tabela__linha-extra') ? (tr.previousElementSibling as HTMLElement) : tr;
}

let ultimoCliente: QueryClient | null = null;
const montar = () => {
  const montado = renderizarApp([{ path: '/despesas', element: <PaginaDespesas /> }], { em: '/despesas' });
  ultimoCliente = montado.queryClient;
  return montado;
};
const leiturasDaLista = (api: ReturnType<typeof simularApi>) => api.chamadas.filter((c) => c.metodo === 'GET' && c.caminho === '/despesas').length;

beforeEach(async () => {
  await Promise.all([bancoLocal.outbox.clear(), bancoLocal.arquivos.clear(), bancoLocal.cache.clear(), bancoLocal.rascunhos.clear(), bancoLocal.sincronizados.clear(), bancoLocal.meta.clear()]);
  definirLarguraDaJanela(1280);
});
afterEach(async () => {
  motorSync.parar();
  vi.useRealTimers();
  // A read still running records what it saw in IndexedDB (the news' 'seen' marks): it must finish before the
  // next test clears the tables, or it writes this test's marks into the next one.
  const cliente = ultimoCliente;
  if (cliente) await waitFor(() => expect(cliente.isFetching()).toBe(0));
  ultimoCliente = null;
});

describe('despesa rejeitada', () => {
  it('mostra Rejeitada com o motivo e oferece "Corrigir e reenviar" em vez de Editar/Excluir', async () => {
    servidor([rejeitada('d1'), despesa('d2', { descricao: 'Jantar' })]);
    montar();
    const botao = await screen.findByRole('button', { name: /^Corrigir e reenviar: Alimentação de R\$\s24,00 em 24\/11\/2026/ });
    const linha = botao.closest('tr')!;
    expect(within(linha).getByText('Rejeitada')).toBeInTheDocument();
    expect(within(linha).getByText(`Motivo: ${MOTIVO}`)).toBeInTheDocument();
    expect(within(linha).queryByRole('button', { name: /^Editar:/ })).not.toBeInTheDocument();
    expect(within(linha).queryByRole('button', { name: /^Excluir:/ })).not.toBeInTheDocument();
    // The pending one keeps Editar/Excluir.
    expect(screen.getAllByRole('button', { name: /^Editar:/ })).toHaveLength(1);
  });

  it('corrige valor, comprovante e descrição e reenvia: vai como despesa.corrigir e volta a Pendente; diz que o dinheiro continua descontado', async () => {
    const { estado, api } = servidor([rejeitada('d1')], {
      extra: {
        'PUT /despesas/:id/corrigir': (corpo) => {
          const f = corpo as FormData;
          const corrigida = despesa('d1', { valor: Number(f.get('valor')), descricao: String(f.get('descricao')), cupom_url: '/api/despesas/d1/cupom', cupom_mime: 'image/jpeg', cupom_nome: 'nota.jpg' });
          estado.despesas = [corrigida];
          estado.saldo = 478;
          return { corpo: { despesa: corrigida } };
        },
      },
    });
    montar();
    const usuario = userEvent.setup();
    await usuario.click(await screen.findByRole('button', { name: /^Corrigir e reenviar:/ }));
    const modal = screen.getByRole('dialog', { name: 'Corrigir e reenviar despesa' });
    expect(within(modal).getByText(MOTIVO)).toBeInTheDocument();
    expect(within(modal).getByText(/O valor de R\$\s24,00 continua descontado do seu saldo/)).toBeInTheDocument();
    const valor = within(modal).getByLabelText(/Valor/);
    await usuario.clear(valor);
    await usuario.type(valor, '22');
    await usuario.clear(within(modal).getByLabelText('Descrição'));
    await usuario.type(within(modal).getByLabelText('Descrição'), 'Almoço com nota');
    await usuario.upload(within(modal).getByLabelText('Cupom/Comprovante'), new File([bytesDe('jpeg', 4)], 'nota.jpg', { type: 'image/jpeg' }));
    await within(modal).findByText('nota.jpg');
    await usuario.click(within(modal).getByRole('button', { name: 'Reenviar' }));
    expect(await screen.findByText('Despesa corrigida e reenviada: ela está Pendente de nova aprovação.')).toBeInTheDocument();

    const op = api.operacoes.find((o) => o.tipo === 'despesa.corrigir')!;
    expect(op.dados).toMatchObject({ id: 'd1', valor: 2200, descricao: 'Almoço com nota', excluir_cupom: false });
    const form = api.chamadas.find((c) => c.caminho === '/despesas/d1/corrigir')!.corpo as FormData;
    expect((form.get('cupom') as File).name).toBe('nota.jpg');
    const linha = linhaDe(await screen.findByText('Almoço com nota'));
    await waitFor(() => expect(within(linha).getByText('Pendente')).toBeInTheDocument());
    expect(within(linha).queryByRole('button', { name: /^Corrigir e reenviar:/ })).not.toBeInTheDocument();
  });

  it('sem sinal: a correção fica no aparelho, dito assim; continua Rejeitada, com "Correção aguardando envio", e o projetado ajusta só a diferença', async () => {
    servidor([rejeitada('d1')], { saldo: 100, extra: { 'PUT /despesas/:id/corrigir': () => 'offline' } });
    montar();
    const usuario = userEvent.setup();
    await usuario.click(await screen.findByRole('button', { name: /^Corrigir e reenviar:/ }));
    const modal = screen.getByRole('dialog', { name: 'Corrigir e reenviar despesa' });
    const valor = within(modal).getByLabelText(/Valor/);
    await usuario.clear(valor);
    await usuario.type(valor, '30');
    await usuario.click(within(modal).getByRole('button', { name: 'Reenviar' }));
    expect(await screen.findByText('Correção guardada neste aparelho; será enviada quando houver sinal. A despesa continua Rejeitada até lá.')).toBeInTheDocument();
    const linha = (await screen.findByText('Correção aguardando envio')).closest('tr')!;
    expect(within(linha).getByText('Rejeitada')).toBeInTheDocument();
    // R$ 24 was already debited: only the R$ 6 difference comes off the projection.
    await waitFor(() => expect(screen.getByTestId('saldo-projetado')).toHaveTextContent('R$ 94,00'));
    const [item] = await bancoLocal.outbox.toArray();
    expect(item).toMatchObject({ tipo: 'despesa.corrigir', chaves: ['despesa:d1'] });
  });
});

describe('as novidades chegam ao celular', () => {
  it('com a tela parada em Despesas, relê a cada 60 s: a rejeição aparece com o motivo e o aviso do que mudou', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { estado, api } = servidor([despesa('d1')]);
    montar();
    const linha = linhaDe(await screen.findByText('Almoço'));
    expect(within(linha).getByText('Pendente')).toBeInTheDocument();
    await waitFor(async () => expect((await bancoLocal.meta.get(chaveNoticias(FUNCIONARIO_TESTE.id)))?.valor).toBeTruthy());
    const antes = leiturasDaLista(api);

    estado.despesas = [rejeitada('d1')];
    await act(async () => {
      vi.advanceTimersByTime(60_000);
    });
    await waitFor(() => expect(leiturasDaLista(api)).toBeGreaterThan(antes));
    const novidades = await screen.findByRole('status', { name: 'Novidades desde a sua última visita' });
    expect(within(novidades).getByText(new RegExp(`^Alimentação · R\\$\\s24,00 · 24/11 rejeitada: ${MOTIVO}$`))).toBeInTheDocument();
    await waitFor(() => expect(within(linhaDe(screen.getByText('Almoço'))).getByText('Rejeitada')).toBeInTheDocument());
    expect(screen.getByRole('button', { name: /^Corrigir e reenviar:/ })).toBeInTheDocument();
  });

  it('ao voltar para o aplicativo (visibilidade), relê na hora', async () => {
    const { estado, api } = servidor([despesa('d1')]);
    montar();
    await screen.findByText('Almoço');
    await waitFor(async () => expect((await bancoLocal.meta.get(chaveNoticias(FUNCIONARIO_TESTE.id)))?.valor).toBeTruthy());
    estado.despesas = [despesa('d1', { status_aprovacao: 'aprovada', aprovada: true, avaliado_em: '2026-11-25T13:00:00.000Z' })];
    const antes = leiturasDaLista(api);
    const visibilidade = vi.spyOn(document, 'visibilityState', 'get');
    visibilidade.mockReturnValue('hidden');
    fireEvent(document, new Event('visibilitychange', { bubbles: true }));
    visibilidade.mockReturnValue('visible');
    fireEvent(document, new Event('visibilitychange', { bubbles: true }));
    await waitFor(() => expect(leiturasDaLista(api)).toBeGreaterThan(antes));
    expect(await screen.findByRole('button', { name: /^Alimentação · R\$\s24,00 · 24\/11 aprovada$/ })).toBeInTheDocument();
    visibilidade.mockRestore();
  });

  it('o que mudou com o aplicativo fechado aparece ao abrir; um crédito novo também; "Entendi" dispensa e não volta', async () => {
    // What this phone saw last time: d1 pending (no evaluation) and credit 7.
    const visto: EstadoNoticias = { vistos: { avaliadasAte: null, avaliacoes: {}, creditoAte: 7 }, pendentes: [] };
    await bancoLocal.meta.put({ chave: chaveNoticias(FUNCIONARIO_TESTE.id), valor: visto });
    servidor([rejeitada('d1')], {
      creditos: [
        { id: 9, valor: 200, data_movimentacao: '2026-11-25T11:00:00.000Z', descricao: 'Adiantamento' },
        { id: 7, valor: 100, data_movimentacao: '2026-11-20T11:00:00.000Z', descricao: 'Adiantamento' },
      ],
    });
    montar();
    const novidades = await screen.findByRole('status', { name: 'Novidades desde a sua última visita' });
    expect(await within(novidades).findByText(new RegExp(`^Alimentação · R\\$\\s24,00 · 24/11 rejeitada: ${MOTIVO}$`))).toBeInTheDocument();
    expect(await within(novidades).findByText('Crédito de R$ 200,00 no saldo')).toBeInTheDocument();
    expect(within(novidades).queryByText('Crédito de R$ 100,00 no saldo')).not.toBeInTheDocument();
    await userEvent.setup().click(within(novidades).getByRole('button', { name: 'Entendi' }));
    await waitFor(() => expect(screen.queryByRole('status', { name: 'Novidades desde a sua última visita' })).not.toBeInTheDocument());
    const guardado = (await bancoLocal.meta.get(chaveNoticias(FUNCIONARIO_TESTE.id)))!.valor as EstadoNoticias;
    expect(guardado.pendentes).toEqual([]);
    expect(guardado.vistos.creditoAte).toBe(9);
  });

  it('a mais nova primeiro; cada uma nomeia a despesa e a abre; "Ver e corrigir" some quando a correção entra na fila', async () => {
    const pendentes: EstadoNoticias['pendentes'] = [
      { id: 'd1:2026-11-25T12:00:00.000Z', tipo: 'rejeitada', texto: `Alimentação · R$ 24,00 · 24/11 rejeitada: ${MOTIVO}`, despesaId: 'd1', em: '2026-11-25T12:00:00.000Z' },
      { id: 'd2:2026-11-26T09:00:00.000Z', tipo: 'aprovada', texto: 'Alimentação · R$ 24,00 · 24/11 aprovada', despesaId: 'd2', em: '2026-11-26T09:00:00.000Z' },
    ];
    await bancoLocal.meta.put({ chave: chaveNoticias(FUNCIONARIO_TESTE.id), valor: { vistos: { avaliadasAte: '2026-11-26T09:00:00.000Z', avaliacoes: {}, creditoAte: 0 }, pendentes } });
    servidor([rejeitada('d1'), despesa('d2', { descricao: 'Jantar', status_aprovacao: 'aprovada', aprovada: true, avaliado_em: '2026-11-26T09:00:00.000Z' })], {
      saldo: 100,
      extra: { 'PUT /despesas/:id/corrigir': () => 'offline' },
    });
    montar();
    const novidades = await screen.findByRole('status', { name: 'Novidades desde a sua última visita' });
    await waitFor(() => expect(within(novidades).getAllByRole('listitem')).toHaveLength(2));
    // Appended in the order they came, shown newest first.
    expect(within(novidades).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Alimentação · R$ 24,00 · 24/11 aprovada',
      `Alimentação · R$ 24,00 · 24/11 rejeitada: ${MOTIVO}Ver e corrigir`,
    ]);
    const usuario = userEvent.setup();
    await screen.findByText('Jantar');
    await usuario.click(within(novidades).getByRole('button', { name: 'Alimentação · R$ 24,00 · 24/11 aprovada' }));
    const detalhes = await screen.findByRole('dialog', { name: 'Detalhes da Despesa' });
    expect(within(detalhes).getByText('Jantar')).toBeInTheDocument();
    await usuario.click(within(detalhes).getAllByRole('button', { name: /Fechar/ })[0]!);

    // The correction goes to the queue (no signal): the notice no longer asks for it.
    await usuario.click(await screen.findByRole('button', { name: /^Corrigir e reenviar:/ }));
    const modal = screen.getByRole('dialog', { name: 'Corrigir e reenviar despesa' });
    await usuario.click(within(modal).getByRole('button', { name: 'Reenviar' }));
    await waitFor(async () => expect((await bancoLocal.outbox.toArray()).map((i) => i.tipo)).toEqual(['despesa.corrigir']));
    await waitFor(() => expect(within(novidades).queryByRole('button', { name: 'Ver e corrigir' })).not.toBeInTheDocument());
    expect(within(novidades).getByRole('button', { name: new RegExp(`rejeitada: ${MOTIVO}$`) })).toBeInTheDocument();
  });

  it('"Ver e corrigir" some quando a correção foi aceita pelo servidor', async () => {
    const pendentes: EstadoNoticias['pendentes'] = [
      { id: 'd1:2026-11-25T12:00:00.000Z', tipo: 'rejeitada', texto: `Alimentação · R$ 24,00 · 24/11 rejeitada: ${MOTIVO}`, despesaId: 'd1', em: '2026-11-25T12:00:00.000Z' },
    ];
    await bancoLocal.meta.put({ chave: chaveNoticias(FUNCIONARIO_TESTE.id), valor: { vistos: { avaliadasAte: '2026-11-25T12:00:00.000Z', avaliacoes: {}, creditoAte: 0 }, pendentes } });
    const { estado } = servidor([rejeitada('d1')], {
      extra: {
        'PUT /despesas/:id/corrigir': () => {
          const corrigida = despesa('d1', { valor: 24 });
          estado.despesas = [corrigida];
          return { corpo: { despesa: { ...corrigida, atualizado_em: '2026-11-26T10:00:00.000Z' } } };
        },
      },
    });
    montar();
    const novidades = await screen.findByRole('status', { name: 'Novidades desde a sua última visita' });
    await within(novidades).findByRole('button', { name: 'Ver e corrigir' });
    const usuario = userEvent.setup();
    await usuario.click(await screen.findByRole('button', { name: /^Corrigir e reenviar:/ }));
    await usuario.click(within(screen.getByRole('dialog', { name: 'Corrigir e reenviar despesa' })).getByRole('button', { name: 'Reenviar' }));
    await waitFor(async () => expect(await bancoLocal.outbox.count()).toBe(0));
    await waitFor(() => expect(within(novidades).queryByRole('button', { name: 'Ver e corrigir' })).not.toBeInTheDocument());
  });

  it('a primeira vez neste aparelho só registra o que há (sem avisos do passado)', async () => {
    servidor([rejeitada('d1')], { creditos: [{ id: 3, valor: 50, data_movimentacao: '2026-11-20T11:00:00.000Z', descricao: 'x' }] });
    montar();
    await screen.findByText('Almoço');
    await waitFor(async () => {
      const v = (await bancoLocal.meta.get(chaveNoticias(FUNCIONARIO_TESTE.id)))?.valor as EstadoNoticias | undefined;
      expect(v?.vistos.creditoAte).toBe(3);
      expect(v?.vistos.avaliacoes).toHaveProperty('d1');
    });
    expect(screen.queryByRole('status', { name: 'Novidades desde a sua última visita' })).not.toBeInTheDocument();
  });
});

describe('envio e aprovação são duas coisas', () => {
  it('uma despesa guardada sem sinal diz "Aprovação: Pendente" e "Envio: Aguardando envio", e o aviso diz que ficou no aparelho', async () => {
    servidor([], { extra: { 'POST /despesas': () => 'offline' } });
    montar();
    const usuario = userEvent.setup();
    await usuario.click(await screen.findByRole('button', { name: 'Nova Despesa' }));
    const modal = screen.getByRole('dialog', { name: 'Nova Despesa' });
    await usuario.selectOptions(within(modal).getByLabelText(/Tipo de Despesa/), 'pedagio');
    await usuario.type(within(modal).getByLabelText(/Valor/), '12,30');
    await usuario.click(within(modal).getByRole('button', { name: 'Registrar' }));
    expect(await screen.findByText('Despesa guardada neste aparelho. Ela será enviada assim que houver conexão.')).toBeInTheDocument();
    expect(screen.queryByText('Despesa registrada com sucesso!')).not.toBeInTheDocument();
    const linha = (await screen.findByText('Aguardando envio')).closest('tr')!;
    const envio = within(linha).getByText('Aguardando envio').closest('.selos__grupo')!;
    expect(envio).toHaveTextContent(/^Envio/);
    const aprovacao = within(linha).getByText('Pendente').closest('.selos__grupo')!;
    expect(aprovacao).toHaveTextContent(/^Aprovação/);
  });
});
