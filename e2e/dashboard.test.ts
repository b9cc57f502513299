/**
 * Browser tests of the dashboards: the admin's overview with real data and the balance
 * modal; the employee's route, balances and salary estimate matching the server's numbers, then, with
 * no signal, a sale and an expense recorded on the phone already counted on the dashboard.
 * Real built client (with its service worker), real server on a temporary database, Debian's Chromium.
 */
import type { Browser, Page } from 'playwright-core';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoje, somarDias } from '../shared/dates';
import { formatarCentavos, formatarReais, reaisParaCentavos } from '../shared/money';
import { calcularSalario } from '../shared/payroll/salario';
import type { RelatorioSalarioRota } from '../shared/schemas/relatorios';
import { formulario } from '../server/test/despesas';
import { ADMIN } from '../server/test/helper';
import { TelaDashboardAdmin, TelaDashboardFuncionario } from './paginas/dashboard';
import { TelaDespesas } from './paginas/despesas';
import { TelaLogin } from './paginas/login';
import { TelaVendasFuncionario } from './paginas/vendas';
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
const SALVADOR = 2927408;
const HOJE = hoje('America/Sao_Paulo');
const sp = (t: string) => t.replace(/\u00a0/g, ' ');

describe.skipIf(!temChromium)('dashboards no navegador', () => {
  let servidor: ServidorDeTeste;
  let navegador: Browser;
  let tokenAdmin: string;

  beforeAll(async () => {
    ({ servidor, navegador } = await abrirAmbiente({ navegador: true }));
    tokenAdmin = await servidor.tokenAdmin();
  });
  afterAll(() => fecharAmbiente({ servidor, navegador }));

  const criarRota = (funcionarioId: number, nome: string, cidades: number[], valorAluguel = 0) =>
    criarRotaEmCurso(servidor, funcionarioId, { nome, cidades, diasAntes: 10, diasDepois: 20, valorAluguel });

  async function venda(token: string, rotaId: number, cidadeId: number, data: string, valores: Record<string, number>) {
    const r = await servidor.chamar({ method: 'POST', url: '/api/vendas', token, payload: { id: uuidv7(), rota_id: rotaId, cidade_id: cidadeId, data_venda: data, ...valores } });
    expect(r.statusCode, r.body).toBe(201);
  }

  async function visita(token: string, rotaId: number, cidadeId: number) {
    const r = await servidor.chamar({ method: 'POST', url: `/api/rotas/${rotaId}/cidades/${cidadeId}/visitar`, token, payload: { id: uuidv7(), data: HOJE } });
    expect(r.statusCode, r.body).toBe(200);
  }

  /** Through the real multipart endpoint, as the app sends it. */
  async function despesa(token: string, rotaId: number, cidadeId: number, data: string, valor: string, descricao: string) {
    const corpo = await formulario({ id: uuidv7(), rota_id: rotaId, cidade_id: cidadeId, data_despesa: data, tipo: 'alimentacao', valor, descricao });
    const r = await servidor.chamar({ method: 'POST', url: '/api/despesas', token, ...corpo });
    expect(r.statusCode, r.body).toBe(201);
  }

  const credito = (funcionarioId: number, valor: number, rotaId: number | null) => creditarSaldo(servidor, funcionarioId, valor, { rotaId });

  async function entrar(tela: typeof CELULAR, email: string, senha: string) {
    const p = await novaPagina(navegador, tela);
    await p.pagina.emulateMedia({ reducedMotion: 'reduce' });
    const login = new TelaLogin(p.pagina);
    await login.abrir(servidor.url);
    await login.entrar(email, senha);
    await p.pagina.waitForURL('**/dashboard');
    // The pointer stays where 'Entrar' was: away, or screenshots catch a card in hover.
    await p.pagina.mouse.move(0, 0);
    return p;
  }

  /** Closes the toasts (they cover the header in screenshots). */
  async function fecharAvisos(pagina: Page) {
    await pagina.locator('.Toastify__close-button').evaluateAll((botoes) => botoes.forEach((b) => (b as HTMLElement).click()));
    await pagina.locator('.Toastify__toast').first().waitFor({ state: 'detached' });
  }

  const semRolagemHorizontal = (pagina: Page) => pagina.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

  it('sistema vazio: o admin vê zeros e os textos das tabelas vazias', async () => {
    const { contexto, pagina } = await entrar(DESKTOP, ADMIN.email, ADMIN.senha);
    const tela = new TelaDashboardAdmin(pagina);
    await tela.tabela('Rotas Ativas').getByText('Nenhuma rota ativa').waitFor();
    await tela.tabela('Funcionários em Rota').getByText('Nenhum funcionário em rota').waitFor();
    expect(await tela.numero('Funcionários em Rota')).toBe('0');
    expect(await tela.numero('Funcionários sem Rota')).toBe('0');
    expect(await tela.numero('Rotas Ativas')).toBe('0');
    expect(await tela.numero('Vendas do Dia')).toBe('R$ 0,00');
    expect(await tela.numero('Despesas do Dia')).toBe('R$ 0,00');
    await fecharAvisos(pagina);
    await capturar(pagina, 'desktop-dashboard-admin-vazio');
    await contexto.close();
  });

  it('admin: os cinco números e as duas tabelas com dados reais; o modal de saldo credita e o painel se atualiza', async () => {
    const ana = await servidor.criarFuncionario({ nome: 'Ana Estrada', email: 'ana.estrada@escola.com.br' });
    const bruno = await servidor.criarFuncionario({ nome: 'Bruno Viagem', email: 'bruno.viagem@escola.com.br' });
    await servidor.criarFuncionario({ nome: 'Carla Sem Rota', email: 'carla@escola.com.br' });
    const rotaAna = await criarRota(ana.id, 'Rota Goiás Central', [GOIANIA, ANAPOLIS, CALDAS, CATALAO]);
    const rotaBruno = await criarRota(bruno.id, 'Rota Minas', [BELO_HORIZONTE, UBERLANDIA]);
    await credito(ana.id, 500, rotaAna);
    await credito(bruno.id, 50, null);
    await venda(ana.token, rotaAna, GOIANIA, HOJE, { valor_dinheiro: 1200.5, valor_pix: 300, valor_boletos: 2 });
    await venda(ana.token, rotaAna, ANAPOLIS, somarDias(HOJE, -1), { valor_cartao: 500 });
    await visita(ana.token, rotaAna, CALDAS);
    await venda(bruno.token, rotaBruno, BELO_HORIZONTE, HOJE, { valor_link: 99.9 });
    await despesa(ana.token, rotaAna, GOIANIA, HOJE, '45,90', 'Almoço');
    await despesa(bruno.token, rotaBruno, BELO_HORIZONTE, somarDias(HOJE, -1), '80,00', 'Hotel');

    const { contexto, pagina } = await entrar(DESKTOP, ADMIN.email, ADMIN.senha);
    const tela = new TelaDashboardAdmin(pagina);
    await expect.poll(() => tela.numero('Rotas Ativas')).toBe('2');
    expect(await tela.numero('Funcionários em Rota')).toBe('2');
    expect(await tela.numero('Funcionários sem Rota')).toBe('1');
    expect(await tela.numero('Vendas do Dia')).toBe('R$ 1.600,40');
    expect(await tela.numero('Despesas do Dia')).toBe('R$ 45,90');
    expect(await tela.linha('Rotas Ativas', 'Rota Goiás Central')).toEqual(['Rota Goiás Central', 'Ana Estrada', 'R$ 1.500,50', 'R$ 45,90', 'Ativa']);
    expect(await tela.linha('Rotas Ativas', 'Rota Minas')).toEqual(['Rota Minas', 'Bruno Viagem', 'R$ 99,90', 'R$ 0,00', 'Ativa']);
    expect(await tela.linha('Funcionários em Rota', 'Ana Estrada')).toEqual(['Ana Estrada', 'Rota Goiás Central', 'R$ 454,10', 'R$ 1.500,50', '3/4']);
    expect(await tela.linha('Funcionários em Rota', 'Bruno Viagem')).toEqual(['Bruno Viagem', 'Rota Minas', '-R$ 30,00', 'R$ 99,90', '1/2']);
    expect(await tela.tabela('Funcionários em Rota').getByText('-R$ 30,00').getAttribute('class')).toContain('valor-negativo');
    // The same numbers the server's report gives.
    const api = (await servidor.chamar({ method: 'GET', url: '/api/relatorios/dashboard-admin', token: tokenAdmin })).json();
    expect(sp(await tela.numero('Vendas do Dia'))).toBe(sp(formatarReais(api.vendasDia)));
    expect(api.funcionarios.map((f: { nome: string; saldo: number }) => [f.nome, f.saldo])).toEqual([
      ['Ana Estrada', 454.1],
      ['Bruno Viagem', -30],
    ]);
    expect(await semRolagemHorizontal(pagina)).toBe(true);
    await fecharAvisos(pagina);
    await capturar(pagina, 'desktop-dashboard-admin');

    // Crediting Bruno: his only active route comes chosen; the dashboard refreshes after the modal closes.
    const modal = await tela.abrirModalSaldo();
    await tela.escolherFuncionario('Bruno Viagem');
    await expect.poll(() => modal.getByLabel('Rota').locator('option:checked').textContent()).toBe('Rota Minas');
    await modal.getByLabel('Valor (R$)').fill('200,00');
    await capturar(pagina, 'desktop-dashboard-modal-saldo');
    await modal.getByRole('button', { name: 'Adicionar Saldo' }).click();
    await modal.getByText('Saldo adicionado com sucesso!').waitFor();
    await modal.waitFor({ state: 'detached', timeout: 5000 });
    await expect.poll(() => tela.linha('Funcionários em Rota', 'Bruno Viagem')).toEqual(['Bruno Viagem', 'Rota Minas', 'R$ 170,00', 'R$ 99,90', '1/2']);
    const saldoBruno = await servidor.chamar({ method: 'GET', url: `/api/saldo/funcionario/${bruno.id}`, token: tokenAdmin });
    expect(saldoBruno.json().saldo.saldo_atual).toBe(170);
    await contexto.close();

    // The phone: counts three to a row, the amounts two, the tables as cards; the modal fits.
    const celular = await entrar(CELULAR, ADMIN.email, ADMIN.senha);
    const telaCelular = new TelaDashboardAdmin(celular.pagina);
    await expect.poll(() => telaCelular.numero('Rotas Ativas')).toBe('2');
    expect(await semRolagemHorizontal(celular.pagina)).toBe(true);
    await fecharAvisos(celular.pagina);
    await capturar(celular.pagina, 'celular-dashboard-admin-dados');
    await telaCelular.tabela('Funcionários em Rota').scrollIntoViewIfNeeded();
    await telaCelular.tabela('Funcionários em Rota').getByText('Bruno Viagem').first().waitFor();
    await capturar(celular.pagina, 'celular-dashboard-admin-tabelas');
    await telaCelular.abrirModalSaldo();
    await telaCelular.escolherFuncionario('Ana Estrada');
    await capturar(celular.pagina, 'celular-dashboard-modal-saldo');
    await celular.contexto.close();
  });

  it('funcionária: cartões e salário iguais aos do servidor; sem sinal, a venda e a despesa do celular já contam no dashboard', async () => {
    const rita = await servidor.criarFuncionario({ nome: 'Rita Campos', email: 'rita@escola.com.br' });
    // An earlier route she finished: 'Rotas Concluídas' 1.
    const antiga = await criarRota(rita.id, 'Rota Bahia', [SALVADOR]);
    expect((await servidor.chamar({ method: 'PATCH', url: `/api/rotas/${antiga}/finalizar`, token: rita.token })).statusCode).toBe(200);
    const rotaId = await criarRota(rita.id, 'Rota Sul Goiano', [GOIANIA, ANAPOLIS, CALDAS, CATALAO, PIRENOPOLIS], 200);
    // R$ 1.333,32 in 2 cities: 3 bags, average 1,5 -> R$ 60 a bag, R$ 50 a city, half of the R$ 200 rent.
    await venda(rita.token, rotaId, GOIANIA, somarDias(HOJE, -2), { valor_dinheiro: 900, valor_boletos: 1 });
    await venda(rita.token, rotaId, ANAPOLIS, somarDias(HOJE, -1), { valor_pix: 433.32, valor_boletos: 2 });
    await credito(rita.id, 500, rotaId);
    await despesa(rita.token, rotaId, ANAPOLIS, somarDias(HOJE, -1), '30,00', 'Almoço');
    const doServidor = async (): Promise<RelatorioSalarioRota> => (await servidor.chamar({ method: 'GET', url: `/api/relatorios/rota/${rotaId}`, token: rita.token })).json();

    const { contexto, pagina } = await entrar(CELULAR, rita.email, rita.senha);
    const tela = new TelaDashboardFuncionario(pagina);
    const servidorAntes = await doServidor();
    const c = servidorAntes.calculo_salario;
    await expect.poll(() => tela.total()).toBe(sp(formatarReais(c.total_salario)));
    expect(sp(formatarReais(c.total_salario))).toBe('R$ 196,50');
    expect(await tela.valor('Rota Ativa')).toContain('Rota Sul Goiano');
    expect(await tela.valor('Cidades Atendidas')).toBe(`${c.cidades_visitadas} / 5`);
    expect(await tela.valor('Rotas Concluídas')).toBe('1');
    await expect.poll(() => tela.saldoConfirmado()).toBe('R$ 470,00');
    expect(await tela.saldoProjetado()).toBe('R$ 470,00');
    expect(await tela.indicador('Média de desempenho')).toBe('1,50');
    expect(await tela.indicador('Bolsas')).toBe('3,00');
    expect(await tela.indicador('Valor por bolsa')).toBe(sp(formatarReais(c.valor_por_bolsa)));
    expect(await tela.linha('Bolsas')).toBe(sp(formatarReais(c.valor_bolsas)));
    expect(await tela.linha('Bônus por cidade')).toBe(sp(formatarReais(c.valor_cidades)));
    expect(await tela.linha('Boletos')).toBe(sp(formatarReais(c.valor_boletos)));
    expect(await tela.linha('Desconto do aluguel')).toBe(`− ${sp(formatarReais(c.desconto_aluguel))}`);
    expect(await tela.mensagemAluguel()).toBe('Média entre 1,5 e 2: o aluguel de R$ 200,00 é dividido, e você paga a metade (R$ 100,00).');
    expect(await semRolagemHorizontal(pagina)).toBe(true);
    await fecharAvisos(pagina);
    await capturar(pagina, 'celular-dashboard-funcionario');
    await tela.salario().scrollIntoViewIfNeeded();
    await capturar(pagina, 'celular-dashboard-funcionario-salario');
    await pagina.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 20_000 });

    // Vendas opened once online (its data stays on the phone), then the signal drops.
    await tela.irPara('Nova Venda');
    const vendas = new TelaVendasFuncionario(pagina);
    await vendas.cartao('Caldas Novas').waitFor();
    await contexto.setOffline(true);
    await vendas.editar('Caldas Novas', { Dinheiro: '666,66', Boletos: '1' });
    await vendas.salvar('Caldas Novas');
    await vendas.irParaAba(/^Fechadas/);
    await vendas.cartao('Caldas Novas').getByText('Aguardando envio').waitFor();

    // Back to the dashboard, reloaded with no network (the service worker serves the app).
    await tela.abrir(servidor.url);
    const base = servidorAntes.base;
    const esperado = calcularSalario({
      vendasCentavos: reaisParaCentavos(c.total_vendas) + 66_666,
      boletos: c.boletos + 1,
      cidadesVisitadas: base.cidades_visitadas_ids.length + 1,
      valorAluguelCentavos: reaisParaCentavos(base.valor_aluguel),
    });
    await expect.poll(() => tela.total()).toBe(sp(formatarCentavos(esperado.totalSalarioCentavos)));
    expect(sp(formatarCentavos(esperado.totalSalarioCentavos))).toBe('R$ 342,00');
    expect(await tela.valor('Cidades Atendidas')).toBe('3 / 5');
    expect(await tela.linha('Boletos')).toBe('R$ 22,00');
    await tela.salario().getByText('Inclui 1 registro deste aparelho que ainda não chegou ao servidor.').waitFor();
    await tela.avisoOffline().waitFor();
    expect(await tela.saldoConfirmado()).toBe('R$ 470,00');

    // An expense, offline too: the projected balance takes it, the confirmed one does not.
    const despesas = new TelaDespesas(pagina);
    await despesas.abrir(servidor.url);
    const modal = await despesas.abrirNova();
    await despesas.preencher(modal, { cidade: 'Caldas Novas (GO)', tipo: 'Alimentação', valor: '25,50', descricao: 'Lanche offline' });
    await despesas.registrar(modal);
    await despesas.aviso('Despesa guardada neste aparelho. Ela será enviada assim que houver conexão.').waitFor();
    await tela.abrir(servidor.url);
    await expect.poll(() => tela.saldoProjetado()).toBe('R$ 444,50');
    expect(await tela.saldoConfirmado()).toBe('R$ 470,00');
    expect(await tela.total()).toBe('R$ 342,00');
    await tela.avisoOffline().waitFor();
    await capturar(pagina, 'celular-dashboard-funcionario-offline');

    // Online again: the queue reaches the server, and the server's numbers are the ones shown.
    await contexto.setOffline(false);
    await expect.poll(async () => (await doServidor()).calculo_salario.total_salario, { timeout: 45_000, interval: 500 }).toBe(342);
    await expect.poll(() => tela.saldoConfirmado(), { timeout: 20_000 }).toBe('R$ 444,50');
    expect(await tela.saldoProjetado()).toBe('R$ 444,50');
    expect(await tela.total()).toBe('R$ 342,00');
    expect(await tela.valor('Cidades Atendidas')).toBe('3 / 5');
    await expect.poll(() => tela.salario().getByText(/ainda não/).count(), { timeout: 20_000 }).toBe(0);
    await contexto.close();

    const desktop = await entrar(DESKTOP, rita.email, rita.senha);
    const telaDesktop = new TelaDashboardFuncionario(desktop.pagina);
    await expect.poll(() => telaDesktop.total()).toBe('R$ 342,00');
    await expect.poll(() => telaDesktop.saldoConfirmado()).toBe('R$ 444,50');
    await fecharAvisos(desktop.pagina);
    await capturar(desktop.pagina, 'desktop-dashboard-funcionario');
    await desktop.contexto.close();
  });

  it('funcionária abrindo o dashboard: o código chega em poucos arquivos (no 3G, cada leva de pedidos custa uma ida e volta)', async () => {
    // Left to the bundler, the panel came in ~35 files of 1-3 KB, six waves over HTTP/1.1
    // before it could draw (vite.config.ts, codeSplitting).
    const tania = await servidor.criarFuncionario({ nome: 'Tânia Arquivos', email: 'tania@escola.com.br' });
    await criarRota(tania.id, 'Rota dos Arquivos', [GOIANIA, ANAPOLIS]);
    const { contexto, pagina } = await novaPagina(navegador, CELULAR);
    const scripts: string[] = [];
    pagina.on('request', (pedido) => {
      const url = new URL(pedido.url());
      if (url.pathname.startsWith('/assets/') && url.pathname.endsWith('.js')) scripts.push(url.pathname.slice('/assets/'.length));
    });
    const login = new TelaLogin(pagina);
    await login.abrir(servidor.url);
    await login.entrar(tania.email, tania.senha);
    const tela = new TelaDashboardFuncionario(pagina);
    await expect.poll(() => tela.valor('Rota Ativa')).toContain('Rota dos Arquivos');
    // The login's own (the page, its field and icon pieces), the first file, the engine and the panel.
    expect(scripts.length, scripts.join(', ')).toBeLessThanOrEqual(12);
    await contexto.close();
  });

  it('funcionário sem rota ativa vê o aviso, no celular', async () => {
    const saulo = await servidor.criarFuncionario({ nome: 'Saulo Parado', email: 'saulo@escola.com.br' });
    const { contexto, pagina } = await entrar(CELULAR, saulo.email, saulo.senha);
    await pagina.getByRole('heading', { name: 'Você não tem nenhuma rota ativa no momento.' }).waitFor();
    expect(await pagina.getByRole('region', { name: 'Salário Estimado' }).count()).toBe(0);
    await fecharAvisos(pagina);
    await capturar(pagina, 'celular-dashboard-funcionario-sem-rota');
    await contexto.close();
  });
});
