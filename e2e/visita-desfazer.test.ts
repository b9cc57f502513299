/**
 * 'Marcar como visitada' on the phone (390x844), on the real built client and server: a second tap
 * at the same spot never marks another city (the marked card stays in place with its badge, so the
 * next card's button does not slide under the finger), and the toast's 'Desfazer' takes the visit
 * back: from the server when it had it already, from the queue when it had not left the phone.
 */
import type { Browser, Page } from 'playwright-core';
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

/** What this phone's IndexedDB still has to send. */
const naFila = (pagina: Page) =>
  pagina.evaluate(
    () =>
      new Promise<string[]>((resolver, rejeitar) => {
        const pedido = indexedDB.open('sistema-de-gestao');
        pedido.onerror = () => rejeitar(pedido.error);
        pedido.onsuccess = () => {
          const banco = pedido.result;
          const leitura = banco.transaction('outbox').objectStore('outbox').getAll();
          leitura.onsuccess = () => {
            resolver((leitura.result as { tipo: string }[]).map((i) => i.tipo));
            banco.close();
          };
          leitura.onerror = () => rejeitar(leitura.error);
        };
      }),
  );

describe.skipIf(!temChromium)('marcar como visitada: toque duplo e desfazer', () => {
  let servidor: ServidorDeTeste;
  let navegador: Browser;
  let tokenAdmin: string;

  beforeAll(async () => {
    ({ servidor, navegador } = await abrirAmbiente({ navegador: true }));
    tokenAdmin = await servidor.tokenAdmin();
  });
  afterAll(() => fecharAmbiente({ servidor, navegador }));

  async function visitadas(rotaId: number): Promise<number[]> {
    const status = await servidor.chamar({ method: 'GET', url: `/api/rotas/${rotaId}/cidades-status?data=${HOJE}`, token: tokenAdmin });
    return (status.json().cidades as { cidade_id: number; visitada: boolean }[])
      .filter((c) => c.visitada)
      .map((c) => c.cidade_id)
      .sort();
  }

  it('no celular: dois toques no mesmo ponto marcam uma cidade só; "Desfazer" tira a visita do servidor e, sem sinal, da fila', async () => {
    const eva = await servidor.criarFuncionario({ nome: 'Eva Toque', email: 'eva@escola.com.br' });
    const rotaId = await criarRotaEmCurso(servidor, eva.id, { nome: 'Rota Toque Duplo', cidades: [GOIANIA, ANAPOLIS, CALDAS, PIRENOPOLIS], diasAntes: 5, diasDepois: 20 });
    const { contexto, pagina } = await novaPagina(navegador, CELULAR);
    await pagina.emulateMedia({ reducedMotion: 'reduce' });
    await entrarComSinal(pagina, servidor.url, eva.email, eva.senha);
    const tela = new TelaVendasFuncionario(pagina);
    await tela.abrir(servidor.url);
    await tela.aba(/^Em aberto \(4\)$/).waitFor();

    // The button says the action; the badge's words are for the marked card.
    const botao = tela.cartao('Anápolis').getByRole('button', { name: 'Marcar como visitada: Anápolis' });
    await botao.scrollIntoViewIfNeeded();
    expect((await botao.textContent())?.trim()).toBe('Marcar como visitada');
    const caixa = (await botao.boundingBox())!;
    const x = caixa.x + caixa.width / 2;
    const y = caixa.y + caixa.height / 2;

    // First tap; once the card shows what it did, the second tap of the gesture lands on the same spot.
    await pagina.mouse.click(x, y);
    await tela.aba(/^Fechadas \(1\)$/).waitFor();
    await tela.cartao('Anápolis').getByText('Visitada (sem venda)').waitFor();
    const noPonto = await pagina.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest('li')?.getAttribute('aria-label') ?? null, { x, y });
    expect(noPonto, 'o cartão marcado ficou no lugar').toBe('Anápolis (GO)');
    await pagina.mouse.click(x, y);
    // And a real double click at that spot changes nothing either.
    await pagina.mouse.dblclick(x, y);
    await pagina.getByRole('button', { name: /^Sincronizado/ }).waitFor({ timeout: 30_000 });
    expect(await visitadas(rotaId)).toEqual([ANAPOLIS]);
    expect(await tela.aba(/^Fechadas \(1\)$/).count()).toBe(1);
    await tela.cartao('Caldas Novas').getByRole('button', { name: 'Marcar como visitada: Caldas Novas' }).waitFor();
    const aviso = pagina.locator('.Toastify__toast').filter({ hasText: 'Visita registrada: Anápolis ficou como visitada (sem venda).' });
    await aviso.getByRole('button', { name: 'Desfazer' }).waitFor();
    await capturar(pagina, 'celular-visita-marcada-no-lugar');

    // 'Desfazer' after the server got it: the removal goes through the queue, the city is open again.
    await aviso.getByRole('button', { name: 'Desfazer' }).click();
    await pagina.locator('.Toastify__toast').filter({ hasText: 'Visita desfeita: Anápolis voltou a ficar em aberto.' }).waitFor();
    await tela.cartao('Anápolis').getByRole('button', { name: 'Marcar como visitada: Anápolis' }).waitFor();
    await tela.aba(/^Fechadas \(0\)$/).waitFor();
    await expect.poll(() => visitadas(rotaId), { timeout: 30_000 }).toEqual([]);
    await expect.poll(() => naFila(pagina), { timeout: 30_000 }).toEqual([]);
    await capturar(pagina, 'celular-visita-desfeita');
    await tela.fecharAvisos();

    // No signal: the visit waits on the phone, and 'Desfazer' just takes it out of the queue.
    await contexto.setOffline(true);
    await tela.cartao('Caldas Novas').getByRole('button', { name: 'Marcar como visitada: Caldas Novas' }).click();
    const guardada = pagina.locator('.Toastify__toast').filter({ hasText: 'Visita guardada neste aparelho; será enviada quando houver sinal.' });
    await guardada.getByRole('button', { name: 'Desfazer' }).waitFor();
    await expect.poll(() => naFila(pagina)).toEqual(['visita.registrar']);
    await capturar(pagina, 'celular-visita-guardada-desfazer');
    await guardada.getByRole('button', { name: 'Desfazer' }).click();
    await expect.poll(() => naFila(pagina)).toEqual([]);
    await tela.cartao('Caldas Novas').getByRole('button', { name: 'Marcar como visitada: Caldas Novas' }).waitFor();
    await contexto.setOffline(false);
    await pagina.getByRole('button', { name: /^Sincronizado/ }).waitFor({ timeout: 30_000 });
    expect(await visitadas(rotaId)).toEqual([]);

    // The same screen at 1280x800.
    await pagina.setViewportSize(DESKTOP);
    await tela.cartao('Pirenópolis').getByRole('button', { name: 'Marcar como visitada: Pirenópolis' }).click();
    await pagina.locator('.Toastify__toast').filter({ hasText: 'Visita registrada: Pirenópolis' }).getByRole('button', { name: 'Desfazer' }).waitFor();
    await tela.cartao('Pirenópolis').getByText('Visitada (sem venda)').waitFor();
    await capturar(pagina, 'computador-visita-marcada-no-lugar');
    await contexto.close();
  });
});
