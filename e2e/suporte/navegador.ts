/**
 * Debian's Chromium driven by playwright-core (never a downloaded browser). Without Chromium the
 * browser tests say so and are skipped, except under CI=true, where that is a failure.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CAMINHO_CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const temChromium = fs.existsSync(CAMINHO_CHROMIUM);

if (!temChromium) {
  const aviso = `Chromium não encontrado em ${CAMINHO_CHROMIUM}: os testes de navegador (e2e/) foram PULADOS. Instale com: apt-get install -y chromium`;
  if (process.env.CI === 'true') throw new Error(`CI=true e ${aviso}`);
  console.warn(`\n⚠ ${aviso}\n`);
}

export const CELULAR = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

/** Chromium's flags for every test and benchmark browser. */
export const ARGUMENTOS_CHROMIUM = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
  // navigator.language as on the employees' phones.
  '--lang=pt-BR',
];

export async function abrirNavegador(): Promise<Browser> {
  return chromium.launch({ executablePath: CAMINHO_CHROMIUM, headless: true, args: ARGUMENTOS_CHROMIUM });
}


/**
 * A browser with a profile kept on disk: closing it and opening it again on the same folder is a
 * phone closing the app (or restarting) and opening it later — IndexedDB and the service worker stay.
 */
export async function abrirPerfil(pasta: string, tela = CELULAR): Promise<{ contexto: BrowserContext; pagina: Page }> {
  const contexto = await chromium.launchPersistentContext(pasta, {
    executablePath: CAMINHO_CHROMIUM,
    headless: true,
    args: ARGUMENTOS_CHROMIUM,
    viewport: tela,
    locale: 'pt-BR',
    timezoneId: 'America/Sao_Paulo',
  });
  const pagina = contexto.pages()[0] ?? (await contexto.newPage());
  pagina.on('pageerror', (erro) => console.error('[navegador] erro na página:', erro.message));
  return { contexto, pagina };
}

export async function novaPagina(navegador: Browser, tela = DESKTOP): Promise<{ contexto: BrowserContext; pagina: Page }> {
  const contexto = await navegador.newContext({ viewport: tela, locale: 'pt-BR', timezoneId: 'America/Sao_Paulo' });
  const pagina = await contexto.newPage();
  pagina.on('pageerror', (erro) => console.error('[navegador] erro na página:', erro.message));
  return { contexto, pagina };
}

const PASTA_CAPTURAS = path.join(process.cwd(), 'test-results', 'screenshots');

/** Saves a screenshot under test-results/screenshots (looked at by people, kept by CI). */
export async function capturar(pagina: Page, nome: string): Promise<void> {
  fs.mkdirSync(PASTA_CAPTURAS, { recursive: true });
  await pagina.screenshot({ path: path.join(PASTA_CAPTURAS, `${nome}.png`), fullPage: false });
}
