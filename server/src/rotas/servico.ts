/**
 * Route rules: who sees and writes which route, the route's life (ativa -> finalizada | cancelada,
 * and cancelada -> ativa when an admin reopens it), what may be deleted, and visits. Sales and
 * expenses ask here before writing.
 */
import { eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { hoje } from '../../../shared/dates';
import type { StatusRota } from '../../../shared/schemas/rotas';
import { registrarAuditoria, retratoRota } from '../auditoria/registro';
import { emTransacao, type Db } from '../db';
import { depois, type Talvez } from '../db/talvez';
import { rotas, visitas } from '../db/tabelas';
import { conflito, ErroRotaFinalizada, naoEncontrado, regraDeNegocio } from '../errors';
import type { UsuarioSessao } from '../tipos';
import { buscarUsuarioPorId } from '../usuarios/repositorio';
import { cidadesExistentes } from '../cidades/repositorio';
import {
  buscarRota,
  cidadesComMovimento,
  donoDaRota,
  listarLinhasRotas,
  movimentoDaRota,
  substituirCidades,
  type LinhaRota,
  buscarVisitaDoDia,
  buscarVisitaPorId,
  inserirVisita,
  apagarVisitaDoDia,
} from './repositorio';
import { situacaoParaEscrita, type SituacaoParaEscrita } from './situacaoParaEscrita';
import { mensagemForaDoPeriodo, periodoAtivo, situacaoDaData } from '../../../shared/periodoRota';
import { plural } from '../../../shared/texto';

export const ROTA_NAO_ENCONTRADA = 'Rota não encontrada.';
export const ROTA_NAO_ENCONTRADA_OU_EXCLUIDA = 'Rota não encontrada ou já foi excluída.';

/** The route if this user may see it: admins see all; an employee only their own (others look absent). */
export async function exigirRotaVisivel(db: Db, usuario: UsuarioSessao, rotaId: number): Promise<LinhaRota> {
  const rota = await buscarRota(db, rotaId);
  if (!rota || (usuario.tipo !== 'admin' && rota.funcionarioId !== usuario.id)) throw naoEncontrado(ROTA_NAO_ENCONTRADA);
  return rota;
}

export function mensagemRotaFechada(status: StatusRota): string {
  return status === 'cancelada'
    ? 'Esta rota foi cancelada e não aceita novos registros.'
    : 'Esta rota já foi finalizada e não aceita novos registros.';
}

/** A field record being written on a route: its date, and the city when it has one. */
export interface EscritaNaRota {
  /** The record's date ('yyyy-mm-dd'): a sale's data_venda, a visit's data, an expense's data_despesa. */
  data: string;
  /** APP_TZ: the day a route was created, finished or cancelled. */
  fuso: string;
  cidadeId?: number;
}

/**
 * The route an employee is writing to (sale, visit, expense, or a change to one): their own, and
 * active. Finished by its employee, it takes nothing (409 'rota_finalizada': the figures the salary and
 * the settlement were computed on stay as they were; a queued write is held for the admin, sync/lote.ts).
 * Cancelled by an admin, it takes records dated inside the period it was active (shared/periodoRota.ts:
 * work done on the road outlives the admin's cancel). Never dated before the route began (422 naming the
 * period). With `cidadeId`, the city must belong to the route.
 */
export function exigirRotaAtivaDoFuncionario(db: Db, usuario: UsuarioSessao, rotaId: number, escrita: EscritaNaRota): Talvez<void> {
  // Route and city in one lookup when there is a city: each queued sale and visit passes here (at once on SQLite, db/talvez.ts).
  const rota: Talvez<LinhaRota | SituacaoParaEscrita | undefined> = escrita.cidadeId === undefined ? buscarRota(db, rotaId) : situacaoParaEscrita(db, rotaId, escrita.cidadeId);
  return depois(rota, (r) => exigirAtivaParaEscrita(r, rotaId, usuario, escrita));
}

function exigirAtivaParaEscrita(encontrada: LinhaRota | SituacaoParaEscrita | undefined, rotaId: number, usuario: UsuarioSessao, { data, fuso, cidadeId }: EscritaNaRota): void {
  if (!encontrada || encontrada.funcionarioId !== usuario.id) throw naoEncontrado(ROTA_NAO_ENCONTRADA);
  let rota = encontrada;
  if (rota.status === 'finalizada') {
    // The employee's own finish freezes the route's figures: nothing new or changed on it. An admin accepting
    // a held late write runs it as the route would have taken it before the finish (still active).
    if (usuario.aceitaTardiaNaRota === rotaId) rota = { ...rota, status: 'ativa' };
    else if (situacaoDaData(rota, data, fuso) !== 'antes_do_inicio') throw new ErroRotaFinalizada(rotaId, mensagemRotaFechada('finalizada'));
  }
  const situacao = situacaoDaData(rota, data, fuso);
  if (situacao !== 'dentro') {
    // Dated before the route began: 422 naming the period. After a closed route's end: 409, as before.
    const periodo = periodoAtivo(rota, fuso);
    if (situacao === 'antes_do_inicio' && periodo) throw regraDeNegocio(mensagemForaDoPeriodo(data, periodo, hoje(fuso)));
    throw conflito(mensagemRotaFechada(rota.status));
  }
  if (cidadeId !== undefined && !('temCidade' in rota && rota.temCidade)) throw regraDeNegocio('Esta cidade não faz parte da rota.');
}

export interface DadosRota {
  nome: string;
  funcionario_id: number;
  tem_secretario: boolean;
  secretario_nome: string;
  valor_aluguel: number; // centavos (the schema converted it)
  data_inicio: string;
  data_fim: string;
  observacoes: string;
  cidades: number[];
}

/**
 * `funcionarioAtual`: on edit, the route's employee. Keeping them is fine even if they were
 * deactivated since (an admin fixing an old route); giving a route to an inactive one is not.
 */
async function validarDadosRota(db: Db, dados: DadosRota, funcionarioAtual?: number): Promise<number[]> {
  const funcionario = await buscarUsuarioPorId(db, dados.funcionario_id);
  if (!funcionario || funcionario.tipo !== 'funcionario') throw regraDeNegocio('Funcionário não encontrado.');
  if (!funcionario.ativo && funcionario.id !== funcionarioAtual) {
    throw regraDeNegocio('Este funcionário está inativo e não pode receber rotas.');
  }
  if (dados.data_fim < dados.data_inicio) throw regraDeNegocio('A data de fim não pode ser anterior à data de início.');
  const ids = [...new Set(dados.cidades)]; // the same city twice is kept once
  const existentes = new Set((await cidadesExistentes(db, ids)).map((c) => c.id));
  const faltando = ids.filter((id) => !existentes.has(id));
  if (faltando.length > 0) throw regraDeNegocio(`${plural(faltando.length, 'Cidade não encontrada', 'Cidades não encontradas')}: ${faltando.join(', ')}.`);
  return ids;
}

/** One active route per employee: every employee screen works on "the" active route. */
async function exigirSemOutraRotaAtiva(db: Db, funcionarioId: number, exceto?: number): Promise<void> {
  const outra = (await listarLinhasRotas(db, { status: 'ativa', funcionarioId })).find((r) => r.id !== exceto);
  if (outra) throw conflito(`Este funcionário já tem uma rota ativa ("${outra.nome}"). Finalize ou cancele essa rota antes.`);
}

function colunas(dados: DadosRota) {
  return {
    nome: dados.nome,
    funcionarioId: dados.funcionario_id,
    temSecretario: dados.tem_secretario,
    secretarioNome: dados.tem_secretario && dados.secretario_nome ? dados.secretario_nome : null,
    valorAluguelCentavos: dados.valor_aluguel,
    dataInicio: dados.data_inicio,
    dataFim: dados.data_fim,
    observacoes: dados.observacoes,
  };
}

export async function criarRota(db: Db, adminId: number, dados: DadosRota): Promise<LinhaRota> {
  const ids = await validarDadosRota(db, dados);
  return emTransacao(db, async (tx) => {
    await exigirSemOutraRotaAtiva(tx, dados.funcionario_id);
    const [rota] = await tx
      .insert(rotas)
      .values({ ...colunas(dados), criadoPor: adminId })
      .returning();
    await substituirCidades(tx, rota!.id, ids);
    await registrarAuditoria(tx, { adminId, acao: 'rota.criar', alvoTipo: 'rota', alvoId: rota!.id, antes: null, depois: await retratoRota(tx, rota!) });
    return rota!;
  });
}

export async function editarRota(db: Db, adminId: number, id: number, dados: DadosRota): Promise<LinhaRota> {
  const atual = await buscarRota(db, id);
  if (!atual) throw naoEncontrado(ROTA_NAO_ENCONTRADA);
  const ids = await validarDadosRota(db, dados, atual.funcionarioId);
  return emTransacao(db, async (tx) => {
    const antes = await retratoRota(tx, atual);
    if (dados.funcionario_id !== atual.funcionarioId) {
      const m = await movimentoDaRota(tx, id);
      if (m.vendas + m.despesas + m.movimentacoes > 0 || (await cidadesComMovimento(tx, id)).length > 0) {
        throw conflito('Não é possível trocar o funcionário: a rota já tem vendas, visitas, despesas ou saldo registrados.');
      }
      if (atual.status === 'ativa') await exigirSemOutraRotaAtiva(tx, dados.funcionario_id, id);
    }
    const mantidas = new Set(ids);
    const removidasComMovimento = (await cidadesComMovimento(tx, id)).filter((c) => !mantidas.has(c));
    if (removidasComMovimento.length > 0) {
      const nomes = (await cidadesExistentes(tx, removidasComMovimento)).map((c) => c.nome);
      throw conflito(`Não é possível remover da rota ${nomes.join(', ')}: já há vendas, visitas ou despesas registradas.`);
    }
    const [rota] = await tx
      .update(rotas)
      .set({ ...colunas(dados), atualizadoEm: new Date().toISOString() })
      .where(eq(rotas.id, id))
      .returning();
    await substituirCidades(tx, id, ids);
    await registrarAuditoria(tx, { adminId, acao: 'rota.editar', alvoTipo: 'rota', alvoId: id, antes, depois: await retratoRota(tx, rota!) });
    return rota!;
  });
}

/** Only routes without recorded money can be deleted (financial history is never lost by accident). */
export async function excluirRota(db: Db, adminId: number, id: number): Promise<void> {
  await emTransacao(db, async (tx) => {
    const rota = await buscarRota(tx, id);
    if (!rota) throw naoEncontrado(ROTA_NAO_ENCONTRADA_OU_EXCLUIDA);
    // The employee's result of a finished route (salary, balance to return) is history: it stays.
    if (rota.status === 'finalizada') throw conflito(ROTA_FINALIZADA_NAO_EXCLUI);
    const m = await movimentoDaRota(tx, id);
    if (m.vendas + m.despesas + m.movimentacoes > 0) {
      throw conflito('Esta rota tem vendas, despesas ou saldo registrados e não pode ser excluída. Finalize ou cancele a rota.');
    }
    const antes = await retratoRota(tx, rota);
    await tx.delete(visitas).where(eq(visitas.rotaId, id));
    await tx.delete(rotas).where(eq(rotas.id, id));
    await registrarAuditoria(tx, { adminId, acao: 'rota.excluir', alvoTipo: 'rota', alvoId: id, antes, depois: null });
  });
}

/**
 * The closing moment goes with the status: finalizada_em, cancelada_em (the end of the period the
 * route was active, shared/periodoRota.ts); back to 'ativa' (reopened) clears cancelada_em.
 */
async function mudarStatus(db: Db, id: number, status: StatusRota): Promise<LinhaRota> {
  const agora = new Date().toISOString();
  const fechamento = status === 'finalizada' ? { finalizadaEm: agora } : status === 'cancelada' ? { canceladaEm: agora } : { canceladaEm: null };
  const [rota] = await db
    .update(rotas)
    .set({ status, atualizadoEm: agora, ...fechamento })
    .where(eq(rotas.id, id))
    .returning();
  return rota!;
}

export const ROTA_CANCELADA_NAO_FINALIZA =
  'Esta rota foi cancelada pelo administrador e não pode ser finalizada. As vendas, visitas e despesas feitas até o dia do cancelamento continuam sendo aceitas.';
export const ROTA_FINALIZADA_NAO_EXCLUI = 'Uma rota finalizada faz parte do histórico do funcionário e não pode ser excluída.';
export const SO_CANCELADAS_REABREM = 'Só rotas canceladas podem ser reabertas.';

/** The employee finishes their own active route. Finishing again is answered with the route (a replay). */
export async function finalizarRota(db: Db, usuario: UsuarioSessao, id: number): Promise<LinhaRota> {
  // Read and changed in one transaction: an admin's cancelling in between is not overwritten.
  return emTransacao(db, async (tx) => {
    const rota = await exigirRotaVisivel(tx, usuario, id);
    if (rota.funcionarioId !== usuario.id) throw naoEncontrado(ROTA_NAO_ENCONTRADA);
    if (rota.status === 'finalizada') return rota;
    if (rota.status === 'cancelada') throw conflito(ROTA_CANCELADA_NAO_FINALIZA);
    return mudarStatus(tx, id, 'finalizada');
  }, { usuario: usuario.id });
}

/** An admin cancels an active route. Cancelling again is answered with the route. */
export async function cancelarRota(db: Db, adminId: number, id: number): Promise<LinhaRota> {
  return emTransacao(db, async (tx) => {
    const rota = await buscarRota(tx, id);
    if (!rota) throw naoEncontrado(ROTA_NAO_ENCONTRADA);
    if (rota.status === 'cancelada') return rota;
    if (rota.status === 'finalizada') throw conflito('Uma rota finalizada não pode ser cancelada.');
    const cancelada = await mudarStatus(tx, id, 'cancelada');
    await registrarAuditoria(tx, { adminId, acao: 'rota.cancelar', alvoTipo: 'rota', alvoId: id, antes: { status: rota.status }, depois: { status: cancelada.status, cancelada_em: cancelada.canceladaEm } });
    return cancelada;
  });
}

/**
 * An admin reopens a cancelled route (a cancellation by mistake): active again, cancelada_em
 * cleared, so records dated after the cancellation are taken again. Only cancelled routes (a
 * finished one was closed by its employee), only for an active employee, and only while the
 * employee has no other active route (one active route per employee).
 */
export async function reabrirRota(db: Db, adminId: number, id: number): Promise<LinhaRota> {
  return emTransacao(db, async (tx) => {
    const rota = await buscarRota(tx, id);
    if (!rota) throw naoEncontrado(ROTA_NAO_ENCONTRADA);
    if (rota.status !== 'cancelada') throw conflito(SO_CANCELADAS_REABREM);
    const funcionario = await buscarUsuarioPorId(tx, rota.funcionarioId);
    if (!funcionario?.ativo) throw regraDeNegocio('Este funcionário está inativo e não pode receber rotas.');
    await exigirSemOutraRotaAtiva(tx, rota.funcionarioId, id);
    const reaberta = await mudarStatus(tx, id, 'ativa');
    await registrarAuditoria(tx, { adminId, acao: 'rota.reabrir', alvoTipo: 'rota', alvoId: id, antes: { status: rota.status, cancelada_em: rota.canceladaEm }, depois: { status: reaberta.status } });
    return reaberta;
  });
}

export interface NovaVisita {
  id?: string;
  data?: string;
  registradoEm?: string;
}

export type LinhaVisita = typeof visitas.$inferSelect;

/**
 * The visit stored under a client id, when this is a replay of it; null for a new id. The same id
 * on anything else (another user, route, city or date) is refused.
 */
async function visitaJaRecebida(
  db: Db,
  id: string,
  esperada: { funcionarioId: number; rotaId: number; cidadeId: number; data: string },
): Promise<LinhaVisita | null> {
  const mesma = await buscarVisitaPorId(db, id);
  if (!mesma) return null;
  if (mesma.funcionarioId !== esperada.funcionarioId || mesma.rotaId !== esperada.rotaId || mesma.cidadeId !== esperada.cidadeId || mesma.data !== esperada.data) {
    throw conflito('Este identificador já foi usado por outro registro.');
  }
  return mesma;
}

/**
 * Marks the city visited on a date (idempotent): one visit per route, city and date. The same
 * client id answered again is a replay; the same id from another user or for another city is refused.
 * Used by the visit endpoint and by saving a sale.
 */
export async function garantirVisita(
  db: Db,
  funcionarioId: number,
  rotaId: number,
  cidadeId: number,
  dataVisita: string,
  { id, registradoEm }: { id?: string; registradoEm?: string } = {},
): Promise<LinhaVisita> {
  if (id) {
    const mesma = await visitaJaRecebida(db, id, { funcionarioId, rotaId, cidadeId, data: dataVisita });
    if (mesma) return mesma;
  }
  const existente = await buscarVisitaDoDia(db, rotaId, cidadeId, dataVisita);
  if (existente) return existente;
  return inserirVisita(db, { id: id ?? uuidv7(), rotaId, cidadeId, funcionarioId, data: dataVisita, registradoEm: registradoEm ?? new Date().toISOString() });
}

/**
 * 'Desfazer' on the phone's 'Marcar como visitada' toast, when the visit already reached the server:
 * the city goes back to open on that date. Only on the employee's own route while it takes writes
 * for that date (the same rule as marking it: a finished route's figures stay as they were). Keyed
 * by the day, not by the visit's id: a visit of the same day from another of the employee's devices
 * converged on one row (garantirVisita), and undoing means the city was not visited. Nothing to
 * remove answers false: a replayed undo changes nothing.
 */
export async function desfazerVisita(db: Db, usuario: UsuarioSessao, fuso: string, rotaId: number, cidadeId: number, data: string): Promise<boolean> {
  return emTransacao(db, async (tx) => {
    await exigirRotaAtivaDoFuncionario(tx, usuario, rotaId, { data, fuso, cidadeId });
    return apagarVisitaDoDia(tx, usuario.id, rotaId, cidadeId, data);
  });
}

/**
 * The employee marks a city of their route visited (spec: visitar; decisions: with its date): an
 * active route, or a closed one when the visit is dated inside the period it was active.
 */
export async function registrarVisita(
  db: Db,
  usuario: UsuarioSessao,
  fuso: string,
  rotaId: number,
  cidadeId: number,
  visita: NovaVisita,
): Promise<LinhaVisita> {
  return emTransacao(db, async (tx) => {
    const rota = await exigirRotaVisivel(tx, usuario, rotaId);
    const dataVisita = visita.data ?? hoje(fuso);
    // A replay of a visit the server already has is answered even if the route was finished since
    // (the first answer was lost on the way back to the phone).
    if (visita.id) {
      const recebida = await visitaJaRecebida(tx, visita.id, { funcionarioId: usuario.id, rotaId: rota.id, cidadeId, data: dataVisita });
      if (recebida) return recebida;
    }
    await exigirRotaAtivaDoFuncionario(tx, usuario, rotaId, { data: dataVisita, fuso, cidadeId });
    if (dataVisita > hoje(fuso)) throw regraDeNegocio('A data da visita não pode estar no futuro.');
    return garantirVisita(tx, usuario.id, rotaId, cidadeId, dataVisita, visita);
  }, { usuarioDe: (tx) => donoDaRota(tx, rotaId) });
}
