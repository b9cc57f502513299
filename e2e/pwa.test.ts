/**
 * The installable PWA: manifest, service worker, the shell opening with no network, and the API
 * never answered from the service worker's cache.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatarData, hoje } from '../shared/dates';
import { TelaDashboardFuncionario } from './paginas/dashboard';
import { Casca } from './paginas/layout';
import { TelaLogin } from './paginas/login';
import { TelaVendasFuncionario } from './paginas/vendas';
import { abrirAmbiente, fecharAmbiente } from './suporte/ambiente';
import { creditarSaldo, criarRotaEmCurso } from './suporte/dados';
import { capturar, CELULAR, DESKTOP, novaPagina, temChromium } from './suporte/navegador';
import type { ServidorDeTeste } from './suporte/servidor';

const GOIANIA = 5208707;
const ANAPOLIS = 5201108;

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

  it('o app instalado abre Vendas já com as cidades, com e sem sinal: o primeiro desenho é a tela com os cartões, sem "Carregando" antes', async () => {
    const funcionario = await servidor.criarFuncionario({ nome: 'Vera Volta', email: 'vera@escola.com.br' });
    await criarRotaEmCurso(servidor, funcionario.id, { nome: 'Rota Volta', cidades: [GOIANIA, ANAPOLIS], diasAntes: 2, diasDepois: 10 });
    const { contexto, pagina } = await novaPagina(navegador, CELULAR);
    await new TelaLogin(pagina).abrir(servidor.url);
    await new TelaLogin(pagina).entrar(funcionario.email, funcionario.senha);
    await pagina.waitForURL('**/dashboard');
    await pagina.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 20_000 });
    const vendas = new TelaVendasFuncionario(pagina);
    await vendas.abrir(servidor.url);
    await vendas.cartao('Goiânia').waitFor(); // the day's copy is now kept on the device
    await pagina.close();

    // What the app's first drawing put in #root, seen by an observer installed before the app's scripts.
    await contexto.addInitScript(() => {
      new MutationObserver((_, observador) => {
        const raiz = document.getElementById('root');
        if (!raiz || raiz.childElementCount === 0) return;
        observador.disconnect();
        Object.assign(window, {
          primeiroDesenho: { cartoes: raiz.querySelectorAll('.grade-cidades li').length, carregando: raiz.querySelector('.tela-carregando') !== null },
        });
      }).observe(document, { childList: true, subtree: true });
    });
    for (const semSinal of [false, true]) {
      await contexto.setOffline(semSinal);
      const repetida = await contexto.newPage();
      const tela = new TelaVendasFuncionario(repetida);
      await repetida.goto(`${servidor.url}/vendas`);
      await tela.cartao('Goiânia').waitFor();
      await expect(repetida.evaluate(() => (window as unknown as { primeiroDesenho?: unknown }).primeiroDesenho)).resolves.toEqual({ cartoes: 2, carregando: false });
      await capturar(repetida, semSinal ? 'celular-vendas-visita-repetida-sem-sinal' : 'celular-vendas-visita-repetida');
      await repetida.close();
    }
    await contexto.close();
  });

  it('o dashboard do funcionário abre sem iniciar o ICU, com e sem sinal: dinheiro, contagens, hora e "hoje" escritos sem Intl', async () => {
    const funcionario = await servidor.criarFuncionario({ nome: 'Iara Intl', email: 'iara.intl@escola.com.br' });
    const rotaId = await criarRotaEmCurso(servidor, funcionario.id, { nome: 'Rota Sem ICU', cidades: [GOIANIA, ANAPOLIS], diasAntes: 2, diasDepois: 10, valorAluguel: 1500 });
    await creditarSaldo(servidor, funcionario.id, 1234.56, { rotaId });
    const { contexto, pagina } = await novaPagina(navegador, CELULAR);
    await new TelaLogin(pagina).abrir(servidor.url);
    await new TelaLogin(pagina).entrar(funcionario.email, funcionario.senha);
    await pagina.waitForURL('**/dashboard');
    await pagina.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 20_000 });
    const copiasGuardadasEm = hoje('America/Sao_Paulo');
    await expect.poll(() => new TelaDashboardFuncionario(pagina).saldoConfirmado()).toBe('R$ 1.234,56'); // the copies are kept
    await pagina.close();

    // Every way a page starts ICU, watched from before the app's scripts (a page's first Intl object costs
    // 20-100 ms here, 4x on a cheap phone: shared/numeros.ts, shared/fusos.ts).
    await contexto.addInitScript(() => {
      const usos: string[] = [];
      Object.assign(window, { usosDoIcu: usos });
      for (const nome of ['NumberFormat', 'DateTimeFormat', 'Collator', 'PluralRules', 'RelativeTimeFormat', 'ListFormat', 'Segmenter'] as const) {
        const original = Intl[nome] as unknown as new (...a: unknown[]) => object;
        (Intl as unknown as Record<string, unknown>)[nome] = new Proxy(original, {
          construct: (alvo, args) => (usos.push(`Intl.${nome}`), Reflect.construct(alvo, args)),
          apply: (alvo, este, args) => (usos.push(`Intl.${nome}`), Reflect.apply(alvo, este, args)),
        });
      }
      for (const [prototipo, metodo] of [
        [Number.prototype, 'toLocaleString'],
        [String.prototype, 'localeCompare'],
        [Date.prototype, 'toLocaleString'],
        [Date.prototype, 'toLocaleDateString'],
        [Date.prototype, 'toLocaleTimeString'],
      ] as const) {
        const original = (prototipo as unknown as Record<string, (...a: unknown[]) => unknown>)[metodo]!;
        (prototipo as unknown as Record<string, unknown>)[metodo] = function (this: unknown, ...args: unknown[]) {
          usos.push(metodo);
          return original.apply(this, args);
        };
      }
    });
    for (const semSinal of [false, true]) {
      await contexto.setOffline(semSinal);
      const repetida = await contexto.newPage();
      const dashboard = new TelaDashboardFuncionario(repetida);
      await repetida.goto(`${servidor.url}/dashboard`);
      await expect.poll(() => dashboard.saldoConfirmado()).toBe('R$ 1.234,56');
      await expect.poll(() => dashboard.mensagemAluguel()).toBe('Média abaixo de 1,5: você paga o aluguel inteiro (R$ 1.500,00).');
      await expect.poll(() => dashboard.valor('Rota Ativa')).toContain('Rota Sem ICU');
      // 'Pronto para viajar' comes last, after the numbers, and writes the free space in KB/MB.
      await repetida.getByRole('list', { name: 'Itens para trabalhar sem sinal' }).waitFor();
      if (semSinal) {
        const aviso = (await dashboard.avisoOffline().textContent()) ?? '';
        // The copy's date, in APP_TZ: the day it was kept (read around it, so a run across midnight still agrees).
        const dias = [copiasGuardadasEm, hoje('America/Sao_Paulo')].map((d) => `em ${formatarData(d)} `);
        expect(dias.some((d) => aviso.includes(d)), aviso).toBe(true);
      }
      await expect(repetida.evaluate(() => (window as unknown as { usosDoIcu: string[] }).usosDoIcu)).resolves.toEqual([]);
      await repetida.close();
    }
    await contexto.close();
  });

  it('sem sinal, uma tela cujo código não ficou no aparelho: o aviso com "Tentar de novo" no lugar dela, o resto do app de pé, e com o sinal de volta a tela abre sozinha', async () => {
    const funcionario = await servidor.criarFuncionario({ nome: 'Téo Trecho', email: 'teo@escola.com.br' });
    for (const [nome, tamanho] of [
      ['celular', CELULAR],
      ['desktop', DESKTOP],
    ] as const) {
      const { contexto, pagina } = await novaPagina(navegador, tamanho);
      const casca = new Casca(pagina);
      await new TelaLogin(pagina).abrir(servidor.url);
      await new TelaLogin(pagina).entrar(funcionario.email, funcionario.senha);
      await pagina.waitForURL('**/dashboard');
      await pagina.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 20_000 });

      // The field's case: the signal dropped before the service worker kept this screen's file. Here its
      // copy is taken out of the worker's cache and of the browser's HTTP cache, with the phone offline.
      await contexto.setOffline(true);
      const tirados = await pagina.evaluate(async () => {
        const tirados: string[] = [];
        for (const nomeCache of await caches.keys()) {
          const cache = await caches.open(nomeCache);
          for (const pedido of await cache.keys()) {
            if (/\/assets\/PaginaRotas-[\w-]+\.js/.test(pedido.url)) {
              await cache.delete(pedido);
              tirados.push(new URL(pedido.url).pathname);
            }
          }
        }
        return tirados;
      });
      expect(tirados).toHaveLength(1);
      const cdp = await contexto.newCDPSession(pagina);
      await cdp.send('Network.clearBrowserCache');

      await pagina.goto(`${servidor.url}/rotas`);
      const aviso = pagina.getByRole('alert').filter({ hasText: 'Esta tela ainda não foi guardada neste aparelho' });
      await aviso.waitFor();
      await expect(aviso.getByRole('button', { name: 'Tentar de novo' }).isVisible()).resolves.toBe(true);
      // Only the screen is missing: the menu, the header and the sync indicator are there, and other screens open.
      await casca.saudacao('Téo Trecho').waitFor();
      await capturar(pagina, `${nome}-tela-nao-guardada`);
      await aviso.getByRole('button', { name: 'Tentar de novo' }).click();
      await aviso.waitFor(); // still offline: the same notice again, not a blank screen
      const irPara = async (item: string) => {
        if (tamanho === CELULAR) await casca.abrirGaveta();
        await casca.irPara(item);
      };
      await irPara('Dashboard');
      await pagina.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
      await irPara('Rotas');
      await aviso.waitFor();

      // The signal comes back: the screen's file is fetched again and the screen opens, with no click.
      await contexto.setOffline(false);
      await pagina.getByRole('heading', { name: 'Minhas Rotas', exact: true }).waitFor();
      await expect(aviso.count()).resolves.toBe(0);
      await contexto.close();
    }
  });
});
