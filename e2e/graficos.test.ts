/**
 * The admin's trend charts in the browser: on the dashboard and in Relatórios, with
 * sales, visits and expenses seeded on a real server, each chart is a named figure whose canvas uPlot
 * drew (its own chunk, fetched only there) and whose numbers open as a table; at 1280 and 390 px wide,
 * nothing scrolls sideways. Real built client, real server on a temporary database, Debian's Chromium.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoje, somarDias } from '../shared/dates';
import { inserirDespesa, inserirVenda, inserirVisita } from '../server/test/fabricas';
import { ADMIN } from '../server/test/helper';
import { TelaLogin } from './paginas/login';
import { abrirAmbiente, fecharAmbiente } from './suporte/ambiente';
import { criarRotaEmCurso } from './suporte/dados';
import { capturar, CELULAR, DESKTOP, novaPagina, temChromium } from './suporte/navegador';
import type { ServidorDeTeste } from './suporte/servidor';

const HOJE = hoje('America/Sao_Paulo');
const sp = (t: string | null) => (t ?? '').replace(/\u00a0/g, ' ').trim();
const dm = (data: string) => `${data.slice(8, 10)}/${data.slice(5, 7)}`;

const TITULOS = [
  'Vendas por dia e forma de pagamento',
  'Vendas e despesas por rota',
  'Vendas e despesas por funcionário',
  'Despesas por tipo',
  'Cidades visitadas e planejadas por rota',
];

describe.skipIf(!temChromium)('gráficos de tendência no navegador', () => {
  let servidor: ServidorDeTeste;
  let navegador: Browser;
  /** Chunks the pages asked for, by file name. */
  let pedidos: string[] = [];

  beforeAll(async () => {
    ({ servidor, navegador } = await abrirAmbiente({ navegador: true }));
    const ana = await servidor.criarFuncionario({ nome: 'Ana Estrada', email: 'ana.graficos@escola.com.br' });
    const bruno = await servidor.criarFuncionario({ nome: 'Bruno Viagem', email: 'bruno.graficos@escola.com.br' });
    const rotaAna = await criarRotaEmCurso(servidor, ana.id, { nome: 'Rota Goiás Central', cidades: [5208707, 5201108, 5204508, 5205109], diasAntes: 12, diasDepois: 10 });
    const rotaBruno = await criarRotaEmCurso(servidor, bruno.id, { nome: 'Rota Minas', cidades: [3106200, 3170206], diasAntes: 12, diasDepois: 10 });
    await inserirVenda(servidor.db, rotaAna, ana.id, 5208707, HOJE, { dinheiro: 120_050, pix: 30_000, boletos: 2 });
    await inserirVenda(servidor.db, rotaAna, ana.id, 5201108, somarDias(HOJE, -1), { cartao: 50_000, link: 9_990 });
    await inserirVenda(servidor.db, rotaAna, ana.id, 5205109, somarDias(HOJE, -6), { dinheiro: 80_000, pix: 45_000, boletos: 1 });
    await inserirVisita(servidor.db, rotaAna, ana.id, 5204508, HOJE);
    await inserirVenda(servidor.db, rotaBruno, bruno.id, 3106200, somarDias(HOJE, -3), { pix: 210_000, cartao: 64_000, boletos: 4 });
    await inserirDespesa(servidor.db, rotaAna, ana.id, 5208707, HOJE, 4_590);
    await inserirDespesa(servidor.db, rotaAna, ana.id, 5201108, somarDias(HOJE, -1), 18_000, { tipo: 'hospedagem' });
    await inserirDespesa(servidor.db, rotaBruno, bruno.id, 3106200, somarDias(HOJE, -3), 25_000, { tipo: 'combustivel' });
  });
  afterAll(() => fecharAmbiente({ servidor, navegador }));

  async function entrarComoAdmin(tela: typeof DESKTOP) {
    const { contexto, pagina } = await novaPagina(navegador, tela);
    pedidos = [];
    pagina.on('request', (r) => {
      const url = new URL(r.url());
      if (url.pathname.startsWith('/assets/')) pedidos.push(url.pathname.slice('/assets/'.length));
    });
    await pagina.emulateMedia({ reducedMotion: 'reduce' });
    const login = new TelaLogin(pagina);
    await login.abrir(servidor.url);
    // The login screen's chunks: no chart code.
    expect(pedidos.filter((p) => /GraficoUPlot|PainelTendencias/.test(p))).toEqual([]);
    await login.entrar(ADMIN.email, ADMIN.senha);
    await pagina.waitForURL('**/dashboard');
    await pagina.mouse.move(0, 0);
    return { contexto, pagina };
  }

  /** Waits for every chart of the panel to be drawn, checks names and canvases, returns the panel. */
  async function conferirPainel(pagina: Page, nomePainel: string) {
    const painel = pagina.getByRole('region', { name: nomePainel });
    for (const titulo of TITULOS) {
      const figura = painel.getByRole('figure', { name: titulo });
      await figura.getByRole('img', { name: new RegExp(`^${titulo}: gráfico de barras`) }).locator('canvas').first().waitFor();
      // uPlot drew at the figure's width (never wider than the screen).
      const { canvas, figuraLargura } = await figura.evaluate((f) => ({
        canvas: (f.querySelector('canvas') as HTMLCanvasElement).getBoundingClientRect().width,
        figuraLargura: f.getBoundingClientRect().width,
      }));
      expect(canvas).toBeGreaterThan(100);
      expect(canvas).toBeLessThanOrEqual(figuraLargura);
    }
    return painel;
  }

  async function conferirNumeros(pagina: Page, nomePainel: string) {
    const painel = pagina.getByRole('region', { name: nomePainel });
    const vendas = painel.getByRole('figure', { name: TITULOS[0] });
    await vendas.getByText('Ver números').click();
    const tabela = vendas.getByRole('table', { name: TITULOS[0] });
    const celulas = async (inicio: string) => (await tabela.getByRole('row', { name: new RegExp(`^${inicio}`) }).getByRole('cell').allTextContents()).map(sp);
    expect(await celulas(dm(HOJE))).toEqual(['R$ 1.200,50', 'R$ 300,00', 'R$ 0,00', 'R$ 0,00', '2']);
    expect(await celulas(dm(somarDias(HOJE, -3)))).toEqual(['R$ 0,00', 'R$ 2.100,00', 'R$ 640,00', 'R$ 0,00', '4']);
    expect(await celulas('Total')).toEqual(['R$ 2.000,50', 'R$ 2.850,00', 'R$ 1.140,00', 'R$ 99,90', '7']);
    const cidades = painel.getByRole('figure', { name: TITULOS[4] });
    await cidades.getByText('Ver números').click();
    expect((await cidades.getByRole('row', { name: /^Rota Goiás Central/ }).getByRole('cell').allTextContents()).map(sp)).toEqual(['4', '4']);
    expect((await cidades.getByRole('row', { name: /^Rota Minas/ }).getByRole('cell').allTextContents()).map(sp)).toEqual(['2', '1']);
    // Closed again for the screenshots.
    await vendas.getByText('Ver números').click();
    await cidades.getByText('Ver números').click();
  }

  /** Closes the toasts (they cover the header in screenshots). */
  async function fecharAvisos(pagina: Page) {
    await pagina.locator('.Toastify__close-button').evaluateAll((botoes) => botoes.forEach((b) => (b as HTMLElement).click()));
    await pagina.locator('.Toastify__toast').first().waitFor({ state: 'detached' });
  }

  /** The panel's top, then its last charts, in two screenshots. */
  async function capturarPainel(pagina: Page, nomePainel: string, arquivo: string) {
    await pagina.evaluate((n) => document.querySelector(`[aria-label="${n}"]`)!.scrollIntoView(), nomePainel);
    await capturar(pagina, arquivo);
    await pagina.getByRole('region', { name: nomePainel }).getByRole('figure', { name: TITULOS[3] }).evaluate((f) => f.scrollIntoView());
    await capturar(pagina, `${arquivo}-2`);
  }

  const semRolagemHorizontal = (pagina: Page) => pagina.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

  for (const [tela, nome] of [
    [DESKTOP, 'desktop'],
    [CELULAR, 'celular'],
  ] as const) {
    it(`${nome}: o dashboard e Relatórios mostram os gráficos desenhados e suas tabelas de números`, async () => {
      const { contexto, pagina } = await entrarComoAdmin(tela);
      await conferirPainel(pagina, 'Tendências dos últimos 30 dias');
      expect(pedidos.some((p) => /^GraficoUPlot-.*\.js$/.test(p))).toBe(true);
      await conferirNumeros(pagina, 'Tendências dos últimos 30 dias');
      expect(await semRolagemHorizontal(pagina)).toBe(true);
      await fecharAvisos(pagina);
      await capturarPainel(pagina, 'Tendências dos últimos 30 dias', `${nome}-dashboard-graficos`);

      await pagina.goto(`${servidor.url}/relatorios`);
      await pagina.getByRole('heading', { name: 'Relatórios', level: 1 }).waitFor();
      await conferirPainel(pagina, 'Tendências do período');
      await conferirNumeros(pagina, 'Tendências do período');
      expect(await semRolagemHorizontal(pagina)).toBe(true);
      await capturarPainel(pagina, 'Tendências do período', `${nome}-relatorios-graficos`);
      await contexto.close();
    });
  }

  it('Relatórios: um período sem vendas diz "Sem vendas no período"; datas invertidas, o motivo em português', async () => {
    const { contexto, pagina } = await entrarComoAdmin(DESKTOP);
    await pagina.goto(`${servidor.url}/relatorios`);
    const painel = pagina.getByRole('region', { name: 'Tendências do período' });
    await painel.getByRole('figure', { name: TITULOS[0] }).locator('canvas').first().waitFor();
    await pagina.getByLabel('Data inicial').fill('2020-01-01');
    await pagina.getByLabel('Data final').fill('2020-01-31');
    await painel.getByRole('figure', { name: TITULOS[0] }).getByText('Sem vendas no período').waitFor();
    expect(await painel.getByRole('figure', { name: TITULOS[0] }).locator('canvas').count()).toBe(0);
    await painel.getByText('De 01/01/2020 a 31/01/2020').waitFor();
    await pagina.getByLabel('Data final').fill('2019-12-01');
    await painel.getByRole('alert').filter({ hasText: 'A data inicial deve ser igual ou anterior à data final.' }).waitFor();
    await contexto.close();
  });
});
