/**
 * Forged phone reports, on the admin's screen: one employee's token sends 50 reports, each with an
 * invented X-Dispositivo and 999,999 sales waiting. The dashboard's 'Pendências nos celulares' lists
 * at most 5 phones of that employee, each with the clamped count, and still shows the colleague's
 * real phone. Screenshots at 1280x800 and 390x844 (test-results/screenshots, and E2E_PASTA_CAPTURAS).
 */
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cabecalhosDoRelato, filaVazia } from '../shared/dispositivos';
import { ADMIN } from '../server/test/helper';
import { MAXIMO_CELULARES_POR_FUNCIONARIO, MAXIMO_FILA_POR_TIPO } from '../server/src/dispositivos/plugin';
import { TelaLogin } from './paginas/login';
import { abrirAmbiente, fecharAmbiente } from './suporte/ambiente';
import { capturar, CELULAR, DESKTOP, novaPagina, temChromium } from './suporte/navegador';
import type { ServidorDeTeste } from './suporte/servidor';

describe.skipIf(!temChromium)('celulares inventados no painel do admin', () => {
  let servidor: ServidorDeTeste;
  let navegador: Browser;
  let raiz: string;

  beforeAll(async () => {
    ({ servidor, navegador, raiz } = await abrirAmbiente({ navegador: true, pasta: 'sg-forjados-' }));
  });
  afterAll(() => fecharAmbiente({ servidor, navegador, raiz }));

  it(`50 ids inventados: no máximo ${MAXIMO_CELULARES_POR_FUNCIONARIO} linhas do funcionário, com a contagem limitada; o celular real da colega continua`, async () => {
    const forjador = await servidor.criarFuncionario({ nome: 'Diego Forja', email: 'diego@escola.com.br' });
    const colega = await servidor.criarFuncionario({ nome: 'Maria Souza', email: 'maria@escola.com.br' });
    const relato = (dispositivoId: string, venda: number) =>
      cabecalhosDoRelato({ dispositivoId, versao: '0.1.0', fila: { ...filaVazia(), venda }, filaIdadeS: 3 * 3600, syncIdadeS: 600 });
    expect((await servidor.chamar({ method: 'POST', url: '/api/dispositivos/relato', token: colega.token, headers: relato(uuidv7(), 2) })).statusCode).toBe(204);
    for (let i = 0; i < 50; i++) {
      const r = await servidor.chamar({ method: 'POST', url: '/api/dispositivos/relato', token: forjador.token, headers: relato(uuidv7(), 999_999) });
      expect(r.statusCode).toBe(204);
    }

    for (const [tamanho, sufixo] of [
      [DESKTOP, '1280'],
      [CELULAR, '390'],
    ] as const) {
      const { contexto, pagina } = await novaPagina(navegador, tamanho);
      const login = new TelaLogin(pagina);
      await login.abrir(servidor.url);
      await login.entrar(ADMIN.email, ADMIN.senha);
      await pagina.waitForURL('**/dashboard');
      const secao = pagina.getByRole('region', { name: 'Pendências nos celulares' });
      await secao.getByRole('listitem').filter({ hasText: 'Maria Souza' }).waitFor();
      const doForjador = secao.getByRole('listitem').filter({ hasText: 'Diego Forja' });
      expect(await doForjador.count()).toBe(MAXIMO_CELULARES_POR_FUNCIONARIO);
      for (const texto of await doForjador.allTextContents()) expect(texto).toContain(`Diego Forja — ${MAXIMO_FILA_POR_TIPO.toLocaleString('pt-BR')} vendas no celular há 3 horas`);
      await pagina.locator('.Toastify__close-button').evaluateAll((botoes) => botoes.forEach((b) => (b as HTMLElement).click()));
      await capturar(pagina, `celulares-forjados-${sufixo}`);
      await secao.screenshot({ path: path.join(process.env.E2E_PASTA_CAPTURAS ?? path.join(process.cwd(), 'test-results', 'screenshots'), `celulares-forjados-secao-${sufixo}.png`) });
      await contexto.close();
    }
  });
});
