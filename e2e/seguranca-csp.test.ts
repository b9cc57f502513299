/**
 * The real PWA under the server's Content-Security-Policy: the admin and an employee sign in, open
 * every main screen, and open a receipt photo and a PDF in the viewer; the service worker
 * registers. Any CSP violation (the page's 'securitypolicyviolation' events, in every frame, and
 * the browser's "Refused to ..." console errors) fails the test. The policy itself is checked
 * directive by directive in server/test/seguranca/cabecalhos.test.ts.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoje, somarDias } from '../shared/dates';
import { ADMIN } from '../server/test/helper';
import { ANAPOLIS, GOIANIA, criarRotaAtiva, formulario } from '../server/test/despesas';
import { Casca } from './paginas/layout';
import { TelaDespesas } from './paginas/despesas';
import { TelaLogin } from './paginas/login';
import { jpegPequeno, pdfPequeno } from './suporte/arquivos';
import { abrirNavegador, DESKTOP, novaPagina, temChromium } from './suporte/navegador';
import { iniciarServidor, type ServidorDeTeste } from './suporte/servidor';

interface Violacao {
  diretiva: string;
  bloqueado: string;
  origem: string;
  pagina: string;
}

/**
 * Everything a page reports, across navigations and in every frame: the 'securitypolicyviolation'
 * events (handed to the test at once through a binding, so a reload loses none), the browser's
 * CSP console errors ("Refused to ..."), and uncaught errors.
 */
async function vigiar(contexto: BrowserContext, pagina: Page) {
  const violacoes: Violacao[] = [];
  const doConsole: string[] = [];
  const errosDaPagina: string[] = [];
  await contexto.exposeBinding('__relatarViolacao', (_fonte, v: Violacao) => void violacoes.push(v));
  await contexto.addInitScript(() => {
    const relatar = (window as unknown as { __relatarViolacao: (v: unknown) => Promise<void> }).__relatarViolacao;
    document.addEventListener('securitypolicyviolation', (e) => {
      void relatar({ diretiva: e.effectiveDirective, bloqueado: e.blockedURI, origem: `${e.sourceFile}:${e.lineNumber}`, pagina: location.pathname });
    });
  });
  pagina.on('console', (m) => {
    if (/Content[ -]Security[ -]Policy|Refused to (load|execute|evaluate|apply|frame|connect|create)/i.test(m.text())) doConsole.push(`${m.type()}: ${m.text()}`);
  });
  pagina.on('pageerror', (e) => errosDaPagina.push(e.message));
  return { violacoes, doConsole, errosDaPagina };
}

/** The built-in PDF viewer's frame, in Chromium. */
const VISUALIZADOR_PDF_DO_CHROMIUM = 'chrome-extension://mhjfbmdgcfjbbpaeojofohoefgiehjai/';

const TELAS_ADMIN: [string, string][] = [
  ['/dashboard', ''],
  ['/rotas', 'Rotas'],
  ['/vendas', 'Vendas'],
  ['/despesas', 'Despesas'],
  ['/saldo', 'Saldo dos Funcionários'],
  ['/relatorios', 'Relatórios'],
  ['/usuarios', 'Gerenciamento de Usuários'],
];
// An employee opening the admin's screens is sent back to the dashboard: that path runs too.
const TELAS_FUNCIONARIO: [string, string][] = [
  ['/dashboard', ''],
  ['/rotas', 'Minhas Rotas'],
  ['/vendas', 'Registro Diário de Vendas'],
  ['/despesas', 'Despesas'],
  ['/saldo', ''],
  ['/relatorios', ''],
  ['/usuarios', ''],
];

describe.skipIf(!temChromium)('o PWA funciona sob a Content-Security-Policy', () => {
  let servidor: ServidorDeTeste;
  let navegador: Browser;
  let funcionario: { id: number; email: string; senha: string; token: string };
  const NOME_FUNCIONARIO = 'Célia Política';

  beforeAll(async () => {
    servidor = await iniciarServidor();
    navegador = await abrirNavegador();
    funcionario = await servidor.criarFuncionario({ nome: NOME_FUNCIONARIO, email: 'celia@escola.com.br' });
    const rota = await criarRotaAtiva(servidor, funcionario.id, [GOIANIA, ANAPOLIS], 'Rota da Célia');

    // Two expenses with real receipts (a photo and a PDF), created through the API.
    const { contexto, pagina } = await novaPagina(navegador);
    const jpeg = await jpegPequeno(pagina);
    await contexto.close();
    const ontem = somarDias(hoje('America/Sao_Paulo'), -1);
    for (const [descricao, arquivo] of [
      ['Almoço com foto', { nome: 'almoco.jpg', tipo: 'image/jpeg', conteudo: jpeg }],
      ['Pedágio em PDF', { nome: 'pedagio.pdf', tipo: 'application/pdf', conteudo: pdfPequeno() }],
    ] as const) {
      const corpo = await formulario({ id: uuidv7(), rota_id: rota, cidade_id: GOIANIA, data_despesa: ontem, tipo: 'alimentacao', valor: '12,30', descricao }, arquivo);
      const r = await servidor.chamar({ method: 'POST', url: '/api/despesas', token: funcionario.token, ...corpo });
      expect(r.statusCode, r.body).toBe(201);
    }
  });
  afterAll(async () => {
    await navegador?.close();
    await servidor?.fechar();
  });

  /** Signs in, opens each screen (a full load each), then the receipt viewer with the photo and the PDF. */
  async function percorrer(email: string, senha: string, nome: string, telas: [string, string][]) {
    const { contexto, pagina } = await novaPagina(navegador, DESKTOP);
    const observado = await vigiar(contexto, pagina);
    const casca = new Casca(pagina);

    await new TelaLogin(pagina).abrir(servidor.url);
    await new TelaLogin(pagina).entrar(email, senha);
    await pagina.waitForURL('**/dashboard');
    await casca.saudacao(nome).waitFor();

    for (const [caminho, titulo] of telas) {
      await pagina.goto(`${servidor.url}${caminho}`);
      await casca.saudacao(nome).waitFor();
      if (titulo) await pagina.getByRole('heading', { name: titulo, exact: true }).waitFor();
      await pagina.waitForLoadState('networkidle');
    }

    const despesas = new TelaDespesas(pagina);
    await despesas.abrir(servidor.url);
    const visualizador = pagina.getByRole('dialog', { name: 'Cupom Fiscal' });

    await despesas.acao('Almoço com foto', 'Visualizar Cupom Fiscal');
    const imagem = visualizador.getByRole('img');
    await imagem.waitFor();
    // Decoded for real: the protected URL loaded (cookie) and the image-src allowed it.
    await expect.poll(() => imagem.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 10_000 }).toBe(320);
    await visualizador.getByRole('button', { name: 'Fechar' }).last().click();
    await visualizador.waitFor({ state: 'detached' });

    await despesas.acao('Pedágio em PDF', 'Visualizar Cupom Fiscal');
    const quadro = visualizador.locator('iframe');
    await quadro.waitFor();
    const urlDoPdf = await quadro.getAttribute('src');
    // Each receipt has its own address (an expense may have several).
    expect(urlDoPdf).toMatch(/^\/api\/despesas\/[0-9a-f-]+\/cupons\/\d+$/);
    // The frame navigated to the PDF (not blocked by frame-src, nor refused by frame-ancestors).
    await expect.poll(() => pagina.frames().some((f) => f.url().endsWith(urlDoPdf!)), { timeout: 10_000 }).toBe(true);
    // ...and Chromium's PDF viewer opened inside it (object-src 'none' on the PDF does not block it).
    await expect.poll(() => pagina.frames().some((f) => f.url().startsWith(VISUALIZADOR_PDF_DO_CHROMIUM)), { timeout: 10_000 }).toBe(true);
    await visualizador.getByRole('button', { name: 'Fechar' }).last().click();

    // The service worker (worker-src) installed and controls the page.
    // Waited for as a state: the controller appears at clients.claim(), while the worker may still be 'activating'
    // (it registers once the first screen is drawn and the browser is idle, so it may come late).
    await pagina.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated', undefined, { timeout: 20_000 });
    const estado = await pagina.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.state);
    expect(estado).toBe('activated');

    await contexto.close();
    return observado;
  }

  it('admin: todas as telas, foto e PDF no visualizador, service worker ativo, nenhuma violação', async () => {
    const r = await percorrer(ADMIN.email, ADMIN.senha, 'Administrador', TELAS_ADMIN);
    expect(r.violacoes).toEqual([]);
    expect(r.doConsole).toEqual([]);
    expect(r.errosDaPagina).toEqual([]);
  });

  it('funcionário: todas as telas, foto e PDF no visualizador, service worker ativo, nenhuma violação', async () => {
    const r = await percorrer(funcionario.email, funcionario.senha, NOME_FUNCIONARIO, TELAS_FUNCIONARIO);
    expect(r.violacoes).toEqual([]);
    expect(r.doConsole).toEqual([]);
    expect(r.errosDaPagina).toEqual([]);
  });
});
