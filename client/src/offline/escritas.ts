/**
 * The device's full copy: what a screen shows is a copy of the server's answer (offline/cache.ts)
 * with this person's own writes laid over it. Those writes are the queued and refused ones (the
 * outbox) AND the ones the server confirmed after the copy was read (the history, `sincronizados`):
 * without the second group, a copy read in the morning and a day of sales sent at noon read as a
 * morning's numbers once the signal goes (it read 'Cidades Atendidas 2/8' offline, 6/8 online).
 *
 * 'After the copy was read' is the device's confirmation counter (outbox.ts), not a clock: a phone
 * with a wrong clock still orders them right. Once a copy read after a confirmation arrives, that
 * write is in the copy and drops out of the overlay.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { bancoLocal, type BancoLocal, type ItemOutbox, type ItemSincronizado } from './db';
import { itensDoUsuario } from './outbox';

/** One write as the screens lay it over a copy. */
export interface EscritaLocal {
  id: string;
  tipo: string;
  dados: unknown;
  /** 'enviado': the server confirmed it after the copy was read. */
  estado: 'pendente' | 'erro' | 'enviado';
  erro: string | null;
  /** The server's receipt time, for 'enviado'. */
  recebidoEm?: string;
}

export interface EscritasDoAparelho {
  /** Queued and refused, in replay order. */
  naFila: ItemOutbox[];
  /** Confirmed, in confirmation order; only those that kept their data (written by this version on). */
  confirmadas: (ItemSincronizado & { ordem: number })[];
}

/** This person's writes on the device (never another person's, on a shared phone). */
export async function lerEscritas(banco: BancoLocal, usuarioId: number): Promise<EscritasDoAparelho> {
  const [naFila, historico] = await Promise.all([itensDoUsuario(banco, usuarioId), banco.sincronizados.where('usuarioId').equals(usuarioId).toArray()]);
  // A write the server kept for the admin (its route was finished) is in no copy and may never be: not laid over.
  const confirmadas = historico
    .filter((h): h is ItemSincronizado & { ordem: number } => typeof h.ordem === 'number' && h.dados !== undefined && !h.tardia)
    .sort((a, b) => a.ordem - b.ordem);
  return { naFila, confirmadas };
}

/**
 * The writes to lay over a copy read at confirmation counter `confirmacoesAte`: the confirmed ones
 * after it, then the queue. Unknown (a copy kept by an older version): every confirmed one kept.
 */
export function escritasSobreCopia(escritas: EscritasDoAparelho, confirmacoesAte: number | undefined): EscritaLocal[] {
  const desde = confirmacoesAte ?? 0;
  const confirmadas: EscritaLocal[] = escritas.confirmadas
    .filter((h) => h.ordem > desde)
    .map((h) => ({ id: h.id, tipo: h.tipo, dados: h.dados, estado: 'enviado', erro: null, recebidoEm: h.recebidoEm }));
  const naFila: EscritaLocal[] = escritas.naFila.map((i) => ({ id: i.id, tipo: i.tipo, dados: i.dados, estado: i.estado, erro: i.erro }));
  return [...confirmadas, ...naFila];
}

/** lerEscritas, live: every queue change and every confirmation re-reads it. */
export function useEscritasDoAparelho(usuarioId: number): EscritasDoAparelho | undefined {
  return useLiveQuery(() => lerEscritas(bancoLocal, usuarioId), [usuarioId]);
}

/**
 * The counter to lay writes over a screen built from several copies: the oldest one's (what any of
 * them may miss). A piece without data is ignored; a copy that does not say makes it unknown.
 */
export function contadorDasCopias(...cargas: (object | undefined)[]): number | undefined {
  let menor = Infinity;
  for (const carga of cargas) {
    if (!carga || !('dados' in carga)) continue;
    const ate = (carga as { confirmacoesAte?: number }).confirmacoesAte;
    if (typeof ate !== 'number') return undefined;
    menor = Math.min(menor, ate);
  }
  return menor === Infinity ? undefined : menor;
}
