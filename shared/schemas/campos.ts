/**
 * Field builders for the zod schemas shared by the client forms and the server routes.
 * Every field carries its pt-BR label, so any refusal reads as a sentence a person
 * understands ('Nome deve ter pelo menos 2 caracteres.'), on both sides.
 */
import { z } from '../zod';
import { ehDataValida } from '../dates';
import { MAXIMO_CENTAVOS, reaisParaCentavos, temNoMaximoDuasCasas, textoParaDecimal } from '../money';
import { PADRAO_EMAIL } from '../padraoEmail';

export type Genero = 'm' | 'f';

function obrigatorio(rotulo: string, genero: Genero): string {
  return `${rotulo} é ${genero === 'f' ? 'obrigatória' : 'obrigatório'}.`;
}

function ausente(input: unknown): boolean {
  return input === undefined || input === null;
}

interface OpcoesTexto {
  min?: number;
  max: number;
  genero?: Genero;
}

/** A required trimmed string between `min` and `max` characters. */
export function texto(rotulo: string, { min = 1, max, genero = 'm' }: OpcoesTexto) {
  return z
    .string({
      error: (iss) => (ausente(iss.input) ? obrigatorio(rotulo, genero) : `${rotulo} deve ser um texto.`),
    })
    .max(max * 4, `${rotulo} deve ter no máximo ${max} caracteres.`) // cheap guard before trimming huge input
    .trim()
    // A blank field reads 'é obrigatório' (the first issue), not a length rule, whatever the minimum.
    .min(1, obrigatorio(rotulo, genero))
    .min(min, `${rotulo} deve ter pelo menos ${min} caracteres.`)
    .max(max, `${rotulo} deve ter no máximo ${max} caracteres.`);
}

/** An optional trimmed string; blank becomes ''. */
export function textoOpcional(rotulo: string, max: number) {
  return z.preprocess(
    (v) => (v === null || v === undefined ? '' : v),
    z
      .string({ error: `${rotulo} deve ser um texto.` })
      .max(max * 4, `${rotulo} deve ter no máximo ${max} caracteres.`)
      .trim()
      .max(max, `${rotulo} deve ter no máximo ${max} caracteres.`),
  );
}

// Kept in a zod-free module (shared/padraoEmail.ts): the login screen imports it without the schema library (docs/decisions/desempenho-cliente.md, 'O zod fora da primeira tela').
export { PADRAO_EMAIL };

export const MAX_EMAIL = 254;

/** E-mail, trimmed and lower-cased so 'Ana@X.com' and 'ana@x.com' are the same account. */
export function email(rotulo = 'Email') {
  return z
    .string({ error: (iss) => (ausente(iss.input) ? obrigatorio(rotulo, 'm') : `${rotulo} deve ser um texto.`) })
    .max(MAX_EMAIL * 4, `${rotulo} inválido.`)
    .trim()
    .min(1, obrigatorio(rotulo, 'm'))
    .max(MAX_EMAIL, `${rotulo} inválido.`)
    .regex(PADRAO_EMAIL, `${rotulo} inválido.`)
    .toLowerCase();
}

export const SENHA_MINIMA = 6;
export const SENHA_MAXIMA = 128;

export function senha(rotulo = 'Senha') {
  return z
    .string({ error: (iss) => (ausente(iss.input) ? obrigatorio(rotulo, 'f') : `${rotulo} deve ser um texto.`) })
    .min(SENHA_MINIMA, `${rotulo} deve ter pelo menos ${SENHA_MINIMA} caracteres.`)
    .max(SENHA_MAXIMA, `${rotulo} deve ter no máximo ${SENHA_MAXIMA} caracteres.`);
}

/** Accepts JSON booleans and the strings multipart forms send ('true'/'false'). */
export function booleano(rotulo: string) {
  return z.preprocess(
    (v) => (v === 'true' ? true : v === 'false' ? false : v),
    z.boolean({ error: `${rotulo} deve ser verdadeiro ou falso.` }),
  );
}

function numeroDeTexto(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  if (v.trim() === '') return undefined;
  // Read as the money inputs read it ('1.500' is 1500); Number() alone would take '0x10' or '1e3'.
  const decimal = textoParaDecimal(v);
  return decimal === null ? v : Number(decimal);
}

/** A positive integer id, from JSON or from a path/query/multipart string. */
export function idInteiro(rotulo: string, genero: Genero = 'm') {
  return z.preprocess(
    numeroDeTexto,
    z
      .number({ error: (iss) => (ausente(iss.input) ? obrigatorio(rotulo, genero) : `${rotulo} inválid${genero === 'f' ? 'a' : 'o'}.`) })
      .int(`${rotulo} inválid${genero === 'f' ? 'a' : 'o'}.`)
      .positive(`${rotulo} inválid${genero === 'f' ? 'a' : 'o'}.`)
      .max(Number.MAX_SAFE_INTEGER, `${rotulo} inválid${genero === 'f' ? 'a' : 'o'}.`),
  );
}

/**
 * An amount in reais (>= 0, at most 2 decimals) as the API speaks it, returned as integer centavos.
 * Strings are accepted for multipart forms, including the pt-BR '12,50'.
 */
export function dinheiro(rotulo: string, { obrigatorio: exigido = true, genero = 'm' as Genero } = {}) {
  const numero = z
    .number({
      error: (iss) => (ausente(iss.input) ? obrigatorio(rotulo, genero) : `${rotulo} deve ser um número.`),
    })
    .refine(Number.isFinite, `${rotulo} deve ser um número.`)
    .refine((v) => v >= 0, `${rotulo} não pode ser negativo.`)
    .refine(temNoMaximoDuasCasas, `${rotulo} deve ter no máximo 2 casas decimais.`)
    .refine((v) => v * 100 <= MAXIMO_CENTAVOS, `${rotulo} é alto demais.`)
    .transform((v) => reaisParaCentavos(v) as number);
  return z.preprocess((v) => {
    const n = numeroDeTexto(v);
    // An optional amount left blank is 0, whether the form sent '', nothing or null (as contagem does).
    return (n === undefined || n === null) && !exigido ? 0 : n;
  }, numero);
}

/**
 * An amount already in integer centavos (the offline writes' wire format: converted once, on the
 * phone, when the write was queued). Absent is 0 unless required.
 */
export function centavos(rotulo: string, { obrigatorio: exigido = true, genero = 'm' as Genero } = {}) {
  const numero = z
    .number({ error: (iss) => (ausente(iss.input) ? obrigatorio(rotulo, genero) : `${rotulo} deve ser um número.`) })
    .int(`${rotulo} deve ser um valor em centavos.`)
    .min(0, `${rotulo} não pode ser negativo.`)
    .max(MAXIMO_CENTAVOS, `${rotulo} é alto demais.`);
  return exigido ? numero : z.preprocess((v) => (v === undefined || v === null ? 0 : v), numero);
}

/** The largest count (boletos) a write takes. */
export const CONTAGEM_MAXIMA = 1_000_000;

/** A whole count >= 0 (boletos). Blank is 0. */
export function contagem(rotulo: string) {
  return z.preprocess(
    (v) => {
      const n = numeroDeTexto(v);
      return n === undefined || n === null ? 0 : n;
    },
    z
      .number({ error: `${rotulo} deve ser um número inteiro.` })
      .int(`${rotulo} deve ser um número inteiro.`)
      .min(0, `${rotulo} não pode ser negativo.`)
      .max(CONTAGEM_MAXIMA, `${rotulo} é alto demais.`),
  );
}

/** A calendar date 'yyyy-mm-dd'. */
export function data(rotulo: string, genero: Genero = 'f') {
  return z
    .string({ error: (iss) => (ausente(iss.input) ? obrigatorio(rotulo, genero) : `${rotulo} inválid${genero === 'f' ? 'a' : 'o'}.`) })
    .trim()
    .min(1, obrigatorio(rotulo, genero))
    .refine(ehDataValida, `${rotulo} inválid${genero === 'f' ? 'a' : 'o'} (use o formato aaaa-mm-dd).`);
}

/** An optional date filter; blank means no filter. */
export function dataOpcional(rotulo: string) {
  return z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z
      .string({ error: `${rotulo} inválida.` })
      .refine(ehDataValida, `${rotulo} inválida (use o formato aaaa-mm-dd).`)
      .optional(),
  );
}

/** A client-generated UUID (v7 recommended): records created offline carry their own id. */
export function uuidCliente(rotulo = 'Identificador') {
  return z
    .string({ error: (iss) => (ausente(iss.input) ? obrigatorio(rotulo, 'm') : `${rotulo} inválido.`) })
    .trim()
    .toLowerCase()
    .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, `${rotulo} inválido.`);
}

/** Path params `{ id }` for integer-keyed resources. */
export const paramsId = z.object({ id: idInteiro('Identificador') });

/** One of a fixed set of values, with a readable refusal. */
export function opcao<const T extends readonly [string, ...string[]]>(rotulo: string, valores: T, genero: Genero = 'm') {
  return z.enum(valores, {
    error: (iss) => (ausente(iss.input) ? obrigatorio(rotulo, genero) : `${rotulo} inválid${genero === 'f' ? 'a' : 'o'}.`),
  });
}
