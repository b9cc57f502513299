/**
 * Browser tests of the field-sales screen's fixes, on the real built client and
 * server: 'Marcar como visitada' straight from a city's card, what a save says with no signal, the
 * 'Sem conexão…' line leaving once the signal is back and the queue sent, 'Descartar' really
 * discarding, and toasts that never cover the header's menu button and sync indicator.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoje } from '../shared/dates';
import { TelaVendasFuncionario } from './paginas/vendas';
import { abrirAmbiente, fecharAmbiente } from './suporte/ambiente';
import { entrarComSinal } from './suporte/celular';
import { criarRotaEmCurso } from './suporte/dados';
import { capturar, CELULAR, DESKTOP, novaPagina, temChromium } from './suporte/navegador';
import type { ServidorDeTeste } from './suporte/servidor';

const GOIANIA = 5208707;
const ANAPOLIS = 5201108;
const CALDAS = 5204508;
const PIRENOPOLIS = 5217302;
const HOJE = hoje('America/Sao_Paulo');

const GUARDADO = 'Fechamento guardado neste aparelho; será enviado quando houver sinal.';

/** The header's menu button (phone) and sync indicator: what a toast must never cover. */
const controlesDoCabecalho = (pagina: Page) => ({
  cabecalho: pagina.locator('header.cabecalho'),
  menu: pagina.getByRole('button', { name: 'Abrir menu' }),
  sincronizacao: pagina.locator('.indicador-sync'),
});

async function caixa(l: Locator) {
  const c = await l.boundingBox();
  if (!c) throw new Error('elemento sem caixa (não está visível)');
  return c;
}

function sobrepoe(a: { x: number; y: number; width: number; height: number }, b: { x: number; y: number; width: number; height: number }): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** The toast with this text is on screen and covers none of the header (so neither its menu nor its sync control). */
async function avisoNaoCobreOCabecalho(pagina: Page, texto: string | RegExp, { celular }: { celular: boolean }) {
  const aviso = pagina.locator('.Toastify__toast').filter({ hasText: texto });
  await aviso.waitFor();
  const c = controlesDoCabecalho(pagina);
  const doAviso = await caixa(aviso);
  const cabecalho = await caixa(c.cabecalho);
  expect(sobrepoe(doAviso, await caixa(c.sincronizacao)), 'o aviso cobre o indicador de sincronização').toBe(false);
  if (celular) expect(sobrepoe(doAviso, await caixa(c.menu)), 'o aviso cobre o botão do menu').toBe(false);
  expect(doAviso.y, 'o aviso começa abaixo do cabeçalho').toBeGreaterThanOrEqual(cabecalho.y + cabecalho.height);
  // And the header's controls still take a tap while the toast shows.
  const alvo = celular ? c.menu : c.sincronizacao;
  const centro = await caixa(alvo);
  const noPonto = await pagina.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest('button')?.getAttribute('aria-label') ?? null, { x: centro.x + centro.width / 2, y: centro.y + centro.height / 2 });
  expect(noPonto).toBe(await alvo.getAttribute('aria-label'));
}

describe.skipIf(!temChromium)('vendas no campo', () => {
  let servidor: ServidorDeTeste;
  let navegador: Browser;
  let tokenAdmin: string;

  beforeAll(async () => {
    ({ servidor, navegador } = await abrirAmbiente({ navegador: true }));
    tokenAdmin = await servidor.tokenAdmin();
  });
  afterAll(() => fecharAmbiente({ servidor, navegador }));

  async function doDia(rotaId: number) {
    const r = await servidor.chamar({ method: 'GET', url: `/api/vendas/fechamento-diario?rota_id=${rotaId}&data=${HOJE}`, token: tokenAdmin });
    const status = await servidor.chamar({ method: 'GET', url: `/api/rotas/${rotaId}/cidades-status?data=${HOJE}`, token: tokenAdmin });
    const vendas = r.json().vendas as { cidade_id: number; valor_dinheiro: number }[];
    const visitadas = (status.json().cidades as { cidade_id: number; visitada: boolean }[]).filter((c) => c.visitada).map((c) => c.cidade_id);
    return { vendas, visitadas: visitadas.sort() };
  }

  it('no celular: visita direta, salvar sem sinal, o aviso "Sem conexão…" some depois do envio, Descartar descarta, e os avisos não cobrem o cabeçalho', async () => {
    const lia = await servidor.criarFuncionario({ nome: 'Lia Andrade', email: 'lia@escola.com.br' });
    const rotaId = await criarRotaEmCurso(servidor, lia.id, { nome: 'Rota Goiás Campo', cidades: [GOIANIA, ANAPOLIS, CALDAS, PIRENOPOLIS], diasAntes: 5, diasDepois: 20 });

    const { contexto, pagina } = await novaPagina(navegador, CELULAR);
    await pagina.emulateMedia({ reducedMotion: 'reduce' });
    await entrarComSinal(pagina, servidor.url, lia.email, lia.senha);
    const tela = new TelaVendasFuncionario(pagina);
    await tela.abrir(servidor.url);
    await tela.aba(/^Em aberto \(4\)$/).waitFor();

    // The visit without sale is one tap on the open city's card, no form. Whatever makes the header
    // taller (the indicator breaks into two or three lines as its text changes: '1 aguardando envio'), the
    // toast starts below it: here the indicator is made taller on purpose, so the check does not depend on
    // which text the indicator shows at that moment.
    const maisAlto = await pagina.addStyleTag({ content: '.indicador-sync { min-height: 5rem; }' });
    await tela.cartao('Pirenópolis').getByRole('button', { name: 'Marcar como visitada: Pirenópolis' }).click();
    await avisoNaoCobreOCabecalho(pagina, 'Visita registrada: Pirenópolis ficou como visitada (sem venda).', { celular: true });
    await maisAlto.evaluate((estilo) => (estilo as HTMLElement).remove());
    await tela.aba(/^Fechadas \(1\)$/).waitFor();
    await capturar(pagina, 'celular-vendas-campo-visita-aviso');
    await tela.irParaAba(/^Fechadas \(1\)$/);
    await tela.cartao('Pirenópolis').getByText('Visitada (sem venda)').waitFor();
    await tela.cartao('Pirenópolis').getByText(/Recebido pelo servidor às \d\d:\d\d/).waitFor({ timeout: 15_000 });
    expect(await doDia(rotaId)).toEqual({ vendas: [], visitadas: [PIRENOPOLIS] });
    await tela.fecharAvisos();
    await capturar(pagina, 'celular-vendas-campo-visita-recebida');

    // Reopened with signal, the visit still says when the server got it.
    await pagina.reload();
    await tela.irParaAba(/^Fechadas \(1\)$/);
    await tela.cartao('Pirenópolis').getByText(/Recebido pelo servidor às \d\d:\d\d/).waitFor();

    // No signal: the screen opens from the phone's copy and a save says it was kept here.
    await contexto.setOffline(true);
    await pagina.reload();
    await tela.aba(/^Em aberto \(3\)$/).waitFor();
    const semConexao = pagina.getByText(/Sem conexão: dados guardados neste aparelho em/);
    await semConexao.waitFor();
    await tela.irParaAba(/^Em aberto \(3\)$/);
    await tela.editar('Goiânia', { Dinheiro: '80' });
    await tela.formulario('Goiânia').getByRole('button', { name: 'Salvar' }).click();
    await avisoNaoCobreOCabecalho(pagina, GUARDADO, { celular: true });
    expect(await pagina.locator('.Toastify').getByText('Fechamento realizado com sucesso!').count()).toBe(0);
    await capturar(pagina, 'celular-vendas-campo-guardado-sem-sinal');
    await tela.fecharAvisos();

    // 'Descartar' when leaving with an edit open really discards it.
    await tela.editar('Anápolis', { Dinheiro: '12' });
    await pagina.getByRole('button', { name: 'Abrir menu' }).click();
    await pagina.getByRole('link', { name: 'Dashboard' }).click();
    await pagina.getByRole('dialog', { name: 'Fechamento em edição' }).getByRole('button', { name: 'Descartar' }).click();
    await pagina.waitForURL('**/dashboard');
    await pagina.getByRole('button', { name: 'Abrir menu' }).click();
    await pagina.getByRole('link', { name: 'Vendas' }).click();
    await tela.cartao('Anápolis').getByRole('button', { name: 'Editar Anápolis' }).waitFor();
    expect(await tela.formulario('Anápolis').count()).toBe(0);
    await tela.cartao('Anápolis').getByRole('button', { name: 'Editar Anápolis' }).click();
    expect(await tela.formulario('Anápolis').getByLabel('Dinheiro', { exact: true }).inputValue()).toBe('');
    await tela.cartao('Anápolis').getByRole('button', { name: 'Cancelar Anápolis' }).click();

    // The signal is back, the queue goes, and the screen no longer says it has no connection.
    await semConexao.waitFor();
    await contexto.setOffline(false);
    await tela.irParaAba(/^Fechadas \(2\)$/);
    await tela.cartao('Goiânia').getByText(/Recebido pelo servidor às \d\d:\d\d/).waitFor({ timeout: 30_000 });
    await semConexao.waitFor({ state: 'detached', timeout: 15_000 });
    await pagina.getByRole('button', { name: /^Sincronizado/ }).waitFor({ timeout: 15_000 });
    expect((await doDia(rotaId)).vendas.map((v) => [v.cidade_id, v.valor_dinheiro])).toEqual([[GOIANIA, 80]]);
    await capturar(pagina, 'celular-vendas-campo-depois-do-sinal');
    await contexto.close();
  });

  it('no computador: o botão de visita no cartão e o aviso abaixo do cabeçalho, sem cobrir a sincronização', async () => {
    const rui = await servidor.criarFuncionario({ nome: 'Rui Prado', email: 'rui@escola.com.br' });
    await criarRotaEmCurso(servidor, rui.id, { nome: 'Rota Goiás Mesa', cidades: [GOIANIA, ANAPOLIS, CALDAS], diasAntes: 5, diasDepois: 20 });
    const { contexto, pagina } = await novaPagina(navegador, DESKTOP);
    await pagina.emulateMedia({ reducedMotion: 'reduce' });
    await entrarComSinal(pagina, servidor.url, rui.email, rui.senha);
    const tela = new TelaVendasFuncionario(pagina);
    await tela.abrir(servidor.url);
    await tela.aba(/^Em aberto \(3\)$/).waitFor();
    await tela.cartao('Caldas Novas').getByRole('button', { name: 'Marcar como visitada: Caldas Novas' }).waitFor();
    await capturar(pagina, 'desktop-vendas-campo-em-aberto');
    await tela.cartao('Caldas Novas').getByRole('button', { name: 'Marcar como visitada: Caldas Novas' }).click();
    await avisoNaoCobreOCabecalho(pagina, 'Visita registrada: Caldas Novas ficou como visitada (sem venda).', { celular: false });
    await tela.aba(/^Fechadas \(1\)$/).waitFor();
    await capturar(pagina, 'desktop-vendas-campo-visita-aviso');
    await contexto.close();
  });

  it('no celular: a lista de cidades abre sem a biblioteca de validação, e o formulário valida mesmo sem sinal', async () => {
    // The schemas (zod) are ~90 KB of code to run on a phone 4x slower: the list does not wait for
    // them; opening a card for editing loads them (formulario.ts, carregarLeitorDoFormulario).
    const ivo = await servidor.criarFuncionario({ nome: 'Ivo Leve', email: 'ivo@escola.com.br' });
    await criarRotaEmCurso(servidor, ivo.id, { nome: 'Rota Leve', cidades: [GOIANIA, ANAPOLIS], diasAntes: 2, diasDepois: 10 });
    const { contexto, pagina } = await novaPagina(navegador, CELULAR);
    await entrarComSinal(pagina, servidor.url, ivo.email, ivo.senha);
    await pagina.waitForFunction(() => navigator.serviceWorker.controller !== null);
    const comValidacao: string[] = [];
    const lidos: Promise<void>[] = [];
    pagina.on('response', (r) => {
      const url = new URL(r.url());
      if (!url.pathname.startsWith('/assets/') || !url.pathname.endsWith('.js')) return;
      lidos.push(r.text().then((js) => {
        if (js.includes('ZodError')) comValidacao.push(url.pathname);
      }, () => undefined));
    });
    await contexto.setOffline(true);
    const tela = new TelaVendasFuncionario(pagina);
    await tela.abrir(servidor.url);
    await tela.aba(/^Em aberto \(2\)$/).waitFor();
    await tela.cartao('Goiânia').waitFor();
    await Promise.all(lidos);
    expect(comValidacao, 'a lista carregou a biblioteca de validação').toEqual([]);

    await tela.editar('Goiânia', { Dinheiro: '-5', Pix: 'abc' });
    await tela.formulario('Goiânia').getByRole('button', { name: 'Salvar' }).click();
    await tela.formulario('Goiânia').getByText('Dinheiro não pode ser negativo.').waitFor();
    await tela.formulario('Goiânia').getByText('Pix deve ser um número.').waitFor();
    await expect.poll(() => comValidacao.length).toBe(1);
    await tela.formulario('Goiânia').getByLabel('Dinheiro', { exact: true }).fill('45,50');
    await tela.formulario('Goiânia').getByLabel('Pix', { exact: true }).fill('');
    await tela.salvar('Goiânia');
    await pagina.getByText(GUARDADO).waitFor();
    await tela.aba(/^Fechadas \(1\)$/).waitFor();
    await contexto.close();
  });
});
