/**
 * 'Instalar aplicativo': Chrome on Android offers installation through `beforeinstallprompt`.
 * The event is kept (it fires once, early) and the menu shows the entry while it is available.
 */
import { useSyncExternalStore } from 'react';

interface EventoInstalacao extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

let eventoGuardado: EventoInstalacao | null = null;
const ouvintes = new Set<() => void>();
const avisar = () => ouvintes.forEach((o) => o());

/** Called once at start (main.tsx), before React renders, so the early event is not missed. */
export function escutarInstalacao(): void {
  window.addEventListener('beforeinstallprompt', (e) => {
    e.preventDefault(); // we show our own entry instead of the mini-infobar
    eventoGuardado = e as EventoInstalacao;
    avisar();
  });
  window.addEventListener('appinstalled', () => {
    eventoGuardado = null;
    avisar();
  });
}

export function useInstalacao(): { podeInstalar: boolean; instalar: () => Promise<void> } {
  const podeInstalar = useSyncExternalStore(
    (o) => {
      ouvintes.add(o);
      return () => ouvintes.delete(o);
    },
    () => eventoGuardado !== null,
    () => false,
  );
  return {
    podeInstalar,
    instalar: async () => {
      const evento = eventoGuardado;
      if (!evento) return;
      await evento.prompt();
      await evento.userChoice;
      eventoGuardado = null;
      avisar();
    },
  };
}
