/**
 * The device side of 'Pronto para viajar': which copies each employee screen needs to open offline
 * (the same device-cache keys the screens' hooks write), read back as a snapshot for the checklist,
 * and 'Atualizar tudo', which loads every one of them from the server while there is signal.
 *
 * Screen -> what it reads offline:
 * - Dashboard: rotas:ativas:<id>, rotas:finalizadas:<id>, saldo:resumo, relatorios:salario:<rota>;
 * - Minhas Rotas: rotas:ativas:<id>, rotas:finalizadas:<id>;
 * - Vendas: rotas:ativas:<id>, vendas:dia:<rota>:<hoje>, vendas:historico:<rota>;
 * - Despesas: rotas:ativas:<id>, saldo:resumo, despesas:lista:<first page, no filters>.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { ListaDespesas } from '../../../shared/schemas/despesas';
import type { RelatorioSalarioRota } from '../../../shared/schemas/relatorios';
import type { CidadeStatus, Rota } from '../../../shared/schemas/rotas';
import type { ResumoSaldoFuncionario } from '../../../shared/schemas/saldo';
import type { FechamentoDiario, HistoricoResposta } from '../../../shared/schemas/vendas';
import { api, ErroOffline } from '../api/client';
import { lerTodasAsPaginas } from '../api/paginas';
import { chavesDespesas, parametrosDaLista, type FiltrosDespesas } from '../despesas/consultas';
import { abrirJanelaDeLeituras, buscarComCache, datasDasCopias, lerDoCache, REUSO_MS } from '../offline/cache';
import type { BancoLocal } from '../offline/db';
import { itensDoUsuario, lerConfirmacoes } from '../offline/outbox';
import { chavesCacheRotas, chavesRotas, rotaAtivaDaLista } from '../rotas/consultas';
import { chavesSaldo } from '../saldo/consultas';
import { chavesCache as chavesCacheVendas, chavesVendas } from '../vendas/consultas';
import { chaveCacheSalario, chavesDashboard } from './consultas';
import { TENTATIVAS_FILA_TRAVADA, type Copia, type RetratoAparelho } from './prontoParaViajar';

/** The employee's Despesas as it opens: no filters, first page (PaginaDespesas' initial state). */
const FILTROS_SEM_NADA: FiltrosDespesas = {
  funcionario_id: '',
  rota_id: '',
  status_rota: '',
  data_inicio: '',
  data_fim: '',
  tipo: '',
  status_aprovacao: '',
};
const PARAMETROS_DESPESAS = parametrosDaLista(FILTROS_SEM_NADA, 1, false);

/** Device-cache keys the screens write (despesas/consultas.ts and saldo/consultas.ts build these inline). */
export const chavesCacheViagem = {
  despesas: `despesas:lista:${JSON.stringify(PARAMETROS_DESPESAS)}`,
  saldo: 'saldo:resumo',
};

/** The copies part of the snapshot (IndexedDB only: read inside a live query, so the card follows every write). */
export type CopiasDoAparelho = Omit<RetratoAparelho, 'persistente' | 'livreBytes'>;

const copia = (c: { atualizadoEm: string } | null): Copia | null =>
  c && typeof c.atualizadoEm === 'string' && !Number.isNaN(Date.parse(c.atualizadoEm)) ? { atualizadoEm: c.atualizadoEm } : null;

/** Reads this user's copies and queue (never another person's, on a shared phone). `hoje`: the APP_TZ date. */
export async function lerCopiasDoAparelho(banco: BancoLocal, usuarioId: number, hoje: string): Promise<CopiasDoAparelho> {
  // Only the route list is read whole (the active route's name and cities); every other copy is
  // dated from the index: on a cheap phone, reading them all back at each write of the priming
  // took most of the dashboard's main thread.
  const [datas, rotas, itens] = await Promise.all([
    datasDasCopias(banco, usuarioId),
    lerDoCache<unknown>(banco, chavesCacheRotas.ativas(usuarioId), usuarioId),
    itensDoUsuario(banco, usuarioId),
  ]);
  const copiaDe = (chave: string) => copia(datas.has(chave) ? { atualizadoEm: datas.get(chave)! } : null);
  const ativa = rotas ? rotaAtivaDaLista(rotas.dados) : null;
  const copiaRotas = copia(rotas);
  const recusados = itens.filter((i) => i.estado === 'erro').length;
  const travados = itens.filter((i) => i.estado === 'pendente' && i.tentativas >= TENTATIVAS_FILA_TRAVADA).length;
  return {
    rotas: copiaRotas && {
      ...copiaRotas,
      ativa: ativa && { nome: String(ativa.nome ?? ''), cidades: Array.isArray(ativa.cidades) ? ativa.cidades.length : 0 },
    },
    finalizadas: copiaDe(chavesCacheRotas.finalizadas(usuarioId)),
    historico: ativa ? copiaDe(chavesCacheVendas.historico(ativa.id)) : null,
    diaDeHoje: ativa ? copiaDe(chavesCacheVendas.dia(ativa.id, hoje)) : null,
    despesas: copiaDe(chavesCacheViagem.despesas),
    saldo: copiaDe(chavesCacheViagem.saldo),
    salario: ativa ? copiaDe(chaveCacheSalario(ativa.id)) : null,
    fila: { aguardando: itens.length - recusados, recusados, travados },
  };
}

export interface Armazenamento {
  persistente: boolean | null;
  livreBytes: number | null;
}

/** navigator.storage as the checklist needs it; null where the browser cannot say. */
export async function lerArmazenamento(): Promise<Armazenamento> {
  const storage = typeof navigator === 'undefined' ? undefined : navigator.storage;
  let persistente: boolean | null = null;
  let livreBytes: number | null = null;
  try {
    if (storage?.persisted) persistente = await storage.persisted();
  } catch {
    persistente = null;
  }
  try {
    if (storage?.estimate) {
      const { usage = 0, quota } = await storage.estimate();
      if (typeof quota === 'number' && quota > 0) livreBytes = Math.max(0, quota - usage);
    }
  } catch {
    livreBytes = null;
  }
  return { persistente, livreBytes };
}

export interface ResultadoAtualizacao {
  /** What could not be refreshed (checklist titles), empty when everything came. */
  falhas: string[];
  /** Some piece failed for lack of connection (not a refusal of the server). */
  semConexao: boolean;
  /** When the refresh ended (ISO). */
  em: string;
  /** The confirmation counter once the queue was sent: the copies include every write up to it. */
  confirmacoesAte: number;
}

export interface OpcoesAtualizacao {
  banco: BancoLocal;
  usuarioId: number;
  hoje: string;
  queryClient: QueryClient;
  /** The sync engine's 'Sincronizar agora'. */
  sincronizar: () => Promise<void>;
  /** Asks for persistent storage (no-op when already granted). */
  pedirPersistencia: () => Promise<boolean>;
  /** Told after each copy answered (or failed): `feitos` of `total`. */
  aoProgredir?: (feitos: number, total: number) => void;
  /**
   * The app's own runs (PreparoAutomatico): a copy the screens read from the server in the last
   * REUSO_MS, with no write confirmed since, counts as read (the app's opening read the dashboard's
   * copies twice). 'Atualizar tudo' asks for every one again.
   */
  automatico?: boolean;
}

/**
 * 'Atualizar tudo': persistent storage, the queue sent (so the copies that follow include it), then
 * every copy the employee screens read offline, from the server, and the screens' queries told so.
 */
export async function atualizarTudo(o: OpcoesAtualizacao): Promise<ResultadoAtualizacao> {
  const { banco, usuarioId, hoje } = o;
  await o.pedirPersistencia().catch(() => false);
  try {
    await o.sincronizar();
  } catch (erro) {
    // The queue keeps its items and its own retries; the copies can still be refreshed.
    console.error('Erro ao sincronizar a fila:', erro);
  }
  const confirmacoesAte = await lerConfirmacoes(banco);
  // Each copy asked of the server once for this run and the screens' refresh after it (offline/cache.ts).
  const inicio = Date.now();
  const desde = o.automatico ? inicio - REUSO_MS : inicio;
  abrirJanelaDeLeituras(confirmacoesAte, desde, inicio);

  const falhas = new Set<string>();
  let semConexao = false;
  // The route first, then the others (3 without a route, 6 with one: known once the route is in).
  let total = 4;
  let feitos = 0;
  o.aoProgredir?.(feitos, total);
  /** One copy: only an answer from the server counts (buscarComCache falls back to the kept one offline). */
  async function passo<T>(rotulo: string, chave: string, buscar: () => Promise<T>): Promise<T | null> {
    try {
      const r = await buscarComCache(banco, chave, usuarioId, buscar);
      if (r.origem === 'servidor') return r.dados;
      semConexao = true;
    } catch (erro) {
      if (erro instanceof ErroOffline) semConexao = true;
      else console.error(`Erro ao atualizar ${rotulo}:`, erro);
    } finally {
      feitos += 1;
      o.aoProgredir?.(feitos, total);
    }
    falhas.add(rotulo);
    return null;
  }

  const rotas = await passo('Rota ativa', chavesCacheRotas.ativas(usuarioId), () => api.get<{ rotas: Rota[] }>('/rotas/ativas/funcionario').then((r) => r.rotas));
  // Offline mid-way, the kept route still says which route's copies to ask for.
  const ativa = rotaAtivaDaLista(rotas ?? (await lerDoCache(banco, chavesCacheRotas.ativas(usuarioId), usuarioId))?.dados);
  total = ativa ? 7 : 4;
  o.aoProgredir?.(feitos, total);
  const passos: Promise<unknown>[] = [
    passo('Rotas concluídas', chavesCacheRotas.finalizadas(usuarioId), () => api.get<{ rotas: Rota[] }>('/rotas/finalizadas/funcionario').then((r) => r.rotas)),
    passo('Saldo', chavesCacheViagem.saldo, () => api.get<ResumoSaldoFuncionario>('/saldo/resumo')),
    passo('Suas despesas', chavesCacheViagem.despesas, () => api.get<ListaDespesas>('/despesas', { params: PARAMETROS_DESPESAS })),
  ];
  if (ativa) {
    const rotaId = ativa.id;
    passos.push(
      passo('Vendas recentes', chavesCacheVendas.historico(rotaId), async () => (await api.get<HistoricoResposta>(`/vendas/rota/${rotaId}/historico`)).historico),
      // The same pair useDiaDaRota keeps: the day's city status and closings, fetched together.
      passo('Vendas recentes', chavesCacheVendas.dia(rotaId, hoje), async () => {
        const [status, fechamento] = await Promise.all([
          api.get<{ cidades: CidadeStatus[] }>(`/rotas/${rotaId}/cidades-status`, { params: { data: hoje } }),
          // Every page: the server answers at most a page of the day's closings.
          lerTodasAsPaginas<FechamentoDiario, 'vendas'>('/vendas/fechamento-diario', 'vendas', { rota_id: rotaId, data: hoje }),
        ]);
        return { status: status.cidades, vendas: fechamento.vendas };
      }),
      passo('Salário estimado', chaveCacheSalario(rotaId), async () => (await api.get<RelatorioSalarioRota>(`/relatorios/rota/${rotaId}`)).base),
    );
  }
  await Promise.all(passos);
  // A run on a slow link outlasts the window: the screens' refresh below still takes its reads.
  abrirJanelaDeLeituras(confirmacoesAte, desde);

  // The screens on show read their data again (the others when opened). Not awaited: without
  // signal a screen's read waits paused for the network, and the run would never end. Their reads
  // take the copies just read (offline/cache.ts: no second request for the same pass); the expense
  // lists only, not the news watch (its notices are no copy, and it reads them on its own).
  for (const queryKey of [chavesRotas.minhas(usuarioId), chavesVendas.funcionario(usuarioId), [...chavesDespesas.todos, 'lista'], chavesSaldo.todos, chavesDashboard.funcionario(usuarioId)]) {
    void o.queryClient.invalidateQueries({ queryKey });
  }
  return { falhas: [...falhas], semConexao, em: new Date().toISOString(), confirmacoesAte };
}
