/**
 * 'Pronto para viajar' in Chromium against the real server (issue 11): an employee with an active
 * route signs in; the card says what is missing until the screen is visited, 'Atualizar tudo'
 * fills the rest; with no signal and a reload the dashboard opens, the checklist still says ready,
 * the action is disabled, and the screens refreshed but never visited open from the device.
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

  it('celular: falta o que não foi visitado; "Atualizar tudo" completa; sem sinal e recarregado, continua pronto e a ação fica desativada', async () => {
    const f = await prepararFuncionario('Vera Estrada', 'vera.viagem@escola.com.br');
    const { contexto, pagina } = await abrirPerfil(path.join(raiz, 'perfil-celular'), CELULAR);
    try {
      await entrar(pagina, f.email, f.senha);
      const cartao = new CartaoViagem(pagina);
      await cartao.cartao().waitFor();

      // The dashboard keeps its own pieces on the phone; Vendas and Despesas were never opened.
      await expect.poll(() => cartao.estados(), { timeout: 15_000 }).toMatchObject({ rota: 'ok', saldo: 'ok', salario: 'ok', vendas: 'falta', despesas: 'falta', fila: 'ok', espaco: 'ok' });
      expect(await cartao.textoDoItem('rota')).toMatch(/^Pronto: Rota ativa e 5 cidadesatualizado (agora mesmo|há 1 minuto)$/);
      expect(await cartao.resumo()).toMatch(/^Faltam 2 itens/);
      expect(await cartao.botao().isEnabled()).toBe(true);
      expect(await semRolagemHorizontal(pagina)).toBe(true);
      await fecharAvisos(pagina);
      await mostrarCartao(cartao);
      await capturar(pagina, 'celular-pronto-para-viajar-faltando');

      // Visiting Vendas keeps its data: back on the dashboard, only Despesas is missing.
      const vendas = new TelaVendasFuncionario(pagina);
      await vendas.abrir(servidor.url);
      await vendas.cartao('Goiânia').waitFor();
      const dashboard = new TelaDashboardFuncionario(pagina);
      await dashboard.abrir(servidor.url);
      await expect.poll(() => cartao.estados()).toMatchObject({ vendas: 'ok', despesas: 'falta' });
      await pagina.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });

      // One action, while there is signal: everything is on the phone.
      await concederArmazenamentoPersistente(contexto, pagina);
      await cartao.botao().click();
      await cartao.resultado().getByText(/^Tudo atualizado às \d\d:\d\d\.$/).waitFor({ timeout: 30_000 });
      await expect.poll(() => cartao.resumo()).toBe('Tudo pronto para trabalhar sem sinal');
      expect(Object.values(await cartao.estados())).toEqual(Array(8).fill('ok'));
      expect(await cartao.textoDoItem('persistente')).toContain('Armazenamento persistente concedido');
      expect(await cartao.textoDoItem('fila')).toContain('Fila vazia');
      await mostrarCartao(cartao);
      await capturar(pagina, 'celular-pronto-para-viajar-pronto');

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

  it('computador: a lista em duas colunas, tudo pronto depois de "Atualizar tudo"', async () => {
    const f = await prepararFuncionario('Rui Mesa', 'rui.viagem@escola.com.br');
    const { contexto, pagina } = await abrirPerfil(path.join(raiz, 'perfil-desktop'), DESKTOP);
    try {
      await entrar(pagina, f.email, f.senha);
      const cartao = new CartaoViagem(pagina);
      await expect.poll(() => cartao.estados(), { timeout: 15_000 }).toMatchObject({ rota: 'ok', despesas: 'falta' });
      await fecharAvisos(pagina);
      await capturar(pagina, 'desktop-pronto-para-viajar-faltando');
      await concederArmazenamentoPersistente(contexto, pagina);
      await cartao.botao().click();
      await cartao.resultado().getByText(/^Tudo atualizado às/).waitFor({ timeout: 30_000 });
      await expect.poll(() => cartao.resumo()).toBe('Tudo pronto para trabalhar sem sinal');
      await cartao.abrirLista();
      expect(await semRolagemHorizontal(pagina)).toBe(true);
      await capturar(pagina, 'desktop-pronto-para-viajar-pronto');
    } finally {
      await contexto.close();
    }
  });
});
