/**
 * The NFC-e in the browser: a receipt photo carrying a contingency NFC-e's QR (drawn here with
 * the `qrcode` package inside a camera-sized JPEG, so the compressor reduces it) is attached in the
 * real form: the QR is read on the phone (BarcodeDetector where the browser reads QR codes with it,
 * else the ZXing chunk), 'NFC-e lida' shows the CNPJ and month, date and value come filled, the
 * expense syncs with its chave. The same QR again is refused by the server naming the first expense:
 * online in the form, offline in the expense's refusal once the queue replays. The admin sees the
 * chave and the link to the state's consultation. Real client, real server.
 */
import QRCode from 'qrcode';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatarData, hoje, somarDias } from '../shared/dates';
import { digitoVerificadorChave, formatarChaveNfce } from '../shared/nfce';
import { ADMIN } from '../server/test/helper';
import { v7 as uuidv7 } from 'uuid';
import { ANAPOLIS, GOIANIA, criarRotaAtiva, formulario } from '../server/test/despesas';
import { TelaDespesas } from './paginas/despesas';
import { TelaLogin } from './paginas/login';
import { abrirNavegador, capturar, CELULAR, DESKTOP, novaPagina, temChromium } from './suporte/navegador';
import { iniciarServidor, type ServidorDeTeste } from './suporte/servidor';

const ONTEM = somarDias(hoje('America/Sao_Paulo'), -1);
const [ANO, MES, DIA] = ONTEM.split('-') as [string, string, string];
/** GO, yesterday's month, CNPJ 12.345.678/0001-95, NFC-e nº 4321, contingency (tpEmis 9). */
const C43 = `52${ANO.slice(2)}${MES}${'12345678000195'}65001${'000004321'}9${'20261126'}`;
const CHAVE = C43 + digitoVerificadorChave(C43);
const QR = `https://www.sefaz.go.gov.br/nfeweb/sites/nfce/danfeNFCe?p=${CHAVE}|2|1|${DIA}|87.40|${'5a'.repeat(28)}|1|${'0123456789ABCDEF'.repeat(2)}01234567`;

/** A camera-sized JPEG (grainy, over 1 MB, so the form reduces it) with the receipt's QR printed on white paper. */
async function fotoDoCupom(pagina: Page): Promise<Buffer> {
  const qrPng = (await QRCode.toBuffer(QR, { type: 'png', errorCorrectionLevel: 'M', margin: 4, scale: 6 })).toString('base64');
  const base64 = await pagina.evaluate(async (png) => {
    const qr = new Image();
    qr.src = `data:image/png;base64,${png}`;
    await qr.decode();
    const canvas = document.createElement('canvas');
    canvas.width = 2400;
    canvas.height = 1800;
    const ctx = canvas.getContext('2d')!;
    const imagem = ctx.createImageData(canvas.width, canvas.height);
    for (let i = 0; i < imagem.data.length; i += 4) {
      // A table's grain under the receipt: ±20 around a grey that darkens to the right.
      const x = (i / 4) % canvas.width;
      const v = 150 - ((x / canvas.width) * 60) + ((Math.random() * 40) | 0) - 20;
      imagem.data[i] = v;
      imagem.data[i + 1] = v;
      imagem.data[i + 2] = v;
      imagem.data[i + 3] = 255;
    }
    ctx.putImageData(imagem, 0, 0);
    ctx.fillStyle = '#fff';
    ctx.fillRect(700, 250, 1000, 1300);
    ctx.fillStyle = '#111';
    ctx.font = 'bold 60px sans-serif';
    ctx.fillText('DANFE NFC-e', 1000, 360);
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(qr, 900, 450, 600, 600);
    const blob = await new Promise<Blob>((ok) => canvas.toBlob((b) => ok(b!), 'image/jpeg', 0.92));
    const url = await new Promise<string>((ok) => {
      const leitor = new FileReader();
      leitor.onload = () => ok(String(leitor.result));
      leitor.readAsDataURL(blob);
    });
    return url.split(',')[1]!;
  }, qrPng);
  return Buffer.from(base64, 'base64');
}

describe.skipIf(!temChromium)('NFC-e do cupom no navegador', () => {
  let servidor: ServidorDeTeste;
  let navegador: Browser;
  let lia: { id: number; email: string; senha: string; token: string };
  let rotaLia: number;
  let davi: { id: number; email: string; senha: string; token: string };

  beforeAll(async () => {
    servidor = await iniciarServidor();
    navegador = await abrirNavegador();
    lia = await servidor.criarFuncionario({ nome: 'Lia Campo', email: 'lia.nfce@escola.com.br' });
    rotaLia = await criarRotaAtiva(servidor, lia.id, [GOIANIA, ANAPOLIS], 'Rota Centro-Oeste');
    davi = await servidor.criarFuncionario({ nome: 'Davi Serra', email: 'davi.nfce@escola.com.br' });
    await criarRotaAtiva(servidor, davi.id, [GOIANIA], 'Rota Davi');
  });
  afterAll(async () => {
    await navegador?.close();
    await servidor?.fechar();
  });

  it('lê o QR da foto, preenche data e valor, sincroniza a chave; a mesma NFC-e de novo é recusada com o nome da primeira despesa', async () => {
    const { contexto, pagina } = await novaPagina(navegador, CELULAR);
    await new TelaLogin(pagina).abrir(servidor.url);
    await new TelaLogin(pagina).entrar(lia.email, lia.senha);
    await pagina.waitForURL('**/dashboard');
    const tela = new TelaDespesas(pagina);
    await tela.abrir(servidor.url);
    await pagina.getByText('Nenhuma despesa encontrada.').waitFor();

    // Which decoder this browser uses (reported by the test run): its own, or the ZXing chunk.
    const decodificador = await pagina.evaluate(async () => {
      const D = (window as unknown as { BarcodeDetector?: { getSupportedFormats(): Promise<string[]> } }).BarcodeDetector;
      if (!D) return 'ZXing (sem BarcodeDetector)';
      try {
        return (await D.getSupportedFormats()).includes('qr_code') ? 'BarcodeDetector' : 'ZXing (BarcodeDetector sem qr_code)';
      } catch {
        return 'ZXing (BarcodeDetector falhou)';
      }
    });
    console.info(`[nfce] decodificador do QR neste Chromium: ${decodificador}`);

    const foto = await fotoDoCupom(pagina);
    expect(foto.length).toBeGreaterThan(1024 * 1024);
    const arquivo = { name: 'IMG_cupom.jpg', mimeType: 'image/jpeg', buffer: foto };

    // 1. The photo's QR is read: CNPJ and month, date and value filled from a contingency receipt.
    let modal = await tela.abrirNova();
    await modal.getByLabel('Cupom/Comprovante').setInputFiles(arquivo);
    const lida = modal.getByRole('status').filter({ hasText: 'NFC-e lida' });
    await lida.waitFor({ timeout: 30_000 });
    expect(await lida.textContent()).toContain(`CNPJ 12.345.678/0001-95 · ${MES}/${ANO}`);
    await modal.getByText(/reduzida de/).waitFor();
    expect(await modal.getByLabel(/Data da Despesa/).inputValue()).toBe(ONTEM);
    expect(await modal.getByLabel('Valor (R$)').inputValue()).toBe('87,40');
    expect(await modal.getByLabel('Chave da NFC-e (44 dígitos)').inputValue()).toBe(CHAVE);
    await modal.getByLabel('Tipo de Despesa').selectOption({ label: 'Alimentação' });
    const cidade = modal.getByRole('combobox', { name: /Cidade/ });
    await cidade.click();
    await cidade.fill('Anáp');
    await modal.getByRole('option', { name: 'Anápolis (GO)' }).click();
    await modal.getByLabel('Chave da NFC-e (44 dígitos)').scrollIntoViewIfNeeded();
    await capturar(pagina, 'celular-nfce-lida');
    await pagina.setViewportSize(DESKTOP);
    await capturar(pagina, 'desktop-nfce-lida');
    await pagina.setViewportSize(CELULAR);
    await tela.registrar(modal);
    await tela.aviso('Despesa registrada com sucesso!').waitFor();

    const despesas = (await servidor.chamar({ method: 'GET', url: '/api/despesas?limit=100', token: lia.token })).json().despesas as {
      id: string;
      chave_nfce: string | null;
      valor: number;
      data_despesa: string;
    }[];
    expect(despesas).toHaveLength(1);
    expect(despesas[0]).toMatchObject({ chave_nfce: CHAVE, valor: 87.4, data_despesa: ONTEM });
    const mensagem = `Esta NFC-e já foi lançada na despesa Alimentação — Anápolis (R$ 87,40) de Lia Campo em ${formatarData(ONTEM)}.`;

    // 2. The same receipt again, online: the form shows the server's refusal and stays open.
    await pagina.locator('.Toastify__toast').first().waitFor({ state: 'detached', timeout: 8000 });
    modal = await tela.abrirNova();
    await modal.getByLabel('Cupom/Comprovante').setInputFiles(arquivo);
    await modal.getByRole('status').filter({ hasText: 'NFC-e lida' }).waitFor({ timeout: 30_000 });
    await modal.getByLabel('Tipo de Despesa').selectOption({ label: 'Alimentação' });
    await modal.getByRole('button', { name: 'Registrar' }).click();
    await modal.getByRole('alert').filter({ hasText: mensagem }).waitFor();
    await capturar(pagina, 'celular-nfce-repetida');
    // A filled form asks before it is discarded.
    await modal.getByRole('button', { name: 'Cancelar' }).click();
    await pagina.getByRole('dialog', { name: 'Fechar sem salvar?' }).getByRole('button', { name: 'Descartar' }).click();
    await modal.waitFor({ state: 'detached' });

    // 3. And offline: kept on the phone; when the queue replays, the server's refusal is the expense's.
    await contexto.setOffline(true);
    modal = await tela.abrirNova();
    await modal.getByLabel('Cupom/Comprovante').setInputFiles(arquivo);
    await modal.getByRole('status').filter({ hasText: 'NFC-e lida' }).waitFor({ timeout: 30_000 });
    await modal.getByLabel('Tipo de Despesa').selectOption({ label: 'Alimentação' });
    await modal.getByLabel('Descrição').fill('Mesma nota, sem sinal');
    // The refused one is still on the phone (nothing leaves without a decision): with it the day's meals pass the limit.
    await modal.getByRole('button', { name: 'Registrar' }).click();
    await pagina.getByRole('dialog', { name: 'Acima do limite diário' }).getByRole('button', { name: 'Salvar mesmo assim' }).click();
    await modal.waitFor({ state: 'detached' });
    await tela.aviso('Despesa guardada neste aparelho. Ela será enviada assim que houver conexão.').waitFor();
    await contexto.setOffline(false);
    const recusa = tela.item('Mesma nota, sem sinal').locator(`[title="${mensagem}"]`);
    await recusa.first().waitFor({ timeout: 30_000 });
    expect((await servidor.chamar({ method: 'GET', url: '/api/despesas?limit=100', token: lia.token })).json().despesas).toHaveLength(1);
    await capturar(pagina, 'celular-nfce-recusa-offline');
    await contexto.close();
  });

  it('o admin vê a chave em blocos e o link de consulta da SEFAZ do estado', async () => {
    for (const [tela, nome] of [
      [DESKTOP, 'desktop'],
      [CELULAR, 'celular'],
    ] as const) {
      const { contexto, pagina } = await novaPagina(navegador, tela);
      await new TelaLogin(pagina).abrir(servidor.url);
      await new TelaLogin(pagina).entrar(ADMIN.email, ADMIN.senha);
      await pagina.waitForURL('**/dashboard');
      const despesas = new TelaDespesas(pagina);
      await despesas.abrir(servidor.url);
      // The row (computer) or card (phone) first: acao() picks the phone's menu only when the card is there.
      await despesas.item('Lia Campo').first().waitFor();
      await despesas.acao('Lia Campo', 'Ver Detalhes');
      const detalhes = pagina.getByRole('dialog', { name: 'Detalhes da Despesa' });
      await detalhes.getByText(formatarChaveNfce(CHAVE)).waitFor();
      expect(await detalhes.getByText(`CNPJ 12.345.678/0001-95 · ${MES}/${ANO}`).count()).toBe(1);
      const link = detalhes.getByRole('link', { name: 'Consultar na SEFAZ' });
      expect(await link.getAttribute('href')).toBe('https://www.sefaz.go.gov.br/nfce/consulta');
      expect(await link.getAttribute('target')).toBe('_blank');
      await link.scrollIntoViewIfNeeded();
      await capturar(pagina, `${nome}-nfce-admin-detalhes`);
      await contexto.close();
    }
  });

  it('a NFC-e de outro funcionário é recusada sem dizer de quem é, o quê, onde, quanto nem quando', async () => {
    // Lia's expense with another receipt's chave (NFC-e nº 4322), registered as her phone would.
    const c43 = `52${ANO.slice(2)}${MES}${'12345678000195'}65001${'000004322'}1${'00004322'}`;
    const chave = c43 + digitoVerificadorChave(c43);
    const corpo = await formulario({ id: uuidv7(), rota_id: rotaLia, cidade_id: ANAPOLIS, data_despesa: ONTEM, tipo: 'hospedagem', valor: '148,00', chave_nfce: chave });
    const daLia = await servidor.chamar({ method: 'POST', url: '/api/despesas', token: lia.token, ...corpo });
    expect(daLia.statusCode, daLia.body).toBe(201);

    for (const [tela, nome] of [
      [CELULAR, 'celular'],
      [DESKTOP, 'desktop'],
    ] as const) {
      const { contexto, pagina } = await novaPagina(navegador, tela);
      await new TelaLogin(pagina).abrir(servidor.url);
      await new TelaLogin(pagina).entrar(davi.email, davi.senha);
      await pagina.waitForURL('**/dashboard');
      const despesas = new TelaDespesas(pagina);
      await despesas.abrir(servidor.url);
      const modal = await despesas.abrirNova();
      await despesas.preencher(modal, { tipo: 'Alimentação', valor: '32,00' });
      await modal.getByLabel('Chave da NFC-e (44 dígitos)').fill(chave);
      await modal.getByRole('button', { name: 'Registrar' }).click();
      const recusa = modal.getByRole('alert').filter({ hasText: 'Esta NFC-e já foi lançada' });
      await recusa.waitFor();
      expect((await recusa.textContent())?.trim()).toBe('Esta NFC-e já foi lançada por outro funcionário.');
      const texto = await pagina.locator('body').innerText();
      for (const pista of ['Lia Campo', '148,00']) expect(texto).not.toContain(pista);
      await recusa.scrollIntoViewIfNeeded();
      await capturar(pagina, `${nome}-nfce-de-outro-funcionario`);
      await contexto.close();
    }
  });
});
