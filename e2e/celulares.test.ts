/**
 * Phones in the field seen by the admin, and the minimum app version, in
 * Chromium against the real server: an employee's writes made offline are refused on reconnecting
 * because the server wants a newer app ('Atualize o aplicativo'); the queue stays on the phone; the
 * admin's dashboard, in another browser, shows what waits on that phone and for how long; once the
 * server still refuses it, 'Atualizar aplicativo' finds no newer build and says so; once the server
 * accepts the version again (the operator sets VERSAO_MINIMA_APP back), the next pass sends the same queue.
 * Screenshots (phone 390x844 and computer 1280x800) go to test-results/screenshots, and also to
 * E2E_PASTA_CAPTURAS when set.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN } from '../server/test/helper';
import { TelaDashboardAdmin } from './paginas/dashboard';
import { TelaLogin } from './paginas/login';
import { TelaVendasFuncionario } from './paginas/vendas';
import { abrirAmbiente, fecharAmbiente } from './suporte/ambiente';
import { entrarComSinal } from './suporte/celular';
import { criarRotaEmCurso } from './suporte/dados';
import { abrirPerfil, capturar, CELULAR, DESKTOP, novaPagina, temChromium } from './suporte/navegador';
import type { ServidorDeTeste } from './suporte/servidor';

const CIDADES = [5208707, 5201108, 5204508]; // Goiânia, Anápolis, Caldas Novas
const PASTA_CAPTURAS = process.env.E2E_PASTA_CAPTURAS ?? path.join(process.cwd(), 'test-results', 'screenshots');

const indicador = (pagina: Page) => pagina.locator('.indicador-sync');
const secaoCelulares = (pagina: Page) => pagina.getByRole('region', { name: 'Pendências nos celulares' });

/** Screenshot of the page, and of one element, under the screenshots folder. */
async function fotografar(pagina: Page, nome: string, elemento?: ReturnType<Page['locator']>) {
  fs.mkdirSync(PASTA_CAPTURAS, { recursive: true });
  if (elemento) {
    await elemento.scrollIntoViewIfNeeded();
    await elemento.screenshot({ path: path.join(PASTA_CAPTURAS, `${nome}.png`) });
  } else {
    await capturar(pagina, nome);
    if (PASTA_CAPTURAS !== path.join(process.cwd(), 'test-results', 'screenshots')) await pagina.screenshot({ path: path.join(PASTA_CAPTURAS, `${nome}.png`) });
  }
}

/** What waits in the phone's outbox, read from IndexedDB as the app keeps it. */
function filaNoCelular(pagina: Page): Promise<{ estado: string; erro: string | null }[]> {
  return pagina.evaluate(
    () =>
      new Promise((resolver, rejeitar) => {
        const pedido = indexedDB.open('sistema-de-gestao');
        pedido.onerror = () => rejeitar(pedido.error);
        pedido.onsuccess = () => {
          const todos = pedido.result.transaction('outbox').objectStore('outbox').getAll();
          todos.onsuccess = () => {
            resolver((todos.result as { estado: string; erro: string | null }[]).map((i) => ({ estado: i.estado, erro: i.erro })));
            pedido.result.close();
          };
        };
      }),
  );
}

/** The first queued item was made `ms` ago (a phone that has been out of signal since then). */
function envelhecerPrimeiroItem(pagina: Page, ms: number): Promise<void> {
  return pagina.evaluate(
    (idade) =>
      new Promise<void>((resolver, rejeitar) => {
        const pedido = indexedDB.open('sistema-de-gestao');
        pedido.onerror = () => rejeitar(pedido.error);
        pedido.onsuccess = () => {
          const tx = pedido.result.transaction('outbox', 'readwrite');
          const cursor = tx.objectStore('outbox').openCursor();
          cursor.onsuccess = () => {
            const c = cursor.result;
            if (c) c.update({ ...c.value, criadoEm: new Date(Date.now() - idade).toISOString() });
          };
          tx.oncomplete = () => {
            pedido.result.close();
            resolver();
          };
        };
      }),
    ms,
  );
}

describe.skipIf(!temChromium)('celulares em campo e versão mínima', () => {
  let servidor: ServidorDeTeste;
  let navegador: Browser;
  let raiz: string;

  beforeAll(async () => {
    // The client under test is built from package.json's version (0.1.0); this server wants 0.2.0.
    ({ servidor, navegador, raiz } = await abrirAmbiente({ env: { VERSAO_MINIMA_APP: '0.2.0' }, navegador: true, pasta: 'sg-celulares-' }));
  });
  afterAll(() => fecharAmbiente({ servidor, navegador, raiz }));

  it('versão antiga: a fila fica no celular com "Atualize o aplicativo", o admin vê as pendências, e tudo vai quando a versão é aceita', async () => {
    const f = await servidor.criarFuncionario({ nome: 'Maria Souza', email: 'maria@escola.com.br' });
    await criarRotaEmCurso(servidor, f.id, { nome: 'Rota Sul Goiano', cidades: CIDADES, diasAntes: 10, diasDepois: 10 });
    const vendasNoServidor = () => (servidor.db.$client.prepare('select count(*) as n from vendas where funcionario_id = ?').get(f.id) as { n: number }).n;

    // The employee signs in with signal and opens the sales screen once (kept for offline use).
    const { contexto, pagina } = await abrirPerfil(path.join(raiz, 'perfil-maria'), CELULAR);
    await entrarComSinal(pagina, servidor.url, f.email, f.senha);
    const vendas = new TelaVendasFuncionario(pagina);
    await vendas.abrir(servidor.url);
    await pagina.getByText('Goiânia').first().waitFor();

    // No signal: two closings go to the phone's queue.
    await contexto.setOffline(true);
    await vendas.editar('Goiânia', { Dinheiro: '150' });
    await vendas.salvar('Goiânia');
    await vendas.editar('Anápolis', { Pix: '42' });
    await vendas.salvar('Anápolis');
    await indicador(pagina).getByText('Offline · 2 aguardando').waitFor();
    // The first was made two days ago: the phone has been out of signal since (and the app was
    // opened again meanwhile, which reads the queue afresh).
    await envelhecerPrimeiroItem(pagina, 2 * 24 * 3600_000 + 3600_000);
    await pagina.reload();
    await indicador(pagina).getByText('Offline · 2 aguardando').waitFor();

    // Signal again: the server refuses this version. The queue stays, untouched.
    await contexto.setOffline(false);
    await indicador(pagina).getByText('Atualize o aplicativo').waitFor({ timeout: 30_000 });
    // Not 'precisa de atenção': the refusal is about the app, not about these records.
    const fila = await filaNoCelular(pagina);
    expect(fila.map((i) => i.estado)).toEqual(['pendente', 'pendente']);
    expect(fila.some((i) => i.erro?.includes('Atualize'))).toBe(false);
    expect(vendasNoServidor()).toBe(0);
    await vendas.fecharAvisos().catch(() => undefined);
    await pagina.getByRole('heading', { name: 'Registro Diário de Vendas' }).waitFor();
    await pagina.getByRole('tab', { name: /^Fechadas \(2\)/ }).waitFor();
    await fotografar(pagina, 'celulares-funcionario-indicador-390');

    await indicador(pagina).click();
    const painel = pagina.getByRole('dialog', { name: 'Sincronização' });
    const aviso = painel.getByRole('alert', { name: 'Atualize o aplicativo' });
    await aviso.getByText('Os 2 registros continuam guardados neste aparelho e serão enviados depois da atualização.').waitFor();
    await aviso.getByText('Esta versão (0.1.0) não é mais aceita pelo servidor.', { exact: false }).waitFor();
    await painel.getByText('Aguardando envio (2)').waitFor();
    await fotografar(pagina, 'celulares-funcionario-painel-390');
    await pagina.setViewportSize(DESKTOP);
    await pagina.waitForTimeout(500); // the drawer becomes the fixed sidebar (a CSS transition)
    await fotografar(pagina, 'celulares-funcionario-painel-1280');
    await pagina.keyboard.press('Escape');
    await fotografar(pagina, 'celulares-funcionario-indicador-1280');
    await pagina.setViewportSize(CELULAR);

    // The admin, on another browser, sees what waits on Maria's phone and that it is late.
    const { contexto: contextoAdmin, pagina: paginaAdmin } = await novaPagina(navegador, DESKTOP);
    const loginAdmin = new TelaLogin(paginaAdmin);
    await loginAdmin.abrir(servidor.url);
    await loginAdmin.entrar(ADMIN.email, ADMIN.senha);
    await paginaAdmin.waitForURL('**/dashboard');
    const painelAdmin = new TelaDashboardAdmin(paginaAdmin);
    await painelAdmin.banner().waitFor();
    const secao = secaoCelulares(paginaAdmin);
    const linha = secao.getByRole('listitem').filter({ hasText: 'Maria Souza' });
    await linha.waitFor();
    expect(await linha.textContent()).toMatch(/^Maria Souza — 2 vendas no celular há 2 diasversão 0\.1\.0 · última sincronização \d\d\/\d\d \d\d:\d\dHá mais de 24 horasPrecisa atualizar o aplicativo$/);
    await secao.getByText('1 celular há mais de 24 horas').waitFor();
    await fotografar(paginaAdmin, 'celulares-admin-1280');
    await fotografar(paginaAdmin, 'celulares-admin-secao-1280', secao);
    // The same dashboard on a phone-sized screen.
    const { contexto: contextoAdminCelular, pagina: adminCelular } = await novaPagina(navegador, CELULAR);
    await new TelaLogin(adminCelular).abrir(servidor.url);
    await new TelaLogin(adminCelular).entrar(ADMIN.email, ADMIN.senha);
    await adminCelular.waitForURL('**/dashboard');
    await secaoCelulares(adminCelular).getByRole('listitem').filter({ hasText: 'Maria Souza' }).waitFor();
    await adminCelular.locator('.Toastify__close-button').evaluateAll((botoes) => botoes.forEach((b) => (b as HTMLElement).click()));
    await fotografar(adminCelular, 'celulares-admin-390');
    await fotografar(adminCelular, 'celulares-admin-secao-390', secaoCelulares(adminCelular));
    await contextoAdminCelular.close();

    // 'Atualizar aplicativo' while the server still refuses this version: no newer build, the server asked
    // again, the queue stays and the person is told so.
    await indicador(pagina).click();
    const painelSync = pagina.getByRole('dialog', { name: 'Sincronização' });
    await painelSync.getByRole('button', { name: 'Atualizar aplicativo' }).click();
    await painelSync.getByText('Nenhuma versão nova chegou ainda. Conecte-se à internet e tente de novo em alguns minutos.').waitFor();
    expect(vendasNoServidor()).toBe(0);
    // The operator sets the minimum back (VERSAO_MINIMA_APP=0.1.0). Every pass asks the server while paused
    // (the next one may start by itself at any moment, so the test does not race it for the button): the
    // next pass finds this version accepted and the same queue goes.
    servidor.config.versaoMinimaApp = '0.1.0';
    await painelSync.getByRole('button', { name: 'Sincronizar agora' }).click();
    await expect.poll(vendasNoServidor, { timeout: 30_000 }).toBe(2);
    await pagina.keyboard.press('Escape');
    await indicador(pagina).getByText('Sincronizado').waitFor({ timeout: 30_000 });
    expect(await filaNoCelular(pagina)).toEqual([]);

    // The phone tells the server its queue emptied: Maria leaves the admin's list.
    await expect
      .poll(
        async () => {
          await painelAdmin.abrir(servidor.url);
          return (await secaoCelulares(paginaAdmin).textContent()) ?? '';
        },
        { timeout: 20_000, interval: 1000 },
      )
      .toContain('Nenhuma pendência: tudo o que a equipe registrou nos celulares já chegou ao servidor.');
    await fotografar(paginaAdmin, 'celulares-admin-vazio-1280', secaoCelulares(paginaAdmin));
    await contextoAdmin.close();
    await contexto.close();
  });
});
