/**
 * Browser tests of sales: an employee closes cities on the phone, partly without a
 * connection, and the admin then finds those sales with the right totals. Real built client, real
 * server on a temporary database, Debian's Chromium.
 */
import type { Browser, Page } from 'playwright-core';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoje, somarDias } from '../shared/dates';
import { ADMIN } from '../server/test/helper';
import { TelaLogin } from './paginas/login';
import { TelaVendasAdmin, TelaVendasFuncionario } from './paginas/vendas';
import { abrirAmbiente, fecharAmbiente } from './suporte/ambiente';
import { criarRotaEmCurso } from './suporte/dados';
import { capturar, CELULAR, DESKTOP, novaPagina, temChromium } from './suporte/navegador';
import type { ServidorDeTeste } from './suporte/servidor';

const GOIANIA = 5208707;
const ANAPOLIS = 5201108;
const CALDAS = 5204508;
const PIRENOPOLIS = 5217302;
const HOJE = hoje('America/Sao_Paulo');

describe.skipIf(!temChromium)('vendas no navegador', () => {
  let servidor: ServidorDeTeste;
  let navegador: Browser;
  let tokenAdmin: string;

  beforeAll(async () => {
    ({ servidor, navegador } = await abrirAmbiente({ navegador: true }));
    tokenAdmin = await servidor.tokenAdmin();
  });
  afterAll(() => fecharAmbiente({ servidor, navegador }));

  const criarRota = (funcionarioId: number, nome: string, cidades: number[]) => criarRotaEmCurso(servidor, funcionarioId, { nome, cidades, diasAntes: 10, diasDepois: 20 });

  async function venda(token: string, rotaId: number, cidadeId: number, data: string, valores: Record<string, number | string>) {
    const r = await servidor.chamar({ method: 'POST', url: '/api/vendas', token, payload: { id: uuidv7(), rota_id: rotaId, cidade_id: cidadeId, data_venda: data, ...valores } });
    expect(r.statusCode, r.body).toBe(201);
  }

  /** What the server holds for the route today, as the admin's API answers it. */
  async function doDia(rotaId: number) {
    const r = await servidor.chamar({ method: 'GET', url: `/api/vendas/fechamento-diario?rota_id=${rotaId}&data=${HOJE}`, token: tokenAdmin });
    const status = await servidor.chamar({ method: 'GET', url: `/api/rotas/${rotaId}/cidades-status?data=${HOJE}`, token: tokenAdmin });
    const vendas = r.json().vendas as { cidade_id: number; valor_dinheiro: number; valor_cartao: number; valor_boletos: number }[];
    const visitadas = (status.json().cidades as { cidade_id: number; visitada: boolean }[]).filter((c) => c.visitada).map((c) => c.cidade_id);
    return { vendas, visitadas: visitadas.sort(), deCidade: (id: number) => vendas.find((v) => v.cidade_id === id) };
  }

  async function entrar(pagina: Page, email: string, senha: string) {
    const login = new TelaLogin(pagina);
    await login.abrir(servidor.url);
    await login.entrar(email, senha);
    await pagina.waitForURL('**/dashboard');
  }

  /** A new page; without animations, so screenshots never catch an arrow half-turned. */
  async function paginaNova(tela: typeof CELULAR) {
    const p = await novaPagina(navegador, tela);
    await p.pagina.emulateMedia({ reducedMotion: 'reduce' });
    return p;
  }

  const semRolagemHorizontal = (pagina: Page) => pagina.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

  it('funcionário no celular: três vendas, uma visita sem venda e uma edição, parte sem conexão; o admin vê tudo filtrado por rota e cidade', async () => {
    const helena = await servidor.criarFuncionario({ nome: 'Helena Campos', email: 'helena@escola.com.br' });
    const rotaId = await criarRota(helena.id, 'Rota Goiás Central', [GOIANIA, ANAPOLIS, CALDAS, PIRENOPOLIS]);
    // Earlier days of Goiânia, for its 'Histórico de vendas'.
    await venda(helena.token, rotaId, GOIANIA, somarDias(HOJE, -3), { valor_dinheiro: 80 });
    await venda(helena.token, rotaId, GOIANIA, somarDias(HOJE, -2), { valor_pix: 95.5 });

    const { contexto, pagina } = await paginaNova(CELULAR);
    await entrar(pagina, helena.email, helena.senha);
    const tela = new TelaVendasFuncionario(pagina);
    await tela.abrir(servidor.url);
    await tela.aba(/^Em aberto \(4\)$/).waitFor();
    await tela.cartao('Pirenópolis').waitFor();
    expect(await pagina.getByLabel('Data', { exact: true }).inputValue()).toBe(HOJE);
    expect(await semRolagemHorizontal(pagina)).toBe(true);
    await capturar(pagina, 'celular-vendas-em-aberto');

    // 1. Goiânia, online.
    await tela.editar('Goiânia', { Dinheiro: '100,10', Pix: '0,20' });
    await tela.formulario('Goiânia').getByText('R$ 100,30').waitFor();
    expect(await semRolagemHorizontal(pagina)).toBe(true);
    await capturar(pagina, 'celular-vendas-edicao');
    await tela.salvar('Goiânia');
    await expect.poll(async () => (await doDia(rotaId)).deCidade(GOIANIA)?.valor_dinheiro, { timeout: 15_000 }).toBe(100.1);

    // 2. The signal drops: a sale for Anápolis, a visit without sale to Caldas Novas, an edit of Goiânia.
    await contexto.setOffline(true);
    await tela.editar('Anápolis', { Cartão: '50', Boletos: '2', Observações: 'Escola estadual' });
    await tela.salvar('Anápolis');
    await tela.editar('Caldas Novas', {});
    await tela.salvar('Caldas Novas');
    await tela.irParaAba(/^Fechadas \(3\)$/);
    await tela.cartao('Anápolis').getByText('Fechada · R$ 50,00').waitFor();
    await tela.cartao('Anápolis').getByText('Aguardando envio').waitFor();
    await tela.cartao('Caldas Novas').getByText('Visitada (sem venda)').waitFor();
    await tela.editar('Goiânia', { Dinheiro: '120,10' });
    await tela.salvar('Goiânia');
    await tela.cartao('Goiânia').getByText('Fechada · R$ 120,30').waitFor();
    await tela.cartao('Goiânia').getByText('Aguardando envio').waitFor();
    await pagina.getByRole('button', { name: /Offline · 3 aguardando/ }).waitFor();
    await tela.fecharAvisos();
    await capturar(pagina, 'celular-vendas-offline');
    const duranteOffline = await doDia(rotaId);
    expect(duranteOffline.vendas.map((v) => v.cidade_id)).toEqual([GOIANIA]);
    expect(duranteOffline.deCidade(GOIANIA)?.valor_dinheiro).toBe(100.1);

    // 3. Back online: the queue reaches the server in order.
    await contexto.setOffline(false);
    await expect
      .poll(async () => {
        const d = await doDia(rotaId);
        return { goiania: d.deCidade(GOIANIA)?.valor_dinheiro, anapolis: d.deCidade(ANAPOLIS)?.valor_cartao, boletos: d.deCidade(ANAPOLIS)?.valor_boletos, visitadas: d.visitadas };
      }, { timeout: 45_000, interval: 500 })
      .toEqual({ goiania: 120.1, anapolis: 50, boletos: 2, visitadas: [ANAPOLIS, CALDAS, GOIANIA].sort() });
    expect((await doDia(rotaId)).deCidade(CALDAS)).toBeUndefined();
    await tela.cartao('Anápolis').getByText(/Recebido pelo servidor às \d\d:\d\d/).waitFor({ timeout: 15_000 });
    await pagina.getByRole('button', { name: /^Sincronizado/ }).waitFor({ timeout: 15_000 });

    // 4. The third sale, online.
    await tela.irParaAba(/^Em aberto \(1\)$/);
    await tela.editar('Pirenópolis', { Link: '0,30' });
    await tela.salvar('Pirenópolis');
    await tela.irParaAba(/^Fechadas \(4\)$/);
    await tela.mostrarDetalhes('Goiânia');
    const historico = tela.historico('Goiânia');
    await historico.getByText('R$ 120,30').waitFor();
    expect(await historico.getByRole('listitem').allInnerTexts()).toEqual([
      expect.stringMatching(/R\$\s120,30/),
      expect.stringMatching(/R\$\s95,50/),
      expect.stringMatching(/R\$\s80,00/),
    ]);
    await tela.mostrarDetalhes('Caldas Novas');
    await tela.historico('Caldas Novas').getByText('Sem vendas registradas').waitFor();
    await tela.fecharAvisos();
    await tela.cartao('Goiânia').evaluate((e) => e.scrollIntoView({ block: 'center' }));
    expect(await semRolagemHorizontal(pagina)).toBe(true);
    await capturar(pagina, 'celular-vendas-fechadas-historico');
    await expect.poll(async () => (await doDia(rotaId)).vendas.length, { timeout: 15_000 }).toBe(3);
    await contexto.close();

    // 5. The admin filters by the route and two of its cities.
    const adm = await paginaNova(DESKTOP);
    await entrar(adm.pagina, ADMIN.email, ADMIN.senha);
    const admin = new TelaVendasAdmin(adm.pagina);
    await admin.abrir(servidor.url);
    // Default: active routes, every date (Goiânia's two earlier days included).
    await expect.poll(() => admin.lerCartao('Total de Vendas')).toBe('R$ 346,10');
    await admin.linha('Pirenópolis (GO)').waitFor();
    await capturar(adm.pagina, 'desktop-vendas-admin');

    await admin.abrirFiltros();
    await admin.modal().getByText('Selecione uma rota para filtrar por cidade').waitFor();
    expect(await admin.modal().getByLabel('Status da Rota').inputValue()).toBe('ativa');
    await admin.filtrar({ rota: 'Rota Goiás Central', cidades: ['Goiânia (GO)', 'Anápolis (GO)'] });
    await capturar(adm.pagina, 'desktop-vendas-filtros');
    await admin.filtrar({ dataInicio: HOJE, dataFim: HOJE });
    await admin.aplicar();

    await expect.poll(() => admin.linhas().count()).toBe(2);
    expect(await admin.lerCartao('Total de Vendas')).toBe('R$ 170,30');
    expect(await admin.lerCartao('Dinheiro')).toBe('R$ 120,10');
    expect(await admin.lerCartao('Pix')).toBe('R$ 0,20');
    expect(await admin.lerCartao('Cartão')).toBe('R$ 50,00');
    expect(await admin.lerCartao('Link')).toBe('R$ 0,00');
    expect(await admin.lerCartao('Boletos')).toBe('2');
    await admin.resumo().getByText('R$ 11,00').waitFor();
    const anapolis = (await admin.linha('Anápolis (GO)').innerText()).replace(/\u00a0/g, ' ');
    for (const texto of ['Helena Campos', 'Rota Goiás Central', 'Ativa', 'R$ 50,00']) expect(anapolis).toContain(texto);
    expect(await admin.observacao(admin.linha('Anápolis (GO)')).innerText()).toBe('Observações: Escola estadual');
    await capturar(adm.pagina, 'desktop-vendas-admin-filtrado');

    // Widening the dates brings Goiânia's earlier days back, without reopening the page.
    await admin.abrirFiltros();
    await admin.modal().getByLabel('Data Início').fill('');
    await admin.aplicar();
    await expect.poll(() => admin.linhas().count()).toBe(4);
    expect(await admin.lerCartao('Total de Vendas')).toBe('R$ 345,80');
    await adm.contexto.close();
  });

  it('telas no computador (funcionário) e no celular (admin), com paginação das cidades', async () => {
    const ivo = await servidor.criarFuncionario({ nome: 'Ivo Serra', email: 'ivo@escola.com.br' });
    const cidades = [5201108, 5204508, 5205109, 5208707, 5211503, 5217302, 5218805, 3104007, 3106200, 3148004, 3162500, 3170107, 3170206, 3550308];
    const rotaId = await criarRota(ivo.id, 'Rota Triângulo', cidades);
    for (let d = 1; d <= 4; d++) await venda(ivo.token, rotaId, 3170206, somarDias(HOJE, -d), { valor_dinheiro: 100 * d, valor_boletos: d });
    await venda(ivo.token, rotaId, 3170206, HOJE, { valor_dinheiro: 250, valor_pix: 49.9, observacoes: 'Dia de feira' });

    const { contexto, pagina } = await paginaNova(DESKTOP);
    await entrar(pagina, ivo.email, ivo.senha);
    const tela = new TelaVendasFuncionario(pagina);
    await tela.abrir(servidor.url);
    await tela.aba(/^Em aberto \(13\)$/).waitFor();
    await pagina.getByText('Página 1 de 2').waitFor();
    expect(await pagina.getByRole('list', { name: 'Cidades em aberto' }).getByRole('listitem').count()).toBe(12);
    await capturar(pagina, 'desktop-vendas-em-aberto');
    await tela.editar('Araxá', { Dinheiro: '35', Observações: 'Volto na sexta' });
    await capturar(pagina, 'desktop-vendas-edicao');
    // What was typed is discarded only after the question.
    await tela.cartao('Araxá').getByRole('button', { name: 'Cancelar Araxá' }).click();
    await pagina.getByRole('dialog', { name: 'Fechar sem salvar?' }).getByRole('button', { name: 'Descartar' }).click();
    await tela.irParaAba(/^Fechadas \(1\)$/);
    await tela.mostrarDetalhes('Uberlândia');
    await tela.historico('Uberlândia').getByText('R$ 299,90').waitFor();
    await capturar(pagina, 'desktop-vendas-fechadas-historico');
    await contexto.close();

    const cel = await paginaNova(CELULAR);
    await entrar(cel.pagina, ADMIN.email, ADMIN.senha);
    const admin = new TelaVendasAdmin(cel.pagina);
    await admin.abrir(servidor.url);
    await admin.resumo().waitFor();
    await expect.poll(() => admin.lerCartao('Boletos')).not.toBe('0');
    expect(await semRolagemHorizontal(cel.pagina)).toBe(true);
    await capturar(cel.pagina, 'celular-vendas-admin');
    await admin.abrirFiltros();
    await admin.filtrar({ rota: 'Rota Triângulo' });
    await capturar(cel.pagina, 'celular-vendas-filtros');
    await cel.contexto.close();
  });
});
