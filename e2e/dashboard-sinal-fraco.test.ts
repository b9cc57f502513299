/**
 * The employee's dashboard on a weak link: every answer of the API held back (the 25 s a slow cell
 * takes), the app opened cold on a phone that already holds the day's copies. The figures come from
 * the device at once, while no answer has arrived, saying 'Atualizando…'; when the answers are let
 * through they replace the copy and the note goes. Real built client + real server, 390x844 and 1280x800.
 */
import type { Browser, Page, Route } from 'playwright-core';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoje, somarDias } from '../shared/dates';
import { TelaDashboardFuncionario } from './paginas/dashboard';
import { TelaLogin } from './paginas/login';
import { abrirAmbiente, fecharAmbiente } from './suporte/ambiente';
import { creditarSaldo, criarRotaEmCurso } from './suporte/dados';
import { capturar, CELULAR, DESKTOP, temChromium } from './suporte/navegador';
import type { ServidorDeTeste } from './suporte/servidor';

const GOIANIA = 5208707;
const ANAPOLIS = 5201108;
const HOJE = hoje('America/Sao_Paulo');
/** How long a weak cell takes to answer: the most a held request waits if the test never lets it go. */
const ATRASO_MS = 25_000;

describe.skipIf(!temChromium)('dashboard do funcionário com sinal fraco', () => {
  let servidor: ServidorDeTeste;
  let navegador: Browser;

  beforeAll(async () => {
    ({ servidor, navegador } = await abrirAmbiente({ navegador: true }));
  });
  afterAll(() => fecharAmbiente({ servidor, navegador }));

  /**
   * Holds every API request until `liberar()` (or ATRASO_MS); counts the answers that got through,
   * so the test knows the figures on screen came from the device and not from the server.
   */
  async function segurarRespostas(pagina: Page) {
    let soltar!: () => void;
    const liberada = new Promise<void>((r) => (soltar = r));
    const estado = { respondidas: 0 };
    await pagina.route('**/api/**', async (rota: Route) => {
      let limite: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([liberada, new Promise<void>((r) => (limite = setTimeout(r, ATRASO_MS)))]);
      clearTimeout(limite);
      // The app may have given up on it meanwhile (its own time limit): nothing to answer then.
      await rota
        .continue()
        .then(() => (estado.respondidas += 1))
        .catch(() => undefined);
    });
    return { estado, liberar: soltar };
  }

  for (const tela of [CELULAR, DESKTOP]) {
    it(`${tela.width}x${tela.height}: abre com a cópia do aparelho na hora, diz 'Atualizando…', e a resposta do servidor a substitui`, async () => {
      const f = await servidor.criarFuncionario({ nome: `Lia Sinal ${tela.width}`, email: `lia.sinal.${tela.width}@escola.com.br` });
      const rotaId = await criarRotaEmCurso(servidor, f.id, { nome: 'Rota Goiás', cidades: [GOIANIA, ANAPOLIS], diasAntes: 5, diasDepois: 10 });
      const v = await servidor.chamar({ method: 'POST', url: '/api/vendas', token: f.token, payload: { id: uuidv7(), rota_id: rotaId, cidade_id: GOIANIA, data_venda: somarDias(HOJE, -1), valor_dinheiro: 900, valor_boletos: 1 } });
      expect(v.statusCode, v.body).toBe(201);
      await creditarSaldo(servidor, f.id, 300, { rotaId });

      // Service workers off: the page's own requests are the ones held (a worker's would pass by).
      const contexto = await navegador.newContext({ viewport: tela, locale: 'pt-BR', timezoneId: 'America/Sao_Paulo', serviceWorkers: 'block' });
      try {
        const pagina = await contexto.newPage();
        await pagina.emulateMedia({ reducedMotion: 'reduce' });
        const login = new TelaLogin(pagina);
        await login.abrir(servidor.url);
        await login.entrar(f.email, f.senha);
        await pagina.waitForURL('**/dashboard');
        const painel = new TelaDashboardFuncionario(pagina);
        // With a good link first: the answers are kept on the phone.
        await expect.poll(() => painel.saldoConfirmado()).toBe('R$ 300,00');
        const total = await painel.total();
        expect(total).toMatch(/^R\$ /);
        await pagina.getByText('Atualizando…').waitFor({ state: 'detached' });

        // The link turns weak; the app is opened again from nothing.
        const { estado, liberar } = await segurarRespostas(pagina);
        await pagina.reload();
        await pagina.getByText('Atualizando…').waitFor();
        expect(await painel.valor('Rota Ativa')).toContain('Rota Goiás');
        await expect.poll(() => painel.saldoConfirmado()).toBe('R$ 300,00');
        await expect.poll(() => painel.total()).toBe(total);
        expect(await painel.valor('Rotas Concluídas')).toBe('0');
        expect(await pagina.locator('.esqueleto-texto').count()).toBe(0);
        // Not one answer has arrived: all of this is the device's copy.
        expect(estado.respondidas).toBe(0);
        await capturar(pagina, `${tela === CELULAR ? 'celular' : 'desktop'}-dashboard-sinal-fraco`);

        // The answers arrive: the note goes, the figures stay (the server agrees).
        liberar();
        await pagina.getByText('Atualizando…').waitFor({ state: 'detached', timeout: ATRASO_MS });
        expect(estado.respondidas).toBeGreaterThan(0);
        expect(await painel.saldoConfirmado()).toBe('R$ 300,00');
        expect(await painel.total()).toBe(total);
      } finally {
        await contexto.close();
      }
    });
  }
});
