/**
 * Sale rules (decisions.md, 'Sales and visits'): one closing per route, city and date; writes come
 * from phones that were offline, so every write is idempotent and ordered by the time the device
 * recorded it (last write wins). Each write is a function of (db, usuario, dados, fuso) with no HTTP
 * in it, so a batch sync can replay many of them through the same rules.
 */
import { hoje } from '../../../shared/dates';
import { HISTORICO_POR_CIDADE, type ResumoVendas, type TotaisVendas, type ValoresVenda, type VendaCriarDados, type VendaEditarDados, type VendaHistorico, type VendaListada, type VendasFiltro } from '../../../shared/schemas/vendas';
import { emTransacao, TRAVA_LEITURA, type Db } from '../db';
import { aguardar, rodarPassos, type Talvez } from '../db/talvez';
import type { ValoresEmConflito } from '../../../shared/api/errors';
import { diferencasDoConflito, MENSAGEM_CONFLITO_DE_VERSAO } from '../../../shared/sync/diferencasDoConflito';
import { conflito, conflitoDeVersao, ErroApp, naoEncontrado, regraDeNegocio, semPermissao } from '../errors';
import { exigirRotaAtivaDoFuncionario, exigirRotaVisivel } from '../rotas/servico';
import { camposDaPagina, janelaDaPagina } from '../paginacao';
import type { UsuarioSessao } from '../tipos';
import {
  atualizarValoresDaVenda,
  buscarVenda,
  buscarVendaDoDia,
  diasDasVendas,
  historicoDaRota,
  inserirVendaSeLivre,
  listarVendas,
  resumoDaRota,
  totalDosDias,
  totaisDasVendas,
  type FiltroVendas,
  type LinhaVenda,
} from './repositorio';

export const VENDA_NAO_ENCONTRADA = 'Venda não encontrada.';
export const ID_JA_USADO = 'Este identificador já foi usado por outro registro.';
export const SO_FUNCIONARIOS = 'Apenas funcionários registram vendas.';
export const DATA_NO_FUTURO = 'A data da venda não pode estar no futuro.';

function exigirFuncionario(usuario: UsuarioSessao) {
  if (usuario.tipo !== 'funcionario') throw semPermissao(SO_FUNCIONARIOS);
}

function colunasDosValores(v: ValoresVenda) {
  return {
    dinheiroCentavos: v.valor_dinheiro,
    pixCentavos: v.valor_pix,
    cartaoCentavos: v.valor_cartao,
    linkCentavos: v.valor_link,
    boletos: v.valor_boletos,
    observacoes: v.observacoes,
  };
}

/**
 * Who is writing (docs/decisions/vendas.md, 'Conflitos'): a queued operation names its device and, for an
 * edit of a closing it read from the server, the version it was based on. The single endpoint (an
 * API caller) writes in the server's order of arrival, unless it also names a version.
 */
export interface OrigemVenda {
  clienteId: string | null;
  versaoBase?: number | null | undefined;
  /**
   * An operation in the format of app versions before the protocol (sync/legado.ts): it carries only
   * the phone's clock, so it changes a row no device has changed since only if recorded later.
   */
  legado?: boolean;
}

const DA_API: OrigemVenda = { clienteId: null };

function valoresDaLinha(v: LinhaVenda): ValoresEmConflito {
  return {
    valor_dinheiro: v.dinheiroCentavos,
    valor_pix: v.pixCentavos,
    valor_cartao: v.cartaoCentavos,
    valor_link: v.linkCentavos,
    valor_boletos: v.boletos,
    observacoes: v.observacoes,
  };
}

function valoresEnviados(v: ValoresVenda): ValoresEmConflito {
  const { valor_dinheiro, valor_pix, valor_cartao, valor_link, valor_boletos, observacoes } = v;
  return { valor_dinheiro, valor_pix, valor_cartao, valor_link, valor_boletos, observacoes };
}

const mesmosValores = (a: ValoresEmConflito, b: ValoresEmConflito) =>
  a.valor_dinheiro === b.valor_dinheiro &&
  a.valor_pix === b.valor_pix &&
  a.valor_cartao === b.valor_cartao &&
  a.valor_link === b.valor_link &&
  a.valor_boletos === b.valor_boletos &&
  a.observacoes === b.observacoes;

/** 'Pix: no servidor R$ 550,90, neste aparelho R$ 670,40', for each field that differs (the panel shows the same). */
function descreverDiferencas(servidor: ValoresEmConflito, enviados: ValoresEmConflito): string {
  return diferencasDoConflito({ servidor, enviado: enviados })
    .map((d) => `${d.rotulo}: no servidor ${d.servidor}, neste aparelho ${d.aparelho}`)
    .join('; ');
}

/**
 * May this write change the stored closing? Yes when it names the stored version, when this device
 * changed it last (its operations arrive in its own order), when the row predates the sync
 * protocol, or for an API caller without a version (order of arrival). Otherwise the write was made
 * on a copy someone else has changed since: a conflict the employee sees with both values.
 */
export function podeAlterarVenda(atual: Pick<LinhaVenda, 'versao' | 'alteradaPorCliente' | 'registradoEm'>, origem: OrigemVenda, registradoEm: string): boolean {
  if (origem.legado) return atual.alteradaPorCliente === null && registradoEm > atual.registradoEm;
  if (origem.clienteId !== null && atual.alteradaPorCliente === origem.clienteId) return true;
  if (typeof origem.versaoBase === 'number') return origem.versaoBase === atual.versao;
  return origem.clienteId === null || atual.alteradaPorCliente === null;
}

/** Stores the write's values, or refuses it as a conflict; the same values again change nothing. */
async function aplicarNaVenda(db: Db, atual: LinhaVenda, valores: ValoresVenda, registradoEm: string, origem: OrigemVenda): Promise<void> {
  const enviados = valoresEnviados(valores);
  const servidor = valoresDaLinha(atual);
  if (mesmosValores(enviados, servidor)) return;
  if (!podeAlterarVenda(atual, origem, registradoEm)) {
    throw conflitoDeVersao(
      `${MENSAGEM_CONFLITO_DE_VERSAO} ${descreverDiferencas(servidor, enviados)}. Escolha qual manter.`,
      { versao_atual: atual.versao, alterado_em: atual.atualizadoEm, servidor, enviado: enviados },
    );
  }
  await atualizarValoresDaVenda(db, atual.id, colunasDosValores(valores), registradoEm, origem.clienteId);
}

export interface ResultadoVenda {
  /** The sale's id: this write's own, or the one of the closing it converged on. */
  id: string;
  /** True when this call created the record (201); false for a replay, an edit or a converged create. */
  criada: boolean;
  /** When the server took it, if this call created it (saves reading it back for the receipt). */
  recebidaEm?: string;
}

/**
 * POST /vendas. The employee's own active route and a city of it — or a finished or cancelled one
 * when the sale is dated inside the period it was active (shared/periodoRota.ts); the date not in the future.
 * - The same id again is a replay: answered with the stored record, unchanged — unless it carries a
 *   `registrado_em` newer than the stored one (the device edited the closing it created).
 * - Another id for a (route, city, date) that already has a closing (a second device) updates that
 *   record when recorded later, and is answered with it: both devices converge on one record.
 * - A city with a sale on a date is visited on that date: every reading of 'visited' (the day's
 *   status, the salary's cities, the reports) looks at sales and visits, so no visit row is written
 *   for a sale (the visits table holds the visits without a sale). That row was a third of the cost of
 *   each queued sale replayed by the batch sync.
 */
export function salvarVenda(db: Db, usuario: UsuarioSessao, dados: VendaCriarDados, fuso: string, origem: OrigemVenda = DA_API): Talvez<ResultadoVenda> {
  // Inside the transaction's function: refused as the rest is (a rejection, or a throw inside a batch's steps).
  return emTransacao(
    db,
    (tx) => {
      exigirFuncionario(usuario);
      return rodarPassos(passosDeSalvarVenda(tx, usuario, dados, fuso, origem));
    },
    { usuario: usuario.id },
  );
}

/**
 * salvarVenda's steps (db/talvez.ts): a queued sale replayed by the batch runs them all at once on SQLite,
 * with no promise per statement.
 */
function* passosDeSalvarVenda(tx: Db, usuario: UsuarioSessao, dados: VendaCriarDados, fuso: string, origem: OrigemVenda): Generator<unknown, ResultadoVenda, unknown> {
  const registradoEm = dados.registrado_em ?? new Date().toISOString();
  // The usual case is a new closing on a free (route, city, date): checked, then inserted straight
  // away, skipped if its id or its day is taken. Only then is the id looked up (that read
  // was a tenth of each queued sale). The outcome is the one of looking the id up first: a taken id
  // goes the replay's way below whether or not the route still takes new closings.
  const recusaDaNova = yield* motivoParaNaoCriar(tx, usuario, dados, fuso);
  if (!recusaDaNova) {
    const recebidaEm = (yield inserirVendaSeLivre(tx, {
      id: dados.id,
      rotaId: dados.rota_id,
      cidadeId: dados.cidade_id,
      funcionarioId: usuario.id,
      dataVenda: dados.data_venda,
      ...colunasDosValores(dados),
      registradoEm,
      alteradaPorCliente: origem.clienteId,
    })) as string | null;
    if (recebidaEm) return { id: dados.id, criada: true, recebidaEm };
  }

  const mesma = yield* aguardar(buscarVenda(tx, dados.id));
  if (mesma) {
    const mesmoRegistro =
      mesma.funcionarioId === usuario.id && mesma.rotaId === dados.rota_id && mesma.cidadeId === dados.cidade_id && mesma.dataVenda === dados.data_venda;
    if (!mesmoRegistro) throw conflito(ID_JA_USADO);
    // A replay is answered even after the route was finished: the write it repeats was accepted.
    if (mesmosValores(valoresEnviados(dados), valoresDaLinha(mesma))) return { id: mesma.id, criada: false };
    yield* aguardar(exigirRotaAtivaDoFuncionario(tx, usuario, mesma.rotaId, { data: mesma.dataVenda, fuso, cidadeId: mesma.cidadeId }));
    yield* aguardar(aplicarNaVenda(tx, mesma, dados, dados.registrado_em ?? new Date().toISOString(), origem));
    return { id: mesma.id, criada: false };
  }
  if (recusaDaNova) throw recusaDaNova;
  // The id is free, so the (route, city, date) is taken: the day's closing.
  const doDia = (yield* aguardar(buscarVendaDoDia(tx, dados.rota_id, dados.cidade_id, dados.data_venda)))!;
  // The route is this employee's, and its employee cannot change once it has sales.
  if (doDia.funcionarioId !== usuario.id) throw conflito(ID_JA_USADO);
  yield* aguardar(aplicarNaVenda(tx, doDia, dados, registradoEm, origem));
  return { id: doDia.id, criada: false };
}

/** Why a sale with a new id may not be written (the route's rule, a date in the future), or null. Steps of salvarVenda. */
function* motivoParaNaoCriar(db: Db, usuario: UsuarioSessao, dados: VendaCriarDados, fuso: string): Generator<unknown, ErroApp | null, unknown> {
  try {
    yield exigirRotaAtivaDoFuncionario(db, usuario, dados.rota_id, { data: dados.data_venda, fuso, cidadeId: dados.cidade_id });
  } catch (erro) {
    if (erro instanceof ErroApp) return erro;
    throw erro;
  }
  return dados.data_venda > hoje(fuso) ? regraDeNegocio(DATA_NO_FUTURO) : null;
}

/**
 * PUT /vendas/{id}: the owner changes the amounts and note while the route is active, in the
 * server's order of arrival; with `versao_base`, only if nobody changed it since that version.
 */
export async function editarVenda(db: Db, usuario: UsuarioSessao, id: string, dados: VendaEditarDados, fuso: string): Promise<string> {
  exigirFuncionario(usuario);
  return emTransacao(db, async (tx) => {
    const venda = await buscarVenda(tx, id);
    if (!venda || venda.funcionarioId !== usuario.id) throw naoEncontrado(VENDA_NAO_ENCONTRADA);
    if (mesmosValores(valoresEnviados(dados), valoresDaLinha(venda))) return id;
    // A closed route takes the change when the sale is dated inside its active period (`fuso`: the day it closed).
    await exigirRotaAtivaDoFuncionario(tx, usuario, venda.rotaId, { data: venda.dataVenda, fuso, cidadeId: venda.cidadeId });
    await aplicarNaVenda(tx, venda, dados, dados.registrado_em ?? new Date().toISOString(), { clienteId: null, versaoBase: dados.versao_base });
    return id;
  }, { usuario: usuario.id });
}

/** The filter as this user may apply it: an employee always sees only their own sales. */
export function filtroDoUsuario(usuario: UsuarioSessao, f: VendasFiltro): FiltroVendas {
  const filtro: FiltroVendas = {};
  const funcionarioId = usuario.tipo === 'admin' ? f.funcionario_id : usuario.id;
  if (funcionarioId !== undefined) filtro.funcionarioId = funcionarioId;
  if (f.rota_id !== undefined) filtro.rotaId = f.rota_id;
  if (f.cidade_id !== undefined) filtro.cidadeIds = f.cidade_id;
  if (f.data !== undefined) filtro.data = f.data;
  if (f.data_inicio !== undefined) filtro.dataInicio = f.data_inicio;
  if (f.data_fim !== undefined) filtro.dataFim = f.data_fim;
  if (f.status_rota !== undefined) filtro.statusRota = f.status_rota;
  return filtro;
}

/** GET /vendas: one page of the filtered sales and how many there are in all (one transaction: the count and the page agree). */
export async function consultarVendas(db: Db, usuario: UsuarioSessao, f: VendasFiltro): Promise<{ vendas: VendaListada[]; total: number; page: number; limit: number }> {
  const filtro = filtroDoUsuario(usuario, f);
  return emTransacao(db, async (tx) => {
    const dias = await diasDasVendas(tx, filtro);
    return { vendas: await listarVendas(tx, filtro, janelaDaPagina(f), dias), ...camposDaPagina(totalDosDias(dias), f) };
  }, TRAVA_LEITURA);
}

/** GET /vendas/fechamento-diario: the totals of the whole filtered set, and one page of its sales. */
export async function fechamentoDiario(
  db: Db,
  usuario: UsuarioSessao,
  f: VendasFiltro,
): Promise<{ totais: TotaisVendas; vendas: VendaListada[]; total: number; page: number; limit: number }> {
  const filtro = filtroDoUsuario(usuario, f);
  return emTransacao(db, async (tx) => {
    const { linhas, ...totais } = await totaisDasVendas(tx, filtro);
    return { totais, vendas: await listarVendas(tx, filtro, janelaDaPagina(f)), ...camposDaPagina(linhas, f) };
  }, TRAVA_LEITURA);
}

/** Totals of a route: admins any route, an employee only their own (others look absent). */
export async function resumoDeRota(db: Db, usuario: UsuarioSessao, rotaId: number): Promise<ResumoVendas> {
  const rota = await exigirRotaVisivel(db, usuario, rotaId);
  return resumoDaRota(db, rota.id);
}

/** The last sales of each city of a route, for the employee's 'Histórico de vendas'. */
export async function historicoDeRota(db: Db, usuario: UsuarioSessao, rotaId: number): Promise<VendaHistorico[]> {
  const rota = await exigirRotaVisivel(db, usuario, rotaId);
  return historicoDaRota(db, rota.id, HISTORICO_POR_CIDADE);
}
