/**
 * 'Minhas Rotas' as the employee sees it: the server's lists (possibly from the device's cache)
 * with the finishings this device has queued laid over them, so a finished route moves to
 * 'Rotas Finalizadas' at once, offline too. Pure: the screen passes in what it read.
 */
import { maisRecentePrimeiro } from '../../../shared/dates';
import type { Rota } from '../../../shared/schemas/rotas';

/** A queued 'rota.finalizar' still in the outbox. */
export interface FinalizacaoNaFila {
  rotaId: number;
  estado: 'pendente' | 'erro';
  erro: string | null;
  /** When the person finished it on the device (ISO). */
  criadoEm: string;
}

export type EnvioFinalizacao = 'pendente' | 'erro';

export interface RotaExibida extends Rota {
  /** The finishing was done on this device and has not reached the server yet ('pendente'), or the server refused it ('erro'). */
  envio?: EnvioFinalizacao;
  erroEnvio?: string | null;
}

export interface MinhasRotas {
  ativas: RotaExibida[];
  finalizadas: RotaExibida[];
}

/**
 * - A route with a queued finishing shows as finished (pending badge) at once.
 * - A refused finishing leaves the route where the server has it, with the refusal, until the
 *   person retries or discards it in the sync panel.
 * - A finishing the server already confirmed (`confirmadas`) counts even while the lists on screen
 *   are older than the confirmation: finishing is irreversible, so nothing flickers back.
 */
export function mesclarMinhasRotas(
  servidor: { ativas: Rota[]; finalizadas: Rota[] },
  fila: FinalizacaoNaFila[],
  confirmadas: ReadonlySet<number> = new Set(),
): MinhasRotas {
  const naFila = new Map<number, FinalizacaoNaFila>();
  for (const f of fila) {
    // A pending retry of a refused item counts as pending.
    const anterior = naFila.get(f.rotaId);
    if (!anterior || f.estado === 'pendente') naFila.set(f.rotaId, f);
  }
  const finalizadasNoServidor = new Set(servidor.finalizadas.map((r) => r.id));
  const ativas: RotaExibida[] = [];
  const finalizadasAqui: RotaExibida[] = [];

  for (const rota of servidor.ativas) {
    if (finalizadasNoServidor.has(rota.id)) continue; // the other list is newer
    const item = naFila.get(rota.id);
    if (item?.estado === 'pendente') {
      finalizadasAqui.push({ ...rota, status: 'finalizada', finalizada_em: item.criadoEm, envio: 'pendente' });
    } else if (item?.estado === 'erro') {
      ativas.push({ ...rota, envio: 'erro', erroEnvio: item.erro });
    } else if (confirmadas.has(rota.id)) {
      finalizadasAqui.push({ ...rota, status: 'finalizada', finalizada_em: rota.finalizada_em ?? null });
    } else {
      ativas.push(rota);
    }
  }

  const finalizadas: RotaExibida[] = servidor.finalizadas.map((rota) => {
    const item = naFila.get(rota.id);
    // A replay still queued of a finishing the server already has: show that it is on its way.
    return item?.estado === 'pendente' ? { ...rota, envio: 'pendente' } : rota;
  });
  // Finished here first (most recent first), then the server's list in its order.
  finalizadasAqui.sort((a, b) => maisRecentePrimeiro(a.finalizada_em, b.finalizada_em));
  return { ativas, finalizadas: [...finalizadasAqui, ...finalizadas] };
}
