/**
 * One NFC-e, one expense (issue 20, item 5): a chave already on a live expense — of anyone — is
 * refused with 409, naming that expense. The service checks inside the write's transaction; the
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
import { buscarDespesaApresentada } from './repositorio';

/** The live expense other than `despesaId` that holds this chave, if any. */
async function despesaComChave(db: Db, chave: string, despesaId: string): Promise<string | undefined> {
  const [outra] = await db
    .select({ id: despesas.id })
    .from(despesas)
    .where(and(eq(despesas.chaveNfce, chave), isNull(despesas.excluidaEm), ne(despesas.id, despesaId)))
    .limit(1);
  return outra?.id;
}

/** 'Esta NFC-e já foi lançada na despesa Alimentação — Campinas (R$ 45,90) de Ana em 12/11/2026.' */
export async function mensagemNfceJaLancada(db: Db, outraId: string): Promise<string> {
  const d = await buscarDespesaApresentada(db, outraId);
  if (!d) return 'Esta NFC-e já foi lançada em outra despesa.';
  const rotulo = `${nomeDoTipo(d.tipo, d.tipo_outro)}${d.cidade_nome ? ` — ${d.cidade_nome}` : ''}`;
  // A plain space after 'R$' (Intl puts a no-break one): the message is also read by people copying it.
  const valor = formatarReais(d.valor).replace(/\u00a0/g, ' ');
  return `Esta NFC-e já foi lançada na despesa ${rotulo} (${valor}) de ${d.funcionario_nome} em ${formatarData(d.data_despesa)}.`;
}

/** 409 when another live expense already has this chave. Null/absent: nothing to check. */
export async function exigirNfceLivre(db: Db, chave: string | null | undefined, despesaId: string): Promise<void> {
  if (!chave) return;
  const outra = await despesaComChave(db, chave, despesaId);
  if (outra) throw conflito(await mensagemNfceJaLancada(db, outra));
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
 * between) becomes the 409 naming the expense that has it; anything else is left as it was.
 */
export async function erroDaNfce(db: Db, erro: unknown, chave: string | null | undefined, despesaId: string): Promise<unknown> {
  if (!chave || !violouIndiceDaNfce(erro)) return erro;
  const outra = await despesaComChave(db, chave, despesaId);
  return conflito(outra ? await mensagemNfceJaLancada(db, outra) : 'Esta NFC-e já foi lançada em outra despesa.');
}
