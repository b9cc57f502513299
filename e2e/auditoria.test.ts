/**
 * The audit trail names what it audits, in the browser: expenses registered in the same minute by two
 * employees read apart ('Despesa de … · tipo · valor · data'), a deleted route keeps its name, and each
 * link opens the record: the expense's details in Despesas, the route's in Relatórios, the credit's
 * movements in Saldo, the user in Usuários. At 1280x800 and 390x844, nothing cut or scrolling sideways. Real built client + real server.
 */
import type { Browser, Page } from 'playwright-core';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatarData, hoje, somarDias } from '../shared/dates';
import { formulario } from '../server/test/despesas';
import { abrirAmbiente, fecharAmbiente } from './suporte/ambiente';
import { criarRotaEmCurso, creditarSaldo } from './suporte/dados';
import { capturar, CELULAR, DESKTOP, temChromium } from './suporte/navegador';
import { entrarComoAdmin } from './suporte/admin';
import type { ServidorDeTeste } from './suporte/servidor';

const GOIANIA = 5208707;
const ANAPOLIS = 5201108;

describe.skipIf(!temChromium)('auditoria: o registro nomeia o que audita', () => {
  let servidor: ServidorDeTeste;
  let navegador: Browser;
  const ontem = formatarData(somarDias(hoje('America/Sao_Paulo'), -1));
  let rotaViva = 0;

  beforeAll(async () => {
    ({ servidor, navegador } = await abrirAmbiente({ navegador: true, env: { LOGIN_RATE_LIMIT: '1000' } }));
    const admin = await servidor.tokenAdmin();
    const ana = await servidor.criarFuncionario({ nome: 'Ana Souza', email: 'ana.souza@escola.com.br' });
    const iris = await servidor.criarFuncionario({ nome: 'Íris Albuquerque de Oliveira', email: 'iris.albuquerque@escola.com.br' });
    rotaViva = await criarRotaEmCurso(servidor, ana.id, { nome: 'Rota Centro', cidades: [GOIANIA], diasAntes: 3, diasDepois: 10 });
    const rotaIris = await criarRotaEmCurso(servidor, iris.id, { nome: 'Rota Anápolis e Região Metropolitana', cidades: [ANAPOLIS], diasAntes: 3, diasDepois: 10 });
    const ids: string[] = [];
    const criar = async (quem: { token: string }, rota: number, cidade: number, tipo: string, valor: string, extra: Record<string, string> = {}) => {
      const id = uuidv7();
      const corpo = await formulario({ id, rota_id: rota, cidade_id: cidade, data_despesa: somarDias(hoje('America/Sao_Paulo'), -1), tipo, valor, descricao: '', ...extra });
      const r = await servidor.chamar({ method: 'POST', url: '/api/despesas', token: quem.token, ...corpo });
      expect(r.statusCode, r.body).toBe(201);
      ids.push(id);
    };
    // Same minute, so the same first characters of their ids: the trail used to show them all alike.
    await criar(ana, rotaViva, GOIANIA, 'alimentacao', '48,00');
    await criar(ana, rotaViva, GOIANIA, 'pedagio', '12,40');
    await criar(iris, rotaIris, ANAPOLIS, 'outro', '35,50', { tipo_outro: 'Lavagem do carro' });
    const r = await servidor.chamar({ method: 'PATCH', url: '/api/despesas/aprovar', token: admin, payload: { ids } });
    expect(r.statusCode, r.body).toBe(200);
    await creditarSaldo(servidor, ana.id, 250, { rotaId: rotaViva });
    // A route created and deleted: its rows keep its name.
    const bruno = await servidor.criarFuncionario({ nome: 'Bruno Campo', email: 'bruno.campo@escola.com.br' });
    const efemera = await criarRotaEmCurso(servidor, bruno.id, { nome: 'Rota Serra Dourada', cidades: [GOIANIA], diasAntes: 1, diasDepois: 5 });
    for (const pedido of [
      { method: 'PATCH' as const, url: `/api/rotas/${efemera}/cancelar` },
      { method: 'DELETE' as const, url: `/api/rotas/${efemera}` },
    ]) {
      const resposta = await servidor.chamar({ ...pedido, token: admin });
      expect(resposta.statusCode, resposta.body).toBe(200);
    }
  });
  afterAll(() => fecharAmbiente({ servidor, navegador }));

  async function abrirAuditoria(tela = DESKTOP): Promise<Page> {
    const { pagina } = await entrarComoAdmin(navegador, servidor.url, tela);
    await pagina.goto(`${servidor.url}/auditoria`);
    await pagina.getByText('Rota Serra Dourada (excluída)').first().waitFor();
    return pagina;
  }

  const rolaDeLado = (pagina: Page) => pagina.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);

  it('no computador: cada despesa com quem, o tipo, o valor e a data; os links abrem a despesa e a rota', async () => {
    const pagina = await abrirAuditoria();
    const principal = pagina.locator('main');
    for (const texto of [
      `Despesa de Ana Souza · Alimentação · R$ 48,00 · ${ontem}`,
      `Despesa de Ana Souza · Pedágio · R$ 12,40 · ${ontem}`,
      `Despesa de Íris Albuquerque de Oliveira · Lavagem do carro · R$ 35,50 · ${ontem}`,
      'Crédito de R$ 250,00 para Ana Souza',
    ]) {
      await principal.getByRole('link', { name: texto }).waitFor();
    }
    await principal.getByRole('link', { name: 'Rota Centro', exact: true }).waitFor();
    // The deleted route: three rows (created, cancelled, deleted), named, and none of them a link.
    expect(await principal.getByText('Rota Serra Dourada (excluída)').count()).toBe(3);
    expect(await principal.getByRole('link', { name: /Rota Serra Dourada/ }).count()).toBe(0);
    expect(await rolaDeLado(pagina)).toBe(false);
    await capturar(pagina, 'auditoria-nomes-desktop');
    await principal.getByRole('link', { name: 'Crédito de R$ 250,00 para Ana Souza' }).scrollIntoViewIfNeeded();
    await capturar(pagina, 'auditoria-nomes-desktop-despesas');

    await principal.getByRole('link', { name: `Despesa de Íris Albuquerque de Oliveira · Lavagem do carro · R$ 35,50 · ${ontem}` }).click();
    const detalhes = pagina.getByRole('dialog', { name: 'Detalhes da Despesa' });
    await detalhes.getByText('Rota Anápolis e Região Metropolitana').waitFor();
    await detalhes.getByText('Íris Albuquerque de Oliveira').waitFor();
    expect(pagina.url()).toContain('/despesas?despesa=');
    await capturar(pagina, 'auditoria-link-despesa-desktop');
    await detalhes.getByRole('button', { name: 'Fechar' }).last().click();
    await pagina.waitForURL((u) => u.pathname === '/despesas' && u.search === '');

    await pagina.goBack();
    await pagina.goto(`${servidor.url}/auditoria`);
    await principal.getByRole('link', { name: 'Rota Centro', exact: true }).click();
    const rota = pagina.getByRole('dialog', { name: 'Rota Centro' });
    await rota.getByText('Ana Souza').first().waitFor();
    expect(new URL(pagina.url()).search).toBe(`?rota=${rotaViva}`);
    await capturar(pagina, 'auditoria-link-rota-desktop');
    await pagina.context().close();
  });

  it('no celular: os cartões dizem sobre o quê, sem rolar de lado; o link do crédito abre as movimentações dela', async () => {
    const pagina = await abrirAuditoria(CELULAR);
    await pagina.getByRole('link', { name: `Despesa de Ana Souza · Alimentação · R$ 48,00 · ${ontem}` }).waitFor();
    expect(await rolaDeLado(pagina)).toBe(false);
    await capturar(pagina, 'auditoria-nomes-celular');
    await pagina.getByRole('link', { name: `Despesa de Íris Albuquerque de Oliveira · Lavagem do carro · R$ 35,50 · ${ontem}` }).scrollIntoViewIfNeeded();
    await capturar(pagina, 'auditoria-nomes-celular-despesas');
    await pagina.getByRole('link', { name: 'Crédito de R$ 250,00 para Ana Souza' }).click();
    await pagina.getByRole('status').getByText('Movimentações de Ana Souza.').waitFor();
    await pagina.getByText('Adiantamento').first().waitFor();
    expect(await rolaDeLado(pagina)).toBe(false);
    await capturar(pagina, 'auditoria-link-saldo-celular');

    await pagina.goto(`${servidor.url}/auditoria`);
    await pagina.getByRole('link', { name: 'Ana Souza · ana.souza@escola.com.br' }).click();
    await expect.poll(() => pagina.getByRole('searchbox').inputValue()).toBe('ana.souza@escola.com.br');
    await pagina.locator('main').getByText('Ana Souza', { exact: true }).first().waitFor();
    await capturar(pagina, 'auditoria-link-usuario-celular');
    await pagina.context().close();
  });
});
