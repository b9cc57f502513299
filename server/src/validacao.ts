import { z } from 'zod';
import { dadosInvalidos } from './errors';

const PT_BR = z.locales.ptBR();

/**
 * Zod's own text for an issue a schema gave no message of its own (shared schemas name theirs; an
 * object where a batch operation's data was a number, say, has none): pt-BR, as a sentence, short,
 * with the field when its path is one of ours. Without this such a refusal went out in English.
 */
export function mensagemPadraoZod(issue: Parameters<NonNullable<typeof PT_BR.localeError>>[0]): string {
  const base = PT_BR.localeError(issue);
  const texto = (typeof base === 'string' ? base : base?.message) ?? 'Dados inválidos';
  const caminho = issue.path ?? [];
  const campo = caminho.length > 0 && caminho.every((p) => typeof p === 'number' || /^[a-z_]{1,40}$/.test(String(p))) ? ` (campo ${caminho.join('.')})` : '';
  const frase = `${texto.length > 160 ? `${texto.slice(0, 157)}...` : texto}${campo}`;
  return /[.!?]$/.test(frase) ? frase : `${frase}.`;
}

// Server-wide: Fastify's schema checks, validar() below and the batch's per-operation checks.
z.config({ localeError: mensagemPadraoZod });

/**
 * Runs a shared schema where Fastify's own validation does not (multipart fields, the writes of a
 * sync batch), refusing with the same 400 and the same pt-BR message the JSON routes give.
 */
export function validar<T extends z.ZodType>(esquema: T, valor: unknown): z.output<T> {
  const r = esquema.safeParse(valor);
  if (!r.success) {
    const primeira = r.error.issues[0]!;
    throw dadosInvalidos(primeira.path.length === 0 && primeira.code === 'invalid_type' ? 'Dados da requisição inválidos.' : primeira.message);
  }
  return r.data;
}
