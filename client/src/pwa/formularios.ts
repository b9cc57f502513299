/**
 * How many forms are open right now. A new app version is applied only when none is (a reload
 * would throw away what the person is typing). Modals count themselves; inline editors call
 * `useFormularioAberto(true)`.
 */
import { useEffect, useSyncExternalStore } from 'react';

let abertos = 0;
const ouvintes = new Set<() => void>();
const avisar = () => ouvintes.forEach((o) => o());

export function useFormularioAberto(aberto: boolean): void {
  useEffect(() => {
    if (!aberto) return;
    abertos += 1;
    avisar();
    return () => {
      abertos -= 1;
      avisar();
    };
  }, [aberto]);
}

export function useHaFormularioAberto(): boolean {
  return useSyncExternalStore(
    (o) => {
      ouvintes.add(o);
      return () => ouvintes.delete(o);
    },
    () => abertos > 0,
    () => false,
  );
}
