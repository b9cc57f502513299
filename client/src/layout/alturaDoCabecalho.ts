/**
 * The header's height in the CSS variable --altura-cabecalho, kept current: toasts start below it
 * (components/avisos.css). On the phone the sync indicator breaks into two lines ('Offline · 2 /
 * aguardando'), the header grows, and a fixed offset let the toasts cover it.
 */
import { useCallback, useRef } from 'react';

export const VARIAVEL_ALTURA_CABECALHO = '--altura-cabecalho';

/** A ref callback for the header: measures it now and at every change of its size; forgets it on unmount. */
export function useAlturaDoCabecalho(): (elemento: HTMLElement | null) => void {
  const observador = useRef<ResizeObserver | null>(null);
  return useCallback((elemento: HTMLElement | null) => {
    const raiz = document.documentElement;
    observador.current?.disconnect();
    observador.current = null;
    if (!elemento) {
      raiz.style.removeProperty(VARIAVEL_ALTURA_CABECALHO);
      return;
    }
    const medir = () => raiz.style.setProperty(VARIAVEL_ALTURA_CABECALHO, `${Math.ceil(elemento.getBoundingClientRect().height)}px`);
    medir();
    if (typeof ResizeObserver === 'undefined') return;
    observador.current = new ResizeObserver(medir);
    observador.current.observe(elemento);
  }, []);
}
