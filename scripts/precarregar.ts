/**
 * The first visit: the login screen is its own chunk (an employee opens the app already signed
 * in, almost every day), so on a phone that never opened the app the browser only asked for it once
 * the main file had arrived AND run: on 3G with a slow CPU, one more round trip after a second and a
 * half of JavaScript. Here the built index.html names it (and the chunks it imports) with
 * <link rel="modulepreload">: the browser fetches them alongside the main file, and the screen's code
 * is already at hand when React asks for it. A few KB, from the service worker's cache once installed.
 */
import type { HtmlTagDescriptor, Plugin } from 'vite';

/** What the plugin reads of Vite's output bundle (Rollup's OutputChunk, the fields it needs). */
interface PedacoDoBundle {
  type: 'chunk' | 'asset';
  fileName: string;
  facadeModuleId?: string | null;
  isEntry?: boolean;
  imports?: string[];
  viteMetadata?: { importedCss?: Set<string> };
}

/**
 * The <link> tags for the chunks of the modules whose source path ends with one of `modulos`: the
 * chunk itself, the chunks it imports (not the entry, already in the page) and its CSS.
 */
export function linksDePrecarga(bundle: Record<string, PedacoDoBundle>, modulos: string[], base = '/'): HtmlTagDescriptor[] {
  const pedacos = Object.values(bundle).filter((p) => p.type === 'chunk');
  const entradas = new Set(pedacos.filter((p) => p.isEntry).map((p) => p.fileName));
  const js = new Set<string>();
  const css = new Set<string>();
  for (const modulo of modulos) {
    const alvo = pedacos.find((p) => p.facadeModuleId?.replace(/\\/g, '/').endsWith(modulo));
    if (!alvo) throw new Error(`precarregar: nenhum pedaço do build para ${modulo}`);
    for (const nome of [alvo.fileName, ...(alvo.imports ?? [])]) {
      if (entradas.has(nome)) continue;
      js.add(nome);
      for (const folha of bundle[nome]?.viteMetadata?.importedCss ?? []) css.add(folha);
    }
  }
  return [
    ...[...js].map((nome): HtmlTagDescriptor => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `${base}${nome}` }, injectTo: 'head' })),
    ...[...css].map((nome): HtmlTagDescriptor => ({ tag: 'link', attrs: { rel: 'preload', as: 'style', crossorigin: true, href: `${base}${nome}` }, injectTo: 'head' })),
  ];
}

/** Vite plugin: index.html preloads the chunks of `modulos` (source paths, e.g. 'client/src/auth/PaginaLogin.tsx'). */
export function precarregarNoHtml(modulos: string[]): Plugin {
  return {
    name: 'sg-precarregar-no-html',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (_html, contexto) => (contexto.bundle ? linksDePrecarga(contexto.bundle as unknown as Record<string, PedacoDoBundle>, modulos) : []),
    },
  };
}
