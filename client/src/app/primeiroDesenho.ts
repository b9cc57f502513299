/**
 * When the app draws for the first time on a repeat visit (docs/decisions/abertura-do-app.md,
 * 'O primeiro desenho espera'). The installed app opening with
 * someone signed in (a service worker in control: the screens' code is on the device) waits for the
 * opening screen's code and the device's copies (main.tsx) before drawing. Drawn at once, React drew
 * the shell with 'Carregando' first: at CPU 4x about 300 ms of rendering and layout that the screen's
 * chunks and IndexedDB's answers waited behind, and then the screen drew again with its data. Now the
 * first drawing is the screen with its data (Vendas: 1.58 s -> 1.27 s to the first city card, 3G and
 * CPU 4x; docs/decisions/abertura-do-app.md). Meanwhile the page is blank: the installed app's splash screen.
 *
 * A first visit, the login or a page without the service worker draws at once: its code comes over the
 * network, and the shell is worth showing while it comes. The wait is bounded: a piece that is slow to
 * come (a chunk the service worker does not have, a busy IndexedDB) never keeps the screen blank longer
 * than LIMITE_ESPERA_PRIMEIRO_DESENHO_MS; the shell draws then, as before, and the screen when it can.
 */
export const LIMITE_ESPERA_PRIMEIRO_DESENHO_MS = 2_000;

export interface AberturaDoApp {
  /** Someone is signed in on this device (the saved session). */
  comSessao: boolean;
  /** A service worker controls the page: the code comes from the device. */
  controlado: boolean;
  /** What the opening screen needs before drawing (its code, the device's copies); a failed one does not hold the drawing. */
  pecas: Promise<unknown>[];
}

/** null: draw now. Otherwise, resolves when the pieces are in (or the bound passes); never rejects. */
export function esperaDoPrimeiroDesenho({ comSessao, controlado, pecas }: AberturaDoApp): Promise<void> | null {
  if (!comSessao || !controlado) return null;
  return new Promise((resolver) => {
    const limite = setTimeout(resolver, LIMITE_ESPERA_PRIMEIRO_DESENHO_MS);
    void Promise.allSettled(pecas).then(() => {
      clearTimeout(limite);
      resolver();
    });
  });
}
