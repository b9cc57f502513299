import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Rota } from '../../../shared/schemas/rotas';
import { hojeNoApp } from '../config/configApp';
import { motorSync } from '../offline';
import { bancoLocal } from '../offline/db';
import { entrarComo, FUNCIONARIO_TESTE, renderizarApp, simularApi, type ManipuladorApi } from '../test/renderizar';
import { rotaDeTeste } from '../test/rotas';
import { enfileirarVenda } from '../vendas/operacoes';
import { CartaoProntoParaViajar } from './CartaoProntoParaViajar';
import { preparo } from './preparo';
import { PreparoAutomatico } from './PreparoAutomatico';

const EU = FUNCIONARIO_TESTE.id;
const HOJE = hojeNoApp();
const MIN = 60_000;
const MB = 1024 * 1024;
const DESPESAS = 'despesas:lista:{"data_inicio":"","data_fim":"","tipo":"","page":1,"limit":20}';
/** Every copy an employee screen reads offline, for route 7 today. */
const CHAVES = [`rotas:ativas:${EU}`, `rotas:finalizadas:${EU}`, `vendas:historico:7`, `vendas:dia:7:${HOJE}`, DESPESAS, 'saldo:resumo', 'relatorios:salario:7'];

function rota(): Rota {
  return rotaDeTeste({
    valor_aluguel: 300,
    cidades: [
      { id: 5208707, nome: 'Goiânia', uf: 'GO' },
      { id: 5201108, nome: 'Anápolis', uf: 'GO' },
      { id: 5204508, nome: 'Caldas Novas', uf: 'GO' },
    ],
  });
}

const haMs = (ms: number) => new Date(Date.now() - ms).toISOString();

/** A R$ 10 closing on route 7 today, queued on the device as the sales screen queues it. */
function enfileirarVendaDeHoje(id: string, cidadeId: number) {
  return enfileirarVenda(bancoLocal, EU, {
    id,
    rota_id: 7,
    cidade_id: cidadeId,
    data_venda: HOJE,
    valor_dinheiro: 1000,
    valor_pix: 0,
    valor_cartao: 0,
    valor_link: 0,
    valor_boletos: 0,
    observacoes: '',
    registrado_em: new Date().toISOString(),
    cidade_nome: 'Goiânia',
    cidade_uf: 'GO',
  });
}

/** Puts the copies on the device as the screens' hooks keep them. */
async function guardar(chaves: string[], { idadeMs = 5 * MIN, dono = EU }: { idadeMs?: number; dono?: number } = {}) {
  const dados = (chave: string): unknown => (chave.startsWith('rotas:ativas') ? [rota()] : chave.startsWith('rotas:') ? [] : {});
  await bancoLocal.cache.bulkPut(chaves.map((chave) => ({ chave, usuarioId: dono, dados: dados(chave), atualizadoEm: haMs(idadeMs) })));
}

/** navigator.storage as a phone's browser answers it. */
const armazenamento = { persistido: true, usado: 10 * MB, cota: 2048 * MB };
const persist = vi.fn(async () => {
  armazenamento.persistido = true;
  return true;
});

let online = true;
function ficarOffline() {
  online = false;
  act(() => void window.dispatchEvent(new Event('offline')));
}

beforeEach(async () => {
  await Promise.all(bancoLocal.tables.map((t) => t.clear()));
  preparo.esquecer();
  Object.assign(armazenamento, { persistido: true, usado: 10 * MB, cota: 2048 * MB });
  persist.mockClear();
  online = true;
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
  Object.defineProperty(navigator, 'storage', {
    configurable: true,
    value: {
      persisted: async () => armazenamento.persistido,
      persist,
      estimate: async () => ({ usage: armazenamento.usado, quota: armazenamento.cota }),
    },
  });
});

afterEach(() => {
  motorSync.parar();
  online = true;
});

/** `semServidor`: the dashboard's last read did not reach the server. `automatico`: the app's priming runs too. */
function montar(extra: Record<string, ManipuladorApi> = {}, { semServidor = false, automatico = false } = {}) {
  entrarComo(FUNCIONARIO_TESTE);
  const api = simularApi({ 'GET /auth/me': () => ({ corpo: { usuario: FUNCIONARIO_TESTE } }), ...extra });
  renderizarApp(
    [
      {
        path: '/dashboard',
        element: (
          <>
            {automatico && <PreparoAutomatico usuarioId={EU} />}
            <CartaoProntoParaViajar usuarioId={EU} semServidor={semServidor} />
          </>
        ),
      },
    ],
    { em: '/dashboard' },
  );
  return api;
}

/** A server with every copy an employee screen needs, for route 7. */
function servidorCompleto(extra: Record<string, ManipuladorApi> = {}): Record<string, ManipuladorApi> {
  return {
    'GET /rotas/ativas/funcionario': () => ({ corpo: { rotas: [rota()] } }),
    'GET /rotas/finalizadas/funcionario': () => ({ corpo: { rotas: [] } }),
    'GET /vendas/rota/7/historico': () => ({ corpo: { historico: [] } }),
    'GET /rotas/7/cidades-status': () => ({ corpo: { cidades: [] } }),
    'GET /vendas/fechamento-diario': () => ({ corpo: { totais: { dinheiro: 0, pix: 0, cartao: 0, link: 0, boletos: 0, total_geral: 0 }, vendas: [] } }),
    'GET /relatorios/rota/7': () => ({ corpo: { base: { valor_aluguel: 300, cidades_visitadas_ids: [], vendas: [] } } }),
    'GET /despesas': (_c, url) => ({ corpo: { despesas: [], totais: {}, page: Number(url.searchParams.get('page')), limit: Number(url.searchParams.get('limit')), total: 0 } }),
    'GET /saldo/resumo': () => ({ corpo: { saldo_atual: 250, data_ultima_atualizacao: null } }),
    ...extra,
  };
}

const cartao = () => screen.getByRole('region', { name: 'Pronto para viajar' });
const resumo = () => screen.getByTestId('viagem-resumo');
const botaoAtualizar = () => within(cartao()).getByRole('button', { name: /Atualizar tudo|Atualizando/ });

/** The lines of the checklist, opened if the card shows it closed. */
async function itens(): Promise<Record<string, { estado: string; texto: string }>> {
  const alternar = within(cartao()).getByRole('button', { name: /Ver itens|Ocultar/ });
  if (alternar.getAttribute('aria-expanded') === 'false') await userEvent.click(alternar);
  const linhas = within(cartao()).getAllByRole('listitem');
  return Object.fromEntries(linhas.map((l) => [l.dataset.item!, { estado: l.dataset.estado!, texto: (l.textContent ?? '').replace(/\u00a0/g, ' ') }]));
}

describe('Pronto para viajar', () => {
  it('tudo no aparelho e recente: "Tudo pronto para trabalhar sem sinal", a lista fechada, cada item pronto com a idade', async () => {
    await guardar(CHAVES);
    montar();
    await waitFor(() => expect(resumo()).toHaveTextContent('Tudo pronto para trabalhar sem sinal'));
    expect(within(cartao()).queryByRole('list')).not.toBeInTheDocument();
    const lista = await itens();
    expect(Object.values(lista).map((i) => i.estado)).toEqual(Array(8).fill('ok'));
    expect(lista.rota!.texto).toBe('Pronto: Rota ativa e 3 cidadesatualizado há 5 minutos');
    expect(lista.vendas!.texto).toContain('Vendas recentes');
    expect(lista.despesas!.texto).toContain('Suas despesas');
    expect(lista.saldo!.texto).toContain('Saldo');
    expect(lista.persistente!.texto).toContain('Armazenamento persistente concedido');
    expect(lista.espaco!.texto).toContain('Espaço livre: 2,0 GB');
    expect(lista.fila!.texto).toContain('Fila vazia');
    expect(botaoAtualizar()).toBeEnabled();
  });

  it('uma cópia com mais de 24 h é aviso: "Quase pronto", a lista aberta', async () => {
    await guardar(CHAVES.filter((c) => c !== 'saldo:resumo'));
    await guardar(['saldo:resumo'], { idadeMs: 25 * 60 * MIN });
    // Without reaching the server (with it, the app refreshes the copy by itself).
    montar({}, { semServidor: true });
    await waitFor(() => expect(resumo()).toHaveTextContent('Quase pronto: 1 item para conferir'));
    expect(within(cartao()).getByRole('list')).toBeInTheDocument();
    const lista = await itens();
    expect(lista.saldo).toEqual({ estado: 'aviso', texto: 'Conferir: Saldoatualizado há 1 dia: cópia antiga, atualize com sinal' });
    expect(lista.despesas!.estado).toBe('ok');
  });

  it('sem a rota no aparelho: a rota falta, e o que depende dela também', async () => {
    await guardar([DESPESAS, 'saldo:resumo']);
    montar({}, { semServidor: true });
    await waitFor(() => expect(resumo()).toHaveTextContent('Faltam 3 itens'));
    const lista = await itens();
    expect(lista.rota).toEqual({ estado: 'falta', texto: 'Falta: Rota ativa e cidadesNão está neste aparelho: toque em Atualizar tudo com sinal.' });
    expect(lista.vendas!.estado).toBe('falta');
    expect(lista.salario!.estado).toBe('falta');
    expect(lista.saldo!.estado).toBe('ok');
  });

  it('num celular compartilhado, as cópias de outra pessoa não contam', async () => {
    await guardar(CHAVES, { dono: 99 });
    montar({}, { semServidor: true });
    await waitFor(() => expect(resumo()).toHaveTextContent('Faltam 5 itens'));
  });

  it('fila com itens: "2 itens aguardando envio" não é alarme (vão sozinhos); a fila travada é; a lista acompanha ao vivo', async () => {
    await guardar(CHAVES);
    montar();
    await waitFor(() => expect(resumo()).toHaveTextContent('Tudo pronto'));
    await act(async () => {
      await enfileirarVendaDeHoje('venda-5208707', 5208707);
      await enfileirarVendaDeHoje('venda-5201108', 5201108);
    });
    await waitFor(async () =>
      expect((await itens()).fila).toEqual({ estado: 'ok', texto: 'Pronto: 2 itens aguardando envioEstão guardados neste aparelho e vão sozinhos quando houver sinal.' }),
    );
    expect(resumo()).toHaveTextContent('Tudo pronto para trabalhar sem sinal');
    // The server failed the same item three times in a row: the queue is not moving.
    await act(() => bancoLocal.outbox.where('id').notEqual('').modify({ tentativas: 3 }));
    await waitFor(async () => expect((await itens()).fila!.estado).toBe('aviso'));
    expect((await itens()).fila!.texto).toContain('O servidor não está aceitando o envio');
    expect(resumo()).toHaveTextContent('Quase pronto: 1 item para conferir');
  });

  it('pouco espaço e armazenamento não persistente aparecem, dizendo quanto', async () => {
    await guardar(CHAVES);
    Object.assign(armazenamento, { persistido: false, usado: 1900 * MB, cota: 2048 * MB });
    montar();
    await waitFor(() => expect(resumo()).toHaveTextContent('Quase pronto: 2 itens para conferir'));
    const lista = await itens();
    expect(lista.espaco).toMatchObject({ estado: 'aviso', texto: expect.stringContaining('Pouco espaço livre: 148 MB') });
    expect(lista.persistente).toMatchObject({ estado: 'aviso', texto: expect.stringContaining('Armazenamento persistente não concedido') });
  });

  it('sem conexão: a lista continua (lê o aparelho) e "Atualizar tudo" fica desativado, dizendo por quê', async () => {
    await guardar(CHAVES);
    const api = montar({ 'GET /auth/me': () => 'offline' });
    await waitFor(() => expect(resumo()).toHaveTextContent('Tudo pronto para trabalhar sem sinal'));
    ficarOffline();
    expect(botaoAtualizar()).toBeDisabled();
    expect(within(cartao()).getByText('Sem conexão: conecte-se para atualizar')).toBeInTheDocument();
    expect(resumo()).toHaveTextContent('Tudo pronto para trabalhar sem sinal');
    await userEvent.click(botaoAtualizar());
    expect(api.chamadas.filter((c) => c.caminho !== '/auth/me')).toEqual([]);
  });

  it('o navegador diz online, mas a tela não alcançou o servidor (sinal sem dados): a ação também fica desativada', async () => {
    await guardar(CHAVES);
    montar({}, { semServidor: true });
    await waitFor(() => expect(resumo()).toHaveTextContent('Tudo pronto para trabalhar sem sinal'));
    expect(navigator.onLine).toBe(true);
    expect(botaoAtualizar()).toBeDisabled();
    expect(within(cartao()).getByText('Sem conexão: conecte-se para atualizar')).toBeInTheDocument();
  });

  it('"Atualizar tudo": pede armazenamento persistente, envia a fila, recarrega cada cópia e mostra o resultado', async () => {
    armazenamento.persistido = false;
    let liberar!: () => void;
    const historicoEspera = new Promise<void>((r) => (liberar = r));
    const recebidas: string[] = [];
    const api = montar({
      'GET /rotas/ativas/funcionario': () => ({ corpo: { rotas: [rota()] } }),
      'GET /rotas/finalizadas/funcionario': () => ({ corpo: { rotas: [] } }),
      'GET /vendas/rota/7/historico': async () => {
        await historicoEspera;
        return { corpo: { historico: [] } };
      },
      'GET /rotas/7/cidades-status': () => ({ corpo: { cidades: [] } }),
      'GET /vendas/fechamento-diario': () => ({ corpo: { totais: { dinheiro: 0, pix: 0, cartao: 0, link: 0, boletos: 0, total_geral: 0 }, vendas: [] } }),
      'GET /relatorios/rota/7': () => ({ corpo: { base: { valor_aluguel: 300, cidades_visitadas_ids: [], vendas: [] } } }),
      'GET /despesas': (_c, url) => ({ corpo: { despesas: [], totais: {}, page: Number(url.searchParams.get('page')), limit: Number(url.searchParams.get('limit')), total: 0 } }),
      'GET /saldo/resumo': () => ({ corpo: { saldo_atual: 250, data_ultima_atualizacao: null } }),
      'POST /vendas': (corpo) => {
        recebidas.push((corpo as { id: string }).id);
        return { status: 201, corpo: { venda: corpo } };
      },
    });
    await enfileirarVendaDeHoje('venda-na-fila', 5208707);
    // With signal, nothing on the device yet is the app's to fetch: no alarm.
    await waitFor(() => expect(resumo()).toHaveTextContent('Preparando o aparelho para trabalhar sem sinal'));
    expect(cartao()).not.toHaveClass('viagem--falta');

    const antes = Date.now();
    await userEvent.click(botaoAtualizar());
    // While it works: 'Atualizando...', the button busy, the progress of the copies.
    await waitFor(() => expect(botaoAtualizar()).toHaveTextContent('Atualizando...'));
    expect(botaoAtualizar()).toBeDisabled();
    await waitFor(() => expect(within(cartao()).getByRole('progressbar', { name: 'Baixando os dados para trabalhar sem sinal' })).toHaveAttribute('aria-valuemax', '7'));
    expect(resumo()).toHaveTextContent(/\(\d de 7\)/);
    liberar();

    await waitFor(() => expect(screen.getByTestId('viagem-resultado')).toHaveTextContent(/^Tudo atualizado às \d\d:\d\d\.$/));
    expect(botaoAtualizar()).toHaveTextContent('Atualizar tudo');
    expect(persist).toHaveBeenCalledTimes(1);
    expect(recebidas).toEqual(['venda-na-fila']);
    expect(await bancoLocal.outbox.count()).toBe(0);
    // Every copy the employee screens read offline is on the device, just now, for this user.
    for (const chave of CHAVES) {
      const copia = await bancoLocal.cache.get(chave);
      expect(copia, chave).toMatchObject({ usuarioId: EU });
      expect(Date.parse(copia!.atualizadoEm), chave).toBeGreaterThanOrEqual(antes);
    }
    expect(api.chamadas.some((c) => c.metodo === 'GET' && c.caminho === '/vendas/fechamento-diario')).toBe(true);
    await waitFor(() => expect(resumo()).toHaveTextContent('Tudo pronto para trabalhar sem sinal'));
    expect(Object.values(await itens()).every((i) => i.estado === 'ok')).toBe(true);
  });

  it('"Atualizar tudo" com uma parte recusada pelo servidor diz qual faltou, e o resto é atualizado', async () => {
    await guardar(CHAVES, { idadeMs: 30 * 60 * MIN });
    montar({
      'GET /rotas/ativas/funcionario': () => ({ corpo: { rotas: [rota()] } }),
      'GET /rotas/finalizadas/funcionario': () => ({ corpo: { rotas: [] } }),
      'GET /vendas/rota/7/historico': () => ({ corpo: { historico: [] } }),
      'GET /rotas/7/cidades-status': () => ({ corpo: { cidades: [] } }),
      'GET /vendas/fechamento-diario': () => ({ corpo: { totais: {}, vendas: [] } }),
      'GET /relatorios/rota/7': () => ({ corpo: { base: {} } }),
      'GET /despesas': () => ({ corpo: { despesas: [] } }),
      'GET /saldo/resumo': () => ({ status: 500, corpo: { error: 'Erro interno do servidor.' } }),
    });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    // Old copies with signal: the app's to refresh, not an alarm.
    await waitFor(() => expect(resumo()).toHaveTextContent('Preparando o aparelho para trabalhar sem sinal'));
    await userEvent.click(botaoAtualizar());
    await waitFor(() => expect(screen.getByTestId('viagem-resultado')).toHaveTextContent('Não foi possível atualizar Saldo. Tente de novo.'));
    await waitFor(() => expect(resumo()).toHaveTextContent('Quase pronto: 1 item para conferir'));
    expect((await itens()).saldo).toEqual({ estado: 'aviso', texto: 'Conferir: SaldoNão veio na última tentativa: o app tenta de novo sozinho, ou toque em Atualizar tudo.' });
    vi.mocked(console.error).mockRestore();
  });

  it('primeiro login com sinal: o app baixa tudo sozinho, sem nenhum alarme, e termina pronto', async () => {
    const recebidas: string[] = [];
    // Queued before the app opens (a closing saved while the app was last open): the first pass finds it. Queued
    // after, it raced that pass (nothing here asks for another one, as the sales screen does after saving).
    await enfileirarVendaDeHoje('venda-na-fila', 5208707);
    const api = montar(servidorCompleto({ 'POST /vendas': (corpo) => (recebidas.push((corpo as { id: string }).id), { status: 201, corpo: { venda: corpo } }) }), { automatico: true });
    await waitFor(() => expect(resumo()).not.toHaveTextContent('Conferindo o aparelho'));
    expect(cartao()).not.toHaveClass('viagem--falta');
    await waitFor(() => expect(resumo()).toHaveTextContent('Tudo pronto para trabalhar sem sinal'));
    expect(screen.getByTestId('viagem-resultado')).toHaveTextContent(/^Tudo atualizado às \d\d:\d\d\.$/);
    for (const chave of CHAVES) expect(await bancoLocal.cache.get(chave), chave).toMatchObject({ usuarioId: EU });
    expect(api.chamadas.filter((c) => c.metodo === 'GET' && c.caminho === '/saldo/resumo').length).toBeGreaterThanOrEqual(1);
    expect(recebidas).toEqual(['venda-na-fila']);
  });

  it('o sinal volta: o app baixa de novo sozinho (as cópias passam a contar o que subiu)', async () => {
    await guardar(CHAVES, { idadeMs: 30 * MIN });
    online = false;
    const api = montar(servidorCompleto(), { automatico: true, semServidor: true });
    await waitFor(() => expect(resumo()).toHaveTextContent('Tudo pronto para trabalhar sem sinal'));
    // The salary's base is read only by the priming (the news watch reads the balance on its own).
    const leiturasDoSalario = () => api.chamadas.filter((c) => c.caminho === '/relatorios/rota/7').length;
    expect(leiturasDoSalario()).toBe(0);
    online = true;
    act(() => void window.dispatchEvent(new Event('online')));
    await waitFor(() => expect(leiturasDoSalario()).toBe(1));
    await waitFor(async () => expect(Date.parse((await bancoLocal.cache.get('relatorios:salario:7'))!.atualizadoEm)).toBeGreaterThan(Date.now() - 10 * MIN));
  });
});
