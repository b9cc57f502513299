/**
 * The balance ledger (decisions.md, 'Balance ledger'). Each employee's movements form a chain:
 * every movement's saldo_anterior is the previous one's saldo_novo, and the last saldo_novo is the
 * current balance. Movements are only appended, always inside the transaction of the change that
 * causes them (a credit, an expense registered, changed or deleted). The balance may go negative.
 */
import { dataNoFuso, hoje } from '../../../shared/dates';
import { comoCentavos } from '../../../shared/money';
import type { SentidoAcerto } from '../../../shared/acerto';
import type { TipoMovimentacao } from '../../../shared/schemas/saldo';
import { emTransacao, type Db } from '../db';
import { naoEncontrado, regraDeNegocio } from '../errors';
import { buscarRota } from '../rotas/repositorio';
import type { UsuarioSessao } from '../tipos';
import { buscarUsuarioPorId } from '../usuarios/repositorio';
import { registrarAuditoria } from '../auditoria/registro';
import { inserirMovimentacao, listarMovimentacoes, saldosDosFuncionarios, ultimaMovimentacao, type LinhaMovimentacao } from './repositorio';

export interface NovaMovimentacao {
  funcionarioId: number;
  tipo: TipoMovimentacao;
  /** Centavos, > 0 (an acerto may be 0): the type, and an acerto's sentido, give the direction. */
  valorCentavos: number;
  /** Only for an acerto. */
  sentido?: SentidoAcerto;
  descricao: string;
  adminId?: number | null;
  rotaId?: number | null;
  despesaId?: string | null;
}

/**
 * What a movement does to the balance: credits and refunds add, debits subtract; an acerto subtracts the
 * cash the employee handed back ('devolvido') and adds what the company paid them ('pago').
 */
export function efeitoNoSaldo(tipo: TipoMovimentacao, valorCentavos: number, sentido: SentidoAcerto | null = null): number {
  if (tipo === 'acerto') return sentido === 'pago' ? valorCentavos : -valorCentavos;
  return tipo === 'debito' ? -valorCentavos : valorCentavos;
}

/** The employee's balance in centavos and the time of the last movement (0 and null without movements). */
export async function saldoAtual(db: Db, funcionarioId: number): Promise<{ centavos: number; ultima: string | null }> {
  const ultima = await ultimaMovimentacao(db, funcionarioId);
  return { centavos: ultima?.saldoNovoCentavos ?? 0, ultima: ultima?.dataMovimentacao ?? null };
}

/**
 * Appends one movement to the employee's chain. Call it with the transaction (`tx`) of the change
 * that causes it: it joins that transaction; given the database, it opens its own, so alone it is
 * still atomic (the balance it reads is the one it extends).
 */
export async function registrarMovimentacao(db: Db, nova: NovaMovimentacao): Promise<LinhaMovimentacao> {
  comoCentavos(nova.valorCentavos);
  if (nova.valorCentavos < 0 || (nova.valorCentavos === 0 && nova.tipo !== 'acerto')) throw new RangeError(`Movimentação sem valor: ${nova.valorCentavos}`);
  if ((nova.tipo === 'acerto') !== (nova.sentido !== undefined)) throw new RangeError('Só um acerto tem sentido, e todo acerto tem um.');
  // The employee's lock before their last movement is read, whoever opened the transaction (db/travas.ts):
  // the chain's next link is written by one transaction at a time.
  return emTransacao(db, async (tx) => {
    const anterior = (await saldoAtual(tx, nova.funcionarioId)).centavos;
    return inserirMovimentacao(tx, {
      funcionarioId: nova.funcionarioId,
      tipo: nova.tipo,
      valorCentavos: nova.valorCentavos,
      saldoAnteriorCentavos: anterior,
      saldoNovoCentavos: anterior + efeitoNoSaldo(nova.tipo, nova.valorCentavos, nova.sentido ?? null),
      sentido: nova.sentido ?? null,
      descricao: nova.descricao,
      adminId: nova.adminId ?? null,
      rotaId: nova.rotaId ?? null,
      despesaId: nova.despesaId ?? null,
      dataMovimentacao: new Date().toISOString(),
    });
  }, { usuario: nova.funcionarioId });
}

export interface DadosCredito {
  funcionario_id: number;
  /** Centavos (the schema converted the reais). */
  valor: number;
  descricao: string;
  rota_id: number | null;
}

/** POST /saldo/adicionar: an admin credits an employee, optionally tied to one of their active routes. */
export async function adicionarSaldo(db: Db, admin: UsuarioSessao, dados: DadosCredito): Promise<LinhaMovimentacao> {
  return emTransacao(db, async (tx) => {
    const funcionario = await buscarUsuarioPorId(tx, dados.funcionario_id);
    if (!funcionario || funcionario.tipo !== 'funcionario') throw regraDeNegocio('Funcionário não encontrado.');
    if (!funcionario.ativo) throw regraDeNegocio('Este funcionário está inativo e não pode receber saldo.');
    if (dados.rota_id !== null) {
      const rota = await buscarRota(tx, dados.rota_id);
      if (!rota || rota.funcionarioId !== funcionario.id || rota.status !== 'ativa') {
        throw regraDeNegocio('A rota escolhida não é uma rota ativa deste funcionário.');
      }
    }
    const credito = await registrarMovimentacao(tx, {
      funcionarioId: funcionario.id,
      tipo: 'credito',
      valorCentavos: dados.valor,
      descricao: dados.descricao,
      adminId: admin.id,
      rotaId: dados.rota_id,
    });
    // The employee's balance is what changed: before and after it, with the credit that moved it.
    await registrarAuditoria(tx, {
      adminId: admin.id,
      acao: 'saldo.creditar',
      alvoTipo: 'usuario',
      alvoId: funcionario.id,
      antes: { saldo_centavos: credito.saldoAnteriorCentavos },
      depois: { saldo_centavos: credito.saldoNovoCentavos, valor_centavos: credito.valorCentavos, descricao: credito.descricao, rota_id: credito.rotaId, movimentacao_id: credito.id },
    });
    return credito;
  }, { usuario: dados.funcionario_id });
}

/** The three cards of the admin's balance page, in centavos: the employees the page lists (a deactivated one with money too). */
export async function resumoAdmin(db: Db, fuso: string, agora = new Date()): Promise<{ totalFuncionarios: number; saldoTotal: number; movimentacoesHoje: number }> {
  const saldos = await saldosDosFuncionarios(db);
  // "Today" is the APP_TZ date: look at the last two UTC days and keep what falls on today there.
  const desde = new Date(agora.getTime() - 48 * 3600_000).toISOString();
  const dia = hoje(fuso, agora);
  const recentes = await listarMovimentacoes(db, { desde }, 1, 1_000_000);
  return {
    totalFuncionarios: saldos.length,
    saldoTotal: saldos.reduce((soma, s) => soma + s.saldo, 0),
    movimentacoesHoje: recentes.filter((m) => dataNoFuso(new Date(m.data_movimentacao), fuso) === dia).length,
  };
}

/** An employee's balance as the admin or the employee themself may read it. */
export async function exigirSaldoVisivel(db: Db, usuario: UsuarioSessao, funcionarioId: number): Promise<{ centavos: number; ultima: string | null }> {
  const mensagem = 'Funcionário não encontrado.';
  // An employee never learns anything about another: the same 404 as a missing id.
  if (usuario.tipo !== 'admin' && usuario.id !== funcionarioId) throw naoEncontrado(mensagem);
  const funcionario = await buscarUsuarioPorId(db, funcionarioId);
  if (!funcionario || funcionario.tipo !== 'funcionario') throw naoEncontrado(mensagem);
  return saldoAtual(db, funcionarioId);
}
