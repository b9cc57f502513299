/**
 * The installable PWA: manifest, service worker, the shell opening with no network, and the API
 * never answered from the service worker's cache.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Casca } from './paginas/layout';
import { TelaLogin } from './paginas/login';
import { abrirAmbiente, fecharAmbiente } from './suporte/ambiente';
import { capturar, CELULAR, novaPagina, temChromium } from './suporte/navegador';
import type { ServidorDeTeste } from './suporte/servidor';

describe.skipIf(!temChromium)('PWA instalável', () => {
  let servidor: ServidorDeTeste;
  let navegador: Browser;

  beforeAll(async () => {
    ({ servidor, navegador } = await abrirAmbiente({ navegador: true }));
  });
  afterAll(() => fecharAmbiente({ servidor, navegador }));

  it('o manifesto é pt-BR, abre em /dashboard, em tela cheia, com ícones 192, 512 e maskable', async () => {
    const r = await servidor.chamar({ method: 'GET', url: '/manifest.webmanifest' });
    expect(r.statusCode).toBe(200);
    const m = r.json();
    expect(m).toMatchObject({ name: 'Sistema de Gestão', short_name: 'Gestão', lang: 'pt-BR', start_url: '/dashboard', display: 'standalone' });
    expect(m.theme_color).toMatch(/^#/);
    const tamanhos = m.icons.map((i: { sizes: string; purpose: string }) => `${i.sizes}/${i.purpose}`);
    expect(tamanhos).toEqual(expect.arrayContaining(['192x192/any', '512x512/any', '512x512/maskable']));
    for (const icone of m.icons) expect((await servidor.chamar({ method: 'GET', url: icone.src })).statusCode).toBe(200);
  });

  it('depois de entrar uma vez, o app abre sem rede (recarregar e link direto) e a API nunca vem do cache', async () => {
    const funcionario = await servidor.criarFuncionario({ nome: 'Olga Offline', email: 'olga@escola.com.br' });
    const { contexto, pagina } = await novaPagina(navegador, CELULAR);
    await new TelaLogin(pagina).abrir(servidor.url);
    await new TelaLogin(pagina).entrar(funcionario.email, funcionario.senha);
    await pagina.waitForURL('**/dashboard');
    await pagina.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 20_000 });

    await contexto.setOffline(true);
    await pagina.reload();
    await new Casca(pagina).saudacao('Olga Offline').waitFor();
    await capturar(pagina, 'celular-offline-dashboard');

    await pagina.goto(`${servidor.url}/despesas`);
    await new Casca(pagina).saudacao('Olga Offline').waitFor();

    // The service worker does not answer /api: with the network off the call fails.
    const resultado = await pagina.evaluate(async () => {
      try {
        await fetch('/api/health');
        return 'respondeu';
      } catch {
        return 'falhou';
      }
    });
    expect(resultado).toBe('falhou');
    await contexto.close();
  });
});
