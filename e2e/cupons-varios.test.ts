/**
 * Several receipts per expense in the browser: an employee on the phone, offline,
 * registers an expense with a JPEG (the NFC-e) and a PDF (the card slip); back online the queue
 * sends both; the viewer pages through them ('1 de 2'); the admin sees both from the route details.
 * Screenshots of the form with two receipts and of the viewer at 390x844 and 1280x800.
 */
import { createHash } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN } from '../server/test/helper';
import { ANAPOLIS, GOIANIA, criarRotaAtiva } from '../server/test/despesas';
import { TelaDespesas } from './paginas/despesas';
import { TelaLogin } from './paginas/login';
import { TelaRelatorios } from './paginas/relatorios';
import { jpegPequeno, pdfPequeno } from './suporte/arquivos';
import { abrirNavegador, capturar, CELULAR, DESKTOP, novaPagina, temChromium } from './suporte/navegador';
import { iniciarServidor, type ServidorDeTeste } from './suporte/servidor';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

interface Cupom {
  id: number;
  nome: string;
  mime: string;
  url: string;
}

describe.skipIf(!temChromium)('vários comprovantes numa despesa, no navegador', () => {
  let servidor: ServidorDeTeste;
  let navegador: Browser;
  let caio: { id: number; email: string; senha: string; token: string };

  const despesaNoServidor = async (descricao: string) =>
    ((await servidor.chamar({ method: 'GET', url: '/api/despesas?limit=100', token: caio.token })).json().despesas as { id: string; descricao: string; cupons?: Cupom[] }[]).find(
      (d) => d.descricao === descricao,
    );

  beforeAll(async () => {
    servidor = await iniciarServidor();
    navegador = await abrirNavegador();
    caio = await servidor.criarFuncionario({ nome: 'Caio Notas', email: 'caio@escola.com.br' });
    await criarRotaAtiva(servidor, caio.id, [GOIANIA, ANAPOLIS], 'Rota dos Comprovantes');
  });
  afterAll(async () => {
    await navegador?.close();
    await servidor?.fechar();
  });

  it('no celular, sem sinal: uma despesa com um JPEG e um PDF; com sinal, os dois chegam e o visualizador passa de um ao outro', async () => {
    const { contexto, pagina } = await novaPagina(navegador, CELULAR);
    await new TelaLogin(pagina).abrir(servidor.url);
    await new TelaLogin(pagina).entrar(caio.email, caio.senha);
    await pagina.waitForURL('**/dashboard');
    const tela = new TelaDespesas(pagina);
    await tela.abrir(servidor.url);
    await pagina.getByText('Nenhuma despesa encontrada.').waitFor();
    const foto = await jpegPequeno(pagina);
    const pdf = pdfPequeno();

    await contexto.setOffline(true);
    const modal = await tela.abrirNova();
    await tela.preencher(modal, { cidade: 'Anápolis (GO)', tipo: 'Alimentação', valor: '58,40', descricao: 'Jantar com NFC-e e cartão' });
    const seletor = modal.getByLabel('Cupom/Comprovante');
    await seletor.setInputFiles({ name: 'nfce.jpg', mimeType: 'image/jpeg', buffer: foto });
    await modal.getByRole('button', { name: 'Remover nfce.jpg' }).waitFor();
    await seletor.setInputFiles({ name: 'comprovante-cartao.pdf', mimeType: 'application/pdf', buffer: pdf });
    await modal.getByRole('button', { name: 'Remover comprovante-cartao.pdf' }).waitFor();
    await modal.getByText('2 de 5 comprovantes', { exact: false }).waitFor();
    // A third, then removed again before saving: the list follows.
    await seletor.setInputFiles({ name: 'extra.pdf', mimeType: 'application/pdf', buffer: pdf });
    await modal.getByRole('button', { name: 'Remover extra.pdf' }).click();
    await expect.poll(() => modal.getByRole('button', { name: /^Remover / }).count()).toBe(2);
    await modal.getByRole('img', { name: 'Prévia do comprovante nfce.jpg' }).waitFor();
    await modal.getByRole('button', { name: 'Remover comprovante-cartao.pdf' }).scrollIntoViewIfNeeded();
    await capturar(pagina, 'celular-cupons-varios-formulario');
    await tela.registrar(modal);
    await tela.aviso('Despesa guardada neste aparelho. Ela será enviada assim que houver conexão.').waitFor();
    await tela.item('Jantar com NFC-e e cartão').getByText('Aguardando envio').waitFor();
    await tela.item('Jantar com NFC-e e cartão').getByText('2 comprovantes').waitFor();
    expect(await despesaNoServidor('Jantar com NFC-e e cartão')).toBeUndefined();

    await contexto.setOffline(false);
    await expect.poll(() => tela.item('Jantar com NFC-e e cartão').getByText('Aguardando envio').count(), { timeout: 30_000 }).toBe(0);
    const noServidor = (await despesaNoServidor('Jantar com NFC-e e cartão'))!;
    expect(noServidor.cupons!.map((c) => [c.nome, c.mime])).toEqual([
      ['nfce.jpg', 'image/jpeg'],
      ['comprovante-cartao.pdf', 'application/pdf'],
    ]);
    const bytes = await Promise.all(noServidor.cupons!.map(async (c) => (await servidor.chamar({ method: 'GET', url: c.url, token: caio.token })).rawPayload));
    expect(sha256(bytes[1]!)).toBe(sha256(pdf));
    expect(bytes[0]!.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))).toBe(true);

    await tela.acao('Jantar com NFC-e e cartão', 'Visualizar Cupom Fiscal');
    const visualizador = pagina.getByRole('dialog', { name: 'Comprovantes (2)' });
    await visualizador.getByText('1 de 2').waitFor();
    await expect.poll(() => visualizador.getByRole('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    await capturar(pagina, 'celular-cupons-varios-visualizador');
    await visualizador.getByRole('button', { name: 'Próximo comprovante' }).click();
    await visualizador.getByText('2 de 2').waitFor();
    await visualizador.getByRole('link', { name: 'Abrir PDF' }).waitFor();
    await visualizador.getByRole('button', { name: 'Comprovante anterior' }).click();
    await visualizador.getByText('1 de 2').waitFor();
    await contexto.close();
  });

  it('no computador: o formulário com dois comprovantes, e o admin vê os dois nos detalhes da rota', async () => {
    const funcionario = await novaPagina(navegador, DESKTOP);
    await new TelaLogin(funcionario.pagina).abrir(servidor.url);
    await new TelaLogin(funcionario.pagina).entrar(caio.email, caio.senha);
    await funcionario.pagina.waitForURL('**/dashboard');
    const tela = new TelaDespesas(funcionario.pagina);
    await tela.abrir(servidor.url);
    await tela.item('Jantar com NFC-e e cartão').getByRole('button', { name: /^Visualizar os 2 comprovantes/ }).waitFor();
    const modal = await tela.abrirNova();
    const seletor = modal.getByLabel('Cupom/Comprovante');
    await seletor.setInputFiles({ name: 'nfce.jpg', mimeType: 'image/jpeg', buffer: await jpegPequeno(funcionario.pagina) });
    await modal.getByRole('button', { name: 'Remover nfce.jpg' }).waitFor();
    await seletor.setInputFiles({ name: 'comprovante-cartao.pdf', mimeType: 'application/pdf', buffer: pdfPequeno() });
    await modal.getByRole('button', { name: 'Remover comprovante-cartao.pdf' }).waitFor();
    await modal.getByRole('button', { name: 'Remover comprovante-cartao.pdf' }).scrollIntoViewIfNeeded();
    await capturar(funcionario.pagina, 'desktop-cupons-varios-formulario');
    await funcionario.contexto.close();

    const { contexto, pagina } = await novaPagina(navegador, DESKTOP);
    await new TelaLogin(pagina).abrir(servidor.url);
    await new TelaLogin(pagina).entrar(ADMIN.email, ADMIN.senha);
    await pagina.waitForURL('**/dashboard');
    const relatorios = new TelaRelatorios(pagina);
    await relatorios.abrir(servidor.url);
    const detalhes = await relatorios.abrirDetalhes('Rota dos Comprovantes');
    await detalhes.getByText('Comprovantes (1)').click();
    await detalhes.getByLabel('2 comprovantes').waitFor();
    await detalhes.getByLabel('2 comprovantes').scrollIntoViewIfNeeded();
    await capturar(pagina, 'desktop-cupons-varios-detalhes-rota');
    await detalhes.locator('.grade-cupons button').first().click();
    const visualizador = pagina.getByRole('dialog', { name: 'Comprovantes (2)' });
    await visualizador.getByText('1 de 2').waitFor();
    await expect.poll(() => visualizador.getByRole('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    await capturar(pagina, 'desktop-cupons-varios-visualizador');
    await visualizador.getByRole('button', { name: 'Próximo comprovante' }).click();
    await visualizador.getByText('2 de 2').waitFor();
    await visualizador.getByTitle('Cupom fiscal em PDF').waitFor();
    await contexto.close();
  });
});
