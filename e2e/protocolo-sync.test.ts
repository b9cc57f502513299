/**
 * The sync protocol in Chromium against the real server: a refused receipt blamed on its
 * own expense only, one uploader for two tabs of the same app, and a version conflict shown to the
 * employee with both values.
 */
import path from 'node:path';
import type { CDPSession, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoje } from '../shared/dates';
import { TelaDespesas } from './paginas/despesas';
import { TelaVendasFuncionario } from './paginas/vendas';
import { abrirAmbiente, fecharAmbiente } from './suporte/ambiente';
import { estragarNoCaminho, jpegPequeno } from './suporte/arquivos';
import { entrarComSinal } from './suporte/celular';
import { funcionarioEmCampo } from './suporte/dados';
import { abrirPerfil, capturar, temChromium } from './suporte/navegador';
import type { ServidorDeTeste } from './suporte/servidor';

const CIDADES = [5208707, 5201108, 5204508, 5205109, 5211503]; // Goiânia, Anápolis, Caldas Novas, Catalão, Itumbiara
const indicador = (pagina: Page) => pagina.locator('.indicador-sync');


/** The operation ids each batch request carried. */
function idsDoLote(pedido: Request): string[] {
  const corpo = pedido.postData() ?? '';
  const json = corpo.startsWith('{') ? corpo : /name="operacoes"\r\n\r\n([\s\S]*?)\r\n--/.exec(corpo)?.[1];
  if (!json) return [];
  return (JSON.parse(json) as { operacoes: { id: string }[] }).operacoes.map((o) => o.id);
}

describe.skipIf(!temChromium)('protocolo de sincronização no navegador', () => {
  let servidor: ServidorDeTeste;
  let raiz: string;

  beforeAll(async () => {
    ({ servidor, raiz } = await abrirAmbiente({ pasta: 'sg-protocolo-' }));
  });
  afterAll(() => fecharAmbiente({ servidor, raiz }));

  const prepararFuncionario = (nome: string, email: string) =>
    funcionarioEmCampo(servidor, { nome, email, cidades: CIDADES, dias: 10, descricaoDoCredito: 'Adiantamento' });

  it('um comprovante que o servidor recusa recusa só a sua despesa, com a mensagem do arquivo; as vendas do mesmo dia chegam', async () => {
    const f = await prepararFuncionario('Gil Estrada', 'gil@escola.com.br');
    const { contexto, pagina } = await abrirPerfil(path.join(raiz, 'perfil-gil'));
    await entrarComSinal(pagina, servidor.url, f.email, f.senha);
    const vendas = new TelaVendasFuncionario(pagina);
    await vendas.abrir(servidor.url);
    await pagina.getByText('Goiânia').first().waitFor();
    const despesas = new TelaDespesas(pagina);
    await despesas.abrir(servidor.url);
    const nota = await jpegPequeno(pagina);
    await estragarNoCaminho(contexto, 'nota.jpg');

    await contexto.setOffline(true);
    await vendas.abrir(servidor.url);
    await vendas.editar('Goiânia', { Dinheiro: '100' });
    await vendas.salvar('Goiânia');
    await despesas.abrir(servidor.url);
    const modal = await despesas.abrirNova();
    // The form refuses at selection a file the server would refuse: this one is spoiled on the way instead.
    await despesas.preencher(modal, { tipo: 'Alimentação', valor: '20', descricao: 'Lanche com nota estragada', arquivo: { name: 'nota.jpg', mimeType: 'image/jpeg', buffer: nota } });
    await despesas.registrar(modal);
    await vendas.abrir(servidor.url);
    await vendas.editar('Anápolis', { Pix: '50' });
    await vendas.salvar('Anápolis');
    await indicador(pagina).getByText('Offline · 3 aguardando').waitFor();

    await contexto.setOffline(false);
    await indicador(pagina).getByText('1 precisa de atenção').waitFor({ timeout: 60_000 });
    const dia = hoje('America/Sao_Paulo');
    const noServidor = servidor.db.$client.prepare('select cidade_id, dinheiro_centavos d, pix_centavos p from vendas where funcionario_id = ? and data_venda = ? order by cidade_id').all(f.id, dia);
    expect(noServidor).toEqual([
      { cidade_id: 5201108, d: 0, p: 5000 },
      { cidade_id: 5208707, d: 10000, p: 0 },
    ]);
    await indicador(pagina).click();
    const painel = pagina.getByRole('dialog', { name: 'Sincronização' });
    const atencao = painel.getByRole('region', { name: 'Precisam de atenção' });
    await atencao.getByText(/Lanche com nota estragada|Alimentação de R\$\s20,00/).waitFor();
    await atencao.getByText(/Tipo de arquivo não aceito/).waitFor();
    expect(await atencao.getByRole('listitem').count()).toBe(1);
    await capturar(pagina, 'celular-sync-recusa-so-do-comprovante');
    await contexto.close();
  });

  it('duas abas do mesmo aparelho: uma só envia a fila, e cada operação vai ao servidor uma vez', async () => {
    const f = await prepararFuncionario('Tina Abas', 'tina@escola.com.br');
    const { contexto, pagina: primeira } = await abrirPerfil(path.join(raiz, 'perfil-tina'));
    await entrarComSinal(primeira, servidor.url, f.email, f.senha);
    // Every batch that reached the server from either tab (or anything else in this browser profile),
    // counted from the start: when it left is not the point, that each operation got there once is.
    // Tries made without signal fail in the browser ('requestfailed') and never reach it.
    const enviadas: string[] = [];
    contexto.on('requestfinished', async (r) => {
      if (r.url().endsWith('/api/sync/lote') && (await r.response())?.status() === 200) enviadas.push(...idsDoLote(r));
    });
    const segunda = await contexto.newPage();
    await segunda.goto(`${servidor.url}/dashboard`);
    await segunda.locator('.indicador-sync').waitFor();

    // Each tab's link, set through the DevTools protocol: both without signal while the day is recorded.
    const sessoes = new Map<Page, CDPSession>();
    const rede = async (p: Page, condicoes: { offline: boolean; latency: number }) => {
      let cdp = sessoes.get(p);
      if (!cdp) {
        cdp = await contexto.newCDPSession(p);
        await cdp.send('Network.enable');
        sessoes.set(p, cdp);
      }
      await cdp.send('Network.emulateNetworkConditions', { ...condicoes, downloadThroughput: -1, uploadThroughput: -1 });
    };
    await rede(primeira, { offline: true, latency: 0 });
    await rede(segunda, { offline: true, latency: 0 });
    const vendas = new TelaVendasFuncionario(primeira);
    await vendas.abrir(servidor.url);
    for (const cidade of ['Goiânia', 'Anápolis', 'Caldas Novas', 'Catalão']) {
      await vendas.editar(cidade, { Dinheiro: '10' });
      await vendas.salvar(cidade);
    }
    await indicador(primeira).getByText('Offline · 4 aguardando').waitFor();

    // Signal back in both at once, the first tab's link slow (its batch is in flight for seconds):
    // both engines start a pass.
    await Promise.all([rede(primeira, { offline: false, latency: 1500 }), rede(segunda, { offline: false, latency: 0 })]);
    await Promise.all([primeira, segunda].map((p) => p.evaluate(() => window.dispatchEvent(new Event('online')))));
    await expect.poll(() => servidor.db.$client.prepare('select count(*) n from vendas where funcionario_id = ?').get(f.id), { timeout: 60_000 }).toEqual({ n: 4 });
    await indicador(primeira).getByText('Sincronizado').waitFor({ timeout: 60_000 });
    await segunda.evaluate(() => window.dispatchEvent(new Event('online')));

    expect(enviadas).toHaveLength(4);
    expect(new Set(enviadas).size).toBe(4);
    const registradas = servidor.db.$client.prepare('select count(*) n from operacoes_aplicadas where usuario_id = ?').get(f.id) as { n: number };
    expect(registradas.n).toBe(4);
    await contexto.close();
  });

  it('um fechamento alterado em outro aparelho: o celular mostra os dois valores e a pessoa escolhe o dela', async () => {
    const f = await prepararFuncionario('Caio Conflito', 'caio@escola.com.br');
    const { contexto, pagina } = await abrirPerfil(path.join(raiz, 'perfil-caio'));
    await entrarComSinal(pagina, servidor.url, f.email, f.senha);
    const vendas = new TelaVendasFuncionario(pagina);
    await vendas.abrir(servidor.url);
    await vendas.editar('Goiânia', { Dinheiro: '100' });
    await vendas.salvar('Goiânia');
    await indicador(pagina).getByText('Sincronizado').waitFor({ timeout: 60_000 });
    await vendas.abrir(servidor.url); // the phone reads the closing (version 1) back from the server
    await vendas.irParaAba(/^Fechadas \(1\)/);

    // Offline, the phone changes it; meanwhile the same closing is changed from another device.
    await contexto.setOffline(true);
    await vendas.editar('Goiânia', { Dinheiro: '250' });
    await vendas.salvar('Goiânia');
    const venda = servidor.db.$client.prepare('select id from vendas where funcionario_id = ?').get(f.id) as { id: string };
    const outro = await servidor.chamar({ method: 'PUT', url: `/api/vendas/${venda.id}`, token: f.token, payload: { valor_dinheiro: 120, versao_base: 1 } });
    expect(outro.statusCode, outro.body).toBe(200);

    await contexto.setOffline(false);
    await indicador(pagina).getByText('1 precisa de atenção').waitFor({ timeout: 60_000 });
    await indicador(pagina).click();
    const atencao = pagina.getByRole('dialog', { name: 'Sincronização' }).getByRole('region', { name: 'Precisam de atenção' });
    await atencao.getByText(/alterado em outro aparelho/).first().waitFor();
    // Only the field that differs, this device's value first.
    const diferencas = atencao.getByRole('table', { name: 'Diferenças entre este aparelho e o servidor' });
    await diferencas.getByRole('row', { name: /Dinheiro\s+R\$\s250,00\s+R\$\s120,00/ }).waitFor();
    expect(await diferencas.getByRole('row').count()).toBe(2);
    expect((servidor.db.$client.prepare('select dinheiro_centavos d from vendas where id = ?').get(venda.id) as { d: number }).d).toBe(12_000);
    await capturar(pagina, 'celular-sync-conflito');
    await pagina.setViewportSize({ width: 1280, height: 800 });
    await capturar(pagina, 'computador-sync-conflito');
    await pagina.setViewportSize({ width: 390, height: 844 });

    await atencao.getByRole('button', { name: 'Manter o deste aparelho' }).click();
    await indicador(pagina).getByText('Sincronizado').waitFor({ timeout: 60_000 });
    expect(servidor.db.$client.prepare('select dinheiro_centavos d, versao from vendas where id = ?').get(venda.id)).toEqual({ d: 25_000, versao: 3 });
    await contexto.close();
  });
});
