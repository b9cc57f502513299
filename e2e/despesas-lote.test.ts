/**
 * Bulk approval and rejection of expenses in the browser: the admin, at 1280x800, ticks two pending
 * expenses of two employees and approves them in one action; then ticks the whole page and rejects the
 * rest with one reason; the employee's phone shows the rejection with that reason. At 390x844 the cards
 * carry the boxes and the bar 'Selecionar todas da página'. Real built client + real server on a
 * temporary database.
 */
import type { Browser, Page } from 'playwright-core';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoje, somarDias } from '../shared/dates';
import { formulario } from '../server/test/despesas';
import { abrirAmbiente, fecharAmbiente } from './suporte/ambiente';
import { entrarComSinal } from './suporte/celular';
import { criarRotaEmCurso } from './suporte/dados';
import { capturar, CELULAR, DESKTOP, novaPagina, temChromium } from './suporte/navegador';
import { entrarComoAdmin } from './suporte/admin';
import type { ServidorDeTeste } from './suporte/servidor';

const GOIANIA = 5208707;
const ANAPOLIS = 5201108;
const MOTIVO = 'Sem nota fiscal: reenvie com o comprovante';

describe.skipIf(!temChromium)('aprovação de despesas em lote', () => {
  let servidor: ServidorDeTeste;
  let navegador: Browser;
  let ana: { id: number; email: string; senha: string; token: string };
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    ({ servidor, navegador } = await abrirAmbiente({ navegador: true, env: { LOGIN_RATE_LIMIT: '1000' } }));
    ana = await servidor.criarFuncionario({ nome: 'Ana Estrada', email: 'ana.lote@escola.com.br' });
    const bruno = await servidor.criarFuncionario({ nome: 'Bruno Campo', email: 'bruno.lote@escola.com.br' });
    const rotaAna = await criarRotaEmCurso(servidor, ana.id, { nome: 'Rota Centro', cidades: [GOIANIA], diasAntes: 3, diasDepois: 10 });
    const rotaBruno = await criarRotaEmCurso(servidor, bruno.id, { nome: 'Rota Anápolis', cidades: [ANAPOLIS], diasAntes: 3, diasDepois: 10 });
    const ontem = somarDias(hoje('America/Sao_Paulo'), -1);
    const criar = async (nome: string, quem: { token: string }, rota: number, cidade: number, tipo: string, valor: string) => {
      const corpo = await formulario({ id: uuidv7(), rota_id: rota, cidade_id: cidade, data_despesa: ontem, tipo, valor, descricao: nome });
      const r = await servidor.chamar({ method: 'POST', url: '/api/despesas', token: quem.token, ...corpo });
      expect(r.statusCode, r.body).toBe(201);
      ids[nome] = r.json().despesa.id;
    };
    await criar('Almoço da Ana', ana, rotaAna, GOIANIA, 'alimentacao', '32,50');
    await criar('Hotel do Bruno', bruno, rotaBruno, ANAPOLIS, 'hospedagem', '180,00');
    await criar('Pedágio da Ana', ana, rotaAna, GOIANIA, 'pedagio', '12,40');
  });
  afterAll(() => fecharAmbiente({ servidor, navegador }));

  async function abrirDespesasComoAdmin(tela = DESKTOP): Promise<Page> {
    const { pagina } = await entrarComoAdmin(navegador, servidor.url, tela);
    await pagina.goto(`${servidor.url}/despesas`);
    await pagina.getByText('Hotel do Bruno').first().waitFor();
    return pagina;
  }

  async function statusNoServidor(nome: string): Promise<{ status_aprovacao: string; motivo_rejeicao: string | null }> {
    const r = await servidor.chamar({ method: 'GET', url: '/api/despesas?limit=100', token: await servidor.tokenAdmin() });
    return (r.json().despesas as { id: string; status_aprovacao: string; motivo_rejeicao: string | null }[]).find((d) => d.id === ids[nome])!;
  }

  it('no computador: aprova duas de funcionários diferentes, depois rejeita a página inteira com um motivo', async () => {
    const pagina = await abrirDespesasComoAdmin();
    await pagina.getByRole('checkbox', { name: /^Selecionar: Alimentação/ }).check();
    await pagina.getByRole('checkbox', { name: /^Selecionar: Hospedagem/ }).check();
    const barra = pagina.getByRole('region', { name: 'Ações em lote' });
    await barra.getByText('2 despesas selecionadas · R$ 212,50').waitFor();
    await capturar(pagina, 'despesas-lote-desktop-selecao');
    // Nothing may be cut or pushed past the window by the new column (every admin table fits whole at 1280 px).
    expect(await pagina.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1)).toBe(false);

    await barra.getByRole('button', { name: 'Aprovar selecionadas' }).click();
    await pagina.getByText('2 despesas aprovadas.').waitFor();
    await barra.waitFor({ state: 'detached' });
    expect((await statusNoServidor('Almoço da Ana')).status_aprovacao).toBe('aprovada');
    expect((await statusNoServidor('Hotel do Bruno')).status_aprovacao).toBe('aprovada');
    expect((await statusNoServidor('Pedágio da Ana')).status_aprovacao).toBe('pendente');

    await pagina.getByRole('checkbox', { name: 'Selecionar todas da página' }).check();
    await pagina.getByRole('button', { name: 'Rejeitar selecionadas' }).click();
    const modal = pagina.getByRole('dialog', { name: 'Rejeitar 3 despesas' });
    await modal.getByLabel(/Motivo da rejeição/).fill(MOTIVO);
    await capturar(pagina, 'despesas-lote-desktop-rejeitar');
    await modal.getByRole('button', { name: 'Rejeitar' }).click();
    await pagina.getByText('3 despesas rejeitadas.').waitFor();
    for (const nome of Object.keys(ids)) expect(await statusNoServidor(nome)).toEqual(expect.objectContaining({ status_aprovacao: 'rejeitada', motivo_rejeicao: MOTIVO }));

    // The audit trail has one row per expense of each bulk action, with what changed.
    await pagina.getByRole('complementary', { name: 'Menu principal' }).getByRole('link', { name: 'Auditoria' }).click();
    await pagina.getByLabel('Ação', { exact: true }).selectOption({ label: 'Despesa rejeitada' });
    await pagina.getByRole('button', { name: 'Filtrar' }).click();
    await pagina.getByText('3 registros').waitFor();
    // Two were approved before the rejection, one was still pending.
    expect(await pagina.locator('main table').getByText('Aprovação: Aprovada → Rejeitada').count()).toBe(2);
    expect(await pagina.locator('main table').getByText('Aprovação: Pendente → Rejeitada').count()).toBe(1);
    await capturar(pagina, 'auditoria-desktop');
    await pagina.context().close();
  });

  it('no celular do admin, os cartões têm caixas; o celular da funcionária mostra a rejeição com o motivo', async () => {
    const pagina = await abrirDespesasComoAdmin(CELULAR);
    const barra = pagina.getByRole('region', { name: 'Ações em lote' });
    await barra.getByLabel('Selecionar todas da página').check();
    await barra.getByText('3 despesas selecionadas · R$ 224,90').waitFor();
    await capturar(pagina, 'despesas-lote-celular-selecao');
    expect(await pagina.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1)).toBe(false);
    await pagina.goto(`${servidor.url}/auditoria`);
    await pagina.getByText('Aprovação: Pendente → Rejeitada').first().waitFor();
    await capturar(pagina, 'auditoria-celular');
    expect(await pagina.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1)).toBe(false);
    await pagina.context().close();

    const { pagina: celular } = await novaPagina(navegador, CELULAR);
    await entrarComSinal(celular, servidor.url, ana.email, ana.senha);
    await celular.goto(`${servidor.url}/despesas`);
    await celular.getByText(`Motivo: ${MOTIVO}`).first().waitFor();
    expect(await celular.getByText(`Motivo: ${MOTIVO}`).count()).toBe(2);
    await celular.context().close();
  });
});
