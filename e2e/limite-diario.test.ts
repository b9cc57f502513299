/**
 * The daily meal limit in the browser: on a 390x844 phone the employee's meal above the route's limit
 * asks before saving (by how much), and R$ 1.000.000,00 asks again with the amount written out; the
 * admin sees 'Acima do limite diário (R$ 180,00)' on the table (1280x800), the cards (390x844) and the
 * details, and filters to them; the route form's rent takes '1.280,50'. Real built client + real
 * server on a temporary database.
 */
import type { Browser, Page } from 'playwright-core';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatarData, hoje } from '../shared/dates';
import { formulario } from '../server/test/despesas';
import { TelaDespesas } from './paginas/despesas';
import { TelaRotasAdmin } from './paginas/rotas';
import { descreverViolacoes, violacoesGraves } from './suporte/acessibilidade';
import { abrirAmbiente, fecharAmbiente } from './suporte/ambiente';
import { entrarComSinal } from './suporte/celular';
import { criarRotaEmCurso } from './suporte/dados';
import { capturar, CELULAR, DESKTOP, novaPagina, temChromium } from './suporte/navegador';
import { entrarComoAdmin } from './suporte/admin';
import type { ServidorDeTeste } from './suporte/servidor';

const GOIANIA = 5208707;
const ANAPOLIS = 5201108;

describe.skipIf(!temChromium)('limite diário de alimentação', () => {
  let servidor: ServidorDeTeste;
  let navegador: Browser;
  let ana: { id: number; email: string; senha: string; token: string };
  let rotaAna: number;
  const dia = hoje('America/Sao_Paulo');
  const diaMes = formatarData(dia).slice(0, 5);

  beforeAll(async () => {
    ({ servidor, navegador } = await abrirAmbiente({ navegador: true, env: { LOGIN_RATE_LIMIT: '1000' } }));
    ana = await servidor.criarFuncionario({ nome: 'Ana Estrada', email: 'ana.limite@escola.com.br' });
    const bruno = await servidor.criarFuncionario({ nome: 'Bruno Campo', email: 'bruno.limite@escola.com.br' });
    rotaAna = await criarRotaEmCurso(servidor, ana.id, { nome: 'Rota Centro', cidades: [GOIANIA], diasAntes: 3, diasDepois: 10 });
    const rotaBruno = await criarRotaEmCurso(servidor, bruno.id, { nome: 'Rota Anápolis', cidades: [ANAPOLIS], diasAntes: 3, diasDepois: 10 });
    const almoco = await formulario({ id: uuidv7(), rota_id: rotaAna, cidade_id: GOIANIA, data_despesa: dia, tipo: 'alimentacao', valor: '120,00', descricao: 'Almoço no centro' });
    expect((await servidor.chamar({ method: 'POST', url: '/api/despesas', token: ana.token, ...almoco })).statusCode).toBe(201);
    const lanche = await formulario({ id: uuidv7(), rota_id: rotaBruno, cidade_id: ANAPOLIS, data_despesa: dia, tipo: 'alimentacao', valor: '35,00', descricao: 'Lanche do Bruno' });
    expect((await servidor.chamar({ method: 'POST', url: '/api/despesas', token: bruno.token, ...lanche })).statusCode).toBe(201);
  });
  afterAll(() => fecharAmbiente({ servidor, navegador }));

  /** Whether anything inside `seletor` is wider than it (cut or scrolled sideways). */
  const transborda = (pagina: Page, seletor: string) => pagina.locator(seletor).first().evaluate((el) => el.scrollWidth > el.clientWidth + 1);

  const paginaDoAdmin = async (tela = DESKTOP): Promise<Page> => (await entrarComoAdmin(navegador, servidor.url, tela)).pagina;

  it('no celular: acima do limite pergunta com o excesso; R$ 1.000.000,00 pede o valor por extenso; voltar mantém o formulário', async () => {
    const { contexto, pagina } = await novaPagina(navegador, CELULAR);
    await entrarComSinal(pagina, servidor.url, ana.email, ana.senha);
    const tela = new TelaDespesas(pagina);
    await tela.abrir(servidor.url);
    await pagina.getByText('Almoço no centro').waitFor();

    let modal = await tela.abrirNova();
    await tela.preencher(modal, { tipo: 'Alimentação', valor: '110,00', descricao: 'Jantar' });
    await modal.getByRole('button', { name: 'Registrar' }).click();
    const acima = pagina.getByRole('dialog', { name: 'Acima do limite diário' });
    await acima.getByText(`Com esta despesa, a alimentação de ${diaMes} soma R$ 230,00: R$ 50,00 acima do limite diário de R$ 180,00.`, { exact: false }).waitFor();
    await capturar(pagina, 'limite-diario-celular-acima');
    const naPergunta = await violacoesGraves(pagina);
    expect(naPergunta, descreverViolacoes('pergunta do limite diário', naPergunta)).toEqual([]);
    await acima.getByRole('button', { name: 'Salvar mesmo assim' }).click();
    await modal.waitFor({ state: 'detached' });
    await pagina.getByText('Despesa registrada com sucesso!').waitFor();

    modal = await tela.abrirNova();
    await tela.preencher(modal, { tipo: 'Alimentação', valor: '1.000.000,00', descricao: 'Valor digitado errado' });
    await modal.getByRole('button', { name: 'Registrar' }).click();
    await pagina.getByRole('dialog', { name: 'Acima do limite diário' }).getByRole('button', { name: 'Salvar mesmo assim' }).click();
    const valor = pagina.getByRole('dialog', { name: 'Confirme o valor' });
    await valor.getByText('Confirme o valor: R$ 1.000.000,00 (um milhão de reais)', { exact: false }).waitFor();
    await capturar(pagina, 'limite-diario-celular-valor-por-extenso');
    const noValor = await violacoesGraves(pagina);
    expect(noValor, descreverViolacoes('confirmação do valor', noValor)).toEqual([]);
    await valor.getByRole('button', { name: 'Corrigir o valor' }).click();
    await valor.waitFor({ state: 'detached' });
    expect(await modal.getByLabel('Valor (R$)').inputValue()).toBe('1.000.000,00');
    await capturar(pagina, 'limite-diario-celular-formulario-mantido');
    // A filled form asks before it is discarded.
    await modal.getByRole('button', { name: 'Cancelar' }).click();
    await pagina.getByRole('dialog', { name: 'Fechar sem salvar?' }).getByRole('button', { name: 'Descartar' }).click();
    await modal.waitFor({ state: 'detached' });

    // Only the confirmed one reached the server: R$ 120,00 and R$ 110,00 on the day, both flagged.
    const r = await servidor.chamar({ method: 'GET', url: `/api/despesas?rota_id=${rotaAna}&acima_do_limite=true`, token: await servidor.tokenAdmin() });
    expect((r.json().despesas as { valor: number }[]).map((d) => d.valor).sort((a, b) => a - b)).toEqual([110, 120]);
    await contexto.close();
  }, 90_000);

  it('o admin vê o selo na tabela e nos detalhes, e filtra só as acima do limite (1280x800)', async () => {
    const pagina = await paginaDoAdmin();
    await pagina.goto(`${servidor.url}/despesas`);
    await pagina.getByText('Lanche do Bruno').first().waitFor();
    expect(await pagina.getByText('Acima do limite diário (R$ 180,00)').count()).toBe(2);
    expect(await pagina.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1)).toBe(false);
    // The badge takes two lines in the Status column: the table still fits beside the menu (no sideways scroll).
    expect(await transborda(pagina, '.tabela-rolagem')).toBe(false);
    await capturar(pagina, 'limite-diario-admin-tabela-1280');

    await pagina.getByRole('checkbox', { name: 'Só acima do limite diário' }).check();
    await pagina.getByRole('button', { name: 'Filtrar' }).click();
    await pagina.getByText('Lanche do Bruno').waitFor({ state: 'detached' });
    expect(await pagina.getByRole('button', { name: /^Ver detalhes:/ }).count()).toBe(2);
    await capturar(pagina, 'limite-diario-admin-filtro-1280');
    const naLista = await violacoesGraves(pagina);
    expect(naLista, descreverViolacoes('despesas do admin com o selo e o filtro', naLista)).toEqual([]);

    await pagina.getByRole('button', { name: /^Ver detalhes: Alimentação de R\$\s120,00/ }).click();
    const detalhes = pagina.getByRole('dialog', { name: 'Detalhes da Despesa' });
    await detalhes.getByText('Acima do limite diário (R$ 180,00)').waitFor();
    await capturar(pagina, 'limite-diario-admin-detalhes-1280');

    // The route card's 'Ver despesas' table flags them too.
    const rotas = new TelaRotasAdmin(pagina);
    await rotas.abrir(servidor.url);
    await rotas.cartao('Rota Centro').getByRole('button', { name: 'Ver despesas de Rota Centro' }).click();
    const daRota = rotas.modal('Despesas da Rota');
    await daRota.getByText('Jantar').waitFor();
    expect(await daRota.getByText('Acima do limite diário (R$ 180,00)').count()).toBe(2);
    expect(await transborda(pagina, '.modal .tabela-rolagem')).toBe(false);
    await capturar(pagina, 'limite-diario-admin-despesas-da-rota-1280');
  }, 60_000);

  it('o admin no celular (390x844): o cartão e os detalhes levam o selo', async () => {
    const pagina = await paginaDoAdmin(CELULAR);
    await pagina.goto(`${servidor.url}/despesas`);
    await pagina.getByText('Lanche do Bruno').first().waitFor();
    const cartao = pagina.locator('.cartao-despesa', { hasText: 'Jantar' });
    await cartao.getByText('Acima do limite diário (R$ 180,00)').waitFor();
    await cartao.scrollIntoViewIfNeeded();
    expect(await pagina.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1)).toBe(false);
    await capturar(pagina, 'limite-diario-admin-cartoes-390');
    await cartao.getByRole('button', { name: /^Ações:/ }).click();
    await pagina.getByRole('menuitem', { name: 'Ver Detalhes' }).click();
    await pagina.getByRole('dialog', { name: 'Detalhes da Despesa' }).getByText('Acima do limite diário (R$ 180,00)').waitFor();
    expect(await transborda(pagina, '.modal__corpo')).toBe(false);
    await capturar(pagina, 'limite-diario-admin-detalhes-390');
  }, 60_000);

  it("o formulário da rota lê o aluguel em pt-BR: '1.280,50' é salvo como R$ 1.280,50", async () => {
    for (const [tela, nome] of [
      [DESKTOP, '1280'],
      [CELULAR, '390'],
    ] as const) {
      const pagina = await paginaDoAdmin(tela);
      const rotas = new TelaRotasAdmin(pagina);
      await rotas.abrir(servidor.url);
      const modal = await rotas.abrirEdicao('Rota Centro');
      await rotas.preencher(modal, { aluguel: nome === '1280' ? '1280,5' : '350,50' });
      await modal.getByLabel('Nome da rota').click(); // leaves the rent field: written back as pt-BR
      const esperado = nome === '1280' ? '1.280,50' : '350,50';
      expect(await modal.getByLabel('Valor do aluguel (R$)').inputValue()).toBe(esperado);
      await modal.getByLabel('Valor do aluguel (R$)').scrollIntoViewIfNeeded();
      await capturar(pagina, `limite-diario-rota-aluguel-${nome}`);
      await rotas.salvar(modal);
      await modal.waitFor({ state: 'detached' });
      const r = await servidor.chamar({ method: 'GET', url: '/api/rotas', token: await servidor.tokenAdmin() });
      const rota = (r.json().rotas as { id: number; valor_aluguel: number }[]).find((x) => x.id === rotaAna)!;
      expect(rota.valor_aluguel).toBe(nome === '1280' ? 1280.5 : 350.5);
      await rotas.cartao('Rota Centro').getByText(new RegExp(`^R\\$\\s${esperado.replace('.', '\\.')}$`)).first().waitFor();
    }
  }, 90_000);
});
