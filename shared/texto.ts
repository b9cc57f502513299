import { aoPrimeiroUso } from './aoPrimeiroUso';
import { formatarNumero } from './numeros';

/** Lower-case, accent-free, single-spaced text for search: 'São  Paulo' -> 'sao paulo'. */
export function normalizarBusca(texto: string): string {
  return texto
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

const colador = aoPrimeiroUso(() => new Intl.Collator('pt-BR', { sensitivity: 'base', numeric: true }));

/**
 * The pt-BR order of names of people and places, as a dictionary orders them: accents and case do not
 * push a name to the end ('Íris' before 'Maria', 'Paraíba' before 'Paraná'). SQLite's ORDER BY
 * compares bytes, and better-sqlite3 has no custom collations: lists are sorted with this after the query.
 */
export function compararTexto(a: string, b: string): number {
  return colador().compare(a, b);
}

/** A sorted copy by `nome`, in pt-BR order; equal names keep the order they came in (a stable sort). */
export function ordenarPorNome<T>(lista: readonly T[], nome: (item: T) => string): T[] {
  return [...lista].sort((a, b) => compararTexto(nome(a), nome(b)));
}

/** The word that agrees with a count in pt-BR: singular for exactly 1, plural otherwise (zero too: '0 registros'). */
export function plural(n: number, um: string, varios: string): string {
  return n === 1 ? um : varios;
}

/** '1 registro', '0 registros', '1.500 itens': the count and its word, written whole (never 'registro(s)'). */
export function contagem(n: number, um: string, varios: string): string {
  return `${formatarNumero(n)} ${plural(n, um, varios)}`;
}
