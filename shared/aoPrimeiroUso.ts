/**
 * A value built the first time it is asked for, not when its module is imported.
 *
 * For the Intl formats of shared/: a page's first Intl object starts ICU, ~25 ms on a desktop and
 * ~100 ms on a phone 4x slower, and a format built at import paid it in the middle of the app's
 * start, before the first screen. Built on first use, it finds ICU already started by the worker
 * the app opens first (client/src/app/aquecerIntl.ts, issue 19).
 */
export function aoPrimeiroUso<T>(criar: () => T): () => T {
  let valor: T | undefined;
  return () => (valor ??= criar());
}
