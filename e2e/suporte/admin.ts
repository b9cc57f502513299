/** The admin's desk in browser tests: a fresh profile signed in, on the dashboard. */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ADMIN } from '../../server/test/helper';
import { TelaLogin } from '../paginas/login';
import { DESKTOP, novaPagina } from './navegador';

/** A new profile (`tela` sized) signed in as the first admin; reduced motion, so screenshots never catch a transition. */
export async function entrarComoAdmin(navegador: Browser, base: string, tela = DESKTOP): Promise<{ contexto: BrowserContext; pagina: Page }> {
  const { contexto, pagina } = await novaPagina(navegador, tela);
  await pagina.emulateMedia({ reducedMotion: 'reduce' });
  const login = new TelaLogin(pagina);
  await login.abrir(base);
  await login.entrar(ADMIN.email, ADMIN.senha);
  await pagina.waitForURL('**/dashboard');
  return { contexto, pagina };
}
