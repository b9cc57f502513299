/**
 * Browser test of the admin's desk: at 1280x800, with the sidebar, every admin
 * screen with realistic data (long route names, long notes, several expenses waiting for approval)
 * shows every column and every button whole — nothing cut by the table's edge, no cell clipping its
 * text, no route name wrapped into a tower of lines. Without signal each admin screen says
 * 'Sem conexão' with a way to try again, never an empty list that reads like data.
 * Real built client, real server on a temporary database, Debian's Chromium.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoje, somarDias } from '../shared/dates';
import { formulario } from '../server/test/despesas';
import { ADMIN } from '../server/test/helper';
import { TelaLogin } from './paginas/login';
import { abrirAmbiente, fecharAmbiente } from './suporte/ambiente';
import { creditarSaldo, criarRotaEmCurso } from './suporte/dados';
import { capturar, CELULAR, DESKTOP, novaPagina, temChromium } from './suporte/navegador';
import type { ServidorDeTeste } from './suporte/servidor';

const GOIANIA = 5208707;
const ANAPOLIS = 5201108;
const CALDAS = 5204508;
const CATALAO = 5205109;
const PIRENOPOLIS = 5217302;
const BELO_HORIZONTE = 3106200;
const UBERLANDIA = 3170206;
const HOJE = hoje('America/Sao_Paulo');

const OBSERVACAO_LONGA =
  'Cliente pediu para voltar na próxima semana com o material da coleção completa; deixou metade no pix e prometeu o restante no cartão na segunda visita.';

/** A screen of the admin and what shows it has drawn its data (the test waits for it, never for time). */
interface TelaAdmin {
  nome: string;
  caminho: string;
  /** Menu item that opens it. */
  menu: string;
  pronta: (p: Page) => Promise<void>;
  /** Steps after opening (a tab) for a second look at the same screen. */
  depois?: (p: Page) => Promise<void>;
}

const TELAS: TelaAdmin[] = [
  { nome: 'dashboard', caminho: '/dashboard', menu: 'Dashboard', pronta: (p) => p.getByRole('cell', { name: 'Íris Albuquerque de Oliveira', exact: true }).first().waitFor() },
  { nome: 'rotas', caminho: '/rotas', menu: 'Rotas', pronta: (p) => p.getByRole('list', { name: 'Rotas' }).waitFor() },
  { nome: 'usuarios', caminho: '/usuarios', menu: 'Usuários', pronta: (p) => p.locator('main table').getByText('Íris Albuquerque de Oliveira', { exact: true }).waitFor() },
  {
    nome: 'usuarios-bloqueados',
    caminho: '/usuarios',
    menu: 'Usuários',
    pronta: (p) => p.locator('main table').getByText('Íris Albuquerque de Oliveira', { exact: true }).waitFor(),
    depois: async (p) => {
      await p.getByRole('tab', { name: /^Bloqueados/ }).click();
      await p.locator('main table').getByText('Zé Carlos', { exact: true }).waitFor();
    },
  },
  { nome: 'vendas', caminho: '/vendas', menu: 'Vendas', pronta: (p) => p.locator('main table').getByText(OBSERVACAO_LONGA).first().waitFor() },
  { nome: 'despesas', caminho: '/despesas', menu: 'Despesas', pronta: (p) => p.getByRole('button', { name: /^Rejeitar/ }).first().waitFor() },
  { nome: 'saldo', caminho: '/saldo', menu: 'Saldo', pronta: (p) => p.getByRole('cell', { name: 'Íris Albuquerque de Oliveira', exact: true }).waitFor() },
  {
    nome: 'saldo-historico',
    caminho: '/saldo',
    menu: 'Saldo',
    pronta: (p) => p.getByRole('cell', { name: 'Íris Albuquerque de Oliveira', exact: true }).waitFor(),
    depois: async (p) => {
      await p.getByRole('tab', { name: 'Histórico de Movimentações' }).click();
      await p.getByRole('heading', { name: 'Histórico de Movimentações' }).waitFor();
      await p.getByRole('cell', { name: 'Adiantamento para a estrada', exact: true }).first().waitFor();
    },
  },
  {
    nome: 'saldo-relatorio',
    caminho: '/saldo',
    menu: 'Saldo',
    pronta: (p) => p.getByRole('cell', { name: 'Íris Albuquerque de Oliveira', exact: true }).waitFor(),
    depois: async (p) => {
      await p.getByRole('tab', { name: 'Relatório' }).click();
      await p.getByRole('heading', { name: 'Relatório' }).waitFor();
      await p.locator('main table').getByText('Íris Albuquerque de Oliveira', { exact: true }).first().waitFor();
    },
  },
  { nome: 'relatorios', caminho: '/relatorios', menu: 'Relatórios', pronta: (p) => p.getByRole('checkbox', { name: 'Selecionar todas as rotas' }).waitFor() },
  // Auditoria: the trail of this setup's own admin actions (routes, credits, the approval and the rejection).
  { nome: 'auditoria', caminho: '/auditoria', menu: 'Auditoria', pronta: (p) => p.locator('main table').getByText('Motivo: — → Sem comprovante legível').waitFor() },
];

/**
 * Everything on the screen that is cut: a table wider than its box (a column behind the edge), a
 * cell or a text box smaller than its content (ellipsis, hidden overflow), a button outside the
 * table's visible box or the window, a table cell whose text wraps into more than three lines.
 */
function cortes(pagina: Page): Promise<string[]> {
  return pagina.evaluate(() => {
    const problemas: string[] = [];
    const nome = (el: Element) => `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\s+/).join('.') : ''} "${(el.textContent ?? '').trim().slice(0, 40)}"`;
    const principal = document.querySelector('main');
    if (!principal) return ['sem <main>'];
    if (document.documentElement.scrollWidth > window.innerWidth + 1) problemas.push(`a página rola na horizontal (${document.documentElement.scrollWidth} > ${window.innerWidth})`);
    for (const caixa of Array.from(principal.querySelectorAll<HTMLElement>('.tabela-rolagem'))) {
      if (caixa.scrollWidth > caixa.clientWidth + 1) problemas.push(`tabela mais larga que a caixa (${caixa.scrollWidth} > ${caixa.clientWidth}): ${nome(caixa.querySelector('thead') ?? caixa)}`);
    }
    for (const el of Array.from(principal.querySelectorAll<HTMLElement>('td, th, td *, th *'))) {
      const estilo = getComputedStyle(el);
      if (estilo.display === 'none' || estilo.visibility === 'hidden') continue;
      const cortaTexto = estilo.textOverflow === 'ellipsis' || ['hidden', 'clip'].includes(estilo.overflowX);
      if ((cortaTexto || el.matches('td, th')) && el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0) problemas.push(`conteúdo cortado (${el.scrollWidth} > ${el.clientWidth}): ${nome(el)}`);
    }
    // Lines of each piece of text of a cell (a cell may hold two: a name and, below, its route).
    for (const celula of Array.from(principal.querySelectorAll<HTMLElement>('td'))) {
      const linhasPorBloco = new Map<Element, Set<number>>();
      const andar = document.createTreeWalker(celula, NodeFilter.SHOW_TEXT);
      for (let no = andar.nextNode(); no; no = andar.nextNode()) {
        let bloco = no.parentElement!;
        while (bloco !== celula && getComputedStyle(bloco).display.startsWith('inline')) bloco = bloco.parentElement!;
        const linhas = linhasPorBloco.get(bloco) ?? new Set<number>();
        linhasPorBloco.set(bloco, linhas);
        const faixa = document.createRange();
        faixa.selectNodeContents(no);
        for (const r of Array.from(faixa.getClientRects())) if (r.width > 0) linhas.add(Math.round(r.bottom));
      }
      for (const [bloco, linhas] of linhasPorBloco) if (linhas.size > 3) problemas.push(`texto em ${linhas.size} linhas: ${nome(bloco)}`);
    }
    for (const botao of Array.from(principal.querySelectorAll<HTMLElement>('button, a[href]'))) {
      const estilo = getComputedStyle(botao);
      if (estilo.display === 'none' || estilo.visibility === 'hidden') continue;
      const b = botao.getBoundingClientRect();
      if (b.width === 0) continue;
      if (b.left < -1 || b.right > window.innerWidth + 1) problemas.push(`botão fora da janela: ${nome(botao)}`);
      const caixa = botao.closest('.tabela-rolagem');
      if (caixa) {
        const c = caixa.getBoundingClientRect();
        if (b.left < c.left - 1 || b.right > c.right + 1) problemas.push(`botão fora da tabela visível: ${nome(botao)}`);
      }
      if (botao.scrollWidth > botao.clientWidth + 1) problemas.push(`texto do botão cortado: ${nome(botao)}`);
    }
    return problemas;
  });
}

describe.skipIf(!temChromium)('mesa do administrador no computador (1280x800)', () => {
  let servidor: ServidorDeTeste;
  let navegador: Browser;

  beforeAll(async () => {
    ({ servidor, navegador } = await abrirAmbiente({ navegador: true, env: { LOGIN_RATE_LIMIT: '1000' } }));
    const admin = await servidor.tokenAdmin();
    const maria = await servidor.criarFuncionario({ nome: 'Maria Aparecida dos Santos Ferreira', email: 'maria.aparecida.santos.ferreira@escola.com.br' });
    const iris = await servidor.criarFuncionario({ nome: 'Íris Albuquerque de Oliveira', email: 'iris.albuquerque@escola.com.br' });
    const angela = await servidor.criarFuncionario({ nome: 'Ângela Moura', email: 'angela.moura@escola.com.br' });
    const ze = await servidor.criarFuncionario({ nome: 'Zé Carlos', email: 'ze.carlos@escola.com.br' });

    const rotaMaria = await criarRotaEmCurso(servidor, maria.id, {
      nome: 'Rota Sul Goiano: Caldas Novas, Catalão, Pirenópolis e região',
      cidades: [CALDAS, CATALAO, PIRENOPOLIS, GOIANIA],
      diasAntes: 8,
      diasDepois: 20,
      valorAluguel: 900,
    });
    const rotaIris = await criarRotaEmCurso(servidor, iris.id, {
      nome: 'Rota Triângulo Mineiro e Alto Paranaíba (segunda quinzena)',
      cidades: [UBERLANDIA, BELO_HORIZONTE],
      diasAntes: 8,
      diasDepois: 20,
    });
    const rotaAngela = await criarRotaEmCurso(servidor, angela.id, { nome: 'Rota Entorno de Brasília e Anápolis', cidades: [ANAPOLIS, GOIANIA], diasAntes: 20, diasDepois: 2 });

    await creditarSaldo(servidor, maria.id, 1500, { rotaId: rotaMaria, descricao: 'Adiantamento para a estrada' });
    await creditarSaldo(servidor, iris.id, 800, { rotaId: rotaIris, descricao: 'Adiantamento para a estrada' });
    await creditarSaldo(servidor, angela.id, 300, { rotaId: rotaAngela, descricao: 'Adiantamento para a estrada' });

    const venda = async (token: string, rota: number, cidade: number, data: string, valores: Record<string, number>, observacoes = '') => {
      const r = await servidor.chamar({ method: 'POST', url: '/api/vendas', token, payload: { id: uuidv7(), rota_id: rota, cidade_id: cidade, data_venda: data, observacoes, ...valores } });
      expect(r.statusCode, r.body).toBe(201);
    };
    await venda(maria.token, rotaMaria, CALDAS, HOJE, { valor_dinheiro: 12500.5, valor_pix: 3400, valor_cartao: 10999.99, valor_link: 1200, valor_boletos: 12 }, OBSERVACAO_LONGA);
    await venda(maria.token, rotaMaria, CATALAO, somarDias(HOJE, -1), { valor_dinheiro: 800, valor_pix: 150.25, valor_boletos: 1 }, 'Voltar na quinta.');
    await venda(iris.token, rotaIris, UBERLANDIA, HOJE, { valor_cartao: 2300, valor_link: 99.9 }, OBSERVACAO_LONGA);
    await venda(angela.token, rotaAngela, ANAPOLIS, somarDias(HOJE, -3), { valor_dinheiro: 450 });

    const despesa = async (token: string, rota: number, cidade: number, tipo: string, valor: string, descricao: string) => {
      const corpo = await formulario({ id: uuidv7(), rota_id: rota, cidade_id: cidade, data_despesa: somarDias(HOJE, -1), tipo, valor, descricao });
      const r = await servidor.chamar({ method: 'POST', url: '/api/despesas', token, ...corpo });
      expect(r.statusCode, r.body).toBe(201);
      return r.json().despesa.id as string;
    };
    await despesa(maria.token, rotaMaria, CALDAS, 'hospedagem', '1.250,00', 'Hotel de três noites em Caldas Novas, quarto duplo com café da manhã incluído');
    await despesa(maria.token, rotaMaria, CATALAO, 'combustivel', '389,90', 'Tanque cheio no posto da saída para Catalão');
    const aprovada = await despesa(iris.token, rotaIris, UBERLANDIA, 'alimentacao', '58,00', 'Almoço');
    const rejeitada = await despesa(iris.token, rotaIris, UBERLANDIA, 'pedagio', '17,40', 'Pedágio da BR-050');
    await despesa(angela.token, rotaAngela, ANAPOLIS, 'aluguel_sala', '600,00', 'Sala do hotel para a apresentação aos pais');
    expect((await servidor.chamar({ method: 'PATCH', url: `/api/despesas/${aprovada}/aprovar`, token: admin })).statusCode).toBe(200);
    const r = await servidor.chamar({ method: 'PATCH', url: `/api/despesas/${rejeitada}/rejeitar`, token: admin, payload: { motivo: 'Sem comprovante legível' } });
    expect(r.statusCode, r.body).toBe(200);
    const fim = await servidor.chamar({ method: 'PATCH', url: `/api/rotas/${rotaAngela}/finalizar`, token: angela.token });
    expect(fim.statusCode, fim.body).toBe(200);
    // Zé is blocked: five wrong passwords in a row.
    for (let i = 0; i < 5; i++) await servidor.chamar({ method: 'POST', url: '/api/auth/login', payload: { email: ze.email, senha: 'errada' } });
  });
  afterAll(() => fecharAmbiente({ servidor, navegador }));

  async function entrar(tela = DESKTOP): Promise<{ contexto: BrowserContext; pagina: Page }> {
    const p = await novaPagina(navegador, tela);
    await p.pagina.emulateMedia({ reducedMotion: 'reduce' });
    const login = new TelaLogin(p.pagina);
    await login.abrir(servidor.url);
    await login.entrar(ADMIN.email, ADMIN.senha);
    await p.pagina.waitForURL('**/dashboard');
    await p.pagina.mouse.move(0, 0);
    // Toasts cover the header in screenshots.
    await p.pagina.locator('.Toastify__close-button').evaluateAll((botoes) => botoes.forEach((b) => (b as HTMLElement).click()));
    return p;
  }

  async function abrirTela(pagina: Page, tela: TelaAdmin) {
    await pagina.goto(`${servidor.url}${tela.caminho}`);
    await tela.pronta(pagina);
    await tela.depois?.(pagina);
  }

  it('cada tela do admin mostra colunas e botões inteiros, sem cortes', async () => {
    const { contexto, pagina } = await entrar();
    const problemas: string[] = [];
    for (const tela of TELAS) {
      await abrirTela(pagina, tela);
      await capturar(pagina, `admin-desktop-${tela.nome}`);
      problemas.push(...(await cortes(pagina)).map((p) => `${tela.nome}: ${p}`));
      // Usuários: the spec's Nome and Email, each its own column (both fit at 1280 px).
      if (tela.nome.startsWith('usuarios')) {
        const titulos = await pagina.locator('main table thead th').allTextContents();
        if (!titulos.includes('Nome') || !titulos.includes('Email')) problemas.push(`${tela.nome}: sem as colunas Nome e Email (${titulos.join(' | ')})`);
      }
      // The same window with a classic 15 px scrollbar (Windows): the test browser hides its scrollbars.
      await pagina.setViewportSize({ width: DESKTOP.width - 15, height: DESKTOP.height });
      problemas.push(...(await cortes(pagina)).map((p) => `${tela.nome} (com barra de rolagem): ${p}`));
      await pagina.setViewportSize(DESKTOP);
    }
    await contexto.close();
    expect(problemas).toEqual([]);
  });

  it('no celular (390x844) as mesmas telas cabem na largura', async () => {
    const { contexto, pagina } = await entrar(CELULAR);
    const problemas: string[] = [];
    for (const tela of TELAS.filter((t) => !t.depois)) {
      await pagina.goto(`${servidor.url}${tela.caminho}`);
      await pagina.locator('main h1').first().waitFor();
      // Every table of the screen done loading (the dashboard has two, which may both be loading at once).
      await pagina.waitForFunction(() => ![...document.querySelectorAll('main .tabela__vazio')].some((e) => e.textContent?.includes('Carregando')));
      await capturar(pagina, `admin-celular-${tela.nome}`);
      if (await pagina.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1)) problemas.push(`${tela.nome}: a página rola na horizontal`);
    }
    // Without signal on the phone too: the same state, within the width.
    await contexto.setOffline(true);
    await pagina.getByRole('button', { name: 'Abrir menu' }).click();
    await pagina.getByRole('complementary', { name: 'Menu principal' }).getByRole('link', { name: 'Vendas' }).click();
    await pagina.getByRole('heading', { name: 'Sem conexão' }).waitFor();
    await capturar(pagina, 'admin-celular-sem-conexao-vendas');
    if (await pagina.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1)) problemas.push('sem conexão: a página rola na horizontal');
    await contexto.close();
    expect(problemas).toEqual([]);
  });

  it('sem sinal, cada tela do admin diz Sem conexão (nunca uma lista vazia) e volta ao tentar de novo', async () => {
    const { contexto, pagina } = await entrar();
    // Every screen once with signal: their code is loaded, as it would be for an admin at work.
    for (const tela of TELAS.filter((t) => !t.depois)) await abrirTela(pagina, tela);

    await contexto.setOffline(true);
    for (const tela of TELAS.filter((t) => !t.depois)) {
      await pagina.getByRole('complementary', { name: 'Menu principal' }).getByRole('link', { name: tela.menu }).click();
      const aviso = pagina.getByRole('alert').filter({ has: pagina.getByRole('heading', { name: 'Sem conexão' }) });
      await aviso.waitFor();
      // Waited for, not sampled: on a loaded machine the alert's button may draw a moment after its heading.
      await aviso.getByRole('button', { name: 'Tentar novamente' }).waitFor({ state: 'visible' });
      expect(await pagina.getByText(/^Nenhum|^Nenhuma/).count(), tela.nome).toBe(0);
      expect(await pagina.locator('main table').count(), tela.nome).toBe(0);
      if (tela.nome === 'dashboard' || tela.nome === 'saldo') await capturar(pagina, `admin-desktop-sem-conexao-${tela.nome}`);
    }
    await contexto.setOffline(false);
    // The signal is back on the last screen visited: its data comes back.
    await TELAS.filter((t) => !t.depois).at(-1)!.pronta(pagina);

    // The browser says online but the server does not answer (a dead Wi-Fi, the server down): the
    // same state; 'Tentar novamente' brings the data once it answers.
    await pagina.route('**/api/saldo**', (rota) => rota.abort('internetdisconnected'));
    await pagina.getByRole('complementary', { name: 'Menu principal' }).getByRole('link', { name: 'Saldo' }).click();
    const aviso = pagina.getByRole('alert').filter({ has: pagina.getByRole('heading', { name: 'Sem conexão' }) });
    await aviso.waitFor();
    await pagina.unroute('**/api/saldo**');
    await aviso.getByRole('button', { name: 'Tentar novamente' }).click();
    await pagina.getByRole('cell', { name: 'Íris Albuquerque de Oliveira', exact: true }).waitFor();
    expect(await aviso.count()).toBe(0);
    await capturar(pagina, 'admin-desktop-saldo-de-volta');
    await contexto.close();
  });
});
