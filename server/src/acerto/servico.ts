/**
 * Recording a route's settlement (acerto; docs/decisions/salario-e-acerto.md, 'O acerto'). The admin records the cash
 * that changed hands when a finished (or cancelled) route's money was settled: a ledger movement of type
 * 'acerto' in the employee's chained ledger, audit-logged, in one transaction.
 *
 * The ledger is the cash view (an expense's debit stays when it is rejected: the cash was spent). At the
 * settlement a rejected expense becomes the employee's own cost, so the acerto also charges each rejected
 * expense not charged before (a devolucao linked to it): after an acerto that leaves nothing open, the
 * employee's balance for the route is zero, as the settlement says. An expense approved after being
 * charged is debited again (despesas/servico.ts, avaliarUma).
 */
import { and, eq, isNull } from 'drizzle-orm';
import { calcularAcerto, recusaDoAcerto, saldoEmAberto, ROTULO_SENTIDO_ACERTO, type SentidoAcerto } from '../../../shared/acerto';
import { formatarCentavos } from '../../../shared/money';
import { contagem } from '../../../shared/texto';
import { registrarAuditoria } from '../auditoria/registro';
import { emTransacao, type Db } from '../db';
import { despesas } from '../db/tabelas';
import { buscarDespesa } from '../despesas/repositorio';
import { rotuloDespesa } from '../despesas/servico';
import { conflito, naoEncontrado } from '../errors';
import { buscarRota, donoDaRota } from '../rotas/repositorio';
import { ROTA_NAO_ENCONTRADA } from '../rotas/servico';
import { registrarMovimentacao } from '../saldo/servico';
import { contarTardiasPendentes } from '../tardias/repositorio';
import type { UsuarioSessao } from '../tipos';
import { entradasDoAcerto, rejeitadasNaoCobradas } from './repositorio';

export interface NovoAcerto {
  /** Centavos (the schema converted the reais). */
  valor: number;
  sentido: SentidoAcerto;
  observacao: string;
}

export const ACERTO_ROTA_ATIVA = 'A rota ainda está ativa: o acerto é registrado depois que o funcionário a finaliza.';

/** The settlement's figures now (without the salary, which the rule does not read). */
async function figurasSemSalario(db: Db, rotaId: number) {
  const entrada = (await entradasDoAcerto(db, [rotaId])).get(rotaId)!;
  return calcularAcerto({ ...entrada, salarioCentavos: 0, descontoAluguelCentavos: 0 });
}

export async function registrarAcerto(db: Db, admin: UsuarioSessao, rotaId: number, novo: NovoAcerto): Promise<{ movimentacaoId: number }> {
  // Under the route's employee's lock (db/travas.ts): their ledger and the route's figures change.
  return emTransacao(db, async (tx) => {
    const rota = await buscarRota(tx, rotaId);
    if (!rota) throw naoEncontrado(ROTA_NAO_ENCONTRADA);
    if (rota.status === 'ativa') throw conflito(ACERTO_ROTA_ATIVA);
    // Late writes still waiting would move the figures the acerto signs.
    const tardias = await contarTardiasPendentes(tx, rotaId);
    if (tardias > 0) {
      throw conflito(
        `Há ${contagem(tardias, 'registro que chegou', 'registros que chegaram')} depois da finalização aguardando decisão: aceite ou recuse antes de registrar o acerto.`,
      );
    }
    const antes = await figurasSemSalario(tx, rotaId);
    const recusa = recusaDoAcerto(antes, novo.valor, novo.sentido);
    if (recusa) throw conflito(recusa);

    const agora = new Date().toISOString();
    const cobradas: string[] = [];
    for (const d of await rejeitadasNaoCobradas(tx, rotaId)) {
      const despesa = (await buscarDespesa(tx, d.id))!;
      await registrarMovimentacao(tx, {
        funcionarioId: rota.funcionarioId,
        tipo: 'devolucao',
        valorCentavos: d.valorCentavos,
        descricao: `Despesa rejeitada cobrada no acerto: ${await rotuloDespesa(tx, despesa)} (${formatarCentavos(d.valorCentavos)})`,
        adminId: admin.id,
        rotaId,
        despesaId: d.id,
      });
      await tx.update(despesas).set({ cobradaNoAcertoEm: agora }).where(and(eq(despesas.id, d.id), isNull(despesas.cobradaNoAcertoEm)));
      cobradas.push(d.id);
    }
    const descricaoPadrao = novo.valor === 0 ? `Acerto da rota "${rota.nome}" sem troca de dinheiro` : `Acerto da rota "${rota.nome}": ${ROTULO_SENTIDO_ACERTO[novo.sentido].toLowerCase()}`;
    const movimentacao = await registrarMovimentacao(tx, {
      funcionarioId: rota.funcionarioId,
      tipo: 'acerto',
      sentido: novo.sentido,
      valorCentavos: novo.valor,
      descricao: novo.observacao || descricaoPadrao,
      adminId: admin.id,
      rotaId,
    });
    const depois = await figurasSemSalario(tx, rotaId);
    await registrarAuditoria(tx, {
      adminId: admin.id,
      acao: 'rota.acertar',
      alvoTipo: 'rota',
      alvoId: rotaId,
      antes: { em_aberto_centavos: saldoEmAberto(antes) },
      depois: {
        em_aberto_centavos: saldoEmAberto(depois),
        valor_centavos: novo.valor,
        sentido: novo.sentido,
        observacao: movimentacao.descricao,
        movimentacao_id: movimentacao.id,
        despesas_cobradas: cobradas,
      },
    });
    return { movimentacaoId: movimentacao.id };
  }, { usuarioDe: (tx) => donoDaRota(tx, rotaId) });
}
