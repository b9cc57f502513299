/**
 * A value built the first time it is asked for, not when its module is imported.
 *
 * For the Intl formats of shared/: a page's first Intl object starts ICU, 25-40 ms on a
 * desktop and 70-190 ms with the CPU 4x slower, and the formats built at import paid it in the middle
 * of the app's start, on every screen: the login, which formats nothing, too.
 */
export function aoPrimeiroUso<T>(criar: () => T): () => T {
  let valor: T | undefined;
  return () => (valor ??= criar());
}
