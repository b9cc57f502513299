/**
 * The admin's 'Sessões' in the browser: an employee signed in on a phone and on a computer; the
 * admin, at 1280x800, sees both devices and ends the phone's session; the phone's next request is
 * refused and it asks for a login again, while the computer stays signed in. At 390x844 the list fits.
 * Real built client + real server on a temporary database.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN } from '../server/test/helper';
import { TelaLogin } from './paginas/login';
import { abrirAmbiente, fecharAmbiente } from './suporte/ambiente';
import { capturar, CELULAR, DESKTOP, temChromium } from './suporte/navegador';
import type { ServidorDeTeste } from './suporte/servidor';

const UA_CELULAR = 'Mozilla/5.0 (Linux; Android 13; SM-A135M) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36';
const UA_COMPUTADOR = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';

describe.skipIf(!temChromium)('sessões de um usuário', () => {
  let servidor: ServidorDeTeste;
  let navegador: Browser;
  let ana: { id: number; email: string; senha: string };
  const contextos: BrowserContext[] = [];

  beforeAll(async () => {
    ({ servidor, navegador } = await abrirAmbiente({ navegador: true, env: { LOGIN_RATE_LIMIT: '1000' } }));
    ana = await servidor.criarFuncionario({ nome: 'Ana Dois Aparelhos', email: 'ana.sessoes@escola.com.br' });
    // criarFuncionario's own login (no User-Agent) is not one of Ana's devices.
    await servidor.chamar({ method: 'POST', url: '/api/usuarios/' + ana.id + '/encerrar-sessoes', token: await servidor.tokenAdmin() });
  });
  afterAll(async () => {
    for (const c of contextos) await c.close().catch(() => {});
    await fecharAmbiente({ servidor, navegador });
  });

  async function entrar(email: string, senha: string, tela: { width: number; height: number }, userAgent?: string): Promise<Page> {
    const contexto = await navegador.newContext({ viewport: tela, locale: 'pt-BR', timezoneId: 'America/Sao_Paulo', ...(userAgent ? { userAgent } : {}), serviceWorkers: 'block' });
    contextos.push(contexto);
    const pagina = await contexto.newPage();
    await pagina.emulateMedia({ reducedMotion: 'reduce' });
    const login = new TelaLogin(pagina);
    await login.abrir(servidor.url);
    await login.entrar(email, senha);
    await pagina.waitForURL('**/dashboard');
    return pagina;
  }

  async function abrirSessoesDaAna(pagina: Page) {
    await pagina.goto(`${servidor.url}/usuarios`);
    await pagina.getByRole('button', { name: 'Sessões de Ana Dois Aparelhos' }).click();
    return pagina.getByRole('dialog', { name: 'Sessões de Ana Dois Aparelhos' });
  }

  it('o admin vê os dois aparelhos e encerra o do celular: o celular pede login, o computador continua', async () => {
    const celular = await entrar(ana.email, ana.senha, CELULAR, UA_CELULAR);
    const computador = await entrar(ana.email, ana.senha, DESKTOP, UA_COMPUTADOR);
    const admin = await entrar(ADMIN.email, ADMIN.senha, DESKTOP);

    const dialogo = await abrirSessoesDaAna(admin);
    await dialogo.getByText('Chrome no Android').waitFor();
    await dialogo.getByText('Firefox no Windows').waitFor();
    await dialogo.getByText('2 aparelhos conectados', { exact: false }).waitFor();
    await capturar(admin, 'sessoes-desktop');

    await dialogo.getByRole('button', { name: /^Encerrar sessão: Chrome no Android/ }).click();
    await admin.getByText('Sessão encerrada: Chrome no Android.').waitFor();
    await dialogo.getByText('Chrome no Android').waitFor({ state: 'detached' });
    await dialogo.getByText('1 aparelho conectado', { exact: false }).waitFor();

    // The phone's next request is refused: back to the login screen (reload asks the server again).
    await celular.reload();
    await celular.waitForURL('**/login**');
    const me = await computador.evaluate(async () => (await fetch('/api/auth/me', { credentials: 'include' })).status);
    expect(me).not.toBe(401);
    await computador.reload();
    await computador.getByRole('heading', { name: /Dashboard|Olá/ }).first().waitFor();
    expect(computador.url()).toContain('/dashboard');
  });

  it('no celular (390x844) a lista cabe na largura, com a sessão do próprio admin marcada', async () => {
    const admin = await entrar(ADMIN.email, ADMIN.senha, CELULAR);
    await admin.goto(`${servidor.url}/usuarios`);
    await admin.getByRole('button', { name: 'Sessões de Administrador' }).first().click();
    const dialogo = admin.getByRole('dialog', { name: 'Sessões de Administrador' });
    await dialogo.getByText('Esta sessão').first().waitFor();
    await capturar(admin, 'sessoes-celular');
    expect(await admin.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1)).toBe(false);
  });
});
