/** 'Relatórios' in the browser: filters, selection, details with receipts, both exports. */
import fs from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoje } from '../shared/dates';
import { inserirDespesa, inserirMovimento, inserirVenda, inserirVisita } from '../server/test/fabricas';
import { ADMIN } from '../server/test/helper';
import { TelaLogin } from './paginas/login';
import { TelaRelatorios } from './paginas/relatorios';
import { abrirNavegador, capturar, CELULAR, DESKTOP, novaPagina, temChromium } from './suporte/navegador';
import { iniciarServidor, type ServidorDeTeste } from './suporte/servidor';

describe.skipIf(!temChromium)('Relatórios no navegador', () => {
  let servidor: ServidorDeTeste;
  let navegador: Browser;

  beforeAll(async () => {
    servidor = await iniciarServidor();
    navegador = await abrirNavegador();
    const admin = await servidor.tokenAdmin();
    const dia = hoje('America/Sao_Paulo');
    const criarRota = async (funcionarioId: number, nome: string, cidades: number[], aluguel: number) => {
      const r = await servidor.chamar({
        method: 'POST',
        url: '/api/rotas',
        token: admin,
        payload: { nome, funcionario_id: funcionarioId, tem_secretario: false, valor_aluguel: aluguel, data_inicio: '2026-11-01', data_fim: '2026-11-30', observacoes: '', cidades },
      });
      return r.json().rota.id as number;
    };
    const ana = await servidor.criarFuncionario({ nome: 'Ana Estrada' });
    const bruno = await servidor.criarFuncionario({ nome: 'Bruno Viagem' });
    const rotaAna = await criarRota(ana.id, 'Rota Goiás', [5208707, 5201108, 5204508, 5205109], 800);
    await inserirVenda(servidor.db, rotaAna, ana.id, 5208707, dia, { dinheiro: 250_000, pix: 120_050, boletos: 3 });
    await inserirVenda(servidor.db, rotaAna, ana.id, 5201108, dia, { cartao: 180_000 });
    await inserirVisita(servidor.db, rotaAna, ana.id, 5204508, dia);
    await inserirDespesa(servidor.db, rotaAna, ana.id, 5208707, dia, 4_550, { arquivoCupom: 'x.pdf', cupomMime: 'application/pdf' });
    await inserirDespesa(servidor.db, rotaAna, ana.id, 5201108, dia, 18_000, { tipo: 'hospedagem' });
    await inserirMovimento(servidor.db, ana.id, 'credito', 100_000, rotaAna);
    await inserirMovimento(servidor.db, ana.id, 'debito', 22_550, rotaAna);
    const rotaBruno = await criarRota(bruno.id, 'Rota Minas', [3106200, 3170206, 3170107], 0);
    await inserirVenda(servidor.db, rotaBruno, bruno.id, 3106200, dia, { pix: 90_000 });
    await inserirMovimento(servidor.db, bruno.id, 'credito', 50_000, rotaBruno);
    await inserirMovimento(servidor.db, bruno.id, 'debito', 70_000, rotaBruno);
    await servidor.chamar({ method: 'PATCH', url: `/api/rotas/${rotaBruno}/finalizar`, token: bruno.token });
  });
  afterAll(async () => {
    await navegador?.close();
    await servidor?.fechar();
  });

  async function entrarComoAdmin(tela = DESKTOP) {
    const { contexto, pagina } = await novaPagina(navegador, tela);
    await new TelaLogin(pagina).abrir(servidor.url);
    await new TelaLogin(pagina).entrar(ADMIN.email, ADMIN.senha);
    await pagina.waitForURL('**/dashboard');
    return { contexto, pagina };
  }

  it('filtra, mostra os totais, abre os detalhes e exporta PDF e Excel da seleção', async () => {
    const { contexto, pagina } = await entrarComoAdmin();
    const tela = new TelaRelatorios(pagina);
    await tela.abrir(servidor.url);
    await tela.linha('Rota Goiás').getByText('R$ 5.500,50').waitFor();
    await tela.linha('Rota Minas').getByText('-R$ 200,00').waitFor(); // negative balance in red
    await capturar(pagina, 'desktop-relatorios');

    await tela.filtrarStatus('Finalizadas');
    await expect.poll(() => pagina.getByRole('row').filter({ hasText: 'Rota Goiás' }).count()).toBe(0);
    await tela.linha('Rota Minas').waitFor();
    await tela.filtrarStatus('Todas as rotas');
    await tela.filtrarFuncionario('Ana Estrada');
    await expect.poll(() => pagina.getByRole('row').filter({ hasText: 'Rota Minas' }).count()).toBe(0);
    await tela.filtrarFuncionario('Todos');
    await tela.linha('Rota Minas').waitFor();

    const detalhes = await tela.abrirDetalhes('Rota Goiás');
    await detalhes.getByText('3/4').waitFor();
    await detalhes.getByText('Cidades não visitadas (1)').click();
    await detalhes.getByText('Catalão (GO)').waitFor();
    await detalhes.getByText('Comprovantes (1)').click();
    await capturar(pagina, 'desktop-relatorios-detalhes');
    await detalhes.getByText('Saldo final').waitFor();
    await pagina.keyboard.press('Escape');

    await tela.selecionar('Rota Goiás');
    await pagina.getByText('1 rota selecionada').waitFor();
    const pdf = await tela.exportar('PDF');
    expect(pdf.suggestedFilename()).toBe('relatorio_rotas.pdf');
    const bytesPdf = fs.readFileSync((await pdf.path())!);
    expect(bytesPdf.subarray(0, 5).toString()).toBe('%PDF-');
    const excel = await tela.exportar('Excel');
    expect(excel.suggestedFilename()).toBe('relatorio_rotas.xlsx');
    expect(fs.readFileSync((await excel.path())!).subarray(0, 2).toString()).toBe('PK');
    // The same selection as CSV a Brazilian spreadsheet opens as it is (BOM, ';', decimal comma).
    const csv = await tela.exportar('CSV');
    expect(csv.suggestedFilename()).toBe('relatorio_rotas.csv');
    const textoCsv = fs.readFileSync((await csv.path())!, 'utf8');
    expect(textoCsv.startsWith('\uFEFFRota;Funcionário;Status;Vendas;Despesas;Créditos;A devolver;A receber;Saldo Atual\r\n')).toBe(true);
    expect(textoCsv.split('\r\n').filter(Boolean)).toHaveLength(2);
    expect(textoCsv).toContain('Rota Goiás;');
    await contexto.close();
  });

  it('até 700 px as rotas viram cartões que expandem', async () => {
    const { contexto, pagina } = await entrarComoAdmin(CELULAR);
    const tela = new TelaRelatorios(pagina);
    await tela.abrir(servidor.url);
    await pagina.getByRole('button', { name: 'Expandir Rota Goiás' }).click();
    await pagina.getByText('Saldo Atual').first().waitFor();
    await capturar(pagina, 'celular-relatorios');
    await pagina.getByRole('button', { name: 'Detalhes', exact: true }).click();
    await pagina.getByRole('dialog', { name: 'Rota Goiás' }).getByText('Quem pagou o aluguel').waitFor();
    await capturar(pagina, 'celular-relatorios-detalhes');
    await contexto.close();
  });
});
