/**
 * 'Exportar pendências' and its import, in Chromium against the real server: the phone
 * offline records a sale and an expense with a receipt, saves its queue into one file, an admin
 * imports that file (twice: the second changes nothing), and when the phone gets signal its queue
 * goes without duplicating anything.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoje } from '../shared/dates';
import { ADMIN } from '../server/test/helper';
import { TelaDespesas } from './paginas/despesas';
import { TelaLogin } from './paginas/login';
import { TelaVendasFuncionario } from './paginas/vendas';
import { abrirAmbiente, fecharAmbiente } from './suporte/ambiente';
import { jpegPequeno } from './suporte/arquivos';
import { entrarComSinal } from './suporte/celular';
import { creditarSaldo, criarRotaEmCurso } from './suporte/dados';
import { abrirNavegador, abrirPerfil, capturar, CELULAR, DESKTOP, novaPagina, temChromium } from './suporte/navegador';
import type { ServidorDeTeste } from './suporte/servidor';

const sha256 = (b: Buffer | Uint8Array) => createHash('sha256').update(b).digest('hex');
const CIDADES = [5208707, 5201108, 5204508]; // Goiânia, Anápolis, Caldas Novas
const indicador = (pagina: Page) => pagina.locator('.indicador-sync');

/** Another screen size for a screenshot, once the layout's transitions (the drawer) have ended. */
async function redimensionar(pagina: Page, tela: { width: number; height: number }) {
  await pagina.setViewportSize(tela);
  await pagina.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
}

describe.skipIf(!temChromium)('exportar e importar pendências no navegador', () => {
  let servidor: ServidorDeTeste;
  let raiz: string;

  beforeAll(async () => {
    ({ servidor, raiz } = await abrirAmbiente({ pasta: 'sg-pendencias-' }));
  });
  afterAll(() => fecharAmbiente({ servidor, raiz }));

  /** Everything the import or a sync could write. */
  const contagens = () =>
    servidor.db.$client
      .prepare(
        'select (select count(*) from vendas) vendas, (select count(*) from visitas) visitas, (select count(*) from despesas) despesas, (select count(*) from movimentacoes_saldo) movimentacoes',
      )
      .get() as Record<string, number>;
  const uploads = () => fs.readdirSync(path.join(servidor.dataDir, 'uploads')).length;

  it('o celular sem sinal exporta a fila com o comprovante, o admin importa (duas vezes, sem duplicar) e depois a fila do celular sincroniza sem duplicar', async () => {
    const admin = await servidor.tokenAdmin();
    const f = await servidor.criarFuncionario({ nome: 'Rita Sertão', email: 'rita@escola.com.br' });
    const dia = hoje('America/Sao_Paulo');
    const rotaId = await criarRotaEmCurso(servidor, f.id, { nome: 'Rota do Sertão', cidades: CIDADES, diasAntes: 30, diasDepois: 30 });
    await creditarSaldo(servidor, f.id, 300, { rotaId });

    // The phone: signed in once online, its screens opened so they are kept for offline use.
    const { contexto, pagina } = await abrirPerfil(path.join(raiz, 'perfil-rita'));
    await entrarComSinal(pagina, servidor.url, f.email, f.senha);
    const vendas = new TelaVendasFuncionario(pagina);
    await vendas.abrir(servidor.url);
    await pagina.getByText('Goiânia').first().waitFor();
    const despesas = new TelaDespesas(pagina);
    await despesas.abrir(servidor.url);
    await despesas.saldoConfirmado().getByText('R$ 300,00').waitFor();
    const foto = await jpegPequeno(pagina);

    // No signal: a sale and an expense with its receipt wait on the phone.
    await contexto.setOffline(true);
    await vendas.abrir(servidor.url);
    await vendas.editar('Goiânia', { Dinheiro: '210,50', Pix: '19,50' });
    await vendas.salvar('Goiânia');
    await vendas.fecharAvisos();
    await despesas.abrir(servidor.url);
    const modal = await despesas.abrirNova();
    await despesas.preencher(modal, { tipo: 'Alimentação', valor: '38,70', descricao: 'Almoço no sertão', arquivo: { name: 'almoco-sertao.jpg', mimeType: 'image/jpeg', buffer: foto } });
    await despesas.registrar(modal);
    await indicador(pagina).getByText('Offline · 2 aguardando').waitFor();
    const antesDeTudo = contagens();
    const uploadsAntes = uploads();

    // 'Exportar pendências' in the sync panel, offline.
    await indicador(pagina).click();
    const painel = pagina.getByRole('dialog', { name: 'Sincronização' });
    const secao = painel.getByRole('region', { name: 'Exportar pendências' });
    await secao.getByRole('button', { name: 'Exportar pendências' }).scrollIntoViewIfNeeded();
    await capturar(pagina, 'celular-exportar-pendencias');
    const [download] = await Promise.all([pagina.waitForEvent('download'), secao.getByRole('button', { name: 'Exportar pendências' }).click()]);
    const nome = download.suggestedFilename();
    expect(nome).toMatch(new RegExp(`^pendencias-rita-sertao-${dia}-\\d{4}\\.sgp$`));
    await secao.getByRole('status').getByText('2 itens e 1 comprovante exportados').waitFor();
    await secao.getByText(nome, { exact: true }).waitFor();
    await secao.getByRole('status').scrollIntoViewIfNeeded();
    await capturar(pagina, 'celular-pendencias-exportadas');
    await redimensionar(pagina, DESKTOP);
    await secao.getByRole('status').scrollIntoViewIfNeeded();
    await capturar(pagina, 'computador-pendencias-exportadas');
    await redimensionar(pagina, CELULAR);
    const arquivo = path.join(raiz, nome);
    await download.saveAs(arquivo);

    // The file: the queue in order, the receipt inside, and the phone's queue untouched.
    const conteudo = JSON.parse(fs.readFileSync(arquivo, 'utf8'));
    expect(conteudo).toMatchObject({ formato: 'sistema-de-gestao/pendencias', versao: 2, funcionario: { id: f.id, nome: 'Rita Sertão', email: 'rita@escola.com.br' } });
    expect(conteudo.operacoes.map((o: { tipo: string }) => o.tipo)).toEqual(['venda.salvar', 'despesa.criar']);
    expect(sha256(Buffer.from(conteudo.operacoes[1].arquivo.base64, 'base64'))).toBe(sha256(foto));
    await painel.getByRole('region', { name: 'Aguardando envio' }).getByText('Aguardando envio (2)').waitFor();
    expect(contagens()).toEqual(antesDeTudo);

    // The admin, on another computer, imports the file from 'Usuários'.
    const navegador = await abrirNavegador();
    try {
      const { pagina: adm } = await novaPagina(navegador, DESKTOP);
      const loginAdmin = new TelaLogin(adm);
      await loginAdmin.abrir(servidor.url);
      await loginAdmin.entrar(ADMIN.email, ADMIN.senha);
      await adm.waitForURL('**/dashboard');
      await adm.goto(`${servidor.url}/usuarios`);
      await adm.getByRole('button', { name: 'Importar pendências' }).click();
      const importar = adm.getByRole('dialog', { name: 'Importar pendências' });
      await importar.getByLabel('Arquivo de pendências').setInputFiles(arquivo);
      const previa = importar.getByRole('region', { name: 'Conteúdo do arquivo' });
      await previa.getByText('Rita Sertão (rita@escola.com.br)').waitFor();
      await previa.getByText('2 registros: 1 venda e 1 despesa').waitFor();
      await capturar(adm, 'computador-importar-pendencias-previa');
      await redimensionar(adm, CELULAR);
      await capturar(adm, 'celular-importar-pendencias-previa');
      await redimensionar(adm, DESKTOP);
      await importar.getByRole('button', { name: 'Importar' }).click();
      const resultado = importar.getByRole('region', { name: 'Resultado da importação' });
      await resultado.getByText('Pendências de Rita Sertão importadas: 2 aceitos, 0 já recebidos, 0 recusados.').waitFor();
      expect(await resultado.locator('.lista-sync__item').allInnerTexts()).toEqual([
        expect.stringMatching(/Fechamento de Goiânia.*\n?.*Aceito/s),
        expect.stringMatching(/Despesa: Alimentação de R\$\s38,70 em Goiânia.*Aceito/s),
      ]);
      await capturar(adm, 'computador-importar-pendencias-resultado');
      await redimensionar(adm, CELULAR);
      await capturar(adm, 'celular-importar-pendencias-resultado');
      await redimensionar(adm, DESKTOP);

      // On the server, as the phone's sync would have written it; the receipt byte-identical.
      expect(contagens()).toEqual({ ...antesDeTudo, vendas: antesDeTudo.vendas! + 1, despesas: antesDeTudo.despesas! + 1, movimentacoes: antesDeTudo.movimentacoes! + 1 });
      expect(uploads()).toBe(uploadsAntes + 1);
      const venda = servidor.db.$client.prepare('select dinheiro_centavos as d, pix_centavos as p from vendas where funcionario_id = ? and data_venda = ?').get(f.id, dia);
      expect(venda).toEqual({ d: 21050, p: 1950 });
      const despesa = servidor.db.$client.prepare('select id, valor_centavos as v, arquivo_cupom as a from despesas where funcionario_id = ?').get(f.id) as { id: string; v: number; a: string };
      expect(despesa.v).toBe(3870);
      expect(sha256(fs.readFileSync(path.join(servidor.dataDir, 'uploads', despesa.a)))).toBe(sha256(foto));
      const cupom = await servidor.chamar({ method: 'GET', url: `/api/despesas/${despesa.id}/cupom`, token: admin });
      expect(sha256(cupom.rawPayload)).toBe(sha256(foto));
      const depoisDaImportacao = contagens();

      // The same file again: everything already received, nothing changes.
      await importar.getByRole('button', { name: 'Importar outro arquivo' }).click();
      await importar.getByLabel('Arquivo de pendências').setInputFiles(arquivo);
      await importar.getByRole('button', { name: 'Importar' }).click();
      await resultado.getByText('Pendências de Rita Sertão importadas: 0 aceitos, 2 já recebidos, 0 recusados.').waitFor();
      expect(await resultado.locator('.selo').allInnerTexts()).toEqual(['Já recebido', 'Já recebido']);
      expect(contagens()).toEqual(depoisDaImportacao);
      expect(uploads()).toBe(uploadsAntes + 1);

      // The phone gets signal later: its queue goes, and the server already has everything.
      await painel.getByRole('button', { name: 'Fechar' }).first().click();
      await contexto.setOffline(false);
      await indicador(pagina).getByText('Sincronizado').waitFor({ timeout: 60_000 });
      expect(contagens()).toEqual(depoisDaImportacao);
      expect(uploads()).toBe(uploadsAntes + 1);
      expect((await servidor.chamar({ method: 'GET', url: '/api/saldo/resumo', token: f.token })).json().saldo_atual).toBe(261.3);
      expect(await pagina.evaluate(() => new Promise<number>((ok) => {
        const pedido = indexedDB.open('sistema-de-gestao');
        pedido.onsuccess = () => {
          const contar = pedido.result.transaction('outbox').objectStore('outbox').count();
          contar.onsuccess = () => ok(contar.result);
        };
      }))).toBe(0);
    } finally {
      await navegador.close();
      await contexto.close();
    }
  });
});
