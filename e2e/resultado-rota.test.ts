/**
 * The route's result for its employee in the browser: she finishes the route on a 390x844
 * phone and sees the final salary with its breakdown, the expenses, the credits and the balance left
 * to return; a past route's result too; and both again offline, from the device's copies. Then the
 * admin's side of the same rule: a finished route has no 'Excluir', and the details modal says
 * 'Salário pago' with how it was calculated. Real built client + real server on a temporary database.
 */
import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoje } from '../shared/dates';
import { inserirDespesa, inserirMovimento, inserirVenda, inserirVisita } from '../server/test/fabricas';
import { ADMIN } from '../server/test/helper';
import { TelaLogin } from './paginas/login';
import { TelaRelatorios } from './paginas/relatorios';
import { TelaMinhasRotas, TelaRotasAdmin } from './paginas/rotas';
import { criarRotaEmCurso } from './suporte/dados';
import { abrirNavegador, capturar, CELULAR, DESKTOP, novaPagina, temChromium } from './suporte/navegador';
import { iniciarServidor, type ServidorDeTeste } from './suporte/servidor';

const GOIANIA = 5208707;
const ANAPOLIS = 5201108;
const CALDAS_NOVAS = 5204508;

describe.skipIf(!temChromium)('resultado da rota no navegador', () => {
  let servidor: ServidorDeTeste;
  let navegador: Browser;
  let helena: { id: number; email: string; senha: string; token: string };
  let rotaNorte: number;

  beforeAll(async () => {
    servidor = await iniciarServidor();
    navegador = await abrirNavegador();
    helena = await servidor.criarFuncionario({ nome: 'Helena Campos', email: 'helena@escola.com.br' });
    const dia = hoje('America/Sao_Paulo');

    // A past route, already finished: R$ 2.000,00 in Caldas Novas, no rent, R$ 50,00 credited, R$ 80,00 spent.
    const antiga = await criarRotaEmCurso(servidor, helena.id, { nome: 'Rota Antiga', cidades: [CALDAS_NOVAS], diasAntes: 20, diasDepois: 0 });
    await inserirVenda(servidor.db, antiga, helena.id, CALDAS_NOVAS, dia, { pix: 200_000 });
    await inserirDespesa(servidor.db, antiga, helena.id, CALDAS_NOVAS, dia, 8_000, { tipo: 'combustivel' });
    await inserirMovimento(servidor.db, helena.id, 'credito', 5_000, antiga);
    const r = await servidor.chamar({ method: 'PATCH', url: `/api/rotas/${antiga}/finalizar`, token: helena.token });
    expect(r.statusCode, r.body).toBe(200);

    // The route she finishes in the test: R$ 1.000,00 and 2 boletos in Goiânia, Anápolis visited, Caldas
    // Novas not; R$ 100,00 rent; R$ 195,50 of expenses; R$ 300,00 credited.
    rotaNorte = await criarRotaEmCurso(servidor, helena.id, { nome: 'Rota Norte', cidades: [GOIANIA, ANAPOLIS, CALDAS_NOVAS], diasAntes: 5, diasDepois: 10, valorAluguel: 100 });
    await inserirVenda(servidor.db, rotaNorte, helena.id, GOIANIA, dia, { dinheiro: 100_000, boletos: 2 });
    await inserirVisita(servidor.db, rotaNorte, helena.id, ANAPOLIS, dia);
    await inserirDespesa(servidor.db, rotaNorte, helena.id, GOIANIA, dia, 4_550);
    await inserirDespesa(servidor.db, rotaNorte, helena.id, ANAPOLIS, dia, 12_000, { tipo: 'hospedagem' });
    await inserirDespesa(servidor.db, rotaNorte, helena.id, ANAPOLIS, dia, 3_000);
    await inserirMovimento(servidor.db, helena.id, 'credito', 30_000, rotaNorte);
  });
  afterAll(async () => {
    await navegador?.close();
    await servidor?.fechar();
  });

  /** The text of an element with any run of spaces (the non-breaking one in 'R$ 1,00' too) as one space. */
  const texto = async (l: Locator) => ((await l.textContent()) ?? '').replace(/\s+/g, ' ');

  /** What the result of Rota Norte shows, wherever it is read from. */
  async function conferirRotaNorte(modal: Locator) {
    await modal.getByText('Rota Norte', { exact: true }).waitFor();
    const salario = modal.getByRole('region', { name: 'Salário final' });
    await salario.getByTestId('resultado-salario-total').getByText('R$ 96,00').waitFor();
    for (const linha of ['2,25 × R$ 60,00', '2 cidades visitadas × R$ 25,00', '2 × R$ 5,50', '− R$ 100,00', 'Média abaixo de 1,5: você paga o aluguel inteiro (R$ 100,00).']) {
      expect(await salario.getByText(linha).count(), linha).toBeGreaterThan(0);
    }
    const dinheiro = modal.getByRole('region', { name: 'Dinheiro da rota' });
    expect(await texto(dinheiro)).toContain('Alimentação (2)R$ 75,50');
    expect(await texto(dinheiro)).toContain('Hospedagem (1)R$ 120,00');
    expect(await dinheiro.getByText('R$ 300,00').count()).toBe(1);
    expect(await dinheiro.getByText('R$ 195,50').count()).toBe(1);
    // The settlement: R$ 300,00 credited − R$ 195,50 still pending (spent until decided) = R$ 104,50 to return.
    expect(await texto(modal.getByTestId('acerto-em-aberto'))).toBe('A devolvervocê devolve ao administradorR$ 104,50');
    expect(await texto(modal.locator('.resultado-rota__resumo'))).toContain('Cidades visitadas2 de 3');
  }

  it('a funcionária finaliza a rota no celular, vê o resultado, o de uma rota antiga, e os dois de novo sem conexão', async () => {
    const { contexto, pagina } = await novaPagina(navegador, CELULAR);
    const login = new TelaLogin(pagina);
    await login.abrir(servidor.url);
    await login.entrar(helena.email, helena.senha);
    await pagina.waitForURL('**/dashboard');
    const tela = new TelaMinhasRotas(pagina);
    await tela.abrir(servidor.url);

    const pergunta = await tela.pedirFinalizacao('Rota Norte');
    await pergunta.getByRole('button', { name: 'Finalizar' }).click();
    await tela.aviso('Rota finalizada com sucesso!').waitFor();
    // The result opens at once.
    const modal = pagina.getByRole('dialog', { name: 'Resultado da rota' });
    await conferirRotaNorte(modal);
    expect(await modal.getByText(/Finalizada em \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/).count()).toBe(1);
    await capturar(pagina, 'celular-resultado-rota');
    await modal.getByRole('region', { name: 'Dinheiro da rota' }).scrollIntoViewIfNeeded();
    await capturar(pagina, 'celular-resultado-rota-dinheiro');
    await modal.getByRole('button', { name: 'Fechar' }).click();
    await modal.waitFor({ state: 'detached' });

    // The past route's result, from its card.
    await tela.cartao('Rotas Finalizadas', 'Rota Antiga').getByRole('button', { name: 'Ver resultado da rota Rota Antiga' }).click();
    await modal.getByText('Rota Antiga', { exact: true }).waitFor();
    // R$ 2.000,00 in one city: 4,50 bags × R$ 120,00 (R$ 540,00) + R$ 50,00 for the city; she spent R$ 30,00 more than credited.
    await modal.getByTestId('resultado-salario-total').getByText('R$ 590,00').waitFor();
    expect(await texto(modal.getByTestId('acerto-em-aberto'))).toBe('A recebera empresa paga a vocêR$ 30,00');
    await capturar(pagina, 'celular-resultado-rota-antiga');
    await modal.getByRole('button', { name: 'Fechar' }).click();
    await capturar(pagina, 'celular-minhas-rotas-com-resultado');

    // Offline, after a reload: the app comes from the service worker, the results from the device.
    await pagina.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
    await contexto.setOffline(true);
    await pagina.reload();
    await pagina.getByRole('heading', { name: 'Minhas Rotas' }).waitFor();
    await pagina.getByText(/Sem conexão: mostrando as rotas salvas neste aparelho/).waitFor();
    await tela.cartao('Rotas Finalizadas', 'Rota Norte').getByRole('button', { name: 'Ver resultado da rota Rota Norte' }).click();
    await modal.getByText(/Sem conexão: resultado salvo neste aparelho em \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}\./).waitFor();
    await conferirRotaNorte(modal);
    await capturar(pagina, 'celular-resultado-rota-offline');
    await modal.getByRole('button', { name: 'Fechar' }).click();
    await tela.cartao('Rotas Finalizadas', 'Rota Antiga').getByRole('button', { name: 'Ver resultado da rota Rota Antiga' }).click();
    await modal.getByText(/Sem conexão: resultado salvo neste aparelho/).waitFor();
    await modal.getByTestId('resultado-salario-total').getByText('R$ 590,00').waitFor();
    await contexto.close();

    // The same result on a desktop-sized window.
    const desktop = await novaPagina(navegador, DESKTOP);
    const loginDesktop = new TelaLogin(desktop.pagina);
    await loginDesktop.abrir(servidor.url);
    await loginDesktop.entrar(helena.email, helena.senha);
    await desktop.pagina.waitForURL('**/dashboard');
    const telaDesktop = new TelaMinhasRotas(desktop.pagina);
    await telaDesktop.abrir(servidor.url);
    await telaDesktop.cartao('Rotas Finalizadas', 'Rota Norte').getByRole('button', { name: 'Ver resultado da rota Rota Norte' }).click();
    await conferirRotaNorte(desktop.pagina.getByRole('dialog', { name: 'Resultado da rota' }));
    await capturar(desktop.pagina, 'desktop-resultado-rota');
    await desktop.contexto.close();
  });

  it('admin: rota finalizada sem Excluir; nos detalhes, "Salário pago" e como foi calculado', async () => {
    const { contexto, pagina } = await novaPagina(navegador, DESKTOP);
    const login = new TelaLogin(pagina);
    await login.abrir(servidor.url);
    await login.entrar(ADMIN.email, ADMIN.senha);
    await pagina.waitForURL('**/dashboard');

    const rotas = new TelaRotasAdmin(pagina);
    await rotas.abrir(servidor.url);
    await rotas.filtrar({ status: 'Finalizadas' });
    await rotas.cartao('Rota Norte').waitFor();
    expect(await rotas.cartao('Rota Norte').getByRole('button', { name: /^Excluir/ }).count()).toBe(0);
    await rotas.cartao('Rota Norte').getByRole('button', { name: 'Editar Rota Norte' }).waitFor();
    await capturar(pagina, 'desktop-rotas-finalizada-sem-excluir');

    const relatorios = new TelaRelatorios(pagina);
    await relatorios.abrir(servidor.url);
    const detalhes = await relatorios.abrirDetalhes('Rota Norte');
    const totais = detalhes.getByRole('region', { name: 'Totais' });
    await totais.getByText('Salário pago').waitFor();
    const calculo = detalhes.getByRole('group', { name: 'Como o salário foi calculado' });
    await calculo.locator('summary').click();
    await calculo.getByText('2 cidades visitadas × R$ 25,00').waitFor();
    await calculo.scrollIntoViewIfNeeded();
    await capturar(pagina, 'desktop-relatorios-detalhes-salario');
    await contexto.close();

    // The same details on a phone (the report's rows are cards there).
    const celular = await novaPagina(navegador, CELULAR);
    const loginCelular = new TelaLogin(celular.pagina);
    await loginCelular.abrir(servidor.url);
    await loginCelular.entrar(ADMIN.email, ADMIN.senha);
    await celular.pagina.waitForURL('**/dashboard');
    await new TelaRelatorios(celular.pagina).abrir(servidor.url);
    await celular.pagina.getByRole('button', { name: 'Expandir Rota Norte' }).click();
    await celular.pagina.getByRole('button', { name: 'Detalhes', exact: true }).click();
    const detalhesCelular = celular.pagina.getByRole('dialog', { name: 'Rota Norte' });
    await detalhesCelular.getByRole('region', { name: 'Totais' }).getByText('Salário pago').waitFor();
    const calculoCelular = detalhesCelular.getByRole('group', { name: 'Como o salário foi calculado' });
    await calculoCelular.locator('summary').click();
    await calculoCelular.getByText('2 × R$ 5,50').waitFor();
    await calculoCelular.scrollIntoViewIfNeeded();
    await capturar(celular.pagina, 'celular-relatorios-detalhes-salario');
    await celular.contexto.close();
    expect(rotaNorte).toBeGreaterThan(0);
  });
});
