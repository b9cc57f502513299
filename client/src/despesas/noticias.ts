/**
 * News for the employee's phone: approvals, rejections (with the reason) and
 * balance credits that happened since the phone last looked — also while the app was closed. What
 * the phone has seen is kept per person in IndexedDB (the `meta` table, one row per person); each
 * server answer is compared with it, and what is new becomes a notice that stays until the person
 * dismisses it ('Entendi').
 *
 * The first answer a phone ever gets for a person is only recorded, without notices: there is
 * nothing to compare it with (the list itself shows the statuses).
 */
import { formatarReais } from '../../../shared/money';
import type { Despesa } from '../../../shared/schemas/despesas';
import { nomeDoTipo } from '../../../shared/schemas/tiposDespesa';
import type { CreditoRecente } from '../../../shared/schemas/saldo';
import type { BancoLocal } from '../offline/db';

export interface AvaliacaoVista {
  status: 'aprovada' | 'rejeitada';
  avaliado_em: string;
}

/** What this phone has seen of a person. Each source starts as null: its first look is recorded silently. */
export interface Vistos {
  /** The latest evaluation time seen (the server's clock): the next read asks only for later ones. */
  avaliadasAte: string | null;
  /** Each evaluated expense as last seen; null before the first look at the expenses. */
  avaliacoes: Record<string, AvaliacaoVista> | null;
  /** The highest credit movement id seen (0: none yet); null before the first look at the balance. */
  creditoAte: number | null;
}

export interface Noticia {
  /** Stable: the same change is never announced twice. */
  id: string;
  tipo: 'aprovada' | 'rejeitada' | 'credito';
  texto: string;
  /** The expense it is about, to open it. */
  despesaId?: string;
  /** When it happened (the server's evaluation or credit time): the list shows the newest first. Absent in notices kept by older versions. */
  em?: string;
}

export interface EstadoNoticias {
  vistos: Vistos;
  /** Announced and not yet dismissed. */
  pendentes: Noticia[];
}

/** How many evaluations the phone remembers (the oldest are forgotten first). */
const MAXIMO_AVALIACOES = 300;
const MAXIMO_PENDENTES = 30;

export const chaveNoticias = (usuarioId: number) => `noticias:${usuarioId}`;

const diaMes = (data: string) => `${data.slice(8, 10)}/${data.slice(5, 7)}`;

/**
 * 'Alimentação · R$ 48,00 · 03/12 rejeitada: motivo': which expense (type, amount, date), not only
 * its date; the employee may have several of a day.
 */
export function textoDaAvaliacao(d: Pick<Despesa, 'tipo' | 'tipo_outro' | 'valor' | 'data_despesa' | 'status_aprovacao' | 'motivo_rejeicao'>): string {
  const qual = `${nomeDoTipo(d.tipo, d.tipo_outro)} · ${formatarReais(d.valor)} · ${diaMes(d.data_despesa)}`;
  if (d.status_aprovacao === 'rejeitada') return `${qual} rejeitada${d.motivo_rejeicao ? `: ${d.motivo_rejeicao}` : ''}`;
  return `${qual} aprovada`;
}

export const textoDoCredito = (c: Pick<CreditoRecente, 'valor'>) => `Crédito de ${formatarReais(c.valor)} no saldo`;

export const VISTOS_VAZIOS: Vistos = { avaliadasAte: null, avaliacoes: null, creditoAte: null };

/** What changed in these expenses since `vistos` (the first look is recorded silently). Pure. */
export function novidadesDasDespesas(vistos: Vistos, despesas: Despesa[]): { noticias: Noticia[]; vistos: Vistos } {
  const primeira = vistos.avaliacoes === null;
  const avaliacoes = { ...vistos.avaliacoes };
  let avaliadasAte = vistos.avaliadasAte;
  const noticias: Noticia[] = [];
  for (const d of despesas) {
    if ((d.status_aprovacao !== 'aprovada' && d.status_aprovacao !== 'rejeitada') || !d.avaliado_em) continue;
    const antes = avaliacoes[d.id];
    if (!primeira && antes?.avaliado_em !== d.avaliado_em) {
      noticias.push({ id: `${d.id}:${d.avaliado_em}`, tipo: d.status_aprovacao, texto: textoDaAvaliacao(d), despesaId: d.id, em: d.avaliado_em });
    }
    avaliacoes[d.id] = { status: d.status_aprovacao, avaliado_em: d.avaliado_em };
    if (avaliadasAte === null || d.avaliado_em > avaliadasAte) avaliadasAte = d.avaliado_em;
  }
  const ids = Object.keys(avaliacoes);
  if (ids.length > MAXIMO_AVALIACOES) {
    ids.sort((a, b) => (avaliacoes[a]!.avaliado_em < avaliacoes[b]!.avaliado_em ? -1 : 1));
    for (const id of ids.slice(0, ids.length - MAXIMO_AVALIACOES)) delete avaliacoes[id];
  }
  // Oldest first, so they read in the order they happened.
  noticias.sort((a, b) => (a.id.split(':')[1]! < b.id.split(':')[1]! ? -1 : 1));
  return { noticias, vistos: { ...vistos, avaliadasAte, avaliacoes } };
}

/** Credits newer than the last seen (the first look is recorded silently). Pure. */
export function novidadesDosCreditos(vistos: Vistos, creditos: CreditoRecente[]): { noticias: Noticia[]; vistos: Vistos } {
  const ate = vistos.creditoAte;
  const novos = ate === null ? [] : creditos.filter((c) => c.id > ate).sort((a, b) => a.id - b.id);
  const creditoAte = Math.max(ate ?? 0, ...creditos.map((c) => c.id));
  return {
    noticias: novos.map((c) => ({ id: `credito:${c.id}`, tipo: 'credito', texto: textoDoCredito(c), ...(c.data_movimentacao ? { em: c.data_movimentacao } : {}) })),
    vistos: { ...vistos, creditoAte },
  };
}

/**
 * The 'Novidades' list's order: the newest first. Notices kept by older versions have no time: they
 * come after the dated ones, the later arrival first (they were appended as they came).
 */
export function noticiasEmOrdem(pendentes: readonly Noticia[]): Noticia[] {
  return pendentes
    .map((n, chegada) => ({ n, chegada }))
    .sort((a, b) => {
      const ea = a.n.em ?? '';
      const eb = b.n.em ?? '';
      if (ea !== eb) return ea < eb ? 1 : -1;
      return b.chegada - a.chegada;
    })
    .map((x) => x.n);
}

/** Corrections of rejected expenses this phone knows of: still queued, and accepted by the server (when). */
export interface CorrecoesDoAparelho {
  naFila: ReadonlySet<string>;
  /** The latest accepted correction of each expense, by the server's receipt time. */
  aceitasEm: ReadonlyMap<string, string>;
}

/**
 * Does a notice still offer 'Ver e corrigir'? Only a rejection whose correction is neither queued nor
 * accepted after it, and whose expense (when the list shows it) is still Rejeitada. Pure.
 */
export function pedeCorrecao(n: Noticia, correcoes: CorrecoesDoAparelho, statusAtual?: Despesa['status_aprovacao']): boolean {
  if (n.tipo !== 'rejeitada' || !n.despesaId) return false;
  if (correcoes.naFila.has(n.despesaId)) return false;
  const aceita = correcoes.aceitasEm.get(n.despesaId);
  if (aceita !== undefined && (n.em === undefined || aceita > n.em)) return false;
  return statusAtual === undefined || statusAtual === 'rejeitada';
}

function restaurar(valor: unknown): EstadoNoticias {
  const v = valor as Partial<EstadoNoticias> | undefined;
  const b = (v?.vistos ?? {}) as Partial<Vistos>;
  const vistos: Vistos = {
    avaliadasAte: typeof b.avaliadasAte === 'string' ? b.avaliadasAte : null,
    avaliacoes: b.avaliacoes && typeof b.avaliacoes === 'object' ? b.avaliacoes : null,
    creditoAte: typeof b.creditoAte === 'number' ? b.creditoAte : null,
  };
  const pendentes = Array.isArray(v?.pendentes)
    ? v.pendentes.filter((n) => n && typeof n.id === 'string' && typeof n.texto === 'string' && (n.em === undefined || typeof n.em === 'string'))
    : [];
  return { vistos, pendentes };
}

export async function lerNoticias(banco: BancoLocal, usuarioId: number): Promise<EstadoNoticias> {
  return restaurar((await banco.meta.get(chaveNoticias(usuarioId)))?.valor);
}

/**
 * Compares a server answer with what this phone has seen, records it, and returns the new notices
 * (also kept as pending until dismissed). One transaction: two answers at once never lose a change.
 */
export async function registrarNovidades(
  banco: BancoLocal,
  usuarioId: number,
  comparar: (vistos: Vistos) => { noticias: Noticia[]; vistos: Vistos },
): Promise<Noticia[]> {
  return banco.transaction('rw', banco.meta, async () => {
    const atual = restaurar((await banco.meta.get(chaveNoticias(usuarioId)))?.valor);
    const { noticias, vistos } = comparar(atual.vistos);
    const conhecidas = new Set(atual.pendentes.map((n) => n.id));
    const novas = noticias.filter((n) => !conhecidas.has(n.id));
    const pendentes = [...atual.pendentes, ...novas].slice(-MAXIMO_PENDENTES);
    await banco.meta.put({ chave: chaveNoticias(usuarioId), valor: { vistos, pendentes } satisfies EstadoNoticias });
    return novas;
  });
}

/** 'Entendi': the notices leave; what was seen stays recorded. */
export async function dispensarNoticias(banco: BancoLocal, usuarioId: number, ids?: string[]): Promise<void> {
  await banco.transaction('rw', banco.meta, async () => {
    const atual = restaurar((await banco.meta.get(chaveNoticias(usuarioId)))?.valor);
    const pendentes = ids ? atual.pendentes.filter((n) => !ids.includes(n.id)) : [];
    await banco.meta.put({ chave: chaveNoticias(usuarioId), valor: { vistos: atual.vistos, pendentes } satisfies EstadoNoticias });
  });
}
