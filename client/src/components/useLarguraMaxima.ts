import { useSyncExternalStore } from 'react';

/** True while the window is at most `pixels` wide (the spec's 768/700/600 px breakpoints). */
export function useLarguraMaxima(pixels: number): boolean {
  const consulta = `(max-width: ${pixels}px)`;
  return useSyncExternalStore(
    (avisar) => {
      const mql = window.matchMedia(consulta);
      mql.addEventListener('change', avisar);
      return () => mql.removeEventListener('change', avisar);
    },
    () => window.matchMedia(consulta).matches,
    () => false,
  );
}

/** Below 768 px the layout is the phone's (drawer, cards instead of tables). */
export const LARGURA_CELULAR = 767;
