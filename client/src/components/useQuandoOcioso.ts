import { useEffect, useState } from 'react';

/**
 * False until `esperaMs` after the first paint and then the browser's next idle moment: what is
 * not needed to draw the screen (its code included) waits for it, so the screen shows first.
 */
export function useQuandoOcioso(esperaMs = 0): boolean {
  const [pronto, setPronto] = useState(false);
  useEffect(() => {
    let ocioso: number | null = null;
    const espera = window.setTimeout(() => {
      if (typeof window.requestIdleCallback === 'function') ocioso = window.requestIdleCallback(() => setPronto(true), { timeout: 2000 });
      else setPronto(true);
    }, esperaMs);
    return () => {
      window.clearTimeout(espera);
      if (ocioso !== null) window.cancelIdleCallback(ocioso);
    };
  }, [esperaMs]);
  return pronto;
}
