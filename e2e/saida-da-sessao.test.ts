/**
 * A session the admin ends, or an account the admin deactivates, while the employee is on a screen
 * with signal: the phone lands on /login saying why, with the e-mail already typed; a write made in
 * that moment stays on the phone and its message says it leaves when the person signs in again (not
 * "when there is signal": there was). Real built client + real server, Debian's Chromium, 390x844.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TelaLogin } from './paginas/login';
import { TelaVendasFuncionario } from './paginas/vendas';
import { abrirAmbiente, fecharAmbiente } from './suporte/ambiente';
import { criarRotaEmCurso } from './suporte/dados';
import { capturar, CELULAR, DESKTOP, novaPagina, temChromium } from './suporte/navegador';
import type { ServidorDeTeste } from './suporte/servidor';

const GOIANIA = 5208707;
const ANAPOLIS = 5201108;

describe.skipIf(!temChromium)('a sessão que termina enquanto o funcionário usa o celular', () => {
  let servidor: ServidorDeTeste;
  let navegador: Browser;
  const fechar: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    ({ servidor, navegador } = await abrirAmbiente({ navegador: true, env: { LOGIN_RATE_LIMIT: '1000' } }));
  });
  afterAll(async () => {
    for (const f of fechar) await f().catch(() => {});
    await fecharAmbiente({ servidor, navegador });
  });

  async function celularDe(email: string, senha: string, tela = CELULAR): Promise<Page> {
    const { contexto, pagina } = await novaPagina(navegador, tela);
    fechar.push(() => contexto.close());
    await pagina.emulateMedia({ reducedMotion: 'reduce' });
    const login = new TelaLogin(pagina);
    await login.abrir(servidor.url);
    await login.entrar(email, senha);
    await pagina.waitForURL('**/dashboard');
    return pagina;
  }

  it('o admin encerra a sessão: a visita marcada fica no aparelho sem falar em sinal, e o login diz o motivo com o e-mail preenchido', async () => {
    const ana = await servidor.criarFuncionario({ nome: 'Ana Encerrada', email: 'ana.encerrada@escola.com.br' });
    await criarRotaEmCurso(servidor, ana.id, { nome: 'Rota Goiás', cidades: [GOIANIA, ANAPOLIS], diasAntes: 2, diasDepois: 5 });
    const celular = await celularDe(ana.email, ana.senha);
    const vendas = new TelaVendasFuncionario(celular);
    await vendas.abrir(servidor.url);
    const marcar = vendas.cartao('Goiânia').getByRole('button', { name: 'Marcar como visitada: Goiânia' });
    await marcar.waitFor();

    const r = await servidor.chamar({ method: 'POST', url: `/api/usuarios/${ana.id}/encerrar-sessoes`, token: await servidor.tokenAdmin() });
    expect(r.statusCode).toBe(200);
    await marcar.click();
    await celular.waitForURL('**/login');
    await celular.getByText('Sua sessão foi encerrada pelo administrador.').waitFor();
    expect(await celular.getByLabel('Email').inputValue()).toBe(ana.email);
    const aviso = celular.locator('.Toastify').getByText(/^Visita guardada neste aparelho/);
    await aviso.waitFor();
    expect(await aviso.textContent()).not.toContain('quando houver sinal');
    expect(await celular.evaluate(() => navigator.onLine)).toBe(true);
    await capturar(celular, 'celular-login-sessao-encerrada');

    // Signing in again sends the kept visit: the server has it.
    await celular.getByLabel('Senha').fill(ana.senha);
    await celular.getByRole('button', { name: 'Entrar' }).click();
    // Back where she was (Vendas).
    await celular.waitForURL((u) => u.pathname === '/vendas');
    await expect
      .poll(() => servidor.db.$client.prepare('select cidade_id from visitas where funcionario_id = ?').all(ana.id).map((v) => (v as { cidade_id: number }).cidade_id))
      .toEqual([GOIANIA]);
  });

  it('desativado: ao chegar no login (sem tentar entrar) o motivo já está lá, com o e-mail preenchido', async () => {
    const bia = await servidor.criarFuncionario({ nome: 'Bia Desativada', email: 'bia.desativada@escola.com.br' });
    const celular = await celularDe(bia.email, bia.senha);
    const r = await servidor.chamar({ method: 'PATCH', url: `/api/usuarios/${bia.id}/desativar`, token: await servidor.tokenAdmin() });
    expect(r.statusCode).toBe(200);
    await celular.reload();
    await celular.waitForURL('**/login');
    await celular.getByText('Usuário inativo. Procure um administrador.').waitFor();
    expect(await celular.getByLabel('Email').inputValue()).toBe(bia.email);
    await capturar(celular, 'celular-login-desativado');
  });

  it('no computador (1280x800) o motivo aparece do mesmo jeito', async () => {
    const caio = await servidor.criarFuncionario({ nome: 'Caio Computador', email: 'caio.computador@escola.com.br' });
    const pagina = await celularDe(caio.email, caio.senha, DESKTOP);
    await servidor.chamar({ method: 'POST', url: `/api/usuarios/${caio.id}/encerrar-sessoes`, token: await servidor.tokenAdmin() });
    await pagina.reload();
    await pagina.waitForURL('**/login');
    await pagina.getByText('Sua sessão foi encerrada pelo administrador.').waitFor();
    expect(await pagina.getByLabel('Email').inputValue()).toBe(caio.email);
    await capturar(pagina, 'desktop-login-sessao-encerrada');
  });
});
