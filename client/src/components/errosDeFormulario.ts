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
