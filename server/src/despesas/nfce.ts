/**
 * One NFC-e, one expense: a chave already on a live expense — of anyone — is refused with 409. The
 * refusal names that expense (type, city, amount, owner, date) only to whoever may see it: its owner,
 * or an admin (who meets the refusal accepting a write held after a route's finish, where the write
 * runs as its employee). Any other employee reads MENSAGEM_NFCE_DE_OUTRO: naming it would let anyone
 * probe a chave for a colleague's expense. The service checks inside the write's transaction; the
 * partial unique index despesas_chave_nfce is the last line of defence, and its violation is
 * answered with the same 409 (never a 500).
 */
import { and, eq, isNull, ne } from 'drizzle-orm';
import { formatarData } from '../../../shared/dates';
import { formatarReais } from '../../../shared/money';
import { nomeDoTipo } from '../../../shared/schemas/despesas';
import type { Db } from '../db';
import { despesas } from '../db/tabelas';
import { conflito } from '../errors';
import type { UsuarioSessao } from '../tipos';
import { buscarDespesaApresentada } from './repositorio';

export const MENSAGEM_NFCE_DE_OUTRO = 'Esta NFC-e já foi lançada por outro funcionário.';

/** Who the refusal is written for: the user the write runs as (an admin's acceptance runs it as the employee, aceitaTardiaNaRota set). */
export type LeitorDaRecusa = Pick<UsuarioSessao, 'id' | 'tipo' | 'aceitaTardiaNaRota'>;

/** The expense that has the chave may be described to its owner and to an admin; to nobody else. */
export function podeVerDespesaDaChave(leitor: LeitorDaRecusa, donoId: number): boolean {
  return leitor.tipo === 'admin' || leitor.aceitaTardiaNaRota !== undefined || leitor.id === donoId;
}

/** The live expense other than `despesaId` that holds this chave, if any. */
async function despesaComChave(db: Db, chave: string, despesaId: string): Promise<{ id: string; funcionarioId: number } | undefined> {
  const [outra] = await db
    .select({ id: despesas.id, funcionarioId: despesas.funcionarioId })
    .from(despesas)
    .where(and(eq(despesas.chaveNfce, chave), isNull(despesas.excluidaEm), ne(despesas.id, despesaId)))
    .limit(1);
  return outra;
}

/**
 * To its owner or an admin: 'Esta NFC-e já foi lançada na despesa Alimentação — Campinas (R$ 45,90) de
 * Ana em 12/11/2026.'; to anyone else, MENSAGEM_NFCE_DE_OUTRO.
 */
async function mensagemNfceJaLancada(db: Db, outra: { id: string; funcionarioId: number }, leitor: LeitorDaRecusa): Promise<string> {
  if (!podeVerDespesaDaChave(leitor, outra.funcionarioId)) return MENSAGEM_NFCE_DE_OUTRO;
  const d = await buscarDespesaApresentada(db, outra.id);
  if (!d) return 'Esta NFC-e já foi lançada em outra despesa.';
  const rotulo = `${nomeDoTipo(d.tipo, d.tipo_outro)}${d.cidade_nome ? ` — ${d.cidade_nome}` : ''}`;
  // A plain space after 'R$' (Intl puts a no-break one): the message is also read by people copying it.
  const valor = formatarReais(d.valor).replace(/\u00a0/g, ' ');
  return `Esta NFC-e já foi lançada na despesa ${rotulo} (${valor}) de ${d.funcionario_nome} em ${formatarData(d.data_despesa)}.`;
}

/** 409 when another live expense already has this chave, worded for `leitor`. Null/absent: nothing to check. */
export async function exigirNfceLivre(db: Db, chave: string | null | undefined, despesaId: string, leitor: LeitorDaRecusa): Promise<void> {
  if (!chave) return;
  const outra = await despesaComChave(db, chave, despesaId);
  if (outra) throw conflito(await mensagemNfceJaLancada(db, outra, leitor));
}

/** The index's refusal as each driver reports it (SQLite names the column, PostgreSQL the index), or drizzle's wrapper around it. */
function violouIndiceDaNfce(erro: unknown): boolean {
  const e = erro as { code?: unknown; message?: unknown; constraint?: unknown; cause?: unknown } | null | undefined;
  if (!e) return false;
  if (e.code === 'SQLITE_CONSTRAINT_UNIQUE' && typeof e.message === 'string' && e.message.includes('despesas.chave_nfce')) return true;
  if (e.code === '23505' && e.constraint === 'despesas_chave_nfce') return true;
  return e.cause !== undefined && e.cause !== erro && violouIndiceDaNfce(e.cause);
}

/**
 * What a failed write throws: the unique index's refusal of the chave (another write got it in
 * between) becomes the same 409 as the service's check; anything else is left as it was.
 */
export async function erroDaNfce(db: Db, erro: unknown, chave: string | null | undefined, despesaId: string, leitor: LeitorDaRecusa): Promise<unknown> {
  if (!chave || !violouIndiceDaNfce(erro)) return erro;
  const outra = await despesaComChave(db, chave, despesaId);
  return conflito(outra ? await mensagemNfceJaLancada(db, outra, leitor) : 'Esta NFC-e já foi lançada em outra despesa.');
}
