/**
 * 'One refresh per pass': the signal comes back to a phone with a field day queued and the
 * employee's dashboard open (the app's own QueryClient setup, the priming that runs by itself, the
 * real sync engine). After the pass that confirms the day, each copy the dashboard reads from the
 * server is read ONCE, not once by the reconnect, once by the priming and once more by the
 * invalidation after it (~13 GETs were seen after a field day's pass in the browser benchmark).
 */
import { act, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Rota } from '../../../shared/schemas/rotas';
import { criarQueryClient } from '../app/Provedores';
import { hojeNoApp } from '../config/configApp';
import { PaginaDashboard } from '../dashboard/PaginaDashboard';
import { preparo } from '../dashboard/preparo';
import { PreparoAutomatico } from '../dashboard/PreparoAutomatico';
import { enfileirarCriacao } from '../despesas/operacoes';
import { entrarComo, FUNCIONARIO_TESTE, renderizarApp, simularApi, type ManipuladorApi } from '../test/renderizar';
import { rotaDeTeste } from '../test/rotas';
import { enfileirarVenda, enfileirarVisita } from '../vendas/operacoes';
import { motorSync } from '.';
import { bancoLocal } from './db';
import { itensDoUsuario } from './outbox';

const EU = FUNCIONARIO_TESTE.id;
const HOJE = hojeNoApp();
const CIDADES = Array.from({ length: 14 }, (_, i) => 5200000 + i);

function rota(): Rota {
  return rotaDeTeste({ valor_aluguel: 300, cidades: CIDADES.map((id, i) => ({ id, nome: `Cidade ${i + 1}`, uf: 'GO' })) });
}

let online = false;

/** The day recorded with no signal: 12 closings, 2 visits, 3 expenses (the screens' own queueing functions). */
async function diaDeCampo() {
  for (let i = 0; i < 12; i++) {
    await enfileirarVenda(bancoLocal, EU, {
      id: `venda-${i}`,
      rota_id: 7,
      cidade_id: CIDADES[i]!,
      data_venda: HOJE,
      valor_dinheiro: 10000,
      valor_pix: 0,
      valor_cartao: 0,
      valor_link: 0,
      valor_boletos: 1,
      observacoes: '',
      registrado_em: new Date().toISOString(),
      cidade_nome: `Cidade ${i + 1}`,
      cidade_uf: 'GO',
    });
  }
  for (let i = 12; i < 14; i++) await enfileirarVisita(bancoLocal, EU, { id: `visita-${i}`, rota_id: 7, cidade_id: CIDADES[i]!, data: HOJE, registrado_em: new Date().toISOString() });
  for (let i = 0; i < 3; i++) {
    await enfileirarCriacao(
      EU,
      { id: `despesa-${i}`, rota_id: 7, cidade_id: CIDADES[0]!, data_despesa: HOJE, tipo: 'alimentacao', tipo_outro: '', valor: 25.9, descricao: 'Almoço', registrado_em: new Date().toISOString(), rota_nome: 'Rota 7', cidade_nome: 'Cidade 1', cidade_uf: 'GO', funcionario_nome: 'Bruno Campo' },
      null,
    );
  }
}

const semSinal = (f: ManipuladorApi): ManipuladorApi => (corpo, url) => (online ? f(corpo, url) : 'offline');

/** The server the dashboard reads (and the day's writes land on), answering only while `online`. */
function servidorDoPainel() {
  const despesasLidas: ('novidades' | 'copia')[] = [];
  const api = simularApi({
    'GET /auth/me': semSinal(() => ({ corpo: { usuario: FUNCIONARIO_TESTE } })),
    'GET /rotas/ativas/funcionario': semSinal(() => ({ corpo: { rotas: [rota()] } })),
    'GET /rotas/finalizadas/funcionario': semSinal(() => ({ corpo: { rotas: [] } })),
    'GET /vendas/rota/7/historico': semSinal(() => ({ corpo: { historico: [] } })),
    'GET /rotas/7/cidades-status': semSinal(() => ({ corpo: { cidades: [] } })),
    'GET /vendas/fechamento-diario': semSinal(() => ({ corpo: { totais: { dinheiro: 0, pix: 0, cartao: 0, link: 0, boletos: 0, total_geral: 0 }, vendas: [] } })),
    'GET /relatorios/rota/7': semSinal(() => ({ corpo: { base: { valor_aluguel: 300, cidades_visitadas_ids: [], vendas: [] } } })),
    'GET /despesas': semSinal((_c, url) => (despesasLidas.push(url.searchParams.get('limit') === '100' ? 'novidades' : 'copia'), { corpo: { despesas: [], totais: {}, page: Number(url.searchParams.get('page')), limit: Number(url.searchParams.get('limit')), total: 0 } })),
    'GET /saldo/resumo': semSinal(() => ({ corpo: { saldo_atual: 250, data_ultima_atualizacao: null } })),
    'POST /vendas': semSinal((corpo) => ({ status: 201, corpo: { venda: { ...(corpo as object), atualizado_em: new Date().toISOString() } } })),
    'POST /rotas/7/cidades/:cidade/visitar': semSinal(() => ({ status: 201, corpo: { visita: { recebido_em: new Date().toISOString() } } })),
    'POST /despesas': semSinal(() => ({ status: 201, corpo: { despesa: { recebido_em: new Date().toISOString() } } })),
  });
  return { api, despesasLidas };
}

/** How many times each path was read (GET) in these calls. */
function leiturasPorCaminho(chamadas: { metodo: string; caminho: string }[]): Record<string, number> {
  const leituras: Record<string, number> = {};
  for (const c of chamadas) if (c.metodo === 'GET') leituras[c.caminho] = (leituras[c.caminho] ?? 0) + 1;
  return leituras;
}

const COPIAS_DO_PAINEL = ['/rotas/ativas/funcionario', '/rotas/finalizadas/funcionario', '/relatorios/rota/7', '/saldo/resumo'];

beforeEach(async () => {
  await Promise.all(bancoLocal.tables.map((t) => t.clear()));
  preparo.esquecer();
  online = false;
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
});

afterEach(() => {
  motorSync.parar();
  online = true;
});

describe('o sinal volta com um dia de campo na fila e o painel aberto', () => {
  it('depois da passada, cada cópia do painel é lida do servidor uma vez só', async () => {
    entrarComo(FUNCIONARIO_TESTE);
    const { api, despesasLidas } = servidorDoPainel();
    // The copies the phone kept before the signal went, then the day recorded offline.
    online = true;
    await act(async () => {
      await preparo.preparar({ banco: bancoLocal, usuarioId: EU, hoje: HOJE, queryClient: criarQueryClient(), sincronizar: async () => undefined, pedirPersistencia: async () => true });
    });
    online = false;
    await diaDeCampo();
    expect(await itensDoUsuario(bancoLocal, EU)).toHaveLength(17);

    // The app as it opens offline: its QueryClient, the dashboard, the priming, the sync engine.
    const queryClient = criarQueryClient();
    renderizarApp([{ path: '/dashboard', element: <><PreparoAutomatico usuarioId={EU} /><PaginaDashboard /></> }], { em: '/dashboard', queryClient });
    await act(async () => {
      await motorSync.iniciar();
    });
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    expect(await itensDoUsuario(bancoLocal, EU)).toHaveLength(17);

    // The screen's data is older than the app's staleTime when the signal comes back (a phone offline for hours).
    await act(async () => {
      await queryClient.invalidateQueries({ refetchType: 'none' });
    });
    // The signal is back.
    const antes = api.chamadas.length;
    despesasLidas.length = 0;
    online = true;
    act(() => void window.dispatchEvent(new Event('online')));
    await waitFor(async () => expect(await itensDoUsuario(bancoLocal, EU)).toHaveLength(0));
    await waitFor(() => expect(motorSync.estado().sincronizando).toBe(false));
    // Whatever the pass's end sets off (the priming, the screens' refresh) has run and answered.
    await waitFor(() => expect(preparo.estado()).toMatchObject({ rodando: false, ultimo: { semConexao: false } }));
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    await act(async () => {
      await bancoLocal.outbox.count();
    });
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));

    const leituras = leiturasPorCaminho(api.chamadas.slice(antes));
    for (const caminho of COPIAS_DO_PAINEL) {
      expect({ caminho, leituras: leituras[caminho] }).toEqual({ caminho, leituras: 1 });
    }
    // The expense list's copy once; the news watch asks /despesas for its own notices (not a copy), at most once.
    expect(despesasLidas.filter((d) => d === 'copia')).toHaveLength(1);
    expect(despesasLidas.filter((d) => d === 'novidades').length).toBeLessThanOrEqual(1);
  });
});

describe('o app abre com sinal e nada na fila', () => {
  it('cada cópia do painel é lida do servidor uma vez: a tela, a preparação automática e a releitura depois dela dividem as respostas', async () => {
    entrarComo(FUNCIONARIO_TESTE);
    online = true;
    const { api, despesasLidas } = servidorDoPainel();
    const queryClient = criarQueryClient();
    renderizarApp([{ path: '/dashboard', element: <><PreparoAutomatico usuarioId={EU} /><PaginaDashboard /></> }], { em: '/dashboard', queryClient });
    await act(async () => {
      await motorSync.iniciar();
    });
    await waitFor(() => expect(preparo.estado()).toMatchObject({ rodando: false, ultimo: { semConexao: false, falhas: [] } }));
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    await act(async () => {
      await bancoLocal.outbox.count();
    });
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));

    const leituras = leiturasPorCaminho(api.chamadas);
    for (const caminho of COPIAS_DO_PAINEL) {
      expect({ caminho, leituras: leituras[caminho] }).toEqual({ caminho, leituras: 1 });
    }
    expect(despesasLidas.filter((d) => d === 'copia')).toHaveLength(1);
  });
});
