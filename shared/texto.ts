/** Lower-case, accent-free, single-spaced text for search: 'São  Paulo' -> 'sao paulo'. */
export function normalizarBusca(texto: string): string {
  return texto
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}
