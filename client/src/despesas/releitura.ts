/**
 * Issue 17, item 3: what the employee's phone reads from the server (expenses, own balance) is read
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

/** Says each new notice once as a toast, where no 'Novidades' list shows it (the Despesas page keeps them until 'Entendi'). */
export function anunciar(noticias: Noticia[]): void {
  for (const n of noticias) {
    if (n.tipo === 'rejeitada') toast.error(n.texto);
    else if (n.tipo === 'credito') toast.success(n.texto);
    else toast.info(n.texto);
  }
}
