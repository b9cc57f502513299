/**
 * The story of a whole route, told through the screens, for both roles, at 390x844 and 1280x800.
 *
 * The admin (computer) signs in, creates two employees and a route with cities of Goiás and Minas
 * for one of them, and credits her a balance. The employee (phone, a kept profile: service worker
 * and IndexedDB as an installed app) sells in one city online, loses the signal, sells in another,
 * marks a visit without sale, spends with a photo and a PDF receipt, looks at the sync panel, gets
 * the signal back, waits for the queue to empty and finishes the route. The admin approves one
 * expense, rejects the other with a reason, checks the balance, the reports (detail and both
 * exports), sales, routes and dashboard. Every step is done through the UI; the server is only read
 * at the end, to prove each record exists exactly once.
 *
 * Every screen is photographed at both sizes: test-results/screenshots/historia-NN-<tela>-{celular,desktop}.png.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoje, somarDias } from '../shared/dates';
import { ADMIN } from '../server/test/helper';
import { TelaDashboardAdmin, TelaDashboardFuncionario } from './paginas/dashboard';
import { TelaDespesas } from './paginas/despesas';
import { Casca } from './paginas/layout';
import { TelaLogin } from './paginas/login';
import { TelaRelatorios } from './paginas/relatorios';
import { TelaMinhasRotas, TelaRotasAdmin } from './paginas/rotas';
import { TelaSaldo } from './paginas/saldo';
import { TelaUsuarios } from './paginas/usuarios';
import { TelaVendasAdmin, TelaVendasFuncionario } from './paginas/vendas';
import { jpegPequeno, pdfPequeno } from './suporte/arquivos';
import { abrirNavegador, abrirPerfil, capturar, CELULAR, DESKTOP, novaPagina, temChromium } from './suporte/navegador';
import { iniciarServidor, type ServidorDeTeste } from './suporte/servidor';

const HOJE = hoje('America/Sao_Paulo');
const ROTA = 'Rota Goiás-Minas';
const RENATA = { nome: 'Renata Estrada', email: 'renata@escola.com.br', senha: 'estrada1' };
const OTAVIO = { nome: 'Otávio Campos', email: 'otavio@escola.com.br', senha: 'campos12' };
const GOIANIA = 5208707;
const ANAPOLIS = 5201108;
const UBERLANDIA = 3170206;
const MOTIVO = 'Comprovante sem CNPJ do estabelecimento';
/** Intl writes 'R$' with a non-breaking space. */
const sp = (t: string | null) => (t ?? '').replace(/\u00a0/g, ' ').trim();

/** What the header's sync indicator says. */
const indicador = (pagina: Page) => pagina.locator('.indicador-sync');

/**
 * The layout has followed a viewport change: two frames, and the transitions it started are taken to
 * their end (the sidebar slides away under 768 px), as Playwright's `animations: 'disabled'` does.
 */
const assentar = (pagina: Page) =>
  pagina.evaluate(async () => {
    const quadro = () => new Promise<void>((ok) => requestAnimationFrame(() => ok()));
    await quadro();
    await quadro();
    for (const a of document.getAnimations()) if (a instanceof CSSTransition) a.finish();
    await quadro();
  });

/** What sticks out past the right edge of the window (a layout that does not fit), '' when nothing does. */
const transbordo = (pagina: Page) =>
  pagina.evaluate(() => {
    if (document.documentElement.scrollWidth <= window.innerWidth) return '';
    const fora = [...document.querySelectorAll('body *')].filter((e) => {
      const r = e.getBoundingClientRect();
      return r.width > 0 && r.right > window.innerWidth + 1 && !e.closest('.lateral');
    });
    // The outermost offenders: those whose parent fits.
    const raizes = fora.filter((e) => !fora.includes(e.parentElement!));
    return raizes
      .slice(0, 5)
      .map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].join('.')} (${Math.round(e.getBoundingClientRect().right)} px)`)
      .join(', ');
  });

/** Closes the toasts (on the phone they cover the header) before a screenshot. */
async function fecharAvisos(pagina: Page) {
  await pagina.locator('.Toastify__close-button').evaluateAll((botoes) => botoes.forEach((b) => (b as HTMLElement).click()));
  await pagina.locator('.Toastify__toast').first().waitFor({ state: 'detached' });
}

describe.skipIf(!temChromium)('a história de uma rota inteira, tela por tela, no celular e no computador', () => {
  let servidor: ServidorDeTeste;
  let navegador: Browser;
  let pastaPerfil: string;
  let perfil: BrowserContext | undefined;
  let numero = 0;
  /** Phone screenshots whose page scrolls sideways (a layout that does not fit 390 px). */
  const transbordam: string[] = [];

  beforeAll(async () => {
    servidor = await iniciarServidor();
    navegador = await abrirNavegador();
    pastaPerfil = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-historia-'));
  });
  afterAll(async () => {
    await perfil?.close();
    await navegador?.close();
    await servidor?.fechar();
    if (pastaPerfil) fs.rmSync(pastaPerfil, { recursive: true, force: true, maxRetries: 10 });
  });

  /**
   * Photographs the screen as it is (toasts closed), at its size, then at the other size and back:
   * historia-NN-<tela>-celular.png and historia-NN-<tela>-desktop.png. `ver`: what to scroll into view.
   */
  async function fotografar(pagina: Page, tela: string, { ver }: { ver?: Locator } = {}) {
    numero += 1;
    const nome = `historia-${String(numero).padStart(2, '0')}-${tela}`;
    await fecharAvisos(pagina);
    const original = pagina.viewportSize() ?? DESKTOP;
    const tamanhos = original.width === CELULAR.width ? [CELULAR, DESKTOP] : [DESKTOP, CELULAR];
    for (const tamanho of tamanhos) {
      if (tamanho !== tamanhos[0]) await pagina.setViewportSize(tamanho);
      await assentar(pagina);
      // What the step is about, scrolled into view (on the phone lists start below the fold).
      const bloco: ScrollLogicalPosition = tamanho === CELULAR ? 'center' : 'nearest';
      if (ver) await ver.first().evaluate((e, b) => e.scrollIntoView({ block: b }), bloco, { timeout: 5000 });
      const sufixo = tamanho === CELULAR ? 'celular' : 'desktop';
      const sobra = tamanho === CELULAR ? await transbordo(pagina) : '';
      if (sobra) transbordam.push(`${nome}: ${sobra}`);
      await capturar(pagina, `${nome}-${sufixo}`);
    }
    await pagina.setViewportSize(original);
    await assentar(pagina);
  }

  it('o admin prepara a rota, a funcionária trabalha (em parte sem sinal) e finaliza, o admin avalia, confere e exporta', async () => {
    // ───────────────────────── 1. The admin prepares the route (computer) ─────────────────────────
    const admin = await novaPagina(navegador, DESKTOP);
    const pa = admin.pagina;
    await pa.emulateMedia({ reducedMotion: 'reduce' });
    const login = new TelaLogin(pa);
    await login.abrir(servidor.url);
    await fotografar(pa, 'login');
    await login.entrar(ADMIN.email, ADMIN.senha);
    await pa.waitForURL('**/dashboard');
    const dashboardAdmin = new TelaDashboardAdmin(pa);
    await dashboardAdmin.banner().waitFor();
    await expect.poll(() => dashboardAdmin.numero('Rotas Ativas')).toBe('0');
    await fotografar(pa, 'dashboard-admin-inicio');

    // Gerenciamento de Usuários: two employees through the modal.
    const usuarios = new TelaUsuarios(pa);
    await new Casca(pa).irPara('Usuários');
    await pa.getByRole('heading', { name: 'Gerenciamento de Usuários' }).waitFor();
    await usuarios.linha('Administrador').first().waitFor();
    await fotografar(pa, 'usuarios-inicio');
    await pa.getByRole('button', { name: 'Novo Funcionário' }).click();
    const modalUsuario = pa.getByRole('dialog', { name: 'Novo Funcionário' });
    await modalUsuario.getByLabel('Nome').fill(RENATA.nome);
    await modalUsuario.getByLabel('Email').fill(RENATA.email);
    await modalUsuario.getByLabel('Senha').fill(RENATA.senha);
    await fotografar(pa, 'usuarios-modal-novo');
    await modalUsuario.getByRole('button', { name: 'Criar' }).click();
    await pa.locator('.Toastify').getByText('Usuário criado com sucesso!').waitFor();
    await usuarios.linha(RENATA.nome).waitFor();
    await usuarios.criar(OTAVIO);
    await usuarios.linha(OTAVIO.nome).waitFor();
    await usuarios.aba(/^Ativos \(3\)/).waitFor();
    await fotografar(pa, 'usuarios', { ver: pa.getByText(RENATA.email) });

    // Rotas: a route with cities of two states for Renata.
    const rotasAdmin = new TelaRotasAdmin(pa);
    await new Casca(pa).irPara('Rotas');
    await pa.getByRole('heading', { name: 'Rotas', exact: true }).waitFor();
    await pa.getByText('Nenhuma rota encontrada.').waitFor();
    const modalRota = await rotasAdmin.abrirNova();
    await rotasAdmin.preencher(modalRota, {
      nome: ROTA,
      funcionario: RENATA.nome,
      inicio: somarDias(HOJE, -2),
      fim: somarDias(HOJE, 12),
      aluguel: '300',
      estados: ['GO', 'MG'],
      cidades: [
        ['goia', 'Goiânia (GO)'],
        ['anap', 'Anápolis (GO)'],
        ['caldas', 'Caldas Novas (GO)'],
        ['uberl', 'Uberlândia (MG)'],
        ['uberab', 'Uberaba (MG)'],
      ],
    });
    await fotografar(pa, 'rotas-modal-nova');
    await rotasAdmin.salvar(modalRota);
    await rotasAdmin.aviso('Rota criada com sucesso!').waitFor();
    await rotasAdmin.cartao(ROTA).getByText('Cidades (5)').waitFor();
    await fotografar(pa, 'rotas');

    // Saldo: a credit for Renata (her only active route is chosen for her).
    const saldo = new TelaSaldo(pa);
    await new Casca(pa).irPara('Saldo');
    await pa.getByRole('heading', { name: 'Saldo dos Funcionários' }).waitFor();
    await saldo.linha(RENATA.nome).waitFor();
    const modalSaldo = await saldo.abrirModal();
    await modalSaldo.getByLabel('Funcionário').locator('option').filter({ hasText: RENATA.nome }).waitFor({ state: 'attached' });
    await saldo.escolherFuncionario(RENATA.nome);
    await expect.poll(() => modalSaldo.getByLabel('Rota').locator('option:checked').textContent()).toBe(ROTA);
    await modalSaldo.getByLabel('Valor (R$)').fill('800');
    await modalSaldo.getByLabel('Descrição').fill('Adiantamento da rota');
    await fotografar(pa, 'saldo-modal');
    await modalSaldo.getByRole('button', { name: 'Adicionar Saldo' }).click();
    await modalSaldo.getByText('Saldo adicionado com sucesso!').waitFor();
    await modalSaldo.waitFor({ state: 'detached', timeout: 5000 });
    await expect.poll(async () => sp(await saldo.linha(RENATA.nome).locator('.valor-positivo').textContent())).toBe('R$ 800,00');
    await fotografar(pa, 'saldo', { ver: saldo.linha(RENATA.nome) });

    // Opened afresh: through the menu, the dashboard read a few seconds ago is shown as it was (its
    // query is not invalidated by creating a route or crediting a balance; staleTime 30 s).
    await dashboardAdmin.abrir(servidor.url);
    await expect.poll(() => dashboardAdmin.numero('Funcionários em Rota')).toBe('1');
    expect(await dashboardAdmin.numero('Funcionários sem Rota')).toBe('1');
    await dashboardAdmin.tabela('Rotas Ativas').getByRole('row').filter({ hasText: ROTA }).waitFor();
    await fotografar(pa, 'dashboard-admin-rota-criada', { ver: dashboardAdmin.tabela('Rotas Ativas').getByText(ROTA) });

    // ───────────────────────── 2. The employee works the route (phone) ─────────────────────────
    const celular = await abrirPerfil(pastaPerfil, CELULAR);
    perfil = celular.contexto;
    const pf = celular.pagina;
    await pf.emulateMedia({ reducedMotion: 'reduce' });
    const loginF = new TelaLogin(pf);
    await loginF.abrir(servidor.url);
    await loginF.entrar(RENATA.email, RENATA.senha);
    await pf.waitForURL('**/dashboard');
    await pf.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
    const dashboardF = new TelaDashboardFuncionario(pf);
    await pf.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
    await expect.poll(() => dashboardF.valor('Rota Ativa')).toContain(ROTA);
    await expect.poll(() => dashboardF.saldoConfirmado()).toBe('R$ 800,00');
    await dashboardF.salario().waitFor();
    await fotografar(pf, 'dashboard-funcionario');

    // The menu is a drawer on the phone (on the computer the sidebar is always in the screenshots).
    const casca = new Casca(pf);
    await casca.abrirGaveta();
    await expect.poll(async () => (await casca.menu().boundingBox())?.x).toBe(0);
    numero += 1;
    await capturar(pf, `historia-${String(numero).padStart(2, '0')}-menu-gaveta-celular`);
    await casca.irPara('Rotas');

    const minhasRotas = new TelaMinhasRotas(pf);
    await pf.getByRole('heading', { name: 'Minhas Rotas' }).waitFor();
    await minhasRotas.cartao('Rotas Ativas', ROTA).waitFor();
    await minhasRotas.secao('Rotas Finalizadas').getByText('Nenhuma rota finalizada').waitFor();
    await fotografar(pf, 'minhas-rotas');
    const cidadesDaRota = await minhasRotas.verCidades(ROTA);
    await cidadesDaRota.getByText('Uberaba').waitFor();
    await fotografar(pf, 'minhas-rotas-cidades');
    await cidadesDaRota.getByRole('button', { name: 'Fechar' }).last().click();
    await cidadesDaRota.waitFor({ state: 'detached' });

    // Despesas once online: the route, its cities and the balance are kept on the phone.
    const despesas = new TelaDespesas(pf);
    await despesas.abrir(servidor.url);
    await expect.poll(async () => sp(await despesas.saldoConfirmado().textContent())).toBe('R$ 800,00');
    await pf.getByText('Nenhuma despesa encontrada.').waitFor();
    await fotografar(pf, 'despesas-funcionario-vazio');

    // Vendas: Goiânia, online.
    const vendas = new TelaVendasFuncionario(pf);
    await vendas.abrir(servidor.url);
    await vendas.aba(/^Em aberto \(5\)$/).waitFor();
    await vendas.cartao('Uberlândia').waitFor();
    await fotografar(pf, 'vendas-em-aberto');
    await vendas.editar('Goiânia', { Dinheiro: '150', Pix: '30,50', Boletos: '2', Observações: 'Colégio Estadual' });
    await vendas.formulario('Goiânia').getByText('R$ 180,50').waitFor();
    await fotografar(pf, 'vendas-edicao');
    await vendas.salvar('Goiânia');
    await indicador(pf).getByText('Sincronizado').waitFor({ timeout: 30_000 });

    // The signal drops: a sale in Uberlândia (MG) and a visit without sale to Anápolis.
    await celular.contexto.setOffline(true);
    await vendas.editar('Uberlândia', { Cartão: '220', Link: '15' });
    await vendas.salvar('Uberlândia');
    await vendas.editar('Anápolis', {});
    await vendas.salvar('Anápolis');
    await vendas.irParaAba(/^Fechadas \(3\)$/);
    await vendas.cartao('Uberlândia').getByText('Aguardando envio').waitFor();
    await vendas.cartao('Anápolis').getByText('Visitada (sem venda)').waitFor();
    await indicador(pf).getByText('Offline · 2 aguardando').waitFor();
    await fotografar(pf, 'vendas-fechadas-offline');
    const vendasNoServidor = () => servidor.db.$client.prepare('select count(*) as n from vendas where rota_id = (select id from rotas where nome = ?)').get(ROTA);
    expect(vendasNoServidor()).toEqual({ n: 1 }); // only the online one, so far

    // Still offline: two expenses, one with a photo and one with a PDF.
    const foto = await jpegPequeno(pf);
    const pdf = pdfPequeno();
    await despesas.abrir(servidor.url);
    let modalDespesa = await despesas.abrirNova();
    await despesas.preencher(modalDespesa, {
      cidade: 'Goiânia (GO)',
      tipo: 'Alimentação',
      valor: '45,90',
      descricao: 'Almoço em Goiânia',
      arquivo: { name: 'almoco.jpg', mimeType: 'image/jpeg', buffer: foto },
    });
    await fotografar(pf, 'despesas-modal-foto');
    await despesas.registrar(modalDespesa);
    await despesas.aviso('Despesa guardada neste aparelho. Ela será enviada assim que houver conexão.').waitFor();
    modalDespesa = await despesas.abrirNova();
    await despesas.preencher(modalDespesa, {
      cidade: 'Uberlândia (MG)',
      tipo: 'Pedágio',
      valor: '12,30',
      descricao: 'Pedágio BR-050',
      arquivo: { name: 'pedagio.pdf', mimeType: 'application/pdf', buffer: pdf },
    });
    await modalDespesa.getByRole('link', { name: 'Ver PDF' }).waitFor();
    await fotografar(pf, 'despesas-modal-pdf');
    await despesas.registrar(modalDespesa);
    await despesas.item('Pedágio BR-050').getByText('Aguardando envio').waitFor();
    await despesas.item('Almoço em Goiânia').getByText('Aguardando envio').waitFor();
    await expect.poll(async () => sp(await despesas.saldoProjetado().textContent())).toBe('R$ 741,80');
    expect(sp(await despesas.saldoConfirmado().textContent())).toBe('R$ 800,00');
    await indicador(pf).getByText('Offline · 4 aguardando').waitFor();
    await fotografar(pf, 'despesas-offline');

    // The sync panel, from the header, while offline.
    await indicador(pf).click();
    const painel = pf.getByRole('dialog', { name: 'Sincronização' });
    await painel.getByText('Aguardando envio (4)').waitFor();
    await painel.getByText(/^Sem conexão: os registros ficam guardados/).waitFor();
    await fotografar(pf, 'sincronizacao-offline');
    await painel.getByRole('button', { name: 'Fechar' }).last().click();
    await painel.waitFor({ state: 'detached' });

    // Signal again: the queue empties by itself.
    await celular.contexto.setOffline(false);
    await indicador(pf).getByText('Sincronizado').waitFor({ timeout: 60_000 });
    await expect.poll(async () => sp(await despesas.saldoConfirmado().textContent()), { timeout: 20_000 }).toBe('R$ 741,80');
    await expect.poll(() => despesas.item('Aguardando envio').count(), { timeout: 20_000 }).toBe(0);
    await fotografar(pf, 'despesas-funcionario-sincronizado');
    await indicador(pf).click();
    await painel.getByText('Aguardando envio (0)').waitFor();
    await expect.poll(() => painel.getByText(/^Recebido pelo servidor às \d{2}:\d{2}/).count()).toBe(5);
    await fotografar(pf, 'sincronizacao-recebidos');
    await painel.getByRole('button', { name: 'Fechar' }).last().click();
    await painel.waitFor({ state: 'detached' });

    // The route is finished.
    await minhasRotas.abrir(servidor.url);
    const confirmar = await minhasRotas.pedirFinalizacao(ROTA);
    await confirmar.getByText('Tem certeza que deseja finalizar esta rota? Essa ação não pode ser desfeita.').waitFor();
    await fotografar(pf, 'minhas-rotas-confirmar-finalizacao');
    await confirmar.getByRole('button', { name: 'Finalizar' }).click();
    await minhasRotas.aviso('Rota finalizada com sucesso!').waitFor();
    await minhasRotas.cartao('Rotas Finalizadas', ROTA).getByText('Finalizada', { exact: true }).waitFor();
    await minhasRotas.secao('Rotas Ativas').getByText('Nenhuma rota ativa no momento').waitFor();
    await fotografar(pf, 'minhas-rotas-finalizada');
    await dashboardF.abrir(servidor.url);
    await pf.getByText('Você não tem nenhuma rota ativa no momento.').waitFor();
    await fotografar(pf, 'dashboard-funcionario-sem-rota');

    // ───────────────────────── 3. The admin reviews (computer) ─────────────────────────
    const despesasAdmin = new TelaDespesas(pa);
    // The admin comes back later: each screen is opened afresh.
    await despesasAdmin.abrir(servidor.url);
    // By default the admin sees active routes: the finished one needs 'Todas'.
    const filtros = pa.getByRole('region', { name: 'Filtros' });
    await filtros.getByLabel('Status da Rota').selectOption({ label: 'Todas' });
    await filtros.getByRole('button', { name: 'Filtrar' }).click();
    await despesasAdmin.item('Almoço em Goiânia').waitFor();
    await despesasAdmin.item('Pedágio BR-050').waitFor();
    await fotografar(pa, 'despesas-admin', { ver: despesasAdmin.item('Pedágio BR-050') });

    await despesasAdmin.acao('Almoço em Goiânia', 'Visualizar Cupom Fiscal');
    const visualizador = pa.getByRole('dialog', { name: 'Cupom Fiscal' });
    await expect.poll(() => visualizador.getByRole('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(320);
    await fotografar(pa, 'despesas-admin-cupom-foto');
    await visualizador.getByRole('button', { name: 'Fechar' }).last().click();
    await visualizador.waitFor({ state: 'detached' });

    await despesasAdmin.acao('Almoço em Goiânia', 'Aprovar');
    await despesasAdmin.aviso('Despesa aprovada.').waitFor();
    await despesasAdmin.item('Almoço em Goiânia').getByText('Aprovada').waitFor();

    await despesasAdmin.acao('Pedágio BR-050', 'Ver Detalhes');
    const detalhesDespesa = pa.getByRole('dialog', { name: 'Detalhes da Despesa' });
    await detalhesDespesa.getByText('Uberlândia (MG)').waitFor();
    await fotografar(pa, 'despesas-admin-detalhes');
    await detalhesDespesa.getByRole('button', { name: 'Rejeitar' }).click();
    const rejeitar = pa.getByRole('dialog', { name: 'Rejeitar Despesa' });
    await rejeitar.getByLabel('Motivo da rejeição').fill(MOTIVO);
    await fotografar(pa, 'despesas-admin-rejeitar');
    await rejeitar.getByRole('button', { name: 'Rejeitar' }).click();
    await despesasAdmin.aviso('Despesa rejeitada.').waitFor();
    await despesasAdmin.item('Pedágio BR-050').getByText('Rejeitada').waitFor();
    await fotografar(pa, 'despesas-admin-avaliadas', { ver: despesasAdmin.item('Pedágio BR-050') });

    // Saldo: the credit less the two expenses (approving or rejecting does not move money).
    await saldo.abrir(servidor.url);
    await expect.poll(async () => sp(await saldo.linha(RENATA.nome).locator('.valor-positivo').textContent())).toBe('R$ 741,80');
    const saldoNaTela = sp(await saldo.linha(RENATA.nome).locator('.valor-positivo').textContent());
    await fotografar(pa, 'saldo-depois', { ver: saldo.linha(RENATA.nome) });
    await saldo.aba('Histórico de Movimentações').click();
    await saldo.linha('Adiantamento da rota').waitFor();
    await fotografar(pa, 'saldo-historico', { ver: saldo.linha('Adiantamento da rota') });
    await saldo.aba('Relatório').click();
    await saldo.linha(ROTA).waitFor();
    await fotografar(pa, 'saldo-relatorio');

    // Relatórios: filters, the route's detail, both exports.
    const relatorios = new TelaRelatorios(pa);
    await relatorios.abrir(servidor.url);
    await relatorios.filtrarStatus('Finalizadas');
    await relatorios.filtrarFuncionario(RENATA.nome);
    await relatorios.linha(ROTA).getByText('R$ 415,50').waitFor(); // 150 + 30,50 + 220 + 15
    await fotografar(pa, 'relatorios');
    const detalhesRota = await relatorios.abrirDetalhes(ROTA);
    await detalhesRota.getByText('3/5').waitFor();
    await detalhesRota.getByText('Cidades não visitadas (2)').click();
    await detalhesRota.getByText('Uberaba (MG)').waitFor();
    await detalhesRota.getByText('Comprovantes (2)').click();
    await fotografar(pa, 'relatorios-detalhes');
    await pa.keyboard.press('Escape');
    await detalhesRota.waitFor({ state: 'detached' });
    await relatorios.selecionar(ROTA);
    await pa.getByText('1 rota selecionada').waitFor();
    const exportadoPdf = await relatorios.exportar('PDF');
    expect(exportadoPdf.suggestedFilename()).toBe('relatorio_rotas.pdf');
    expect(fs.readFileSync((await exportadoPdf.path())!).subarray(0, 4).toString()).toBe('%PDF');
    const exportadoExcel = await relatorios.exportar('Excel');
    expect(exportadoExcel.suggestedFilename()).toBe('relatorio_rotas.xlsx');
    expect(fs.readFileSync((await exportadoExcel.path())!).subarray(0, 2).toString()).toBe('PK');

    // Vendas (admin): the finished route's two sales.
    const vendasAdmin = new TelaVendasAdmin(pa);
    await vendasAdmin.abrir(servidor.url);
    await vendasAdmin.abrirFiltros();
    await vendasAdmin.filtrar({ funcionario: RENATA.nome, status: 'Finalizada' });
    await fotografar(pa, 'vendas-admin-filtros');
    await vendasAdmin.aplicar();
    await expect.poll(() => vendasAdmin.linhas().count()).toBe(2);
    await expect.poll(() => vendasAdmin.lerCartao('Total de Vendas')).toBe('R$ 415,50');
    expect(await vendasAdmin.lerCartao('Boletos')).toBe('2');
    await vendasAdmin.linha('Uberlândia (MG)').getByText('Finalizada').waitFor();
    await fotografar(pa, 'vendas-admin', { ver: vendasAdmin.tabela().getByText('Uberlândia (MG)') });

    // Rotas (admin): the finished route, its cities and its expenses.
    await rotasAdmin.abrir(servidor.url);
    await rotasAdmin.filtrar({ status: 'Finalizadas' });
    await rotasAdmin.cartao(ROTA).getByText('Finalizada').waitFor();
    await fotografar(pa, 'rotas-finalizadas');
    const todasCidades = await rotasAdmin.verTodas(ROTA);
    await todasCidades.getByText('Uberaba').waitFor();
    await fotografar(pa, 'rotas-admin-cidades');
    await todasCidades.getByRole('button', { name: 'Fechar' }).last().click();
    await todasCidades.waitFor({ state: 'detached' });
    const despesasDaRota = await rotasAdmin.verDespesas(ROTA);
    await despesasDaRota.getByText('Pedágio BR-050').waitFor();
    await fotografar(pa, 'rotas-admin-despesas');
    await despesasDaRota.getByRole('button', { name: 'Fechar' }).last().click();
    await despesasDaRota.waitFor({ state: 'detached' });

    // Dashboard: nobody in route any more; the balance modal.
    await dashboardAdmin.abrir(servidor.url);
    await expect.poll(() => dashboardAdmin.numero('Rotas Ativas')).toBe('0');
    expect(await dashboardAdmin.numero('Funcionários sem Rota')).toBe('2');
    await fotografar(pa, 'dashboard-admin-fim', { ver: dashboardAdmin.tabela('Funcionários em Rota') });
    const modalSaldoDashboard = await dashboardAdmin.abrirModalSaldo();
    await dashboardAdmin.escolherFuncionario(RENATA.nome);
    await modalSaldoDashboard.getByText('Funcionário não possui rota ativa').waitFor();
    await fotografar(pa, 'dashboard-admin-modal-saldo');
    // An employee was chosen: closing asks before discarding it.
    await pa.keyboard.press('Escape');
    await pa.getByRole('dialog', { name: 'Fechar sem salvar?' }).getByRole('button', { name: 'Descartar' }).click();
    await modalSaldoDashboard.waitFor({ state: 'detached' });

    // The employee sees both decisions, and the reason, on her phone.
    await despesas.abrir(servidor.url);
    await despesas.item('Almoço em Goiânia').getByText('Aprovada').waitFor();
    await despesas.item('Pedágio BR-050').getByText(`Motivo: ${MOTIVO}`).waitFor();
    await fotografar(pf, 'despesas-funcionario-avaliadas', { ver: despesas.item('Pedágio BR-050') });

    // ───────────────────────── 4. What the server holds ─────────────────────────
    const db = servidor.db.$client;
    const rota = db.prepare('select id, status, funcionario_id from rotas where nome = ?').all(ROTA) as { id: number; status: string; funcionario_id: number }[];
    expect(rota).toHaveLength(1);
    expect(rota[0]!.status).toBe('finalizada');
    const { id: rotaId, funcionario_id: renataId } = rota[0]!;
    expect(db.prepare("select nome, email, tipo, ativo from usuarios where tipo = 'funcionario' order by nome").all()).toEqual([
      { nome: OTAVIO.nome, email: OTAVIO.email, tipo: 'funcionario', ativo: 1 },
      { nome: RENATA.nome, email: RENATA.email, tipo: 'funcionario', ativo: 1 },
    ]);
    expect(db.prepare('select c.uf, count(*) as n from rota_cidades rc join cidades c on c.id = rc.cidade_id where rc.rota_id = ? group by c.uf order by c.uf').all(rotaId)).toEqual([
      { uf: 'GO', n: 3 },
      { uf: 'MG', n: 2 },
    ]);
    expect(
      db
        .prepare(
          'select cidade_id, data_venda, dinheiro_centavos as d, pix_centavos as p, cartao_centavos as c, link_centavos as l, boletos as b, observacoes as o from vendas where rota_id = ? order by cidade_id',
        )
        .all(rotaId),
    ).toEqual([
      { cidade_id: UBERLANDIA, data_venda: HOJE, d: 0, p: 0, c: 22000, l: 1500, b: 0, o: '' },
      { cidade_id: GOIANIA, data_venda: HOJE, d: 15000, p: 3050, c: 0, l: 0, b: 2, o: 'Colégio Estadual' },
    ]);
    // Anápolis was only visited; the two cities with a sale count as visited through the sale.
    expect(db.prepare('select cidade_id, count(*) as n from visitas where rota_id = ? group by cidade_id order by cidade_id').all(rotaId)).toEqual([{ cidade_id: ANAPOLIS, n: 1 }]);
    const salario = (await servidor.chamar({ method: 'GET', url: `/api/relatorios/rota/${rotaId}`, token: await servidor.tokenAdmin() })).json();
    expect(salario.calculo_salario.cidades_visitadas).toBe(3);
    expect([...salario.base.cidades_visitadas_ids].sort()).toEqual([UBERLANDIA, ANAPOLIS, GOIANIA].sort());
    expect(
      db
        .prepare(
          'select cidade_id, tipo, valor_centavos as v, descricao, cupom_mime as mime, status_aprovacao as status, motivo_rejeicao as motivo from despesas where rota_id = ? and excluida_em is null order by descricao',
        )
        .all(rotaId),
    ).toEqual([
      { cidade_id: GOIANIA, tipo: 'alimentacao', v: 4590, descricao: 'Almoço em Goiânia', mime: 'image/jpeg', status: 'aprovada', motivo: null },
      { cidade_id: UBERLANDIA, tipo: 'pedagio', v: 1230, descricao: 'Pedágio BR-050', mime: 'application/pdf', status: 'rejeitada', motivo: MOTIVO },
    ]);
    expect(db.prepare('select count(*) as n from despesas').get()).toEqual({ n: 2 });
    expect(
      db.prepare('select tipo, valor_centavos as v, saldo_anterior_centavos as antes, saldo_novo_centavos as depois, rota_id from movimentacoes_saldo where funcionario_id = ? order by id').all(renataId),
    ).toEqual([
      { tipo: 'credito', v: 80000, antes: 0, depois: 80000, rota_id: rotaId },
      { tipo: 'debito', v: 4590, antes: 80000, depois: 75410, rota_id: rotaId },
      { tipo: 'debito', v: 1230, antes: 75410, depois: 74180, rota_id: rotaId },
    ]);
    expect(db.prepare('select count(*) as n from movimentacoes_saldo').get()).toEqual({ n: 3 });
    // What the admin saw on 'Saldo' is what the server says.
    const resumo = await servidor.chamar({ method: 'GET', url: `/api/saldo/funcionario/${renataId}`, token: await servidor.tokenAdmin() });
    expect(resumo.json().saldo.saldo_atual).toBe(741.8);
    expect(saldoNaTela).toBe('R$ 741,80');

    // Every phone screenshot fits 390 px without sideways scrolling.
    expect(transbordam).toEqual([]);
    await celular.contexto.close();
    perfil = undefined;
    await admin.contexto.close();
  }, 180_000);
});
