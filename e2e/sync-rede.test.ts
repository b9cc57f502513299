/**
 * The sync engine on a harsh link, in Chromium against the real server: a day
 * recorded without signal (a ~1 MB scanned PDF first, then three closings), the signal back at
 * 250 kbit/s up and 300 ms, the link cut in the middle of the PDF's upload and back again. The
 * closings land before any byte of the PDF; after the cut the upload goes on from the byte the
 * server has (never from 0); the receipt stored is the file, byte for byte. No `online` event is
 * dispatched by the test: the engine's probe finds the signal. Every wait is for a state.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoje } from '../shared/dates';
import { TelaDespesas } from './paginas/despesas';
import { TelaVendasFuncionario } from './paginas/vendas';
import { abrirAmbiente, fecharAmbiente } from './suporte/ambiente';
import { entrarComSinal } from './suporte/celular';
import { creditarSaldo, criarRotaEmCurso } from './suporte/dados';
import { abrirPerfil, capturar, temChromium } from './suporte/navegador';
import type { ServidorDeTeste } from './suporte/servidor';

const CIDADES = [5208707, 5201108, 5204508, 5205109];
const indicador = (pagina: Page) => pagina.locator('.indicador-sync');

/** A 'scanned' PDF of ~1 MB: a PDF header, then bytes that do not compress. */
function pdfEscaneado(tamanho: number): Buffer {
  const b = Buffer.alloc(tamanho);
  b.write('%PDF-1.4\n', 0, 'latin1');
  let x = 12345;
  for (let i = 9; i < tamanho; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    b[i] = x >> 16;
  }
  return b;
}

describe.skipIf(!temChromium)('sincronização num link ruim', () => {
  let servidor: ServidorDeTeste;
  let raiz: string;

  beforeAll(async () => {
    ({ servidor, raiz } = await abrirAmbiente({ pasta: 'sg-sync-rede-' }));
  });
  afterAll(() => fecharAmbiente({ servidor, raiz }));

  // A 1 MB upload at 250 kbit/s takes ~35 s by itself: room for a loaded CI machine.
  it('as vendas chegam antes do PDF; cortado no meio, o PDF continua do byte que o servidor tem', { timeout: 300_000 }, async () => {
    const f = await servidor.criarFuncionario({ nome: 'Rita Estrada', email: 'rita@escola.com.br' });
    const rotaId = await criarRotaEmCurso(servidor, f.id, { nome: 'Rota da Serra', cidades: CIDADES, diasAntes: 10, diasDepois: 10 });
    await creditarSaldo(servidor, f.id, 500, { descricao: 'Adiantamento', rotaId });
    const { contexto, pagina } = await abrirPerfil(path.join(raiz, 'perfil-rita'));
    await entrarComSinal(pagina, servidor.url, f.email, f.senha);
    const vendas = new TelaVendasFuncionario(pagina);
    await vendas.abrir(servidor.url);
    await pagina.getByText('Goiânia').first().waitFor();
    const despesas = new TelaDespesas(pagina);
    await despesas.abrir(servidor.url);

    // The link, through the DevTools protocol: 250 kbit/s up, 1 Mbit/s down, 300 ms.
    const cdp: CDPSession = await contexto.newCDPSession(pagina);
    await cdp.send('Network.enable');
    const rede = (offline: boolean) =>
      cdp.send('Network.emulateNetworkConditions', { offline, latency: 300, downloadThroughput: 1_000_000 / 8, uploadThroughput: 250_000 / 8 });
    await rede(true);

    // The day without signal: the PDF first, then three closings.
    const pdf = pdfEscaneado(1_000_000);
    const modal = await despesas.abrirNova();
    await despesas.preencher(modal, { tipo: 'Hospedagem', valor: '180', descricao: 'Hotel (nota escaneada)', arquivo: { name: 'hotel.pdf', mimeType: 'application/pdf', buffer: pdf } });
    await despesas.registrar(modal);
    await vendas.abrir(servidor.url);
    for (const cidade of ['Goiânia', 'Anápolis', 'Caldas Novas']) {
      await vendas.editar(cidade, { Dinheiro: '100' });
      await vendas.salvar(cidade);
    }
    await indicador(pagina).getByText('Offline · 4 aguardando').waitFor();

    /** Each sync request, in the order the page made it. */
    const pedidos: { url: string; metodo: string; falhou: boolean }[] = [];
    pagina.on('request', (r) => {
      if (r.url().includes('/api/sync/')) pedidos.push({ url: r.url(), metodo: r.method(), falhou: false });
    });
    pagina.on('requestfailed', (r) => {
      const p = pedidos.findLast((x) => x.url === r.url() && x.metodo === r.method());
      if (p) p.falhou = true;
    });
    const pastaEnvios = path.join(servidor.dataDir, 'uploads-tmp', 'partes', String(f.id));
    const bytesNoServidor = () => {
      try {
        return fs
          .readdirSync(pastaEnvios)
          .filter((n) => n.endsWith('.dados'))
          .reduce((t, n) => t + fs.statSync(path.join(pastaEnvios, n)).size, 0);
      } catch {
        return 0;
      }
    };
    const vendasNoServidor = () => (servidor.db.$client.prepare('select count(*) n from vendas where funcionario_id = ?').get(f.id) as { n: number }).n;

    // Signal back (slow): the closings go first, then the PDF's parts start arriving. Requests the
    // engine tried while still offline (recorded, failed at once) say nothing of that order.
    const comSinal = pedidos.length;
    await rede(false);
    await expect.poll(bytesNoServidor, { timeout: 120_000, interval: 200 }).toBeGreaterThan(0);
    const vendasAntesDoPdf = vendasNoServidor();
    // Cut in the middle of the upload, and wait until the phone has seen its request fail.
    await rede(true);
    await expect.poll(() => pedidos.some((p) => p.metodo === 'PUT' && p.falhou), { timeout: 120_000, interval: 200 }).toBe(true);
    const partesAntesDoCorte = pedidos.filter((p) => p.metodo === 'PUT').length;
    const noServidorAoCortar = bytesNoServidor();
    expect(noServidorAoCortar).toBeGreaterThan(0);
    expect(noServidorAoCortar).toBeLessThan(pdf.length);

    // Back again: no `online` event from the test; the engine's probe finds the signal.
    await rede(false);
    const dia = hoje('America/Sao_Paulo');
    const cupom = () =>
      servidor.db.$client.prepare("select arquivo_cupom a, cupom_tamanho t from despesas where funcionario_id = ? and descricao = 'Hotel (nota escaneada)'").get(f.id) as
        | { a: string | null; t: number | null }
        | undefined;
    await expect.poll(() => cupom()?.t ?? null, { timeout: 180_000, interval: 500 }).toBe(pdf.length);
    await indicador(pagina).getByText('Sincronizado').waitFor({ timeout: 60_000 });

    // The closings had landed before the PDF's first byte did.
    expect(vendasAntesDoPdf).toBe(3);
    const primeiroLote = pedidos.findIndex((p, i) => i >= comSinal && p.url.endsWith('/api/sync/lote'));
    const primeiraParte = pedidos.findIndex((p, i) => i >= comSinal && p.metodo === 'PUT');
    expect(primeiroLote).toBeGreaterThanOrEqual(0);
    expect(primeiroLote).toBeLessThan(primeiraParte);
    expect(servidor.db.$client.prepare('select count(*) n from vendas where funcionario_id = ? and data_venda = ?').get(f.id, dia)).toEqual({ n: 3 });

    // After the cut, the upload went on from the server's offset, never from the start.
    const depois = pedidos
      .filter((p) => p.metodo === 'PUT')
      .slice(partesAntesDoCorte)
      .map((p) => Number(new URL(p.url).searchParams.get('inicio')));
    expect(depois.length).toBeGreaterThan(0);
    expect(depois[0]).toBe(noServidorAoCortar);
    expect(depois.every((inicio) => inicio > 0)).toBe(true);

    // Byte for byte, and the upload's temporary files are gone.
    const guardado = fs.readFileSync(path.join(servidor.dataDir, 'uploads', cupom()!.a!));
    expect(createHash('sha256').update(guardado).digest('hex')).toBe(createHash('sha256').update(pdf).digest('hex'));
    expect(bytesNoServidor()).toBe(0);
    await capturar(pagina, 'celular-sync-pdf-retomado');
    await contexto.close();
  });
});
