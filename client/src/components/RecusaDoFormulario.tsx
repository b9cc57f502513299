/**
 * How every form shows a refusal where the person is looking: the message of a refused send (the
 * server's answer, no connection) right above the action button, and after a refused check the
 * first refused field focused and scrolled into view. A modal puts `ErroDoEnvio` in its footer
 * through Modal's `erro`; a page form puts it just before its button.
 */
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { mostrarPrimeiroCampoRecusado } from './errosDeFormulario';

export function ErroDoEnvio({ children }: { children: ReactNode }) {
  const caixa = useRef<HTMLParagraphElement>(null);
  // A page form may be taller than the phone: the message comes into view (a modal's footer always is).
  useEffect(() => {
    caixa.current?.scrollIntoView?.({ block: 'nearest' });
  }, [children]);
  return (
    <p ref={caixa} className="erro-envio" role="alert">
      {children}
    </p>
  );
}

/**
 * `raiz` goes on the form; `apontarCampoRecusado()` is called with the refused check's errors and
 * takes effect once they are on screen. Only then: fixing one field never pulls the focus to another.
 */
export function useApontarCampoRecusado<T extends HTMLElement = HTMLFormElement>() {
  const raiz = useRef<T>(null);
  const [pedido, setPedido] = useState(0);
  useEffect(() => {
    if (pedido > 0) mostrarPrimeiroCampoRecusado(raiz.current);
  }, [pedido]);
  const apontarCampoRecusado = useCallback(() => setPedido((n) => n + 1), []);
  return { raiz, apontarCampoRecusado };
}
