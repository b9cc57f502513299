/**
 * Browser tests of the foundation: login, route guards, user management, the phone drawer.
 * Real built client + real server on a temporary database, in Debian's Chromium.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN } from '../server/test/helper';
import { Casca } from './paginas/layout';
import { TelaLogin } from './paginas/login';
import { TelaUsuarios } from './paginas/usuarios';
import { abrirAmbiente, fecharAmbiente } from './suporte/ambiente';
import { capturar, CELULAR, DESKTOP, novaPagina, temChromium } from './suporte/navegador';
import type { ServidorDeTeste } from './suporte/servidor';

describe.skipIf(!temChromium)('fundação no navegador', () => {
  let servidor: ServidorDeTeste;
  let navegador: Browser;

  beforeAll(async () => {
    ({ servidor, navegador } = await abrirAmbiente({ navegador: true }));
  });
  afterAll(() => fecharAmbiente({ servidor, navegador }));

  it('login: erros de validação, senha errada e sucesso', async () => {
    const { contexto, pagina } = await novaPagina(navegador, CELULAR);
    const login = new TelaLogin(pagina);
    await login.abrir(servidor.url);
    await pagina.getByRole('button', { name: 'Entrar' }).click();
    await expect.poll(() => login.erroDoCampo('Email é obrigatório').isVisible()).toBe(true);
    expect(await login.erroDoCampo('Senha é obrigatória').isVisible()).toBe(true);
    await capturar(pagina, 'celular-login-validacao');

    await pagina.getByLabel('Email').fill('ninguem.sem.arroba');
    await pagina.getByRole('button', { name: 'Entrar' }).click();
    await expect.poll(() => login.erroDoCampo('Email inválido').isVisible()).toBe(true);

    await login.entrar(ADMIN.email, 'senha-errada');
    // The one answer for a wrong password, an unknown e-mail and a blocked account, under the form (and in a toast).
    await pagina.locator('form [role=alert]').filter({ hasText: 'Email ou senha inválidos. Após 5 tentativas erradas, o acesso fica bloqueado por 15 minutos.' }).waitFor();

    await login.entrar(ADMIN.email, ADMIN.senha);
    await pagina.waitForURL('**/dashboard');
    await login.aviso('Login realizado com sucesso!').waitFor();
    await new Casca(pagina).saudacao('Administrador').waitFor();
    await capturar(pagina, 'celular-dashboard-admin');
    await contexto.close();
  });

  it('login recusado: o toast da especificação no alto à direita e a mesma mensagem sob o formulário, a 390 e a 1280 px', async () => {
    const MENSAGEM = 'Email ou senha inválidos. Após 5 tentativas erradas, o acesso fica bloqueado por 15 minutos.';
    const quem = await servidor.criarFuncionario({ nome: 'Téo Senha Errada', email: 'teo.senha@escola.com.br' });
    for (const [tela, nome] of [
      [CELULAR, 'celular'],
      [DESKTOP, 'desktop'],
    ] as const) {
      const { contexto, pagina } = await novaPagina(navegador, tela);
      const login = new TelaLogin(pagina);
      await login.abrir(servidor.url);
      await login.entrar(quem.email, 'senha-errada');
      const aviso = pagina.locator('.Toastify__toast').filter({ hasText: MENSAGEM });
      await aviso.waitFor();
      await pagina.locator('form [role=alert]').filter({ hasText: MENSAGEM }).waitFor();
      // Settled where it slides to (top right), then measured.
      await aviso.evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished)));
      const caixa = (await aviso.boundingBox())!;
      // The container's margin at the right (react-toastify's offset) and nothing else.
      expect(caixa.x + caixa.width).toBeGreaterThan(tela.width - 64);
      // On the computer wholly on the right half; on the phone react-toastify spans the width, under the top.
      if (tela === DESKTOP) expect(caixa.x).toBeGreaterThan(tela.width / 2);
      expect(caixa.x + caixa.width).toBeLessThanOrEqual(tela.width);
      expect(caixa.y).toBeLessThan(tela.height / 4);
      await capturar(pagina, `${nome}-login-recusado-toast`);
      await contexto.close();
    }
  });

  it('guarda de rotas: anônimo vai ao login e volta à origem; funcionário não abre /usuarios; caminho desconhecido vai ao dashboard', async () => {
    const funcionario = await servidor.criarFuncionario({ nome: 'Fátima Estrada', email: 'fatima@escola.com.br' });
    const { contexto, pagina } = await novaPagina(navegador, DESKTOP);
    await pagina.goto(`${servidor.url}/usuarios`);
    await pagina.waitForURL('**/login');
    await new TelaLogin(pagina).entrar(ADMIN.email, ADMIN.senha);
    await pagina.waitForURL('**/usuarios');
    await pagina.goto(`${servidor.url}/nao-existe`);
    await pagina.waitForURL('**/dashboard');
    await pagina.goto(`${servidor.url}/`);
    await pagina.waitForURL('**/dashboard');
    await contexto.close();

    const outra = await novaPagina(navegador, DESKTOP);
    await new TelaLogin(outra.pagina).abrir(servidor.url);
    await new TelaLogin(outra.pagina).entrar(funcionario.email, funcionario.senha);
    await outra.pagina.waitForURL('**/dashboard');
    expect(await outra.pagina.getByRole('link', { name: 'Usuários' }).count()).toBe(0);
    await outra.pagina.goto(`${servidor.url}/usuarios`);
    await outra.pagina.waitForURL('**/dashboard');
    await outra.contexto.close();
  });

  it('admin cria, edita, desativa e desbloqueia usuários', async () => {
    const { contexto, pagina } = await novaPagina(navegador, DESKTOP);
    await new TelaLogin(pagina).abrir(servidor.url);
    await new TelaLogin(pagina).entrar(ADMIN.email, ADMIN.senha);
    await pagina.waitForURL('**/dashboard');
    const tela = new TelaUsuarios(pagina);
    await tela.abrir(servidor.url);

    await tela.criar({ nome: 'Gustavo Viagem', email: 'gustavo@escola.com.br', senha: 'estrada1' });
    await pagina.getByText('Usuário criado com sucesso!').waitFor();
    await tela.linha('Gustavo Viagem').waitFor();
    await capturar(pagina, 'desktop-usuarios');

    await tela.editar('Gustavo Viagem', { nome: 'Gustavo Viajante', novaSenha: 'novasenha' });
    await pagina.getByText('Usuário atualizado com sucesso!').waitFor();
    await tela.linha('Gustavo Viajante').waitFor();
    // The new password works.
    const login = await servidor.chamar({ method: 'POST', url: '/api/auth/login', payload: { email: 'gustavo@escola.com.br', senha: 'novasenha' } });
    expect(login.statusCode).toBe(200);

    await tela.alternarStatus('Gustavo Viajante', 'Desativar');
    await pagina.getByText('Usuário desativado com sucesso.').waitFor();
    await tela.aba(/^Inativos \(1\)/).click();
    await tela.linha('Gustavo Viajante').waitFor();
    await tela.alternarStatus('Gustavo Viajante', 'Ativar');
    await pagina.getByText('Usuário ativado com sucesso.').waitFor();

    // Five wrong passwords block the account; the admin unlocks it.
    for (let i = 0; i < 5; i++) {
      await servidor.chamar({ method: 'POST', url: '/api/auth/login', payload: { email: 'gustavo@escola.com.br', senha: 'errada' } });
    }
    await pagina.reload();
    await tela.aba(/^Bloqueados \(1\)/).click();
    await tela.linha('Gustavo Viajante').getByText('Bloqueado (5 tentativas)').waitFor();
    await capturar(pagina, 'desktop-usuarios-bloqueados');
    await tela.desbloquear('Gustavo Viajante');
    await pagina.getByText('Usuário desbloqueado com sucesso.').waitFor();
    await tela.aba(/^Bloqueados \(0\)/).waitFor();
    const depois = await servidor.chamar({ method: 'POST', url: '/api/auth/login', payload: { email: 'gustavo@escola.com.br', senha: 'novasenha' } });
    expect(depois.statusCode).toBe(200);
    await contexto.close();
  });

  it('a 390 px o menu é uma gaveta que a sobreposição fecha', async () => {
    const { contexto, pagina } = await novaPagina(navegador, CELULAR);
    await new TelaLogin(pagina).abrir(servidor.url);
    await new TelaLogin(pagina).entrar(ADMIN.email, ADMIN.senha);
    await pagina.waitForURL('**/dashboard');
    const casca = new Casca(pagina);
    const menu = casca.menu();
    const foraDaTela = async () => ((await menu.boundingBox())?.x ?? 0) < 0;
    expect(await foraDaTela()).toBe(true);
    await casca.abrirGaveta();
    await expect.poll(async () => (await menu.boundingBox())?.x).toBe(0);
    await capturar(pagina, 'celular-gaveta-aberta');
    await pagina.mouse.click(370, 400); // on the overlay, right of the drawer
    await expect.poll(foraDaTela).toBe(true);

    await casca.abrirGaveta();
    await expect.poll(async () => (await menu.boundingBox())?.x).toBe(0);
    await casca.irPara('Usuários');
    await pagina.waitForURL('**/usuarios');
    await expect.poll(foraDaTela).toBe(true);
    await capturar(pagina, 'celular-usuarios');

    await casca.abrirGaveta();
    await casca.sair();
    await pagina.waitForURL('**/login');
    await contexto.close();
  });
});
