/**
 * Accessibility and phone ergonomics, in Debian's Chromium against the
 * real built client and server on a temporary database:
 * - axe-core runs over every screen of both roles (and the main modals, the drawer, the sync panel)
 *   at 390x844 and 1280x800: no serious or critical violation;
 * - on the phone every control an employee taps is at least 44x44 CSS px, the Usuários tabs fit at
 *   390 px and city names never break mid-word.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoje, somarDias } from '../shared/dates';
import { digitoVerificadorChave } from '../shared/nfce';
import { gravarEstadosECidades } from '../server/src/cidades/repositorio';
import { formulario } from '../server/test/despesas';
import { ADMIN } from '../server/test/helper';
import { TelaDespesas } from './paginas/despesas';
import { TelaLogin } from './paginas/login';
import { TelaRelatorios } from './paginas/relatorios';
import { TelaMinhasRotas, TelaRotasAdmin } from './paginas/rotas';
import { TelaSaldo } from './paginas/saldo';
import { abrirAmbiente, fecharAmbiente } from './suporte/ambiente';
import { alvosPequenos, avisosSobrepostos, descreverViolacoes, palavrasPartidas, violacoesGraves } from './suporte/acessibilidade';
import { creditarSaldo, criarRotaEmCurso } from './suporte/dados';
import { capturar, CELULAR, DESKTOP, novaPagina, temChromium } from './suporte/navegador';
import type { ServidorDeTeste } from './suporte/servidor';

const GOIANIA = 5208707;
const ANAPOLIS = 5201108;
/** Not in the test's IBGE extract: the longest-named city the test adds itself. */
const VALE_DO_RIO_PRETO = { id: 3305158, nome: 'São José do Vale do Rio Preto', uf: 'RJ' };
/** A long name of one word: where a name can only break mid-word, if it breaks at all. */
const ITAQUAQUECETUBA = { id: 3523107, nome: 'Itaquaquecetuba', uf: 'SP' };
const HOJE = hoje('America/Sao_Paulo');
/** Where the employee's and the admin's phone screens write a city's name. */
const NOMES_DE_CIDADE = ['.cidade-venda__nome', '.cartao-despesa__local', '.cidades-rota__lista li', '.detalhes__item dd', '.cartao-linha__valor'].join(', ');

type Tela = typeof CELULAR;
const nomeTela = (t: Tela) => (t === CELULAR ? '390x844' : '1280x800');

/** A valid NFC-e chave (GO, this month, CNPJ 12.345.678/0001-95) numbered n: one per screen size. */
function chaveNfce(n: number): string {
  const [ano, mes] = HOJE.split('-') as [string, string];
  const c43 = `52${ano.slice(2)}${mes}${'12345678000195'}65001${String(n).padStart(9, '0')}1${'00004321'}`;
  return c43 + digitoVerificadorChave(c43);
}

describe.skipIf(!temChromium)('acessibilidade e alvos de toque', () => {
  let servidor: ServidorDeTeste;
  let navegador: Browser;
  let renata: { id: number; email: string; senha: string; token: string };
  /** Per screen size, an employee who finishes her route in the test (with a receipt already launched). */
  const quemFinaliza = new Map<Tela, { email: string; senha: string; chave: string }>();

  beforeAll(async () => {
    ({ servidor, navegador } = await abrirAmbiente({ navegador: true }));
    gravarEstadosECidades(servidor.db, [{ uf: 'RJ', codigo: 33, nome: 'Rio de Janeiro' }], [VALE_DO_RIO_PRETO, ITAQUAQUECETUBA]);
    renata = await servidor.criarFuncionario({ nome: 'Renata Albuquerque', email: 'renata@escola.com.br' });
    await servidor.criarFuncionario({ nome: 'Otávio Sem Rota', email: 'otavio@escola.com.br' });
    const rota = await criarRotaEmCurso(servidor, renata.id, { nome: 'Rota Serra Fluminense', cidades: [VALE_DO_RIO_PRETO.id, ITAQUAQUECETUBA.id, GOIANIA, ANAPOLIS], diasAntes: 3, diasDepois: 10 });
    await creditarSaldo(servidor, renata.id, 800, { rotaId: rota });
    const venda = await servidor.chamar({
      method: 'POST',
      url: '/api/vendas',
      token: renata.token,
      payload: { id: uuidv7(), rota_id: rota, cidade_id: GOIANIA, data_venda: HOJE, valor_dinheiro: 420, valor_pix: 180, valor_boletos: 1 },
    });
    expect(venda.statusCode, venda.body).toBe(201);
    const outra = await servidor.chamar({
      method: 'POST',
      url: '/api/vendas',
      token: renata.token,
      payload: { id: uuidv7(), rota_id: rota, cidade_id: VALE_DO_RIO_PRETO.id, data_venda: somarDias(HOJE, -1), valor_cartao: 95.5 },
    });
    expect(outra.statusCode, outra.body).toBe(201);
    const corpo = await formulario({ id: uuidv7(), rota_id: rota, cidade_id: VALE_DO_RIO_PRETO.id, data_despesa: HOJE, tipo: 'alimentacao', valor: '38,90', descricao: 'Almoço' });
    const despesa = await servidor.chamar({ method: 'POST', url: '/api/despesas', token: renata.token, ...corpo });
    expect(despesa.statusCode, despesa.body).toBe(201);

    for (const [i, tela] of [CELULAR, DESKTOP].entries()) {
      const f = await servidor.criarFuncionario({ nome: `Bia Fim ${nomeTela(tela)}`, email: `bia.fim.${tela.width}@escola.com.br` });
      const rotaDela = await criarRotaEmCurso(servidor, f.id, { nome: `Rota da Bia ${tela.width}`, cidades: [GOIANIA], diasAntes: 3, diasDepois: 10 });
      await creditarSaldo(servidor, f.id, 500, { rotaId: rotaDela });
      const vendaDela = await servidor.chamar({ method: 'POST', url: '/api/vendas', token: f.token, payload: { id: uuidv7(), rota_id: rotaDela, cidade_id: GOIANIA, data_venda: HOJE, valor_dinheiro: 1200, valor_boletos: 2 } });
      expect(vendaDela.statusCode, vendaDela.body).toBe(201);
      const chave = chaveNfce(7000 + i);
      const comNota = await formulario({ id: uuidv7(), rota_id: rotaDela, cidade_id: GOIANIA, data_despesa: HOJE, tipo: 'hospedagem', valor: '140,00', chave_nfce: chave });
      const d = await servidor.chamar({ method: 'POST', url: '/api/despesas', token: f.token, ...comNota });
      expect(d.statusCode, d.body).toBe(201);
      quemFinaliza.set(tela, { email: f.email, senha: f.senha, chave });
    }
  });
  afterAll(() => fecharAmbiente({ servidor, navegador }));

  async function entrar(tela: Tela, email: string, senha: string) {
    const p = await novaPagina(navegador, tela);
    await p.pagina.emulateMedia({ reducedMotion: 'reduce' });
    const login = new TelaLogin(p.pagina);
    await login.abrir(servidor.url);
    await login.entrar(email, senha);
    await p.pagina.waitForURL('**/dashboard');
    await p.pagina.mouse.move(0, 0);
    return p;
  }

  /** Opens the phone's drawer and waits for it to finish sliding in (it slides even with reduced motion). */
  async function abrirGaveta(pagina: Page) {
    await pagina.getByRole('button', { name: 'Abrir menu' }).click();
    await pagina.getByRole('button', { name: 'Fechar menu' }).waitFor();
    await pagina.waitForFunction(() => document.querySelector('.lateral--aberta')?.getBoundingClientRect().left === 0);
  }

  const titulo = (pagina: Page, nome: string) => pagina.getByRole('heading', { name: nome, exact: true });

  /** Runs axe and keeps the readable report of what it found (empty when nothing). */
  async function verificar(pagina: Page, tela: string, relatorio: string[], excluir?: string[]) {
    const arquivo = tela.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
    // A toast still fading in has its colours mid-way (axe read #777 on white): measured once it has arrived.
    await pagina.locator('.Toastify__toast').evaluateAll((avisos) => Promise.all(avisos.flatMap((a) => a.getAnimations({ subtree: true }).map((x) => x.finished.catch(() => undefined)))));
    await capturar(pagina, `a11y-${arquivo}`);
    const v = await violacoesGraves(pagina, { excluir });
    if (v.length) relatorio.push(descreverViolacoes(tela, v));
  }

  async function visitar(pagina: Page, caminho: string, pronto: Locator) {
    if (new URL(pagina.url()).pathname !== caminho) await pagina.goto(`${servidor.url}${caminho}`);
    await pronto.waitFor();
  }

  for (const tela of [CELULAR, DESKTOP]) {
    it(`axe: a tela de entrada em ${nomeTela(tela)}`, async () => {
      const { contexto, pagina } = await novaPagina(navegador, tela);
      await new TelaLogin(pagina).abrir(servidor.url);
      const relatorio: string[] = [];
      await verificar(pagina, `Login ${nomeTela(tela)}`, relatorio);
      await contexto.close();
      expect(relatorio.join('\n\n')).toBe('');
    });

    it(`axe: todas as telas do admin em ${nomeTela(tela)}`, async () => {
      const { contexto, pagina } = await entrar(tela, ADMIN.email, ADMIN.senha);
      const relatorio: string[] = [];
      const w = nomeTela(tela);

      await visitar(pagina, '/dashboard', pagina.getByRole('region', { name: 'Boas-vindas' }));
      await pagina.getByRole('cell', { name: 'Rota Serra Fluminense' }).or(pagina.getByText('Rota Serra Fluminense').first()).first().waitFor();
      await verificar(pagina, `Dashboard admin ${w}`, relatorio);
      await pagina.getByRole('button', { name: 'Adicionar/Enviar Saldo' }).click();
      await pagina.getByRole('dialog', { name: 'Adicionar/Enviar Saldo' }).waitFor();
      await verificar(pagina, `Modal Adicionar Saldo ${w}`, relatorio);
      await pagina.keyboard.press('Escape');
      await pagina.getByRole('dialog').waitFor({ state: 'detached' });

      await visitar(pagina, '/rotas', titulo(pagina, 'Rotas'));
      await pagina.getByText('Rota Serra Fluminense').first().waitFor();
      await verificar(pagina, `Rotas admin ${w}`, relatorio);
      await pagina.getByRole('button', { name: 'Nova Rota' }).click();
      await pagina.getByRole('dialog').waitFor();
      await verificar(pagina, `Modal Nova Rota ${w}`, relatorio);
      await pagina.keyboard.press('Escape');
      await pagina.getByRole('dialog').waitFor({ state: 'detached' });
      const despesasDaRota = await new TelaRotasAdmin(pagina).verDespesas('Rota Serra Fluminense');
      await despesasDaRota.getByText('Almoço').first().waitFor();
      await verificar(pagina, `Modal Despesas da Rota ${w}`, relatorio);
      await pagina.keyboard.press('Escape');
      await pagina.getByRole('dialog').waitFor({ state: 'detached' });

      await visitar(pagina, '/usuarios', titulo(pagina, 'Gerenciamento de Usuários'));
      await pagina.getByText('Renata Albuquerque').first().waitFor();
      await verificar(pagina, `Usuários ${w}`, relatorio);
      await pagina.getByRole('button', { name: 'Novo Funcionário' }).click();
      await pagina.getByRole('dialog').waitFor();
      await verificar(pagina, `Modal Novo Funcionário ${w}`, relatorio);
      await pagina.keyboard.press('Escape');
      await pagina.getByRole('dialog').waitFor({ state: 'detached' });
      // The row's own dialogs, and the import of a phone's file.
      for (const [botao, dialogo, pronto] of [
        ['Editar Renata Albuquerque', 'Editar Usuário', 'Nome'],
        ['Sessões de Renata Albuquerque', 'Sessões de Renata Albuquerque', null],
        ['Desativar Otávio Sem Rota', 'Desativar usuário', null],
        ['Importar pendências', 'Importar pendências', null],
      ] as const) {
        await pagina.getByRole('button', { name: botao, exact: true }).first().click();
        const aberto = pagina.getByRole('dialog', { name: dialogo });
        await aberto.waitFor();
        if (pronto) await aberto.getByLabel(pronto, { exact: false }).first().waitFor();
        // Whatever the dialog loads (sessions, the person's summary) drawn before axe reads it.
        await pagina.waitForFunction(() => !document.querySelector('[role=dialog] .carregando, [role=dialog] [aria-busy=true]'));
        await verificar(pagina, `Modal ${dialogo} ${w}`, relatorio);
        await pagina.keyboard.press('Escape');
        await aberto.waitFor({ state: 'detached' });
      }

      await visitar(pagina, '/vendas', titulo(pagina, 'Vendas'));
      await pagina.getByText('Renata Albuquerque').first().waitFor();
      await verificar(pagina, `Vendas admin ${w}`, relatorio);
      await pagina.getByRole('button', { name: 'Filtrar' }).first().click();
      await pagina.getByRole('dialog').waitFor();
      await verificar(pagina, `Modal Filtros de Vendas ${w}`, relatorio);
      await pagina.keyboard.press('Escape');
      await pagina.getByRole('dialog').waitFor({ state: 'detached' });

      await visitar(pagina, '/despesas', titulo(pagina, 'Despesas'));
      await pagina.getByText('Almoço').first().waitFor();
      await verificar(pagina, `Despesas admin ${w}`, relatorio);
      const despesasAdmin = new TelaDespesas(pagina);
      for (const [acao, dialogo] of [
        ['Ver Detalhes', 'Detalhes da Despesa'],
        ['Rejeitar', 'Rejeitar Despesa'],
      ] as const) {
        await despesasAdmin.acao('Almoço', acao);
        const aberto = pagina.getByRole('dialog', { name: dialogo });
        await aberto.waitFor();
        await verificar(pagina, `Modal ${dialogo} (admin) ${w}`, relatorio);
        await pagina.keyboard.press('Escape');
        await aberto.waitFor({ state: 'detached' });
      }

      await visitar(pagina, '/saldo', titulo(pagina, 'Saldo dos Funcionários'));
      await pagina.getByText('Renata Albuquerque').first().waitFor();
      await verificar(pagina, `Saldo ${w}`, relatorio);
      const saldo = new TelaSaldo(pagina);
      await saldo.aba('Histórico de Movimentações').click();
      await saldo.linha('Adiantamento').first().waitFor();
      await verificar(pagina, `Saldo, histórico ${w}`, relatorio);
      await saldo.aba('Relatório').click();
      await saldo.linha('Rota Serra Fluminense').first().waitFor();
      await verificar(pagina, `Saldo, relatório ${w}`, relatorio);

      await visitar(pagina, '/relatorios', titulo(pagina, 'Relatórios'));
      await pagina.getByText('Rota Serra Fluminense').first().waitFor();
      await verificar(pagina, `Relatórios ${w}`, relatorio);
      let detalhes: Locator;
      if (tela === CELULAR) {
        // On the phone each route is a card opened by its header; 'Detalhes' is inside.
        await pagina.getByRole('button', { name: 'Expandir Rota Serra Fluminense' }).click();
        await pagina.getByRole('button', { name: 'Detalhes', exact: true }).waitFor();
        await verificar(pagina, `Relatórios, cartão aberto ${w}`, relatorio);
        await pagina.getByRole('button', { name: 'Detalhes', exact: true }).click();
        detalhes = pagina.getByRole('dialog', { name: 'Rota Serra Fluminense' });
      } else {
        detalhes = await new TelaRelatorios(pagina).abrirDetalhes('Rota Serra Fluminense');
      }
      await detalhes.getByText('Renata Albuquerque').first().waitFor();
      await verificar(pagina, `Modal Detalhes da Rota ${w}`, relatorio);
      await pagina.keyboard.press('Escape');
      await pagina.getByRole('dialog').waitFor({ state: 'detached' });

      await visitar(pagina, '/auditoria', titulo(pagina, 'Auditoria'));
      await pagina.locator('main table, main .cartoes-linha').first().waitFor();
      await verificar(pagina, `Auditoria ${w}`, relatorio);
      await visitar(pagina, '/senha', titulo(pagina, 'Minha senha'));
      await verificar(pagina, `Minha senha (admin) ${w}`, relatorio);

      if (tela === CELULAR) {
        await abrirGaveta(pagina);
        await verificar(pagina, `Gaveta do menu (admin) ${w}`, relatorio);
      }
      await contexto.close();
      expect(relatorio.join('\n\n')).toBe('');
    });

    it(`axe e avisos: painel de sincronização com itens (na fila, recusado, recebidos), descartar, finalizar a rota e o resultado, em ${nomeTela(tela)}`, async () => {
      const bia = quemFinaliza.get(tela)!;
      const { contexto, pagina } = await entrar(tela, bia.email, bia.senha);
      const relatorio: string[] = [];
      const sobrepostos: string[] = [];
      const w = nomeTela(tela);
      const conferirAvisos = async (onde: string) => {
        for (const p of await avisosSobrepostos(pagina)) sobrepostos.push(`${onde} ${w}: ${p}`);
      };
      const fecharDialogo = async () => {
        await pagina.keyboard.press('Escape');
        await pagina.getByRole('dialog').waitFor({ state: 'detached' });
      };
      // The header's toasts of the sign-in are closed: each step below measures its own.
      await pagina.locator('.Toastify__close-button').evaluateAll((botoes) => botoes.forEach((b) => (b as HTMLElement).click()));

      // Three expenses kept on the phone without signal, one with a receipt she already launched (the server will refuse it).
      const despesas = new TelaDespesas(pagina);
      await visitar(pagina, '/despesas', titulo(pagina, 'Despesas'));
      const abrirPainel = async () => {
        await pagina.getByRole('button', { name: /Abrir sincronização/ }).click();
        return pagina.getByRole('dialog', { name: 'Sincronização' });
      };
      // Opened once with signal: its code is on the phone, as for anyone who has used the app online.
      await (await abrirPainel()).getByRole('button', { name: 'Sincronizar agora' }).waitFor();
      await fecharDialogo();
      await contexto.setOffline(true);
      for (const [descricao, valor, chave] of [
        ['Café na estrada', '12,50', bia.chave],
        ['Estacionamento do hotel', '18,00', ''],
        ['Lanche na rodoviária', '15,00', ''],
      ] as const) {
        const modal = await despesas.abrirNova();
        await despesas.preencher(modal, { tipo: 'Alimentação', valor, descricao });
        if (chave) await modal.getByLabel('Chave da NFC-e (44 dígitos)').fill(chave);
        await despesas.registrar(modal);
        if (chave) {
          await despesas.aviso('Despesa guardada neste aparelho. Ela será enviada assim que houver conexão.').waitFor();
          await conferirAvisos('Aviso de despesa guardada');
        }
      }
      let painel = await abrirPainel();
      await painel.getByRole('heading', { name: 'Aguardando envio (3)' }).waitFor();
      await verificar(pagina, `Painel de sincronização, 3 na fila ${w}`, relatorio);
      await conferirAvisos('Painel de sincronização');
      await fecharDialogo();

      await contexto.setOffline(false);
      painel = await abrirPainel();
      await painel.getByRole('button', { name: 'Sincronizar agora' }).click();
      await painel.getByRole('heading', { name: 'Precisam de atenção (1)' }).waitFor({ timeout: 30_000 });
      await painel.getByRole('heading', { name: 'Recebidos pelo servidor' }).waitFor();
      await painel.getByRole('heading', { name: 'Aguardando envio (0)' }).waitFor();
      await verificar(pagina, `Painel de sincronização, recusado e recebidos ${w}`, relatorio);
      await conferirAvisos('Painel de sincronização');
      await painel.getByRole('button', { name: 'Descartar' }).click();
      await pagina.getByRole('dialog', { name: 'Descartar registro' }).waitFor();
      await verificar(pagina, `Confirmação Descartar registro ${w}`, relatorio);
      await pagina.getByRole('dialog', { name: 'Descartar registro' }).getByRole('button', { name: 'Descartar' }).click();
      await painel.getByRole('heading', { name: /^Precisam de atenção/ }).waitFor({ state: 'detached' });
      await painel.getByRole('button', { name: 'Fechar', exact: true }).first().click();
      await painel.waitFor({ state: 'detached' });

      // 'Finalizar Rota': the confirmation, then the route's result with its toast.
      const rotas = new TelaMinhasRotas(pagina);
      await visitar(pagina, '/rotas', titulo(pagina, 'Minhas Rotas'));
      const confirmacao = await rotas.pedirFinalizacao(`Rota da Bia ${tela.width}`);
      await confirmacao.waitFor();
      await verificar(pagina, `Confirmação Finalizar Rota ${w}`, relatorio);
      await confirmacao.getByRole('button', { name: 'Finalizar', exact: true }).click();
      const resultado = pagina.getByRole('dialog', { name: 'Resultado da rota' });
      await resultado.getByText('Salário').first().waitFor();
      await rotas.aviso('Rota finalizada com sucesso!').waitFor();
      await conferirAvisos('Resultado da rota');
      await capturar(pagina, `a11y-resultado-da-rota-com-aviso-${tela.width}`);
      await verificar(pagina, `Modal Resultado da rota ${w}`, relatorio);
      await contexto.close();
      expect({ axe: relatorio.join('\n\n'), avisos: sobrepostos }).toEqual({ axe: '', avisos: [] });
    });

    it(`axe: todas as telas do funcionário em ${nomeTela(tela)}`, async () => {
      const { contexto, pagina } = await entrar(tela, renata.email, renata.senha);
      const relatorio: string[] = [];
      await percorrerFuncionario(pagina, tela, (onde) => verificar(pagina, `${onde} ${nomeTela(tela)}`, relatorio));
      await contexto.close();
      expect(relatorio.join('\n\n')).toBe('');
    });
  }

  /**
   * Every screen the employee has (there is no Saldo page for them: the balance is on the dashboard
   * and on Despesas), with the modals, the card menu, the sync panel and, on the phone, the drawer.
   * `aCadaTela` runs once each is ready; `dentro` is the open layer (dialog, menu, drawer).
   */
  async function percorrerFuncionario(pagina: Page, tela: Tela, aCadaTela: (onde: string, dentro?: string) => Promise<void>) {
    const fecharDialogo = async () => {
      await pagina.keyboard.press('Escape');
      await pagina.getByRole('dialog').waitFor({ state: 'detached' });
    };
    await visitar(pagina, '/dashboard', titulo(pagina, 'Dashboard'));
    await pagina.getByText('Rota Serra Fluminense').first().waitFor();
    await aCadaTela('Dashboard funcionário');

    const rotas = new TelaMinhasRotas(pagina);
    await visitar(pagina, '/rotas', titulo(pagina, 'Minhas Rotas'));
    await rotas.cartao('Rotas Ativas', 'Rota Serra Fluminense').waitFor();
    await aCadaTela('Minhas Rotas');
    const cidades = await rotas.verCidades('Rota Serra Fluminense');
    await cidades.getByText(VALE_DO_RIO_PRETO.nome).waitFor();
    await aCadaTela('Modal Cidades da Rota', '[role=dialog]');
    await fecharDialogo();

    await visitar(pagina, '/vendas', titulo(pagina, 'Registro Diário de Vendas'));
    await pagina.getByText(VALE_DO_RIO_PRETO.nome).first().waitFor();
    await aCadaTela('Vendas funcionário');
    // The form the employee fills most: a city's closing, open inside its card.
    await pagina.getByRole('button', { name: 'Editar Anápolis' }).click();
    await pagina.getByRole('form', { name: 'Fechamento de Anápolis' }).getByLabel('Dinheiro', { exact: true }).waitFor();
    await aCadaTela('Fechamento de uma cidade', 'li[aria-label="Anápolis (GO)"]');
    await pagina.getByRole('button', { name: 'Cancelar Anápolis' }).click();
    await pagina.getByRole('form', { name: 'Fechamento de Anápolis' }).waitFor({ state: 'detached' });

    const despesas = new TelaDespesas(pagina);
    await visitar(pagina, '/despesas', titulo(pagina, 'Despesas'));
    await despesas.item('Almoço').waitFor();
    await aCadaTela('Despesas funcionário');
    if (tela === CELULAR) {
      await despesas.item('Almoço').getByRole('button', { name: /^Ações:/ }).click();
      await pagina.getByRole('menu').waitFor();
      await aCadaTela('Menu de ações da despesa', '[role=menu]');
      await pagina.getByRole('menuitem', { name: 'Ver Detalhes' }).click();
    } else {
      await pagina.getByRole('button', { name: /^Ver detalhes: Alimentação/ }).click();
    }
    await pagina.getByRole('dialog').getByText(VALE_DO_RIO_PRETO.nome).waitFor();
    await aCadaTela('Modal Detalhes da Despesa', '[role=dialog]');
    await fecharDialogo();
    const nova = await despesas.abrirNova();
    await nova.getByLabel('Valor (R$)').waitFor();
    await aCadaTela('Modal Nova Despesa', '[role=dialog]');
    await fecharDialogo();

    await pagina.getByRole('button', { name: /Abrir sincronização/ }).click();
    await pagina.getByRole('dialog').getByRole('button', { name: 'Sincronizar agora' }).waitFor();
    await aCadaTela('Painel de sincronização', '[role=dialog]');
    await fecharDialogo();

    await visitar(pagina, '/senha', titulo(pagina, 'Minha senha'));
    await aCadaTela('Minha senha');

    if (tela === CELULAR) {
      await abrirGaveta(pagina);
      await aCadaTela('Gaveta do menu (funcionário)', '.lateral');
    }
  }

  it('no celular, todo controle que o funcionário toca tem pelo menos 44x44 px', async () => {
    const { contexto, pagina } = await entrar(CELULAR, renata.email, renata.senha);
    const pequenos: string[] = [];
    await percorrerFuncionario(pagina, CELULAR, async (onde, dentro) => {
      for (const a of await alvosPequenos(pagina, { dentro })) pequenos.push(`${onde}: ${a.descricao} ${a.largura}x${a.altura}`);
    });
    await capturar(pagina, 'celular-a11y-gaveta');
    await contexto.close();
    expect(pequenos).toEqual([]);
  });

  it('no celular, as abas de Usuários cabem em 390 px', async () => {
    const { contexto, pagina } = await entrar(CELULAR, ADMIN.email, ADMIN.senha);
    await visitar(pagina, '/usuarios', titulo(pagina, 'Gerenciamento de Usuários'));
    await pagina.getByText('Renata Albuquerque').first().waitFor();
    const abas = pagina.getByRole('tablist').first();
    const medida = await abas.evaluate((el) => ({ rolagem: el.scrollWidth, visivel: el.clientWidth, direita: el.getBoundingClientRect().right }));
    await capturar(pagina, 'celular-a11y-usuarios');
    await contexto.close();
    expect(medida.rolagem).toBeLessThanOrEqual(medida.visivel);
    expect(medida.direita).toBeLessThanOrEqual(CELULAR.width);
  });

  /** The test phone (390 px) and the narrowest Android phones still common among employees (360 px). */
  for (const tela of [CELULAR, { width: 360, height: 800 }]) it(`no celular (${tela.width} px), nomes de cidade nunca quebram no meio da palavra (nem empurram a tela para o lado)`, async () => {
    const partidas: string[] = [];
    const conferir = async (pagina: Page, onde: string) => {
      expect(await pagina.locator(NOMES_DE_CIDADE).filter({ hasText: VALE_DO_RIO_PRETO.nome }).count(), onde).toBeGreaterThan(0);
      for (const p of await palavrasPartidas(pagina, NOMES_DE_CIDADE)) partidas.push(`${onde}: ${p}`);
      // A name kept whole must not widen the screen instead.
      const largura = await pagina.evaluate(() => document.documentElement.scrollWidth);
      if (largura > tela.width) partidas.push(`${onde}: a tela rola para o lado (${largura} px)`);
    };

    const funcionario = await entrar(tela, renata.email, renata.senha);
    const f = funcionario.pagina;
    await visitar(f, '/vendas', titulo(f, 'Registro Diário de Vendas'));
    await f.getByText(VALE_DO_RIO_PRETO.nome).first().waitFor();
    await f.getByText(ITAQUAQUECETUBA.nome).first().waitFor();
    await conferir(f, 'Vendas');
    await capturar(f, `celular-a11y-vendas-cidade-longa-${tela.width}`);
    const rotas = new TelaMinhasRotas(f);
    await visitar(f, '/rotas', titulo(f, 'Minhas Rotas'));
    const cidades = await rotas.verCidades('Rota Serra Fluminense');
    await cidades.getByText(VALE_DO_RIO_PRETO.nome).waitFor();
    await conferir(f, 'Cidades da Rota');
    await f.keyboard.press('Escape');
    const despesas = new TelaDespesas(f);
    await visitar(f, '/despesas', titulo(f, 'Despesas'));
    await despesas.item('Almoço').waitFor();
    await conferir(f, 'Despesas');
    await capturar(f, `celular-a11y-despesas-cidade-longa-${tela.width}`);
    await despesas.acao('Almoço', 'Ver Detalhes');
    await f.getByRole('dialog').getByText(VALE_DO_RIO_PRETO.nome).waitFor();
    await conferir(f, 'Detalhes da Despesa');
    await capturar(f, `celular-a11y-detalhes-despesa-cidade-longa-${tela.width}`);
    await funcionario.contexto.close();

    const admin = await entrar(tela, ADMIN.email, ADMIN.senha);
    const a = admin.pagina;
    await visitar(a, '/vendas', titulo(a, 'Vendas'));
    await a.getByText(VALE_DO_RIO_PRETO.nome).first().waitFor();
    await conferir(a, 'Vendas (admin)');
    await capturar(a, `celular-a11y-vendas-admin-cidade-longa-${tela.width}`);
    await visitar(a, '/despesas', titulo(a, 'Despesas'));
    await a.getByText('Almoço').first().waitFor();
    await conferir(a, 'Despesas (admin)');
    await admin.contexto.close();
    expect(partidas).toEqual([]);
  });

  it('no computador, nomes de cidade nas tabelas do admin nunca quebram no meio da palavra', async () => {
    const { contexto, pagina } = await entrar(DESKTOP, ADMIN.email, ADMIN.senha);
    const partidas: string[] = [];
    await visitar(pagina, '/vendas', titulo(pagina, 'Vendas'));
    await pagina.getByRole('cell', { name: new RegExp(VALE_DO_RIO_PRETO.nome) }).first().waitFor();
    partidas.push(...(await palavrasPartidas(pagina, 'td', { contendo: VALE_DO_RIO_PRETO.nome })));
    await capturar(pagina, 'desktop-a11y-vendas-cidade-longa');
    await visitar(pagina, '/despesas', titulo(pagina, 'Despesas'));
    await pagina.getByRole('cell', { name: new RegExp(VALE_DO_RIO_PRETO.nome) }).first().waitFor();
    partidas.push(...(await palavrasPartidas(pagina, 'td', { contendo: VALE_DO_RIO_PRETO.nome })));
    await capturar(pagina, 'desktop-a11y-despesas-cidade-longa');
    await contexto.close();
    expect(partidas).toEqual([]);
  });
});
