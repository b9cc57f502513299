/**
 * Writing the audit trail. Each admin action calls `registrarAuditoria` with the handle of
 * the transaction that makes its effect (`tx`, from emTransacao): the trail can never say something happened that did not, nor miss
 * something that did. The snapshots (`retrato*`) name the fields a person reads in the trail, money in
 * centavos, and never a secret (no password hash, no session id).
 */
import { eq } from 'drizzle-orm';
import type { AcaoAuditoria, AlvoAuditoria } from '../../../shared/schemas/auditoria';
import type { Db } from '../db';
import { auditoria, rotaCidades } from '../db/tabelas';
import type { LinhaDespesa } from '../despesas/repositorio';
import type { LinhaRota } from '../rotas/repositorio';
import type { LinhaUsuario } from '../usuarios/repositorio';

type Retrato = Record<string, unknown>;

export interface RegistroNovo {
  adminId: number;
  acao: AcaoAuditoria;
  alvoTipo: AlvoAuditoria;
  alvoId: string | number;
  antes: Retrato | null;
  depois: Retrato | null;
}

/** `tx`: the transaction that makes the recorded effect, so both commit or neither does. */
export async function registrarAuditoria(tx: Db, r: RegistroNovo): Promise<void> {
  await tx
    .insert(auditoria)
    .values({
      adminId: r.adminId,
      acao: r.acao,
      alvoTipo: r.alvoTipo,
      alvoId: String(r.alvoId),
      antes: r.antes === null ? null : JSON.stringify(r.antes),
      depois: r.depois === null ? null : JSON.stringify(r.depois),
      criadoEm: new Date().toISOString(),
    });
}

export const retratoUsuario = (u: LinhaUsuario): Retrato => ({ nome: u.nome, email: u.email, tipo: u.tipo, ativo: u.ativo, bloqueado: u.bloqueado });

export async function retratoRota(db: Db, r: LinhaRota): Promise<Retrato> {
  const cidades = await db.select({ id: rotaCidades.cidadeId }).from(rotaCidades).where(eq(rotaCidades.rotaId, r.id)).orderBy(rotaCidades.ordem, rotaCidades.id);
  return {
    nome: r.nome,
    funcionario_id: r.funcionarioId,
    status: r.status,
    data_inicio: r.dataInicio,
    data_fim: r.dataFim,
    tem_secretario: r.temSecretario,
    secretario_nome: r.secretarioNome,
    valor_aluguel_centavos: r.valorAluguelCentavos,
    observacoes: r.observacoes,
    cidades: cidades.map((c) => c.id),
  };
}

export const retratoAvaliacao = (d: LinhaDespesa): Retrato => ({
  funcionario_id: d.funcionarioId,
  valor_centavos: d.valorCentavos,
  status_aprovacao: d.statusAprovacao,
  motivo_rejeicao: d.motivoRejeicao,
  avaliado_por: d.avaliadoPor,
  avaliado_em: d.avaliadoEm,
});
