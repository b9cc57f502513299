/**
 * Browser test of deactivating an employee who still holds money, an active route and unsent records
 * on the phone: the confirmation says so before the 'Sim'; afterwards the money stays in Saldo (marked
 * 'Inativo'), the dashboard's counts add up with the employee in route, and Relatórios still offers
 * them. Real built client + real server, Debian's Chromium; screenshots at 390x844 and 1280x800.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cabecalhosDoRelato, filaVazia } from '../shared/dispositivos';
import { TelaDashboardAdmin } from './paginas/dashboard';
import { TelaSaldo } from './paginas/saldo';
import { TelaUsuarios } from './paginas/usuarios';
import { abrirAmbiente, fecharAmbiente } from './suporte/ambiente';
import { creditarSaldo, criarRotaEmCurso } from './suporte/dados';
import { capturar, CELULAR, DESKTOP, temChromium } from './suporte/navegador';
import { entrarComoAdmin as entrarComoAdminEm } from './suporte/admin';
import type { ServidorDeTeste } from './suporte/servidor';

const GOIANIA = 5208707;
const ANAPOLIS = 5201108;
const CALDAS = 5204508;
const sp = (t: string | null) => (t ?? '').replace(/\u00a0/g, ' ').replace(/\s+/g, ' ').trim();

describe.skipIf(!temChromium)('desativar quem ainda tem saldo, rota e registros no celular', () => {
  let servidor: ServidorDeTeste;
  let navegador: Browser;

  beforeAll(async () => {
    ({ servidor, navegador } = await abrirAmbiente({ navegador: true }));
    const ana = await servidor.criarFuncionario({ nome: 'Ana Estrada', email: 'ana@escola.com.br' });
    const rotaAna = await criarRotaEmCurso(servidor, ana.id, { nome: 'Rota Goiás', cidades: [GOIANIA, ANAPOLIS], diasAntes: 5, diasDepois: 10 });
    await creditarSaldo(servidor, ana.id, 700, { rotaId: rotaAna });
    // Her phone says two sales wait on it (the header every request of the app carries).
    const relato = cabecalhosDoRelato({ dispositivoId: '11111111-2222-4333-8444-555555555555', versao: '0.5.0', fila: { ...filaVazia(), venda: 2 }, filaIdadeS: 3 * 3600, syncIdadeS: 3600 });
    expect((await servidor.chamar({ method: 'GET', url: '/api/rotas/ativas/funcionario', token: ana.token, headers: relato })).statusCode).toBe(200);
    const bruno = await servidor.criarFuncionario({ nome: 'Bruno Campo', email: 'bruno@escola.com.br' });
    await criarRotaEmCurso(servidor, bruno.id, { nome: 'Rota Sul', cidades: [CALDAS], diasAntes: 5, diasDepois: 10 });
    await servidor.criarFuncionario({ nome: 'Carla Sem Nada', email: 'carla@escola.com.br' });
  });
  afterAll(() => fecharAmbiente({ servidor, navegador }));

  async function entrarComoAdmin(tela: typeof CELULAR): Promise<{ pagina: Page; fechar: () => Promise<void> }> {
    const { contexto, pagina } = await entrarComoAdminEm(navegador, servidor.url, tela);
    return { pagina, fechar: () => contexto.close() };
  }

  it('no celular, a confirmação diz a rota, o saldo e os registros não enviados; "Não" não desativa', async () => {
    const { pagina, fechar } = await entrarComoAdmin(CELULAR);
    const usuarios = new TelaUsuarios(pagina);
    await usuarios.abrir(servidor.url);
    await pagina.getByRole('button', { name: 'Desativar Ana Estrada' }).click();
    const fatos = usuarios.modal().getByRole('list', { name: 'O que fica com Ana Estrada' });
    await fatos.waitFor();
    const texto = sp(await fatos.textContent());
    expect(texto).toContain('Rota ativa: Rota Goiás.');
    expect(texto).toContain('Saldo: R$ 700,00.');
    expect(texto).toMatch(/Registros não enviados: 2 vendas no celular há 3 horas · última sincronização \d\d\/\d\d \d\d:\d\d\. Nada se perde/);
    expect(texto).toContain("'Importar pendências'");
    await capturar(pagina, 'celular-usuarios-desativar-confirmacao');
    await usuarios.modal().getByRole('button', { name: 'Não' }).click();
    await usuarios.modal().waitFor({ state: 'detached' });

    // Nothing to report: the plain question.
    await pagina.getByRole('button', { name: 'Desativar Carla Sem Nada' }).click();
    await usuarios.modal().getByRole('button', { name: 'Sim' }).and(pagina.locator(':enabled')).waitFor();
    expect(await usuarios.modal().getByRole('list').count()).toBe(0);
    await usuarios.modal().getByRole('button', { name: 'Não' }).click();
    await fechar();
  });

  it('no computador, desativa; o saldo fica em Saldo com o selo, o dashboard fecha a conta e Relatórios ainda oferece a funcionária', async () => {
    const { pagina, fechar } = await entrarComoAdmin(DESKTOP);
    const usuarios = new TelaUsuarios(pagina);
    await usuarios.abrir(servidor.url);
    await pagina.getByRole('button', { name: 'Desativar Ana Estrada' }).click();
    await usuarios.modal().getByRole('list', { name: 'O que fica com Ana Estrada' }).waitFor();
    expect(sp(await usuarios.modal().textContent())).toContain('A sessão de Ana Estrada termina na hora; ninguém entra mais com essa conta.');
    await capturar(pagina, 'desktop-usuarios-desativar-confirmacao');
    await usuarios.modal().getByRole('button', { name: 'Sim' }).click();
    await pagina.locator('.Toastify').getByText('Usuário desativado com sucesso.').waitFor();

    const saldo = new TelaSaldo(pagina);
    await saldo.abrir(servidor.url);
    const linhaAna = saldo.linha('Ana Estrada');
    await linhaAna.getByText('Inativo').waitFor();
    await expect.poll(async () => sp(await saldo.cartao('Saldo Total').textContent())).toBe('R$ 700,00');
    expect(await saldo.cartao('Total de Funcionários').textContent()).toBe('3');
    await capturar(pagina, 'desktop-saldo-inativo');
    await saldo.aba('Relatório').click();
    await saldo.linha('Rota Goiás').getByText('Inativo').waitFor();

    const painel = new TelaDashboardAdmin(pagina);
    await painel.abrir(servidor.url);
    await expect.poll(() => painel.numero('Rotas Ativas')).toBe('2');
    expect(await painel.numero('Funcionários em Rota')).toBe('2');
    expect(await painel.numero('Funcionários sem Rota')).toBe('1');
    await capturar(pagina, 'desktop-dashboard-numeros');
    expect(await painel.linha('Funcionários em Rota', 'Ana Estrada')).toEqual(['Ana Estrada Inativo', 'Rota Goiás', 'R$ 700,00', 'R$ 0,00', '0/2']);
    await painel.tabela('Funcionários em Rota').scrollIntoViewIfNeeded();
    await capturar(pagina, 'desktop-dashboard-inativo');

    await pagina.goto(`${servidor.url}/relatorios`);
    const filtro = pagina.getByLabel('Funcionário', { exact: true });
    await filtro.locator('option', { hasText: 'Ana Estrada (inativo)' }).waitFor({ state: 'attached' });
    await fechar();
  });

  it('no celular, Saldo e o dashboard mostram o selo nos cartões', async () => {
    const { pagina, fechar } = await entrarComoAdmin(CELULAR);
    const saldo = new TelaSaldo(pagina);
    await saldo.abrir(servidor.url);
    await saldo.linha('Ana Estrada').getByText('Inativo').first().waitFor();
    await capturar(pagina, 'celular-saldo-inativo');
    const painel = new TelaDashboardAdmin(pagina);
    await painel.abrir(servidor.url);
    await expect.poll(() => painel.numero('Funcionários em Rota')).toBe('2');
    await capturar(pagina, 'celular-dashboard-numeros');
    const cartaoAna = painel.tabela('Funcionários em Rota').locator('li.cartao-linha').filter({ hasText: 'Ana Estrada' });
    await cartaoAna.getByText('Inativo').first().waitFor();
    await cartaoAna.scrollIntoViewIfNeeded();
    await capturar(pagina, 'celular-dashboard-inativo');
    await fechar();
  });
});
