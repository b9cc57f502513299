/**
 * Accessibility checks in the browser tests: axe-core (the npm package, read from node_modules)
 * put into the page and run over what is on screen, and the phone's touch targets measured.
 *
 * The app's CSP allows only its own scripts, so axe is not added as a <script> tag: it is
 * evaluated through the DevTools protocol (page.evaluate), which the page's CSP does not govern.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const requerer = createRequire(import.meta.url);
let fonteAxe: string | undefined;

/** What axe found, reduced to what a person needs to find and fix it. */
export interface Violacao {
  regra: string;
  impacto: string;
  ajuda: string;
  alvos: { alvo: string; resumo: string; html: string }[];
}

/** WCAG 2.x A and AA rules plus axe's best practices (landmarks, headings, ...). */
const ETIQUETAS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

/**
 * Runs axe on the page as it is now (wait for the screen's heading first) and returns the serious
 * and critical violations. `excluir`: selectors axe skips (none by default).
 */
export async function violacoesGraves(pagina: Page, { excluir = [] as string[] } = {}): Promise<Violacao[]> {
  const presente = await pagina.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe === 'object');
  if (!presente) {
    fonteAxe ??= fs.readFileSync(requerer.resolve('axe-core/axe.min.js'), 'utf8');
    await pagina.evaluate(fonteAxe);
  }
  const resultado = await pagina.evaluate(
    async ({ etiquetas, excluir }) => {
      const axe = (window as unknown as { axe: { run: (ctx: unknown, op: unknown) => Promise<{ violations: unknown[] }> } }).axe;
      const contexto = excluir.length ? { exclude: excluir.map((s) => [s]) } : document;
      const r = await axe.run(contexto, { runOnly: { type: 'tag', values: etiquetas }, resultTypes: ['violations'] });
      return r.violations as {
        id: string;
        impact: string | null;
        help: string;
        nodes: { target: unknown[]; failureSummary?: string; html: string }[];
      }[];
    },
    { etiquetas: ETIQUETAS, excluir },
  );
  return resultado
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      regra: v.id,
      impacto: v.impact ?? '',
      ajuda: v.help,
      alvos: v.nodes.map((n) => ({ alvo: n.target.map(String).join(' '), resumo: (n.failureSummary ?? '').replace(/\s+/g, ' ').trim(), html: n.html.slice(0, 200) })),
    }));
}

/** One readable block per violation, for the assertion message. */
export function descreverViolacoes(tela: string, violacoes: Violacao[]): string {
  if (violacoes.length === 0) return `${tela}: nenhuma violação grave`;
  return [
    `${tela}: ${violacoes.length} regra(s) com violação grave ou crítica`,
    ...violacoes.map((v) =>
      [`- [${v.impacto}] ${v.regra}: ${v.ajuda}`, ...v.alvos.slice(0, 8).map((a) => `    ${a.alvo}\n      ${a.resumo}\n      ${a.html}`)].join('\n'),
    ),
  ].join('\n');
}

/** A control smaller than the touch target, as measured on screen. */
export interface AlvoPequeno {
  descricao: string;
  largura: number;
  altura: number;
}

/**
 * Every visible control a person can tap (button, link, field, select, role=button/tab/checkbox)
 * narrower or shorter than `minimo` CSS px, inside `dentro` (the open dialog or drawer: what is
 * behind its overlay cannot be tapped). Links inside running text (a <p> or <li> with text of its
 * own around the link) are left out: WCAG 2.5.8 exempts inline targets. A checkbox, a radio or a
 * visually hidden file field is measured by its <label>, which is what the finger taps.
 */
export async function alvosPequenos(pagina: Page, { minimo = 44, dentro = 'body' } = {}): Promise<AlvoPequeno[]> {
  return pagina.evaluate(({ minimo, dentro }) => {
    const seletor = 'button, a[href], input:not([type=hidden]), select, textarea, summary, [role=button], [role=tab], [role=checkbox], [role=link]';
    const pequenos: { descricao: string; largura: number; altura: number }[] = [];
    const raiz = document.querySelector(dentro);
    if (!raiz) throw new Error(`nada em ${dentro} para medir`);
    for (const el of Array.from(raiz.querySelectorAll<HTMLElement>(seletor))) {
      const estilo = getComputedStyle(el);
      if (estilo.visibility === 'hidden' || estilo.display === 'none') continue;
      if (el.closest('[aria-hidden="true"], [inert]')) continue;
      const caixa = el.getBoundingClientRect();
      if (caixa.width === 0 || caixa.height === 0) continue;
      // Off screen (the closed drawer, a scrolled-away tab strip): not tappable as it is.
      if (caixa.right <= 0 || caixa.left >= window.innerWidth) continue;
      // Of its labels, the biggest: a field can have a text label and a button-like one around it.
      const rotulos = Array.from((el as HTMLInputElement).labels ?? []).map((r) => r.getBoundingClientRect());
      const rotulo = rotulos.sort((x, y) => y.width * y.height - x.width * x.height)[0];
      const pelaEtiqueta = rotulo && (el.matches('input[type=checkbox], input[type=radio]') || (caixa.width <= 2 && caixa.height <= 2) || el.classList.contains('sr-only'));
      const alvo = pelaEtiqueta ? rotulo : caixa;
      if (el.tagName === 'A') {
        const bloco = el.parentElement?.closest('p, li, dd, td');
        if (bloco && (bloco.textContent ?? '').trim() !== (el.textContent ?? '').trim() && estilo.display === 'inline') continue;
      }
      if (alvo.width + 0.5 < minimo || alvo.height + 0.5 < minimo) {
        const nome = el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40) ?? '';
        const classe = typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
        pequenos.push({ descricao: `${el.tagName.toLowerCase()}${classe} "${nome}"`, largura: Math.round(alvo.width), altura: Math.round(alvo.height) });
      }
    }
    return pequenos;
  }, { minimo, dentro });
}

/**
 * Words of the elements matched by `seletor` (and holding `contendo`) that the browser split over
 * two lines (a city name broken mid-word). Each word is measured on its own: one word on two lines has rects at two heights.
 */
export async function palavrasPartidas(pagina: Page, seletor: string, { contendo = '' } = {}): Promise<string[]> {
  return pagina.evaluate(({ seletor, contendo }) => {
    const partidas: string[] = [];
    for (const el of Array.from(document.querySelectorAll(seletor))) {
      if (!(el.textContent ?? '').includes(contendo)) continue;
      const andar = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let no = andar.nextNode(); no; no = andar.nextNode()) {
        const texto = no.textContent ?? '';
        for (const m of texto.matchAll(/\S+/g)) {
          const faixa = document.createRange();
          faixa.setStart(no, m.index);
          faixa.setEnd(no, m.index + m[0].length);
          const alturas = new Set(Array.from(faixa.getClientRects()).filter((r) => r.width > 0).map((r) => Math.round(r.top)));
          if (alturas.size > 1) partidas.push(`${m[0]} (em ${seletor})`);
        }
      }
    }
    return partidas;
  }, { seletor, contendo });
}

/**
 * What the toasts on screen cover that they must not: an open dialog's title or close button, or
 * their own text (their own × over it). Measured once the toasts have finished sliding in; one
 * already leaving is not measured. Each
 * problem says which toast and what it covers; none: empty.
 */
export async function avisosSobrepostos(pagina: Page): Promise<string[]> {
  await pagina.locator('.Toastify__toast').evaluateAll((avisos) => Promise.all(avisos.flatMap((a) => a.getAnimations({ subtree: true }).map((x) => x.finished.catch(() => undefined)))));
  return pagina.evaluate(() => {
    const problemas: string[] = [];
    const cruza = (a: DOMRect, b: DOMRect) => a.width > 0 && b.width > 0 && a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
    /** Where the text inside `el` is drawn: the boxes of its words' lines, not of the elements around them. */
    const caixas = (el: Element) => {
      const todas: DOMRect[] = [];
      const andar = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let no = andar.nextNode(); no; no = andar.nextNode()) {
        if (!(no.textContent ?? '').trim()) continue;
        const r = document.createRange();
        r.selectNodeContents(no);
        todas.push(...Array.from(r.getClientRects()).filter((c) => c.width > 0 && c.height > 0));
      }
      return todas;
    };
    // A toast on its way out (react-toastify collapses it, padding and all) is not read any more.
    for (const aviso of Array.from(document.querySelectorAll<HTMLElement>('.Toastify__toast:not([class*="-exit"])'))) {
      const texto = (aviso.textContent ?? '').trim().slice(0, 50);
      const caixa = aviso.getBoundingClientRect();
      for (const dialogo of Array.from(document.querySelectorAll<HTMLElement>('[role=dialog], [role=alertdialog]'))) {
        const idTitulo = dialogo.getAttribute('aria-labelledby');
        const tituloDoDialogo = (idTitulo && document.getElementById(idTitulo)) || dialogo.querySelector('h1, h2, h3');
        if (tituloDoDialogo && caixas(tituloDoDialogo).some((c) => cruza(c, caixa))) problemas.push(`o aviso "${texto}" cobre o título "${tituloDoDialogo.textContent?.trim()}"`);
        const fechar = dialogo.querySelector('[data-fechar], button[aria-label="Fechar"]');
        if (fechar && cruza(fechar.getBoundingClientRect(), caixa)) problemas.push(`o aviso "${texto}" cobre o botão Fechar de "${tituloDoDialogo?.textContent?.trim()}"`);
      }
      const x = aviso.querySelector('.Toastify__close-button');
      const corpo = aviso.querySelector('.Toastify__toast-body') ?? aviso;
      if (x && caixas(corpo).some((c) => cruza(c, x.getBoundingClientRect()))) problemas.push(`o × do aviso "${texto}" fica sobre o próprio texto`);
    }
    return problemas;
  });
}
