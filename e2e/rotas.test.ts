/**
 * Browser tests of routes: the admin creates a route with cities of two states, edits it,
 * filters the list, deletes one; the employee sees it on the phone, opens its cities and finishes it,
 * also offline. Real built client + real server on a temporary database, in Debian's Chromium.
 */
import type { Browser, Page } from 'playwright-core';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vendas } from '../server/src/db/schema';
import { ADMIN } from '../server/test/helper';
import { TelaLogin } from './paginas/login';
import { TelaMinhasRotas, TelaRotasAdmin } from './paginas/rotas';
import { abrirNavegador, capturar, CELULAR, DESKTOP, novaPagina, temChromium } from './suporte/navegador';
import { iniciarServidor, type ServidorDeTeste } from './suporte/servidor';

const GOIANIA = 5208707;
const ANAPOLIS = 5201108;
const CALDAS_NOVAS = 5204508;
const PIRENOPOLIS = 5217302;
const RIO_VERDE = 5218805;

describe.skipIf(!temChromium)('rotas no navegador', () => {
  let servidor: ServidorDeTeste;
  let navegador: Browser;
  let fatima: { id: number; email: string; senha: string; token: string };
  let gilberto: { id: number; email: string; senha: string; token: string };

  beforeAll(async () => {
    servidor = await iniciarServidor();
    navegador = await abrirNavegador();
    fatima = await servidor.criarFuncionario({ nome: 'Fátima Estrada', email: 'fatima@escola.com.br' });
    gilberto = await servidor.criarFuncionario({ nome: 'Gilberto Campos', email: 'gilberto@escola.com.br' });
  });
  afterAll(async () => {
    await navegador?.close();
    await servidor?.fechar();
  });

  async function entrar(pagina: Page, email: string, senha: string) {
    const login = new TelaLogin(pagina);
    await login.abrir(servidor.url);
    await login.entrar(email, senha);
    await pagina.waitForURL('**/dashboard');
  }

  async function criarRotaPelaApi(funcionarioId: number, nome: string, cidades: number[]) {
    const r = await servidor.chamar({
      method: 'POST',
      url: '/api/rotas',
      token: await servidor.tokenAdmin(),
      payload: { nome, funcionario_id: funcionarioId, data_inicio: '2026-10-01', data_fim: '2026-10-20', valor_aluguel: 200, cidades },
    });
    expect(r.statusCode, r.body).toBe(201);
    return r.json().rota as { id: number };
  }

  async function rotaNoServidor(nome: string) {
    const r = await servidor.chamar({ method: 'GET', url: '/api/rotas', token: await servidor.tokenAdmin() });
    return (r.json().rotas as { id: number; nome: string; status: string; cidades: { nome: string; uf: string }[]; tem_secretario: boolean; secretario_nome: string | null; valor_aluguel: number }[]).find(
      (x) => x.nome === nome,
    );
  }

  it('admin cria uma rota com cidades de GO e MG, edita, filtra, vê cidades e despesas, e exclui outra', async () => {
    // Gilberto already has a finished route and a cancelled one: the filters have something to show.
    const antiga = await criarRotaPelaApi(gilberto.id, 'Rota Serra Dourada', [GOIANIA, PIRENOPOLIS]);
    await servidor.chamar({ method: 'PATCH', url: `/api/rotas/${antiga.id}/finalizar`, token: gilberto.token });
    const cancelada = await criarRotaPelaApi(gilberto.id, 'Rota Sudoeste', [RIO_VERDE]);
    await servidor.chamar({ method: 'PATCH', url: `/api/rotas/${cancelada.id}/cancelar`, token: await servidor.tokenAdmin() });

    const { contexto, pagina } = await novaPagina(navegador, DESKTOP);
    await entrar(pagina, ADMIN.email, ADMIN.senha);
    const tela = new TelaRotasAdmin(pagina);
    await tela.abrir(servidor.url);
    await pagina.getByText('Nenhuma rota encontrada.').waitFor();

    let modal = await tela.abrirNova();
    await tela.salvar(modal);
    await modal.getByText('Selecione pelo menos um estado para a rota.').waitFor();
    await modal.getByText('O nome da rota é obrigatório e deve ter pelo menos 2 caracteres.').waitFor();
    await capturar(pagina, 'desktop-rotas-nova-validacao');

    await tela.preencher(modal, {
      nome: 'Rota Goiás-Minas',
      funcionario: 'Fátima Estrada',
      inicio: '2026-11-03',
      fim: '2026-11-28',
      aluguel: '350.50',
      estados: ['GO', 'MG'],
      cidades: [
        ['goia', 'Goiânia (GO)'],
        ['anap', 'Anápolis (GO)'],
        ['caldas', 'Caldas Novas (GO)'],
        ['catal', 'Catalão (GO)'],
        ['uber', 'Uberlândia (MG)'],
        ['uber', 'Uberaba (MG)'],
        ['belo', 'Belo Horizonte (MG)'],
      ],
    });
    await modal.getByLabel('Buscar cidade').fill('ub');
    await modal.getByRole('button', { name: 'Já adicionada: Uberaba (MG)' }).waitFor();
    await capturar(pagina, 'desktop-rotas-nova-preenchida');
    await tela.salvar(modal);
    await tela.aviso('Rota criada com sucesso!').waitFor();
    const cartao = tela.cartao('Rota Goiás-Minas');
    await cartao.waitFor();
    for (const texto of ['Ativa', '03/11/2026 a 28/11/2026', 'Fátima Estrada', 'Não', 'R$ 350,50', 'R$ 180,00', 'Goiânia - GO', 'Anápolis - GO', 'Caldas Novas - GO', 'Cidades (7)']) {
      expect(await cartao.getByText(texto, { exact: true }).isVisible(), texto).toBe(true);
    }
    expect(await cartao.getByText('Catalão - GO').count()).toBe(0);
    const criada = await rotaNoServidor('Rota Goiás-Minas');
    expect(criada?.cidades.map((c) => `${c.nome}/${c.uf}`)).toEqual([
      'Goiânia/GO',
      'Anápolis/GO',
      'Caldas Novas/GO',
      'Catalão/GO',
      'Uberlândia/MG',
      'Uberaba/MG',
      'Belo Horizonte/MG',
    ]);
    await capturar(pagina, 'desktop-rotas');

    // Edit: rename, a secretary, Minas out (its cities go with it), one more city of Goiás.
    modal = await tela.abrirEdicao('Rota Goiás-Minas');
    expect(await modal.getByRole('checkbox', { name: 'MG' }).isChecked()).toBe(true);
    await tela.preencher(modal, { nome: 'Rota Goiás', secretario: 'Sônia Lima', estados: ['MG'], cidades: [['piren', 'Pirenópolis (GO)']], remover: ['Caldas Novas'] });
    expect(await modal.getByRole('button', { name: 'Remover Uberaba' }).count()).toBe(0);
    await tela.salvar(modal);
    await tela.aviso('Rota atualizada com sucesso!').waitFor();
    const editada = tela.cartao('Rota Goiás');
    await editada.getByText('Sônia Lima').waitFor();
    expect(await editada.getByText('R$ 220,00').isVisible()).toBe(true);
    const noServidor = await rotaNoServidor('Rota Goiás');
    expect(noServidor).toMatchObject({ tem_secretario: true, secretario_nome: 'Sônia Lima', valor_aluguel: 350.5, status: 'ativa' });
    expect(noServidor?.cidades.map((c) => c.nome)).toEqual(['Goiânia', 'Anápolis', 'Catalão', 'Pirenópolis']);

    // Closing a form with typed data asks first.
    modal = await tela.abrirNova();
    await tela.preencher(modal, { nome: 'Rascunho' });
    await pagina.keyboard.press('Escape');
    const pergunta = tela.modal('Fechar sem salvar?');
    await pergunta.getByText('Os dados preenchidos serão perdidos. Deseja fechar mesmo assim?').waitFor();
    await capturar(pagina, 'desktop-rotas-fechar-confirmacao');
    await pergunta.getByRole('button', { name: 'Descartar' }).click();
    await modal.waitFor({ state: 'detached' });

    // Filters apply with 'Filtrar'.
    await tela.filtrar({ status: 'Finalizadas' });
    await tela.cartao('Rota Serra Dourada').waitFor();
    await tela.cartao('Rota Goiás').waitFor({ state: 'detached' });
    await tela.filtrar({ status: 'Todas', funcionario: 'Gilberto Campos' });
    await tela.cartao('Rota Sudoeste').waitFor();
    await tela.cartao('Rota Serra Dourada').waitFor();
    expect(await tela.cartao('Rota Goiás').count()).toBe(0);
    expect(await tela.cartao('Rota Sudoeste').getByText('Cancelada').isVisible()).toBe(true);
    await capturar(pagina, 'desktop-rotas-filtradas');
    await tela.filtrar({ status: 'Ativas', funcionario: 'Todos' });
    await tela.cartao('Rota Goiás').waitFor();

    const cidades = await tela.verTodas('Rota Goiás');
    await cidades.getByText('Pirenópolis').waitFor();
    await capturar(pagina, 'desktop-rotas-ver-todas');
    await cidades.getByRole('button', { name: 'Fechar' }).last().click();

    const despesas = await tela.verDespesas('Rota Goiás');
    await despesas.getByText('Nenhuma despesa registrada nesta rota.').waitFor();
    await capturar(pagina, 'desktop-rotas-despesas');
    await despesas.getByRole('button', { name: 'Fechar' }).last().click();

    // A finished route is the employee's history: its card has no Excluir.
    await tela.filtrar({ status: 'Finalizadas' });
    await tela.cartao('Rota Serra Dourada').waitFor();
    expect(await tela.cartao('Rota Serra Dourada').getByRole('button', { name: 'Excluir Rota Serra Dourada' }).count()).toBe(0);
    // A route with a sale cannot be deleted: the server's message is shown.
    servidor.db
      .insert(vendas)
      .values({ id: uuidv7(), rotaId: cancelada.id, cidadeId: RIO_VERDE, funcionarioId: gilberto.id, dataVenda: '2026-10-02', dinheiroCentavos: 10_000, registradoEm: new Date().toISOString() })
      .run();
    await tela.filtrar({ status: 'Canceladas' });
    await tela.excluir('Rota Sudoeste');
    await tela.aviso('Esta rota tem vendas, despesas ou saldo registrados e não pode ser excluída. Finalize ou cancele a rota.').waitFor();
    expect(await rotaNoServidor('Rota Sudoeste')).toBeDefined();

    // A route without movement is deleted.
    await criarRotaPelaApi(gilberto.id, 'Rota Descartável', [ANAPOLIS]);
    await pagina.reload();
    await tela.cartao('Rota Descartável').waitFor();
    await tela.cartao('Rota Descartável').getByRole('button', { name: 'Excluir Rota Descartável' }).click();
    await tela.modal('Excluir rota').waitFor();
    await capturar(pagina, 'desktop-rotas-excluir-confirmacao');
    await tela.modal('Excluir rota').getByRole('button', { name: 'Excluir' }).click();
    await tela.aviso('Rota excluída com sucesso!').waitFor();
    await tela.cartao('Rota Descartável').waitFor({ state: 'detached' });
    expect(await rotaNoServidor('Rota Descartável')).toBeUndefined();
    await contexto.close();

    // The admin's screens at phone width.
    const celular = await novaPagina(navegador, CELULAR);
    await entrar(celular.pagina, ADMIN.email, ADMIN.senha);
    const telaCelular = new TelaRotasAdmin(celular.pagina);
    await telaCelular.abrir(servidor.url);
    await telaCelular.cartao('Rota Goiás').waitFor();
    await capturar(celular.pagina, 'celular-rotas-admin');
    const nova = await telaCelular.abrirNova();
    await telaCelular.preencher(nova, { estados: ['GO'], cidades: [['rio', 'Rio Verde (GO)']] });
    await nova.getByLabel('Buscar cidade').fill('an');
    await nova.getByRole('button', { name: 'Adicionar: Anápolis (GO)' }).waitFor();
    await capturar(celular.pagina, 'celular-rotas-nova');
    await nova.getByRole('button', { name: 'Cancelar' }).click();
    await telaCelular.modal('Fechar sem salvar?').getByRole('button', { name: 'Descartar' }).click();
    await telaCelular.verDespesas('Rota Goiás');
    await celular.pagina.getByText('Nenhuma despesa registrada nesta rota.').waitFor();
    await capturar(celular.pagina, 'celular-rotas-despesas');
    await celular.contexto.close();
  });

  it('a funcionária vê a rota no celular, abre as cidades e finaliza', async () => {
    const { contexto, pagina } = await novaPagina(navegador, CELULAR);
    await entrar(pagina, fatima.email, fatima.senha);
    const tela = new TelaMinhasRotas(pagina);
    await tela.abrir(servidor.url);
    const cartao = tela.cartao('Rotas Ativas', 'Rota Goiás');
    await cartao.waitFor();
    await tela.secao('Rotas Finalizadas').getByText('Nenhuma rota finalizada').waitFor();
    await capturar(pagina, 'celular-minhas-rotas');

    const cidades = await tela.verCidades('Rota Goiás');
    await cidades.getByText('Pirenópolis').waitFor();
    expect(await cidades.getByText('Rota Goiás · 4 cidades').isVisible()).toBe(true);
    await capturar(pagina, 'celular-minhas-rotas-cidades');
    await cidades.getByRole('button', { name: 'Fechar' }).last().click();

    const pergunta = await tela.pedirFinalizacao('Rota Goiás');
    await pergunta.getByText('Tem certeza que deseja finalizar esta rota? Essa ação não pode ser desfeita.').waitFor();
    await capturar(pagina, 'celular-minhas-rotas-confirmar');
    await pergunta.getByRole('button', { name: 'Finalizar' }).click();
    await tela.aviso('Rota finalizada com sucesso!').waitFor();
    await tela.cartao('Rotas Finalizadas', 'Rota Goiás').waitFor();
    await tela.secao('Rotas Ativas').getByText('Nenhuma rota ativa no momento').waitFor();
    expect((await rotaNoServidor('Rota Goiás'))?.status).toBe('finalizada');
    await capturar(pagina, 'celular-minhas-rotas-finalizada');
    await contexto.close();
  });

  it('sem sinal: a finalização fica na fila, aparece na hora e chega ao servidor quando a conexão volta', async () => {
    await criarRotaPelaApi(fatima.id, 'Rota Lago Azul', [CALDAS_NOVAS, GOIANIA]);
    const { contexto, pagina } = await novaPagina(navegador, CELULAR);
    await entrar(pagina, fatima.email, fatima.senha);
    const tela = new TelaMinhasRotas(pagina);
    await tela.abrir(servidor.url);
    await tela.cartao('Rotas Ativas', 'Rota Lago Azul').waitFor();

    await contexto.setOffline(true);
    const pergunta = await tela.pedirFinalizacao('Rota Lago Azul');
    await pergunta.getByRole('button', { name: 'Finalizar' }).click();
    const pendente = tela.cartao('Rotas Finalizadas', 'Rota Lago Azul');
    await pendente.getByText('Aguardando envio').waitFor();
    await tela.aviso('Sem conexão: a finalização ficou guardada neste aparelho e será enviada quando a internet voltar.').waitFor();
    await capturar(pagina, 'celular-minhas-rotas-offline');
    expect((await rotaNoServidor('Rota Lago Azul'))?.status).toBe('ativa');

    await contexto.setOffline(false);
    await expect.poll(async () => (await rotaNoServidor('Rota Lago Azul'))?.status, { timeout: 20_000, interval: 500 }).toBe('finalizada');
    await pendente.getByText('Aguardando envio').waitFor({ state: 'detached', timeout: 20_000 });
    await pendente.getByText('Finalizada', { exact: true }).waitFor();
    await contexto.close();

    // The same screen on a desktop-sized window.
    const desktop = await novaPagina(navegador, DESKTOP);
    await entrar(desktop.pagina, fatima.email, fatima.senha);
    await new TelaMinhasRotas(desktop.pagina).abrir(servidor.url);
    await new TelaMinhasRotas(desktop.pagina).cartao('Rotas Finalizadas', 'Rota Lago Azul').waitFor();
    await capturar(desktop.pagina, 'desktop-minhas-rotas');
    await desktop.contexto.close();
  });
});
