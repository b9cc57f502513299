/**
 * Browser tests of 'Despesas': an employee on the phone registers an expense with a real photo
 * (reduced in the browser) and one with a PDF while offline; back online it syncs; the receipts the
 * server keeps are byte-identical to what the browser sent; the balance follows. The admin approves
 * one and rejects the other with a reason; the employee sees both. Real client, real server.
 */
import { createHash } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN } from '../server/test/helper';
import { ANAPOLIS, CALDAS_NOVAS, GOIANIA, criarRotaAtiva } from '../server/test/despesas';
import { TelaDespesas } from './paginas/despesas';
import { TelaLogin } from './paginas/login';
import { pdfPequeno } from './suporte/arquivos';
import { abrirNavegador, capturar, CELULAR, DESKTOP, novaPagina, temChromium } from './suporte/navegador';
import { iniciarServidor, type ServidorDeTeste } from './suporte/servidor';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

interface CupomEnviado {
  id: string;
  nome: string;
  tipo: string;
  tamanho: number;
  sha256: string;
}

/**
 * Records, in the page, every receipt handed to fetch (what the browser actually sends): alone in
 * `cupom`, or inside a sync batch as `arquivo:<operação>` next to the expense's fields.
 */
async function registrarEnvios(contexto: BrowserContext) {
  await contexto.addInitScript(() => {
    const w = window as unknown as { __cupons: unknown[]; fetch: typeof fetch };
    const original = w.fetch.bind(window);
    w.__cupons = [];
    const registrar = async (id: unknown, arquivo: File) => {
      const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', await arquivo.arrayBuffer()));
      w.__cupons.push({
        id,
        nome: arquivo.name,
        tipo: arquivo.type,
        tamanho: arquivo.size,
        sha256: [...hash].map((b) => b.toString(16).padStart(2, '0')).join(''),
      });
    };
    w.fetch = async (entrada, init) => {
      const corpo = init?.body;
      if (corpo instanceof FormData && corpo.get('cupom') instanceof Blob) {
        await registrar(corpo.get('id'), corpo.get('cupom') as File);
      } else if (corpo instanceof FormData && typeof corpo.get('operacoes') === 'string') {
        const { operacoes } = JSON.parse(corpo.get('operacoes') as string) as { operacoes: { id: string; dados?: { id?: string } }[] };
        for (const op of operacoes) {
          const arquivo = corpo.get(`arquivo:${op.id}`);
          if (arquivo instanceof Blob) await registrar(op.dados?.id, arquivo as File);
        }
      }
      return original(entrada, init);
    };
  });
}

const cuponsEnviados = (pagina: Page) => pagina.evaluate(() => (window as unknown as { __cupons: CupomEnviado[] }).__cupons);

/** A real camera-sized JPEG (noise and text, well over 1 MB), drawn by the browser itself. */
async function fotoGrande(pagina: Page): Promise<Buffer> {
  const base64 = await pagina.evaluate(async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 2400;
    canvas.height = 1800;
    const ctx = canvas.getContext('2d')!;
    const imagem = ctx.createImageData(canvas.width, canvas.height);
    for (let i = 0; i < imagem.data.length; i += 4) {
      imagem.data[i] = (Math.random() * 256) | 0;
      imagem.data[i + 1] = (Math.random() * 256) | 0;
      imagem.data[i + 2] = (Math.random() * 256) | 0;
      imagem.data[i + 3] = 255;
    }
    ctx.putImageData(imagem, 0, 0);
    ctx.fillStyle = '#fff';
    ctx.fillRect(300, 600, 1800, 600);
    ctx.fillStyle = '#111';
    ctx.font = 'bold 150px sans-serif';
    ctx.fillText('CUPOM FISCAL', 420, 960);
    const blob = await new Promise<Blob>((ok) => canvas.toBlob((b) => ok(b!), 'image/jpeg', 0.92));
    const url = await new Promise<string>((ok) => {
      const leitor = new FileReader();
      leitor.onload = () => ok(String(leitor.result));
      leitor.readAsDataURL(blob);
    });
    return url.split(',')[1]!;
  });
  return Buffer.from(base64, 'base64');
}

/** Width and height from a JPEG's frame header. */
function dimensoesJpeg(b: Buffer): { largura: number; altura: number } {
  let i = 2;
  while (i < b.length - 9) {
    if (b[i] !== 0xff) {
      i += 1;
      continue;
    }
    const marcador = b[i + 1]!;
    if (marcador >= 0xc0 && marcador <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marcador)) {
      return { altura: b.readUInt16BE(i + 5), largura: b.readUInt16BE(i + 7) };
    }
    i += 2 + b.readUInt16BE(i + 2);
  }
  throw new Error('JPEG sem cabeçalho de quadro');
}

describe.skipIf(!temChromium)('despesas no navegador', () => {
  let servidor: ServidorDeTeste;
  let navegador: Browser;
  let lia: { id: number; email: string; senha: string; token: string };

  interface DespesaApi {
    id: string;
    descricao: string;
    cupom_url: string | null;
    status_aprovacao: string;
  }
  const despesasNoServidor = async (): Promise<DespesaApi[]> =>
    (await servidor.chamar({ method: 'GET', url: '/api/despesas?limit=100', token: lia.token })).json().despesas;
  const cupomNoServidor = async (url: string) => (await servidor.chamar({ method: 'GET', url, token: lia.token })).rawPayload;

  beforeAll(async () => {
    servidor = await iniciarServidor();
    navegador = await abrirNavegador();
    lia = await servidor.criarFuncionario({ nome: 'Lia Campo', email: 'lia@escola.com.br' });
    await criarRotaAtiva(servidor, lia.id, [GOIANIA, ANAPOLIS, CALDAS_NOVAS], 'Rota Centro-Oeste');
    const credito = await servidor.chamar({
      method: 'POST',
      url: '/api/saldo/adicionar',
      token: await servidor.tokenAdmin(),
      payload: { funcionario_id: lia.id, valor: 500, descricao: 'Adiantamento', rota_id: null },
    });
    expect(credito.statusCode).toBe(201);
  });
  afterAll(async () => {
    await navegador?.close();
    await servidor?.fechar();
  });

  it('funcionária no celular: foto reduzida online, PDF offline, sincroniza ao voltar; bytes idênticos e saldo certo', async () => {
    const { contexto, pagina } = await novaPagina(navegador, CELULAR);
    await registrarEnvios(contexto);
    await new TelaLogin(pagina).abrir(servidor.url);
    await new TelaLogin(pagina).entrar(lia.email, lia.senha);
    await pagina.waitForURL('**/dashboard');
    const tela = new TelaDespesas(pagina);
    await tela.abrir(servidor.url);
    await expect.poll(() => tela.saldoConfirmado().textContent()).toMatch(/R\$\s500,00/);
    await pagina.getByText('Nenhuma despesa encontrada.').waitFor();
    await capturar(pagina, 'celular-despesas-funcionario-vazio');

    // 1. A camera-sized photo, reduced in the browser (real browser-image-compression, no CDN).
    const foto = await fotoGrande(pagina);
    expect(foto.length).toBeGreaterThan(1024 * 1024);
    let modal = await tela.abrirNova();
    await capturar(pagina, 'celular-despesas-modal-nova');
    await tela.preencher(modal, {
      cidade: 'Anápolis (GO)',
      tipo: 'Alimentação',
      valor: '45,90',
      descricao: 'Almoço com foto',
      arquivo: { name: 'IMG_20261122.jpg', mimeType: 'image/jpeg', buffer: foto },
    });
    await modal.getByText(/reduzida de/).waitFor();
    await capturar(pagina, 'celular-despesas-modal-preenchido');
    await tela.registrar(modal);
    await tela.aviso('Despesa registrada com sucesso!').waitFor();

    const [enviadoFoto] = await cuponsEnviados(pagina);
    expect(enviadoFoto).toMatchObject({ nome: 'IMG_20261122.jpg', tipo: 'image/jpeg' });
    expect(enviadoFoto!.tamanho).toBeLessThan(foto.length);
    const comFoto = (await despesasNoServidor()).find((d) => d.descricao === 'Almoço com foto')!;
    expect(comFoto.id).toBe(enviadoFoto!.id);
    const guardadaFoto = await cupomNoServidor(comFoto.cupom_url!);
    expect(sha256(guardadaFoto)).toBe(enviadoFoto!.sha256);
    const { largura, altura } = dimensoesJpeg(guardadaFoto);
    expect(Math.max(largura, altura)).toBe(800);
    await expect.poll(() => tela.saldoConfirmado().textContent()).toMatch(/R\$\s454,10/);

    // 2. A PDF while offline: kept on the phone, shown at once, in the projected balance only.
    await contexto.setOffline(true);
    const pdf = pdfPequeno();
    modal = await tela.abrirNova();
    await tela.preencher(modal, {
      cidade: 'Caldas Novas (GO)',
      tipo: 'Pedágio',
      valor: '12,30',
      descricao: 'Pedágio offline',
      arquivo: { name: 'pedagio.pdf', mimeType: 'application/pdf', buffer: pdf },
    });
    await modal.getByRole('link', { name: 'Ver PDF' }).waitFor();
    await tela.registrar(modal);
    await tela.aviso('Despesa guardada neste aparelho. Ela será enviada assim que houver conexão.').waitFor();
    await tela.item('Pedágio offline').getByText('Aguardando envio').waitFor();
    await expect.poll(() => tela.saldoProjetado().textContent()).toMatch(/R\$\s441,80/);
    expect(await tela.saldoConfirmado().textContent()).toMatch(/R\$\s454,10/);
    expect((await despesasNoServidor()).some((d) => d.descricao === 'Pedágio offline')).toBe(false);
    await pagina.locator('.Toastify__toast').first().waitFor({ state: 'detached', timeout: 8000 });
    await capturar(pagina, 'celular-despesas-offline');

    // The queued receipt opens from the phone itself.
    await tela.acao('Pedágio offline', 'Visualizar Cupom Fiscal');
    const visualizador = pagina.getByRole('dialog', { name: 'Cupom Fiscal' });
    await visualizador.getByText('Este comprovante ainda está só neste aparelho').waitFor();
    // Phone browsers do not embed PDFs: the viewer offers to open it, from the device's copy.
    expect(await visualizador.getByRole('link', { name: 'Abrir PDF' }).getAttribute('href')).toMatch(/^blob:/);
    await capturar(pagina, 'celular-despesas-cupom-local');
    await visualizador.getByRole('button', { name: 'Fechar' }).last().click();

    // 3. Back online: the queue replays by itself.
    await contexto.setOffline(false);
    await expect.poll(() => tela.item('Pedágio offline').getByText('Aguardando envio').count(), { timeout: 30_000 }).toBe(0);
    const comPdf = (await despesasNoServidor()).find((d) => d.descricao === 'Pedágio offline')!;
    expect(comPdf).toBeDefined();
    expect(sha256(await cupomNoServidor(comPdf.cupom_url!))).toBe(sha256(pdf));
    expect((await cuponsEnviados(pagina)).find((c) => c.id === comPdf.id)?.sha256).toBe(sha256(pdf));
    await expect.poll(() => tela.saldoConfirmado().textContent()).toMatch(/R\$\s441,80/);
    expect(await tela.saldoProjetado().textContent()).toMatch(/R\$\s441,80/);
    const saldo = await servidor.chamar({ method: 'GET', url: '/api/saldo/resumo', token: lia.token });
    expect(saldo.json().saldo_atual).toBe(441.8);
    await capturar(pagina, 'celular-despesas-funcionario');
    await pagina.getByRole('button', { name: 'Mostrar Cards' }).click();
    await capturar(pagina, 'celular-despesas-cards');

    await tela.acao('Almoço com foto', 'Ver Detalhes');
    const detalhes = pagina.getByRole('dialog', { name: 'Detalhes da Despesa' });
    await detalhes.getByText('Anápolis (GO)').waitFor();
    await capturar(pagina, 'celular-despesas-detalhes');
    await detalhes.getByRole('button', { name: 'Visualizar Cupom Fiscal' }).click();
    const imagem = pagina.getByRole('dialog', { name: 'Cupom Fiscal' }).getByRole('img');
    await expect.poll(() => imagem.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(800);
    await capturar(pagina, 'celular-despesas-cupom-imagem');
    await contexto.close();
  });

  it('admin aprova uma e rejeita a outra com motivo; a funcionária vê os status e o motivo', async () => {
    const { contexto, pagina } = await novaPagina(navegador, DESKTOP);
    await new TelaLogin(pagina).abrir(servidor.url);
    await new TelaLogin(pagina).entrar(ADMIN.email, ADMIN.senha);
    await pagina.waitForURL('**/dashboard');
    const tela = new TelaDespesas(pagina);
    await tela.abrir(servidor.url);
    await tela.item('Almoço com foto').waitFor();
    await tela.item('Pedágio offline').waitFor();
    expect(await pagina.getByRole('button', { name: 'Nova Despesa' }).count()).toBe(0);
    await capturar(pagina, 'desktop-despesas-admin');

    await tela.acao('Almoço com foto', 'Visualizar Cupom Fiscal');
    const visualizador = pagina.getByRole('dialog', { name: 'Cupom Fiscal' });
    await expect.poll(() => visualizador.getByRole('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(800);
    await capturar(pagina, 'desktop-despesas-cupom');
    await visualizador.getByRole('button', { name: 'Fechar' }).last().click();

    await tela.acao('Pedágio offline', 'Visualizar Cupom Fiscal');
    expect(await visualizador.locator('iframe').getAttribute('src')).toMatch(/^\/api\/despesas\/[0-9a-f-]+\/cupons\/\d+$/);
    await capturar(pagina, 'desktop-despesas-cupom-pdf');
    await visualizador.getByRole('button', { name: 'Fechar' }).last().click();

    await tela.acao('Almoço com foto', 'Aprovar');
    await tela.aviso('Despesa aprovada.').waitFor();
    await tela.item('Almoço com foto').getByText('Aprovada').waitFor();

    await tela.acao('Pedágio offline', 'Ver Detalhes');
    const detalhes = pagina.getByRole('dialog', { name: 'Detalhes da Despesa' });
    await capturar(pagina, 'desktop-despesas-detalhes');
    await detalhes.getByRole('button', { name: 'Rejeitar' }).click();
    const rejeitar = pagina.getByRole('dialog', { name: 'Rejeitar Despesa' });
    await rejeitar.getByLabel('Motivo da rejeição').fill('Comprovante sem CNPJ do estabelecimento');
    await capturar(pagina, 'desktop-despesas-rejeitar');
    await rejeitar.getByRole('button', { name: 'Rejeitar' }).click();
    await tela.aviso('Despesa rejeitada.').waitFor();
    await tela.item('Pedágio offline').getByText('Rejeitada').waitFor();
    const estados = Object.fromEntries((await despesasNoServidor()).map((d) => [d.descricao, d.status_aprovacao]));
    expect(estados).toEqual({ 'Almoço com foto': 'aprovada', 'Pedágio offline': 'rejeitada' });
    await contexto.close();

    const celular = await novaPagina(navegador, CELULAR);
    await new TelaLogin(celular.pagina).abrir(servidor.url);
    await new TelaLogin(celular.pagina).entrar(ADMIN.email, ADMIN.senha);
    await celular.pagina.waitForURL('**/dashboard');
    await new TelaDespesas(celular.pagina).abrir(servidor.url);
    await new TelaDespesas(celular.pagina).item('Almoço com foto').waitFor();
    await capturar(celular.pagina, 'celular-despesas-admin');
    await new TelaDespesas(celular.pagina).acao('Almoço com foto', 'Ver Detalhes');
    await capturar(celular.pagina, 'celular-despesas-admin-detalhes');
    await celular.contexto.close();

    // The employee sees both decisions and the reason (phone: on the card; computer: tooltip).
    const funcionaria = await novaPagina(navegador, CELULAR);
    await new TelaLogin(funcionaria.pagina).abrir(servidor.url);
    await new TelaLogin(funcionaria.pagina).entrar(lia.email, lia.senha);
    await funcionaria.pagina.waitForURL('**/dashboard');
    const telaLia = new TelaDespesas(funcionaria.pagina);
    await telaLia.abrir(servidor.url);
    await telaLia.item('Almoço com foto').getByText('Aprovada').waitFor();
    await telaLia.item('Pedágio offline').getByText('Motivo: Comprovante sem CNPJ do estabelecimento').waitFor();
    await capturar(funcionaria.pagina, 'celular-despesas-funcionario-avaliadas');
    // Evaluated expenses can no longer be changed: the menu has only the read actions.
    await funcionaria.pagina.getByRole('button', { name: /^Ações: Alimentação/ }).click();
    expect(await funcionaria.pagina.getByRole('menuitem').allTextContents()).toEqual(['Ver Detalhes', 'Visualizar Cupom Fiscal']);
    await funcionaria.contexto.close();

    const desktop = await novaPagina(navegador, DESKTOP);
    await new TelaLogin(desktop.pagina).abrir(servidor.url);
    await new TelaLogin(desktop.pagina).entrar(lia.email, lia.senha);
    await desktop.pagina.waitForURL('**/dashboard');
    const telaDesk = new TelaDespesas(desktop.pagina);
    await telaDesk.abrir(servidor.url);
    const rejeitada = telaDesk.item('Pedágio offline').getByText('Rejeitada');
    expect(await rejeitada.getAttribute('title')).toBe('Motivo: Comprovante sem CNPJ do estabelecimento');
    await capturar(desktop.pagina, 'desktop-despesas-funcionario');
    const modal = await telaDesk.abrirNova();
    await modal.getByRole('combobox', { name: /Cidade/ }).click();
    await capturar(desktop.pagina, 'desktop-despesas-modal');
    await desktop.contexto.close();
  });
});
