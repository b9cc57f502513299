/**
 * What the employee's phone reads from the server (expenses, own balance) is read
 * again every minute while online, and at once when the app comes back to the screen. Offline the
 * reads would only fall back to the device's copy, so the timer rests (reconnecting reads again).
 */
import { toast } from '../components/avisos';
import type { Noticia } from './noticias';

export const RELEITURA_MS = 60_000;

export const releituraDoCelular = {
  refetchInterval: () => (typeof navigator === 'undefined' || navigator.onLine ? RELEITURA_MS : false),
  refetchOnWindowFocus: 'always',
  refetchOnReconnect: 'always',
} as const;

/**
 * Says each new notice once as a toast, where no 'Novidades' list shows it (the Despesas page keeps
 * them until 'Entendi'). With `abrir`, a notice about an expense offers 'Ver despesa'.
 */
export function anunciar(noticias: Noticia[], abrir?: (despesaId: string) => void): void {
  for (const n of noticias) {
    const tipo = n.tipo === 'rejeitada' ? 'error' : n.tipo === 'credito' ? 'success' : 'info';
    const { despesaId } = n;
    if (abrir && despesaId) toast.comAcao(n.texto, tipo, { rotulo: 'Ver despesa', aoClicar: () => abrir(despesaId) }, AVISO_COM_DESPESA_MS);
    else toast[tipo](n.texto);
  }
}

/** A notice with its expense's button stays a little longer than the usual 5 s: there is something to do. */
const AVISO_COM_DESPESA_MS = 8000;
