/**
 * Exporting the queue without signing in (docs/decisions/pendencias-e-celulares.md, 'Exportar sem
 * entrar'), in Chromium against the real server: an employee records sales offline, the admin
 * deactivates her, the phone is logged out and she cannot sign in again; from the login screen,
 * with no session, she exports the queue (a download naming her), and the admin imports it.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoje } from '../shared/dates';
import { ADMIN } from '../server/test/helper';
import { TelaLogin } from './paginas/login';
import { TelaUsuarios } from './paginas/usuarios';
import { TelaVendasFuncionario } from './paginas/vendas';
import { abrirAmbiente, fecharAmbiente } from './suporte/ambiente';
import { entrarComSinal } from './suporte/celular';
import { criarRotaEmCurso } from './suporte/dados';
import { abrirNavegador, abrirPerfil, capturar, CELULAR, DESKTOP, novaPagina, temChromium } from './suporte/navegador';
import type { ServidorDeTeste } from './suporte/servidor';

const GOIANIA = 5208707;
const ANAPOLIS = 5201108;

async function redimensionar(pagina: Page, tela: { width: number; height: number }) {
  await pagina.setViewportSize(tela);
  await pagina.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
}

/** The phone's outbox, read straight from IndexedDB. */
const itensNaFila = (pagina: Page) =>
  pagina.evaluate(
    () =>
      new Promise<number>((ok) => {
        const pedido = indexedDB.open('sistema-de-gestao');
        pedido.onsuccess = () => {
          const contar = pedido.result.transaction('outbox').objectStore('outbox').count();
          contar.onsuccess = () => ok(contar.result);
        };
      }),
  );

describe.skipIf(!temChromium)('funcionário desativado com registros no celular', () => {
  let servidor: ServidorDeTeste;
  let raiz: string;

  beforeAll(async () => {
    ({ servidor, raiz } = await abrirAmbiente({ pasta: 'sg-resgate-' }));
  });
  afterAll(() => fecharAmbiente({ servidor, raiz }));

  it('o login oferece exportar o que ficou no celular, sem entrar; o arquivo nomeia a funcionária e o admin o importa', async () => {
    const f = await servidor.criarFuncionario({ nome: 'Maria Silva', email: 'maria.silva@escola.com.br' });
    const dia = hoje('America/Sao_Paulo');
    await criarRotaEmCurso(servidor, f.id, { nome: 'Rota do Cerrado', cidades: [GOIANIA, ANAPOLIS], diasAntes: 10, diasDepois: 10 });

    // Her phone: signed in with signal once, the sales screen opened so it works offline.
    const { contexto, pagina } = await abrirPerfil(path.join(raiz, 'perfil-maria'));
    const navegador = await abrirNavegador();
    try {
      await entrarComSinal(pagina, servidor.url, f.email, f.senha);
      const vendas = new TelaVendasFuncionario(pagina);
      await vendas.abrir(servidor.url);
      await pagina.getByText('Goiânia').first().waitFor();

      // No signal: two closings wait on the phone.
      await contexto.setOffline(true);
      await vendas.editar('Goiânia', { Dinheiro: '150,00' });
      await vendas.salvar('Goiânia');
      await vendas.editar('Anápolis', { Pix: '80,25' });
      await vendas.salvar('Anápolis');
      await pagina.locator('.indicador-sync').getByText('Offline · 2 aguardando').waitFor();

      // Meanwhile the admin deactivates her.
      const { pagina: adm } = await novaPagina(navegador, DESKTOP);
      const loginAdmin = new TelaLogin(adm);
      await loginAdmin.abrir(servidor.url);
      await loginAdmin.entrar(ADMIN.email, ADMIN.senha);
      await adm.waitForURL('**/dashboard');
      const usuarios = new TelaUsuarios(adm);
      await usuarios.abrir(servidor.url);
      await usuarios.alternarStatus('Maria Silva', 'Desativar');
      await adm.locator('.Toastify').getByText('Usuário desativado com sucesso.').waitFor();

      // Signal again: opening the app, the server ends her session; she cannot sign in again.
      await contexto.setOffline(false);
      await pagina.reload();
      await pagina.waitForURL('**/login');
      const login = new TelaLogin(pagina);
      await login.entrar(f.email, f.senha);
      await login.aviso('Usuário inativo. Procure um administrador.').waitFor();
      expect(pagina.url()).toMatch(/\/login$/);
      expect(await itensNaFila(pagina)).toBe(2);

      // The login screen names whose work waits here, and exports it with no session.
      const secao = pagina.getByRole('region', { name: 'Pendências de Maria Silva' });
      await secao.getByText('Este aparelho guarda 2 registros não enviados de Maria Silva.').waitFor();
      await pagina.locator('.Toastify__close-button').evaluateAll((botoes) => botoes.forEach((b) => (b as HTMLElement).click()));
      await pagina.locator('.Toastify__toast').first().waitFor({ state: 'detached' });
      await capturar(pagina, 'celular-login-pendencias');
      await redimensionar(pagina, DESKTOP);
      await capturar(pagina, 'computador-login-pendencias');
      await redimensionar(pagina, CELULAR);

      const botao = secao.getByRole('button', { name: 'Exportar pendências' });
      await botao.scrollIntoViewIfNeeded();
      const [download] = await Promise.all([pagina.waitForEvent('download'), botao.click()]);
      const nome = download.suggestedFilename();
      expect(nome).toMatch(new RegExp(`^pendencias-maria-silva-${dia}-\\d{4}\\.sgp$`));
      await secao.getByRole('status').getByText('2 itens exportados.').waitFor();
      await secao.getByRole('status').scrollIntoViewIfNeeded();
      await capturar(pagina, 'celular-login-pendencias-exportadas');
      await redimensionar(pagina, DESKTOP);
      await capturar(pagina, 'computador-login-pendencias-exportadas');
      await redimensionar(pagina, CELULAR);
      const arquivo = path.join(raiz, nome);
      await download.saveAs(arquivo);
      const conteudo = JSON.parse(fs.readFileSync(arquivo, 'utf8'));
      expect(conteudo.funcionario).toEqual({ id: f.id, nome: 'Maria Silva', email: 'maria.silva@escola.com.br' });
      expect(conteudo.operacoes).toHaveLength(2);
      // Exporting keeps the queue (the server knows each item by id if it is ever sent).
      expect(await itensNaFila(pagina)).toBe(2);

      // The admin imports it: her work is replayed as hers.
      expect(servidor.db.$client.prepare('select count(*) n from vendas where funcionario_id = ?').get(f.id)).toEqual({ n: 0 });
      await usuarios.abrir(servidor.url);
      await adm.getByRole('button', { name: 'Importar pendências' }).click();
      const importar = adm.getByRole('dialog', { name: 'Importar pendências' });
      await importar.getByLabel('Arquivo de pendências').setInputFiles(arquivo);
      await importar.getByRole('region', { name: 'Conteúdo do arquivo' }).getByText('Maria Silva (maria.silva@escola.com.br)').waitFor();
      await importar.getByRole('button', { name: 'Importar' }).click();
      const resultado = importar.getByRole('region', { name: 'Resultado da importação' });
      // Read, not waited for: a refusal shows its message in the failure.
      await resultado.or(importar.locator('.campo__erro')).first().waitFor();
      expect(await importar.locator('.campo__erro').allInnerTexts()).toEqual([]);
      expect(await resultado.innerText()).toMatch(/^Pendências de Maria Silva importadas: 2 aceitos, 0 já recebidos, 0 recusados\.\s+Fechamento de Goiânia \(GO\)[^]*Aceito\s+Fechamento de Anápolis \(GO\)[^]*Aceito/);
      await capturar(adm, 'computador-importar-pendencias-desativada');
      expect(
        servidor.db.$client.prepare('select cidade_id c, dinheiro_centavos d, pix_centavos p from vendas where funcionario_id = ? and data_venda = ? order by cidade_id').all(f.id, dia),
      ).toEqual([
        { c: ANAPOLIS, d: 0, p: 8025 },
        { c: GOIANIA, d: 15000, p: 0 },
      ]);

      // She stays deactivated and still cannot sign in.
      const tentativa = await servidor.chamar({ method: 'POST', url: '/api/auth/login', payload: { email: f.email, senha: f.senha } });
      expect(tentativa.statusCode).toBe(403);
      expect(tentativa.json().codigo).toBe('usuario_inativo');
    } finally {
      await navegador.close();
      await contexto.close();
    }
  });
});
