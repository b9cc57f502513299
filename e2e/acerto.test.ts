/**
 * A route's settlement, as the people who use it go through it (docs/decisions/salario-e-acerto.md, 'O acerto', and docs/decisions/rotas.md,
 * 'A finalização congela a rota; o que chega depois espera o admin'). Lara has R$ 1.000,00 of credits on her route, an approved
 * R$ 300,00 meal and a R$ 100,00 one the admin rejected. Her second phone records a closing with no signal;
 * she finishes the route on the first phone, which shows R$ 700,00 to return (the rejected R$ 100,00 is not
 * a company cost). The second phone then gets signal: its closing is held, not applied. The admin sees it in
 * the route details, accepts it, and records the acerto; the phone, the route details, the PDF and Saldo all
 * say 'Acertada' with nothing open. Real built client + real server on a temporary database.
 */
import fs from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoje, somarDias } from '../shared/dates';
import { textoDoPdf } from '../server/test/pdf';
import { lerZip } from '../server/test/zip';
import { formulario } from '../server/test/despesas';
import { TelaRelatorios } from './paginas/relatorios';
import { TelaMinhasRotas } from './paginas/rotas';
import { TelaSaldo } from './paginas/saldo';
import { TelaVendasFuncionario } from './paginas/vendas';
import { entrarComSinal } from './suporte/celular';
import { creditarSaldo, criarRotaEmCurso } from './suporte/dados';
import { abrirNavegador, capturar, CELULAR, DESKTOP, novaPagina, temChromium } from './suporte/navegador';
import { entrarComoAdmin } from './suporte/admin';
import { iniciarServidor, type ServidorDeTeste } from './suporte/servidor';
import { v7 as uuidv7 } from 'uuid';

const GOIANIA = 5208707;
const ANAPOLIS = 5201108;
const CALDAS_NOVAS = 5204508;

/** The text of an element with any run of spaces (the non-breaking one in 'R$ 1,00' too) as one space. */
const texto = async (l: Locator) => ((await l.textContent()) ?? '').replace(/\s+/g, ' ');

describe.skipIf(!temChromium)('acerto da rota no navegador', () => {
  let servidor: ServidorDeTeste;
  let navegador: Browser;
  let lara: { id: number; email: string; senha: string; token: string };
  let rota: number;

  beforeAll(async () => {
    servidor = await iniciarServidor();
    navegador = await abrirNavegador();
    lara = await servidor.criarFuncionario({ nome: 'Lara Acerto', email: 'lara@escola.com.br' });
    rota = await criarRotaEmCurso(servidor, lara.id, { nome: 'Rota Serra', cidades: [GOIANIA, ANAPOLIS, CALDAS_NOVAS], diasAntes: 6, diasDepois: 10 });
    await creditarSaldo(servidor, lara.id, 1000, { rotaId: rota });
    const admin = await servidor.tokenAdmin();
    const ontem = somarDias(hoje('America/Sao_Paulo'), -1);
    const venda = await servidor.chamar({
      method: 'POST',
      url: '/api/vendas',
      token: lara.token,
      payload: { id: uuidv7(), rota_id: rota, cidade_id: GOIANIA, data_venda: ontem, valor_dinheiro: 2400, registrado_em: new Date().toISOString() },
    });
    expect(venda.statusCode, venda.body).toBe(201);
    for (const [valor, decisao] of [
      ['300,00', 'aprovar'],
      ['100,00', 'rejeitar'],
    ] as const) {
      const id = uuidv7();
      const campos = await formulario({ id, rota_id: rota, cidade_id: GOIANIA, data_despesa: ontem, tipo: 'alimentacao', valor, descricao: 'Refeição' });
      const r = await servidor.chamar({ method: 'POST', url: '/api/despesas', token: lara.token, ...campos });
      expect(r.statusCode, r.body).toBe(201);
      const a = await servidor.chamar({ method: 'PATCH', url: `/api/despesas/${id}/${decisao}`, token: admin, payload: decisao === 'rejeitar' ? { motivo: 'Sem nota fiscal' } : {} });
      expect(a.statusCode, a.body).toBe(200);
    }
  });
  afterAll(async () => {
    await navegador?.close();
    await servidor?.fechar();
  });

  async function resultadoNoCelular(pagina: Page): Promise<Locator> {
    const tela = new TelaMinhasRotas(pagina);
    await tela.abrir(servidor.url);
    await tela.cartao('Rotas Finalizadas', 'Rota Serra').getByRole('button', { name: 'Ver resultado da rota Rota Serra' }).click();
    return pagina.getByRole('dialog', { name: 'Resultado da rota' });
  }

  it('a rota finalizada fica parada; o que chega depois espera o admin; o acerto fecha a rota em todas as telas', async () => {
    // Phone 2: signed in with signal, then no signal: a closing in Anápolis waits on the phone.
    const segundo = await novaPagina(navegador, CELULAR);
    await entrarComSinal(segundo.pagina, servidor.url, lara.email, lara.senha);
    const vendas2 = new TelaVendasFuncionario(segundo.pagina);
    await vendas2.abrir(servidor.url);
    await vendas2.aba(/^Em aberto \(\d+\)$/).waitFor();
    await segundo.contexto.setOffline(true);
    await vendas2.editar('Anápolis', { Dinheiro: '1.201,01' });
    await vendas2.salvar('Anápolis');
    await vendas2.fecharAvisos();

    // Phone 1 finishes the route: R$ 700,00 to return, the rejected R$ 100,00 as its own line.
    const primeiro = await novaPagina(navegador, CELULAR);
    await entrarComSinal(primeiro.pagina, servidor.url, lara.email, lara.senha);
    const minhas = new TelaMinhasRotas(primeiro.pagina);
    await minhas.abrir(servidor.url);
    const pergunta = await minhas.pedirFinalizacao('Rota Serra');
    await pergunta.getByRole('button', { name: 'Finalizar' }).click();
    const resultado = primeiro.pagina.getByRole('dialog', { name: 'Resultado da rota' });
    const quadro = resultado.getByRole('region', { name: 'Acerto da rota' });
    await quadro.waitFor();
    expect(await texto(quadro.getByTestId('acerto-em-aberto'))).toBe('A devolvervocê devolve ao administradorR$ 700,00');
    expect(await texto(quadro.getByTestId('acerto-rejeitadas'))).toContain('Despesas rejeitadas: R$ 100,00.');
    await quadro.scrollIntoViewIfNeeded();
    await minhas.aviso('Rota finalizada com sucesso!').waitFor({ state: 'detached', timeout: 15_000 }).catch(() => undefined);
    await capturar(primeiro.pagina, 'acerto-celular-resultado-aberto');

    // Phone 2 gets signal: its closing reaches a finished route and is held, never applied.
    await segundo.contexto.setOffline(false);
    await segundo.pagina.locator('.indicador-sync').getByText(/Sincronizado/).waitFor({ timeout: 30_000 });
    await segundo.pagina.locator('.indicador-sync').click();
    const painel = segundo.pagina.getByRole('dialog', { name: 'Sincronização' });
    await painel.getByText('Aguardando o administrador').waitFor();
    await capturar(segundo.pagina, 'acerto-celular-painel-tardio');
    const detalhesAntes = (await servidor.chamar({ method: 'GET', url: `/api/relatorios/rota/${rota}/detalhes`, token: await servidor.tokenAdmin() })).json();
    expect([detalhesAntes.total_vendas, detalhesAntes.tardios_pendentes]).toEqual([2400, 1]);
    await segundo.contexto.close();

    // The admin: the held closing in the route details, accepted; then the acerto of what is open.
    const admin = await entrarComoAdmin(navegador, servidor.url);
    const relatorios = new TelaRelatorios(admin.pagina);
    await relatorios.abrir(servidor.url);
    await relatorios.filtrarStatus('Finalizadas');
    const detalhes = await relatorios.abrirDetalhes('Rota Serra');
    const tardios = detalhes.getByRole('region', { name: 'Registros que chegaram depois da finalização' });
    await tardios.getByText(/Anápolis \(GO\), \d\d\/\d\d\/\d{4}: R\$\s1\.201,01/).waitFor();
    await detalhes.getByText(/Antes do acerto, decida o registro que chegou depois da finalização/).waitFor();
    await tardios.scrollIntoViewIfNeeded();
    await capturar(admin.pagina, 'acerto-admin-tardio-pendente');
    await tardios.getByRole('button', { name: 'Aceitar' }).click();
    await tardios.getByText('Aceito', { exact: true }).waitFor();
    // Accepted: the sale is in the route's figures now (R$ 2.400,00 + R$ 1.201,01).
    await detalhes.getByRole('region', { name: 'Totais' }).getByText('R$ 3.601,01').waitFor();

    const registrar = detalhes.getByRole('form', { name: 'Registrar acerto' });
    expect(await registrar.getByLabel(/Valor \(R\$\)/).inputValue()).toBe('700,00');
    await registrar.getByLabel('Observação').fill('Devolvido em dinheiro no escritório');
    await registrar.getByRole('button', { name: 'Registrar acerto' }).click();
    const confirmar = admin.pagina.getByRole('dialog', { name: 'Registrar acerto' });
    await confirmar.getByText('Registrar que Lara Acerto devolveu R$ 700,00?').waitFor();
    await confirmar.getByRole('button', { name: 'Registrar' }).click();
    const quadroAdmin = detalhes.getByRole('region', { name: 'Acerto da rota' });
    await quadroAdmin.getByText(/^Acertada em \d\d\/\d\d\/\d{4}$/).waitFor();
    expect(await texto(quadroAdmin.getByTestId('acerto-em-aberto'))).toBe('Em abertonada a devolver nem a receberR$ 0,00');
    await quadroAdmin.scrollIntoViewIfNeeded();
    await capturar(admin.pagina, 'acerto-admin-detalhes-acertada');
    await admin.pagina.keyboard.press('Escape');

    // The PDF of the route says the same.
    await relatorios.selecionar('Rota Serra');
    const pdf = await relatorios.exportar('PDF');
    const textoPdf = (await textoDoPdf(fs.readFileSync((await pdf.path())!))).replace(/\u00a0/g, ' ');
    for (const trecho of ['Acerto da rota — Acertada em', 'A devolver R$ 0,00'.replace('A devolver', 'Em aberto'), 'Despesas rejeitadas: R$ 100,00', 'Devolvido pelo funcionário', 'Devolvido em dinheiro no escritório', 'R$ 3.601,01']) {
      expect(textoPdf, trecho).toContain(trecho);
    }

    // The accountant's ZIP of the month: the same settlement in its summary, the accepted sale and every expense with its status.
    await admin.pagina.getByRole('button', { name: 'Exportar para o contador' }).click();
    const periodo = admin.pagina.getByRole('dialog', { name: 'Exportar para o contador' });
    await periodo.getByLabel('Data inicial').fill(somarDias(hoje('America/Sao_Paulo'), -30));
    await periodo.getByLabel('Data final').fill(hoje('America/Sao_Paulo'));
    const baixando = admin.pagina.waitForEvent('download', { timeout: 60_000 });
    await periodo.getByRole('button', { name: 'Exportar', exact: true }).click();
    const entradas = lerZip(fs.readFileSync((await (await baixando).path())!));
    const porNome = new Map(entradas.map((e) => [e.nome, e.dados]));
    const resumo = (await textoDoPdf(porNome.get('resumo.pdf')!)).replace(/\u00a0/g, ' ');
    for (const trecho of ['Rota Serra', 'Créditos desta rota', 'Em aberto', 'Despesas rejeitadas (a devolver)', 'R$ 100,00', 'Devolvido pelo funcionário', 'R$ 700,00']) {
      expect(resumo, trecho).toContain(trecho);
    }
    const vendasCsv = porNome.get('vendas.csv')!.toString('utf8');
    expect(vendasCsv).toContain(';Anápolis;GO;1201,01;');
    const despesasCsv = porNome.get('despesas.csv')!.toString('utf8');
    expect(despesasCsv).toContain(';Aprovada;');
    expect(despesasCsv).toContain(';Rejeitada;Sem nota fiscal;');

    // Saldo: Lara's balance is zero (the rejected R$ 100,00 was charged in the acerto); the report says 'Acertada'.
    const saldo = new TelaSaldo(admin.pagina);
    await saldo.abrir(servidor.url);
    expect(await texto(saldo.linha('Lara Acerto'))).toContain('R$ 0,00');
    await saldo.aba('Relatório').click();
    await saldo.linha('Rota Serra').getByText(/Acertada em \d\d\/\d\d\/\d{4}/).waitFor();
    await capturar(admin.pagina, 'acerto-admin-saldo-relatorio');
    await admin.pagina.setViewportSize(CELULAR);
    await admin.pagina.reload();
    await saldo.aba('Relatório').click();
    await admin.pagina.getByText(/Acertada em \d\d\/\d\d\/\d{4}/).first().waitFor();
    await capturar(admin.pagina, 'acerto-admin-saldo-relatorio-celular');
    await admin.contexto.close();

    // Back on phone 1: the result says 'Acertada' with nothing open, and the late closing was accepted.
    const resultado2 = await resultadoNoCelular(primeiro.pagina);
    const quadro2 = resultado2.getByRole('region', { name: 'Acerto da rota' });
    await quadro2.getByText(/^Acertada em \d\d\/\d\d\/\d{4}$/).waitFor();
    expect(await texto(quadro2.getByTestId('acerto-em-aberto'))).toBe('Em abertonada a devolver nem a receberR$ 0,00');
    const tardiosNoCelular = resultado2.getByRole('region', { name: 'Registros que chegaram depois da finalização' });
    await tardiosNoCelular.getByText('Aceito', { exact: true }).waitFor();
    expect(await tardiosNoCelular.getByRole('button').count()).toBe(0);
    await quadro2.scrollIntoViewIfNeeded();
    await capturar(primeiro.pagina, 'acerto-celular-resultado-acertada');
    await primeiro.pagina.setViewportSize(DESKTOP);
    await capturar(primeiro.pagina, 'acerto-desktop-resultado-acertada');
    await primeiro.contexto.close();
  });
});
