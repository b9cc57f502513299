/**
 * Small readers for what the outbox stores and for the few fields read from the server's answers,
 * with no schema library: the employee's first screen (dashboard, sync engine) reads queued items,
 * and zod alone would be an eighth of that screen's JavaScript. Same contract as zod's safeParse
 * (success and data; unknown keys dropped), so the callers did not change when they replaced it.
 */
export type Leitura<T> = { success: true; data: T } | { success: false; data?: undefined };

export interface Leitor<T> {
  safeParse(valor: unknown): Leitura<T>;
}

/** A reader from a function answering the value read, or null when it does not fit. */
export function leitor<T>(ler: (valor: unknown) => T | null): Leitor<T> {
  return {
    safeParse(valor) {
      const data = ler(valor);
      return data === null ? { success: false } : { success: true, data };
    },
  };
}

export const ehObjeto = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
export const ehTexto = (v: unknown): v is string => typeof v === 'string';
export const ehTextoPreenchido = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
/** zod's `z.number().int().positive()`: a safe integer above zero. */
export const ehInteiroPositivo = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) > 0;
/** zod's `z.number().int().min(0)`. */
export const ehInteiroNaoNegativo = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
/** zod's `z.number().finite().min(0)`. */
export const ehNumeroNaoNegativo = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;
/** zod's `z.string().optional()`: absent, undefined or a string. */
export const ehTextoOpcional = (v: unknown): v is string | undefined => v === undefined || typeof v === 'string';

/** The optional key only when it is there (as zod leaves it out of what it read). */
export function opcional<K extends string, V>(chave: K, valor: V | undefined): { [P in K]?: V } {
  return (valor === undefined ? {} : { [chave]: valor }) as { [P in K]?: V };
}
