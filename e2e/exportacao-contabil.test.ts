/**
 * The month for the accountant in the browser: Relatórios' 'Exportar para o contador' asks the period
 * (the month of today filled in), shows the bytes arriving on a slow link, then 'Pronto', and the file
 * the browser saves is a ZIP with the expenses, the sales, the summary and the receipt byte for byte.
 * Screenshots at 1280x800 and 390x844: the dialog, the progress, the result.
 */
import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoje } from '../shared/dates';
import { mesDe } from '../shared/exportacoes';
import { ARQUIVOS, camposDeDespesa, formulario, sha256, type ArquivoTeste } from '../server/test/despesas';
import { inserirVenda } from '../server/test/fabricas';
import { lerZip } from '../server/test/zip';
import { TelaRelatorios } from './paginas/relatorios';
import { criarRotaEmCurso } from './suporte/dados';
import { abrirNavegador, capturar, CELULAR, DESKTOP, temChromium } from './suporte/navegador';
import { entrarComoAdmin } from './suporte/admin';
import { iniciarServidor, type ServidorDeTeste } from './suporte/servidor';

describe.skipIf(!temChromium)('Exportação para o contador no navegador', () => {
  let servidor: ServidorDeTeste;
  let navegador: Browser;
  const dia = hoje('America/Sao_Paulo');
  const mes = mesDe(dia);
  let foto: ArquivoTeste;

  beforeAll(async () => {
    servidor = await iniciarServidor();
    navegador = await abrirNavegador();
    const ana = await servidor.criarFuncionario({ nome: 'Ana Estrada' });
    const rota = await criarRotaEmCurso(servidor, ana.id, { nome: 'Rota Goiás', cidades: [5208707, 5201108], diasAntes: 40, diasDepois: 20 });
    // A receipt of 1,5 MB: on the slowed link below the download takes a few seconds, long enough to see it progress.
    const base = ARQUIVOS.jpeg();
    foto = { ...base, nome: 'nota-do-almoco.jpg', conteudo: Buffer.concat([base.conteudo, Buffer.alloc(1536 * 1024 - base.conteudo.length, 9)]) };
    const campos = camposDeDespesa(rota, { data_despesa: dia, valor: '48,00', descricao: 'Almoço da equipe' });
    const r = await servidor.chamar({ method: 'POST', url: '/api/despesas', token: ana.token, ...(await formulario(campos, foto)) });
    expect(r.statusCode, r.body).toBe(201);
    await inserirVenda(servidor.db, rota, ana.id, 5208707, dia, { dinheiro: 150_000, pix: 2_550, boletos: 2 });
  });
  afterAll(async () => {
    await navegador?.close();
    await servidor?.fechar();
  });


  /** Slows the page's link (Chromium's network emulation) so the download's progress can be seen. */
  async function linkLento(pagina: Page, bytesPorSegundo: number) {
    const cdp = await pagina.context().newCDPSession(pagina);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: bytesPorSegundo, uploadThroughput: -1 });
  }

  for (const [nome, tela] of [
    ['desktop', DESKTOP],
    ['celular', CELULAR],
  ] as const) {
    it(`${nome}: pede o período (o mês de hoje), mostra o progresso e baixa o ZIP com as planilhas, o resumo e o comprovante`, async () => {
      const { contexto, pagina } = await entrarComoAdmin(navegador, servidor.url, tela);
      const relatorios = new TelaRelatorios(pagina);
      await relatorios.abrir(servidor.url);
      await pagina.getByRole('button', { name: 'Exportar para o contador' }).scrollIntoViewIfNeeded();
      await capturar(pagina, `${nome}-relatorios-contador`);

      await pagina.getByRole('button', { name: 'Exportar para o contador' }).click();
      const dialogo = pagina.getByRole('dialog', { name: 'Exportar para o contador' });
      await expect.poll(() => dialogo.getByLabel('Data inicial').inputValue()).toBe(mes.inicio);
      expect(await dialogo.getByLabel('Data final').inputValue()).toBe(mes.fim);
      await capturar(pagina, `${nome}-relatorios-contador-periodo`);

      await linkLento(pagina, 300 * 1024);
      const baixando = pagina.waitForEvent('download', { timeout: 60_000 });
      await dialogo.getByRole('button', { name: 'Exportar', exact: true }).click();
      await relatorios.progressoContador().getByText(/^Baixando… .* recebidos$/).waitFor();
      await capturar(pagina, `${nome}-relatorios-contador-progresso`);
      const download = await baixando;
      await relatorios.progressoContador().getByText(`Pronto: contabilidade_${mes.inicio}_a_${mes.fim}.zip`, { exact: false }).waitFor();
      await capturar(pagina, `${nome}-relatorios-contador-pronto`);

      expect(download.suggestedFilename()).toBe(`contabilidade_${mes.inicio}_a_${mes.fim}.zip`);
      const entradas = lerZip(fs.readFileSync((await download.path())!));
      expect(entradas.map((e) => e.nome)).toEqual(['despesas.csv', 'vendas.csv', 'resumo.pdf', `comprovantes/${dia}_ana-estrada_alimentacao_48-00.jpg`]);
      const despesas = entradas[0]!.dados.toString('utf8');
      expect(despesas.startsWith('\uFEFFData;Funcionário;Rota;')).toBe(true);
      expect(despesas).toContain(`;Ana Estrada;Rota Goiás;Anápolis;GO;Alimentação;48;Almoço da equipe;Pendente;;;1;comprovantes/${dia}_ana-estrada_alimentacao_48-00.jpg`);
      expect(entradas[1]!.dados.toString('utf8')).toContain(';Ana Estrada;Rota Goiás;Ativa;Goiânia;GO;1500;25,50;0;0;2;1525,50;');
      expect(entradas[2]!.dados.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(sha256(entradas[3]!.dados)).toBe(sha256(foto.conteudo));
      await contexto.close();
    }, 120_000);
  }

  for (const [nome, tela] of [
    ['desktop', DESKTOP],
    ['celular', CELULAR],
  ] as const) {
    it(`${nome}: Vendas, Despesas e Auditoria exportam o conjunto filtrado inteiro pelo servidor`, async () => {
      const { contexto, pagina } = await entrarComoAdmin(navegador, servidor.url, tela);
      for (const [tela_, caminho, arquivo, minimo] of [
        ['vendas', '/vendas', 'vendas.csv', 1 + 1],
        ['despesas', '/despesas', 'despesas.csv', 1 + 1],
        ['auditoria', '/auditoria', 'auditoria.csv', 1 + 2],
      ] as const) {
        await pagina.goto(`${servidor.url}${caminho}`);
        const botao = pagina.getByRole('button', { name: 'Exportar CSV' });
        await expect.poll(() => botao.isEnabled()).toBe(true);
        const baixando = pagina.waitForEvent('download');
        await botao.click();
        const download = await baixando;
        await pagina.getByText(`Pronto: ${arquivo}`, { exact: false }).waitFor();
        await botao.scrollIntoViewIfNeeded();
        await capturar(pagina, `${nome}-${tela_}-exportar-csv`);
        expect(download.suggestedFilename()).toBe(arquivo);
        const csv = fs.readFileSync((await download.path())!, 'utf8');
        expect(csv.startsWith('\uFEFF')).toBe(true);
        expect(csv.split('\r\n').filter(Boolean).length).toBeGreaterThanOrEqual(minimo);
      }
      await contexto.close();
    }, 120_000);
  }
});
