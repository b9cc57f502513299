/**
 * Nothing saved leaves the phone without the server's acceptance or the person's confirmed discard
 * (docs/decisions/sincronizacao.md, 'Nada sai do aparelho sem o servidor aceitar ou a pessoa descartar'), in Chromium
 * at 390x844 against the real server: an expense whose receipt the server refuses, 'Editar' from
 * the sync panel, 'Atualizar' refused again, 'Cancelar'. The expense and its file are still in
 * IndexedDB, listed under 'Precisam de atenção' with the server's message, and the server has
 * nothing; then the bad file is removed, a good one attached, and the expense arrives once.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TelaDespesas } from './paginas/despesas';
import { TelaLogin } from './paginas/login';
import { abrirAmbiente, fecharAmbiente } from './suporte/ambiente';
import { estragarNoCaminho, jpegPequeno, pdfPequeno } from './suporte/arquivos';
import { creditarSaldo, criarRotaEmCurso } from './suporte/dados';
import { capturar, CELULAR, DESKTOP, novaPagina, temChromium } from './suporte/navegador';
import type { ServidorDeTeste } from './suporte/servidor';

const CIDADES = [5208707, 5201108]; // Goiânia, Anápolis
const MENSAGEM_DO_SERVIDOR = 'Tipo de arquivo não aceito. Envie imagem (JPG, PNG, WEBP, HEIC), PDF, DOC ou DOCX.';
const PASTA_TELAS = process.env.E2E_PASTA_TELAS;

interface FilaNoAparelho {
  itens: { id: string; tipo: string; estado: string; erro: string | null; arquivos: string[]; dados: { valor: number; descricao: string } }[];
  arquivos: { id: string; nome: string; tamanho: number }[];
}

/** The outbox and its files as IndexedDB holds them (read with the browser's own API, not the app's). */
const filaNoAparelho = (pagina: Page): Promise<FilaNoAparelho> =>
  pagina.evaluate(
    () =>
      new Promise<FilaNoAparelho>((ok, falha) => {
        const pedido = indexedDB.open('sistema-de-gestao');
        pedido.onerror = () => falha(pedido.error);
        pedido.onsuccess = () => {
          const db = pedido.result;
          const tx = db.transaction(['outbox', 'arquivos'], 'readonly');
          const itens = tx.objectStore('outbox').getAll();
          const arquivos = tx.objectStore('arquivos').getAll();
          tx.oncomplete = () => {
            db.close();
            ok({
              itens: itens.result as FilaNoAparelho['itens'],
              arquivos: (arquivos.result as { id: string; nome: string; tamanho: number }[]).map(({ id, nome, tamanho }) => ({ id, nome, tamanho })),
            });
          };
        };
      }),
  );

const indicador = (pagina: Page) => pagina.locator('.indicador-sync');

/** 'Cancelar' on the form; if the form asks before dropping what was typed, the answer is to drop the typing (never the queued expense). */
async function cancelar(pagina: Page, modal: Locator) {
  await modal.getByRole('button', { name: 'Cancelar' }).click();
  const pergunta = pagina.getByRole('dialog').filter({ hasNotText: 'Cupom/Comprovante' }).filter({ has: pagina.getByRole('button', { name: /Descartar|Sair sem salvar|Sim/ }) });
  if (await pergunta.isVisible()) await pergunta.getByRole('button', { name: /Descartar|Sair sem salvar|Sim/ }).first().click();
  await modal.waitFor({ state: 'detached' });
}

/** Both sizes: the phone's, and the computer's. */
async function telas(pagina: Page, nome: string) {
  await capturar(pagina, `celular-${nome}`);
  if (!PASTA_TELAS) return;
  fs.mkdirSync(PASTA_TELAS, { recursive: true });
  await pagina.screenshot({ path: path.join(PASTA_TELAS, `${nome}-390.png`) });
  await pagina.setViewportSize(DESKTOP);
  await pagina.screenshot({ path: path.join(PASTA_TELAS, `${nome}-1280.png`) });
  await pagina.setViewportSize(CELULAR);
}

describe.skipIf(!temChromium)('uma despesa recusada nunca sai do aparelho sem decisão', () => {
  let servidor: ServidorDeTeste;
  let navegador: Browser;

  beforeAll(async () => {
    ({ servidor, navegador } = await abrirAmbiente({ navegador: true }));
  });
  afterAll(() => fecharAmbiente({ servidor, navegador }));

  it('comprovante recusado → Editar → Atualizar recusado → Cancelar: continua na fila com o arquivo; trocado o arquivo, chega ao servidor uma vez', async () => {
    const f = await servidor.criarFuncionario({ nome: 'Rui Estrada', email: 'rui@escola.com.br' });
    const rotaId = await criarRotaEmCurso(servidor, f.id, { nome: 'Rota do Rui', cidades: CIDADES, diasAntes: 5, diasDepois: 5 });
    await creditarSaldo(servidor, f.id, 500, { rotaId });
    const despesasNoServidor = () => servidor.db.$client.prepare('select id, valor_centavos from despesas where funcionario_id = ?').all(f.id) as { id: string; valor_centavos: number }[];

    const { contexto, pagina } = await novaPagina(navegador, CELULAR);
    const recibo = await estragarNoCaminho(pagina, 'recibo.jpg');
    const login = new TelaLogin(pagina);
    await login.abrir(servidor.url);
    await login.entrar(f.email, f.senha);
    await pagina.waitForURL('**/dashboard');
    const tela = new TelaDespesas(pagina);
    await tela.abrir(servidor.url);
    const foto = await jpegPequeno(pagina);

    // 1. Saved without signal, with its receipt; the signal comes back and the server refuses the receipt.
    await contexto.setOffline(true);
    let modal = await tela.abrirNova();
    await tela.preencher(modal, { tipo: 'Alimentação', valor: '48,00', descricao: 'Almoço em Anápolis', arquivo: { name: 'recibo.jpg', mimeType: 'image/jpeg', buffer: foto } });
    await tela.registrar(modal);
    await tela.aviso('Despesa guardada neste aparelho. Ela será enviada assim que houver conexão.').waitFor();
    await contexto.setOffline(false);
    await pagina.evaluate(() => window.dispatchEvent(new Event('online')));
    await indicador(pagina).getByText('1 precisa de atenção').waitFor({ timeout: 60_000 });
    expect(recibo.vezes).toBe(1);

    // 2. The sync panel: 'Editar' opens the form with the receipt still on the device.
    await indicador(pagina).click();
    let painel = pagina.getByRole('dialog', { name: 'Sincronização' });
    let atencao = painel.getByRole('region', { name: 'Precisam de atenção' });
    await atencao.getByText(MENSAGEM_DO_SERVIDOR).waitFor();
    await atencao.getByRole('button', { name: 'Editar' }).click();
    modal = tela.modal('Editar Despesa');
    await modal.getByText('recibo.jpg').waitFor();

    // 3. 'Atualizar' as it is: the server refuses the receipt again; the message is on screen.
    await modal.getByRole('button', { name: 'Atualizar' }).click();
    await modal.getByText(MENSAGEM_DO_SERVIDOR).waitFor({ timeout: 30_000 });
    expect(recibo.vezes).toBe(2);
    await telas(pagina, 'fila-recusa-atualizar-recusado');

    // 4. 'Cancelar': the expense and its file are still queued, refused, with the server's message.
    await cancelar(pagina, modal);
    const fila = await filaNoAparelho(pagina);
    expect(fila.itens).toHaveLength(1);
    const [item] = fila.itens;
    expect(item).toMatchObject({ tipo: 'despesa.criar', estado: 'erro', erro: MENSAGEM_DO_SERVIDOR, dados: expect.objectContaining({ valor: 48, descricao: 'Almoço em Anápolis' }) });
    expect(item!.arquivos).toHaveLength(1);
    expect(fila.arquivos).toEqual([{ id: item!.arquivos[0], nome: 'recibo.jpg', tamanho: foto.length }]);
    expect(await indicador(pagina).textContent()).not.toContain('Sincronizado');
    await indicador(pagina).getByText('1 precisa de atenção').waitFor();
    await indicador(pagina).click();
    painel = pagina.getByRole('dialog', { name: 'Sincronização' });
    atencao = painel.getByRole('region', { name: 'Precisam de atenção' });
    await atencao.getByText(MENSAGEM_DO_SERVIDOR).waitFor();
    expect(await atencao.getByRole('listitem').count()).toBe(1);
    await atencao.getByText(/Alimentação de R\$\s48,00/).waitFor();
    await telas(pagina, 'fila-recusa-painel-depois-de-cancelar');
    expect(despesasNoServidor()).toEqual([]);

    // 5. The bad receipt removed, a good one attached: 'Atualizar' goes, and the expense arrives once.
    await atencao.getByRole('button', { name: 'Editar' }).click();
    modal = tela.modal('Editar Despesa');
    await modal.getByRole('button', { name: 'Remover recibo.jpg' }).click();
    await modal.getByText('recibo.jpg será removido ao salvar.').waitFor();
    // A file the server would refuse is refused when chosen, before it is queued or sent.
    await modal.getByLabel('Cupom/Comprovante').setInputFiles({ name: 'foto.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('isto não é uma foto') });
    await modal.getByText(`foto.jpg: ${MENSAGEM_DO_SERVIDOR}`).waitFor();
    await modal.getByText(`foto.jpg: ${MENSAGEM_DO_SERVIDOR}`).scrollIntoViewIfNeeded();
    await telas(pagina, 'fila-recusa-arquivo-recusado-na-escolha');
    await modal.getByLabel('Cupom/Comprovante').setInputFiles({ name: 'nota.pdf', mimeType: 'application/pdf', buffer: pdfPequeno() });
    await modal.getByRole('button', { name: 'Remover nota.pdf' }).waitFor();
    await telas(pagina, 'fila-recusa-trocar-comprovante');
    await modal.getByRole('button', { name: 'Atualizar' }).click();
    await modal.waitFor({ state: 'detached', timeout: 30_000 });
    await indicador(pagina).getByText('Sincronizado').waitFor({ timeout: 30_000 });

    expect(recibo.vezes).toBe(2);
    const noServidor = despesasNoServidor();
    expect(noServidor).toEqual([{ id: expect.any(String), valor_centavos: 4800 }]);
    const cupons = servidor.db.$client.prepare('select nome_original from despesa_cupons where despesa_id = ?').all(noServidor[0]!.id);
    expect(cupons).toEqual([{ nome_original: 'nota.pdf' }]);
    const aplicadas = servidor.db.$client.prepare("select count(*) n from operacoes_aplicadas where usuario_id = ? and tipo = 'despesa.criar' and status between 200 and 299").get(f.id) as { n: number };
    expect(aplicadas.n).toBe(1);
    expect(await filaNoAparelho(pagina)).toEqual({ itens: [], arquivos: [] });
    await contexto.close();
  });
});
