/** jsdom has no matchMedia: a desktop-sized window unless a test sets a phone width. */
let larguraDaJanela = 1280;

export function definirLarguraDaJanela(px: number) {
  larguraDaJanela = px;
}

export function instalarMatchMedia() {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    configurable: true,
    value: (consulta: string) => {
      const max = /max-width:\s*(\d+)px/.exec(consulta);
      return {
        matches: max ? larguraDaJanela <= Number(max[1]) : false,
        media: consulta,
        onchange: null,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
        addListener: () => undefined,
        removeListener: () => undefined,
        dispatchEvent: () => false,
      };
    },
  });
}
