/**
 * Browser tests of 'Saldo dos Funcionários': an admin credits an employee through the modal (the
 * only active route chosen for them), sees the balance, the movement and the report; an employee
 * cannot reach the page. Real built client + real server, Debian's Chromium.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN } from '../server/test/helper';
import { ANAPOLIS, GOIANIA, criarRotaAtiva } from '../server/test/despesas';
import { TelaLogin } from './paginas/login';
import { TelaSaldo } from './paginas/saldo';
import { abrirNavegador, capturar, CELULAR, DESKTOP, novaPagina, temChromium } from './suporte/navegador';
import { iniciarServidor, type ServidorDeTeste } from './suporte/servidor';

describe.skipIf(!temChromium)('saldo no navegador', () => {
  let servidor: ServidorDeTeste;
  let navegador: Browser;
  let irene: { id: number; email: string; senha: string; token: string };

  beforeAll(async () => {
    servidor = await iniciarServidor();
    navegador = await abrirNavegador();
    irene = await servidor.criarFuncionario({ nome: 'Irene Estrada', email: 'irene@escola.com.br' });
    await criarRotaAtiva(servidor, irene.id, [GOIANIA, ANAPOLIS], 'Rota Centro-Oeste');
    await servidor.criarFuncionario({ nome: 'Jonas Sem Rota', email: 'jonas@escola.com.br' });
  });
  afterAll(async () => {
    await navegador?.close();
    await servidor?.fechar();
  });

  it('admin adiciona saldo pelo modal e vê saldo, histórico e relatório', async () => {
    const { contexto, pagina } = await novaPagina(navegador, DESKTOP);
    await new TelaLogin(pagina).abrir(servidor.url);
    await new TelaLogin(pagina).entrar(ADMIN.email, ADMIN.senha);
    await pagina.waitForURL('**/dashboard');
    const tela = new TelaSaldo(pagina);
    await tela.abrir(servidor.url);
    await expect.poll(() => tela.cartao('Total de Funcionários').textContent()).toBe('2');
    await tela.linha('Jonas Sem Rota').waitFor();
    await capturar(pagina, 'desktop-saldo-saldos-vazio');

    const modal = await tela.abrirModal();
    await tela.escolherFuncionario('Jonas Sem Rota');
    await modal.getByRole('alert').filter({ hasText: 'Funcionário não possui rota ativa' }).waitFor();
    expect(await modal.getByRole('button', { name: 'Adicionar Saldo' }).isDisabled()).toBe(true);

    await tela.escolherFuncionario('Irene Estrada');
    await expect.poll(async () => modal.getByLabel('Rota').locator('option:checked').textContent()).toBe('Rota Centro-Oeste');
    await modal.getByLabel('Valor (R$)').fill('750,25');
    await modal.getByLabel('Descrição').fill('Adiantamento da semana');
    await capturar(pagina, 'desktop-saldo-modal');
    await modal.getByRole('button', { name: 'Adicionar Saldo' }).click();
    await modal.getByText('Saldo adicionado com sucesso!').waitFor();
    await modal.waitFor({ state: 'detached', timeout: 5000 });

    await expect.poll(() => tela.linha('Irene Estrada').locator('.valor-positivo').textContent()).toMatch(/R\$\s750,25/);
    await expect.poll(() => tela.cartao('Saldo Total').textContent()).toMatch(/R\$\s750,25/);
    expect(await tela.cartao('Movimentações Hoje').textContent()).toBe('1');
    await capturar(pagina, 'desktop-saldo-saldos');

    await tela.aba('Histórico de Movimentações').click();
    const mov = tela.linha('Adiantamento da semana');
    await mov.waitFor();
    for (const texto of ['Irene Estrada', 'Crédito', 'Administrador', 'Rota Centro-Oeste']) expect(await mov.textContent()).toContain(texto);
    await capturar(pagina, 'desktop-saldo-historico');

    await tela.aba('Relatório').click();
    await tela.linha('Rota Centro-Oeste').waitFor();
    await capturar(pagina, 'desktop-saldo-relatorio');

    // The server's ledger says the same.
    const r = await servidor.chamar({ method: 'GET', url: `/api/saldo/funcionario/${irene.id}`, token: irene.token });
    expect(r.json().saldo.saldo_atual).toBe(750.25);
    await contexto.close();
  });

  it('no celular as abas viram cartões; o funcionário não chega à página', async () => {
    const { contexto, pagina } = await novaPagina(navegador, CELULAR);
    await new TelaLogin(pagina).abrir(servidor.url);
    await new TelaLogin(pagina).entrar(ADMIN.email, ADMIN.senha);
    await pagina.waitForURL('**/dashboard');
    const tela = new TelaSaldo(pagina);
    await tela.abrir(servidor.url);
    await tela.linha('Irene Estrada').waitFor();
    await capturar(pagina, 'celular-saldo-saldos');
    await tela.aba('Histórico de Movimentações').click();
    await tela.linha('Adiantamento da semana').waitFor();
    await capturar(pagina, 'celular-saldo-historico');
    await tela.aba('Relatório').click();
    await tela.linha('Rota Centro-Oeste').waitFor();
    await capturar(pagina, 'celular-saldo-relatorio');
    await tela.abrirModal();
    await tela.escolherFuncionario('Irene Estrada');
    await expect.poll(async () => tela.modal().getByLabel('Rota').locator('option:checked').textContent()).toBe('Rota Centro-Oeste');
    await capturar(pagina, 'celular-saldo-modal');
    await contexto.close();

    const outra = await novaPagina(navegador, CELULAR);
    await new TelaLogin(outra.pagina).abrir(servidor.url);
    await new TelaLogin(outra.pagina).entrar(irene.email, irene.senha);
    await outra.pagina.waitForURL('**/dashboard');
    await outra.pagina.goto(`${servidor.url}/saldo`);
    await outra.pagina.waitForURL('**/dashboard');
    await outra.contexto.close();
  });
});
