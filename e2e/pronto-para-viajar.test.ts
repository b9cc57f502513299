/**
 * 'Pronto para viajar' in Chromium against the real server: an employee with an
 * active route signs in with signal; the app fetches every screen's data by itself with its progress
 * on the card and never an alarm; with no signal and a reload the dashboard opens, the checklist
 * still says ready, the action is disabled, and the screens never visited open from the device.
 */
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoje, somarDias } from '../shared/dates';
import { formulario } from '../server/test/despesas';
import { TelaDashboardFuncionario } from './paginas/dashboard';
import { TelaDespesas } from './paginas/despesas';
import { TelaLogin } from './paginas/login';
import { CartaoViagem } from './paginas/prontoParaViajar';
import { TelaVendasFuncionario } from './paginas/vendas';
import { abrirAmbiente, fecharAmbiente } from './suporte/ambiente';
import { creditarSaldo, criarRotaEmCurso } from './suporte/dados';
import { abrirPerfil, capturar, CELULAR, DESKTOP, temChromium } from './suporte/navegador';
import type { ServidorDeTeste } from './suporte/servidor';

const HOJE = hoje('America/Sao_Paulo');
const CIDADES = [5208707, 5201108, 5204508, 5205109, 5211503]; // Goiânia, Anápolis, Caldas Novas, Catalão, Itumbiara

describe.skipIf(!temChromium)('Pronto para viajar no navegador', () => {
  let servidor: ServidorDeTeste;
  let raiz: string;

  beforeAll(async () => {
    ({ servidor, raiz } = await abrirAmbiente({ pasta: 'sg-viagem-' }));
  });
  afterAll(() => fecharAmbiente({ servidor, raiz }));

  /** An employee on the road: an active route, a credit, a sale yesterday and an expense on the server. */
  async function prepararFuncionario(nome: string, email: string) {
    const f = await servidor.criarFuncionario({ nome, email });
    const rotaId = await criarRotaEmCurso(servidor, f.id, { nome: 'Rota Sul Goiano', cidades: CIDADES, diasAntes: 10, diasDepois: 20 });
    await creditarSaldo(servidor, f.id, 500, { rotaId });
    const venda = await servidor.chamar({
      method: 'POST',
      url: '/api/vendas',
      token: f.token,
      payload: { id: uuidv7(), rota_id: rotaId, cidade_id: CIDADES[0]!, data_venda: somarDias(HOJE, -1), valor_dinheiro: 420 },
    });
    expect(venda.statusCode, venda.body).toBe(201);
    const corpo = await formulario({ id: uuidv7(), rota_id: rotaId, cidade_id: CIDADES[1]!, data_despesa: somarDias(HOJE, -1), tipo: 'alimentacao', valor: '38,50', descricao: 'Almoço na estrada' });
    const despesa = await servidor.chamar({ method: 'POST', url: '/api/despesas', token: f.token, ...corpo });
    expect(despesa.statusCode, despesa.body).toBe(201);
    return f;
  }

  async function entrar(pagina: Page, email: string, senha: string) {
    await pagina.emulateMedia({ reducedMotion: 'reduce' });
    const login = new TelaLogin(pagina);
    await login.abrir(servidor.url);
    await login.entrar(email, senha);
    await pagina.waitForURL('**/dashboard');
    await pagina.mouse.move(0, 0);
  }

  /** The phone's browser agrees to keep the app's data (Chrome does so for an installed PWA). */
  async function concederArmazenamentoPersistente(contexto: BrowserContext, pagina: Page) {
    const cdp = await contexto.newCDPSession(pagina);
    await cdp.send('Browser.grantPermissions', { origin: servidor.url, permissions: ['durableStorage'] });
  }

  /** Closes the toasts (they cover the header in screenshots). */
  async function fecharAvisos(pagina: Page) {
    await pagina.locator('.Toastify__close-button').evaluateAll((botoes) => botoes.forEach((b) => (b as HTMLElement).click()));
    await pagina.locator('.Toastify__toast').first().waitFor({ state: 'detached' });
  }

  const semRolagemHorizontal = (pagina: Page) => pagina.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

  /** The card's top just under the fixed header, for the screenshot. */
  async function mostrarCartao(cartao: CartaoViagem) {
    await cartao.cartao().evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 76));
  }

  it('celular: no primeiro login com sinal o app baixa tudo sozinho, com progresso e sem alarme; sem sinal e recarregado, continua pronto e a ação fica desativada', async () => {
    const f = await prepararFuncionario('Vera Estrada', 'vera.viagem@escola.com.br');
    const { contexto, pagina } = await abrirPerfil(path.join(raiz, 'perfil-celular'), CELULAR);
    try {
      // The phone's browser keeps the app's data (as Chrome does for an installed PWA): the only
      // item the app cannot settle by itself.
      await pagina.goto(`${servidor.url}/login`);
      await concederArmazenamentoPersistente(contexto, pagina);
      // The balance's answer is held on the way (a slow road link), so the app's own work stays on screen.
      let soltarSaldo!: () => void;
      const saldoSolto = new Promise<void>((r) => (soltarSaldo = r));
      await pagina.route('**/api/saldo/resumo', async (rota) => {
        await saldoSolto;
        await rota.continue();
      });
      await entrar(pagina, f.email, f.senha);
      const cartao = new CartaoViagem(pagina);
      await cartao.cartao().waitFor();

      // Nobody touched anything: the app fetches every screen's data by itself, showing how far it got.
      await cartao.cartao().getByRole('progressbar', { name: 'Baixando os dados para trabalhar sem sinal' }).waitFor({ timeout: 30_000 });
      await expect.poll(() => cartao.resumo()).toMatch(/^Preparando o aparelho para trabalhar sem sinal \(\d de 7\)$/);
      expect(Object.values(await cartao.estados())).not.toContain('falta');
      await fecharAvisos(pagina);
      await mostrarCartao(cartao);
      await capturar(pagina, 'celular-pronto-para-viajar-preparando');
      soltarSaldo();
      // Never an alarm on the way (a first login with signal is not a problem to solve).
      const vistos = new Set<string>();
      await expect
        .poll(
          async () => {
            for (const estado of Object.values(await cartao.estados())) vistos.add(estado);
            return cartao.resumo();
          },
          { timeout: 60_000 },
        )
        .toBe('Tudo pronto para trabalhar sem sinal');
      expect([...vistos]).not.toContain('falta');
      await cartao.resultado().getByText(/^Tudo atualizado às \d\d:\d\d\.$/).waitFor();
      expect(Object.values(await cartao.estados())).toEqual(Array(8).fill('ok'));
      expect(await cartao.textoDoItem('rota')).toMatch(/^Pronto: Rota ativa e 5 cidadesatualizado (agora mesmo|há 1 minuto)$/);
      expect(await cartao.textoDoItem('persistente')).toContain('Armazenamento persistente concedido');
      expect(await cartao.textoDoItem('fila')).toContain('Fila vazia');
      expect(await semRolagemHorizontal(pagina)).toBe(true);
      await mostrarCartao(cartao);
      await capturar(pagina, 'celular-pronto-para-viajar-pronto');
      const vendas = new TelaVendasFuncionario(pagina);
      const dashboard = new TelaDashboardFuncionario(pagina);
      await pagina.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });

      // No signal, the app reloaded: the dashboard opens, the checklist still says ready, the action waits for signal.
      await contexto.setOffline(true);
      await pagina.reload();
      await pagina.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
      await expect.poll(() => cartao.resumo()).toBe('Tudo pronto para trabalhar sem sinal');
      await cartao.semConexao().waitFor();
      expect(await cartao.botao().isDisabled()).toBe(true);
      await dashboard.avisoOffline().waitFor();
      // Ready: the list comes closed, the summary says it.
      expect(await cartao.cartao().getByRole('button', { name: 'Ver itens' }).getAttribute('aria-expanded')).toBe('false');
      expect(await semRolagemHorizontal(pagina)).toBe(true);
      await mostrarCartao(cartao);
      await capturar(pagina, 'celular-pronto-para-viajar-offline');
      expect(Object.values(await cartao.estados())).toEqual(Array(8).fill('ok'));

      // Despesas was never opened: what 'Atualizar tudo' kept is what it shows offline.
      const despesas = new TelaDespesas(pagina);
      await despesas.abrir(servidor.url);
      await pagina.getByText('Almoço na estrada').first().waitFor();
      await pagina.getByText(/Sem conexão: mostrando a lista guardada em/).waitFor();
      await despesas.saldoConfirmado().getByText('R$ 461,50').waitFor();
      await vendas.abrir(servidor.url);
      await vendas.cartao('Catalão').waitFor();
      expect(await pagina.getByText(/Abra esta tela uma vez com internet/).count()).toBe(0);
    } finally {
      await contexto.close();
    }
  });

  it('computador: a lista em duas colunas, tudo pronto sem tocar em nada', async () => {
    const f = await prepararFuncionario('Rui Mesa', 'rui.viagem@escola.com.br');
    const { contexto, pagina } = await abrirPerfil(path.join(raiz, 'perfil-desktop'), DESKTOP);
    try {
      await pagina.goto(`${servidor.url}/login`);
      await concederArmazenamentoPersistente(contexto, pagina);
      await entrar(pagina, f.email, f.senha);
      const cartao = new CartaoViagem(pagina);
      await cartao.cartao().waitFor();
      await expect.poll(() => cartao.resumo(), { timeout: 60_000 }).toBe('Tudo pronto para trabalhar sem sinal');
      await fecharAvisos(pagina);
      await cartao.abrirLista();
      expect(await semRolagemHorizontal(pagina)).toBe(true);
      await capturar(pagina, 'desktop-pronto-para-viajar-pronto');
    } finally {
      await contexto.close();
    }
  });
});
