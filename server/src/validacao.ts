import type { z } from 'zod';
import { dadosInvalidos } from './errors';

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
