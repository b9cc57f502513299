/** The employee's phone in browser tests: a profile that must later work with no signal. */
import type { Page } from 'playwright-core';
import { TelaLogin } from '../paginas/login';

/**
 * Signs in with signal and waits until the service worker controls the page: only from then on
 * does the app open on this profile with no signal, which the offline steps after it rely on.
 */
export async function entrarComSinal(pagina: Page, base: string, email: string, senha: string): Promise<void> {
  const login = new TelaLogin(pagina);
  await login.abrir(base);
  await login.entrar(email, senha);
  await pagina.waitForURL('**/dashboard');
  await pagina.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
}
