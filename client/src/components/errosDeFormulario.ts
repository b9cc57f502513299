import type { ZodError } from 'zod';

/** First message per field of a failed shared-schema parse, for the form's error texts. */
export function errosPorCampo(erro: ZodError): Record<string, string> {
  const erros: Record<string, string> = {};
  for (const issue of erro.issues) {
    const campo = String(issue.path[0] ?? '_');
    erros[campo] ??= issue.message;
  }
  return erros;
}

const FOCAVEL = 'input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), button:not([disabled])';

/**
 * Brings the first refused field of `raiz` to the person: focused and scrolled to the middle of
 * what they see. A field is refused when its control says aria-invalid (Campo does) or, for a
 * group without one control (the route's states, its cities), when its error text is shown: then
 * the group's first control takes the focus. Returns false when nothing in `raiz` is refused.
 */
export function mostrarPrimeiroCampoRecusado(raiz: HTMLElement | null): boolean {
  const alvo = raiz?.querySelector<HTMLElement>('[aria-invalid="true"], .campo__erro');
  if (!alvo) return false;
  const controle = alvo.matches('.campo__erro') ? (alvo.closest('fieldset, section, .campo') ?? alvo.parentElement)?.querySelector<HTMLElement>(FOCAVEL) : alvo;
  // jsdom has no scrolling; browsers do.
  (controle ?? alvo).scrollIntoView?.({ block: 'center' });
  controle?.focus({ preventScroll: true });
  return true;
}
