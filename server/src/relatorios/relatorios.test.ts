import { writeFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoje, somarDias } from '../../../shared/dates';
import { inserirDespesa, inserirMovimento, inserirVenda, inserirVisita, type ValoresVenda } from '../../test/fabricas';
import { paginasDoPdf, textoDoPdf } from '../../test/pdf';
import { criarAppDeTeste, esperarRecusa, type AppDeTeste } from '../../test/helper';

let t: AppDeTeste;
let admin: string;
let ana: { id: number; token: string };
let bruno: { id: number; token: string };
let rotaAna: number;
let rotaBruno: number;
const dia = hoje('America/Sao_Paulo');

async function criarRota(funcionarioId: number, nome: string, cidades: number[], extra: Record<string, unknown> = {}) {
  const r = await t.chamar({
    method: 'POST',
    url: '/api/rotas',
    token: admin,
    payload: { nome, funcionario_id: funcionarioId, tem_secretario: false, valor_aluguel: 0, data_inicio: '2026-11-01', data_fim: '2026-11-30', observacoes: '', cidades, ...extra },
  });
  expect(r.statusCode, r.body).toBe(201);
  return r.json().rota.id as number;
}

const venda = (rotaId: number, funcionarioId: number, cidadeId: number, data: string, v: ValoresVenda) => inserirVenda(t.db, rotaId, funcionarioId, cidadeId, data, v);
const despesa = (rotaId: number, funcionarioId: number, cidadeId: number, data: string, valor: number, extra: Parameters<typeof inserirDespesa>[6] = {}) =>
  inserirDespesa(t.db, rotaId, funcionarioId, cidadeId, data, valor, extra);
const movimento = (funcionarioId: number, tipo: 'credito' | 'debito' | 'devolucao', valor: number, rotaId: number | null) =>
  inserirMovimento(t.db, funcionarioId, tipo, valor, rotaId);

beforeAll(async () => {
  t = await criarAppDeTeste();
  admin = await t.tokenAdmin();
  ana = await t.criarFuncionario({ nome: 'Ana Estrada' });
  bruno = await t.criarFuncionario({ nome: 'Bruno Viagem' });
  // Ana: 4 cities in GO, 3 visited; R$ 800,00 rent.
  rotaAna = await criarRota(ana.id, 'Rota Goiás', [5208707, 5201108, 5204508, 5205109], { valor_aluguel: 800 });
  await venda(rotaAna, ana.id, 5208707, dia, { dinheiro: 10, pix: 20, boletos: 2 }); // R$ 0,10 + R$ 0,20
  await venda(rotaAna, ana.id, 5201108, somarDias(dia, -1), { dinheiro: 300_000, cartao: 166_660, link: 200_000, boletos: 1 });
  await inserirVisita(t.db, rotaAna, ana.id, 5204508, dia);
  await despesa(rotaAna, ana.id, 5208707, dia, 4_550, { arquivoCupom: 'abc.jpg', cupomMime: 'image/jpeg' });
  await despesa(rotaAna, ana.id, 5201108, somarDias(dia, -1), 12_000);
  await despesa(rotaAna, ana.id, 5201108, dia, 99_999, { excluidaEm: new Date().toISOString() }); // deleted: never counted
  await movimento(ana.id, 'credito', 100_000, rotaAna);
  await movimento(ana.id, 'debito', 4_550, rotaAna);
  await movimento(ana.id, 'debito', 12_000, rotaAna);
  // Bruno: finished route in MG.
  rotaBruno = await criarRota(bruno.id, 'Rota Minas', [3106200, 3170206]);
  await venda(rotaBruno, bruno.id, 3106200, dia, { pix: 50_000 });
  await movimento(bruno.id, 'credito', 20_000, rotaBruno);
  await t.chamar({ method: 'PATCH', url: `/api/rotas/${rotaBruno}/finalizar`, token: bruno.token });
});
afterAll(() => t.fechar());

describe('GET /api/relatorios/dashboard-admin', () => {
  it('conta funcionários em rota e sem rota, rotas ativas e os totais do dia no fuso do negócio', async () => {
    const sem = await t.criarFuncionario({ nome: 'Carla Sem Rota' });
    const r = await t.chamar({ method: 'GET', url: '/api/relatorios/dashboard-admin', token: admin });
    expect(r.statusCode).toBe(200);
    const d = r.json();
    expect(d).toMatchObject({ funcionariosEmRota: 1, rotasAtivas: 1, vendasDia: 500.3, despesasDia: 45.5 });
    expect(d.funcionariosSemRota).toBeGreaterThanOrEqual(2); // Bruno (route finished) and Carla
    expect(d.rotas).toEqual([{ id: rotaAna, nome: 'Rota Goiás', funcionario_nome: 'Ana Estrada', funcionario_ativo: true, vendasHoje: 0.3, despesasHoje: 45.5, status: 'ativa' }]);
    expect(d.funcionarios).toEqual([
      { id: ana.id, nome: 'Ana Estrada', ativo: true, rota_id: rotaAna, rota_nome: 'Rota Goiás', saldo: 834.5, vendas: 0.3, cidadesAtendidas: 3, totalCidades: 4 },
    ]);
    expect(sem.id).toBeGreaterThan(0);
  });

  it('só para admin', async () => {
    esperarRecusa(await t.chamar({ method: 'GET', url: '/api/relatorios/dashboard-admin', token: ana.token }), 403, 'sem_permissao');
    esperarRecusa(await t.chamar({ method: 'GET', url: '/api/relatorios/dashboard-admin' }), 401, 'nao_autenticado');
  });
});

describe('GET /api/relatorios/rota/:id (salário)', () => {
  it('calcula pelo módulo compartilhado e devolve a base para o celular somar o que está na fila', async () => {
    const r = await t.chamar({ method: 'GET', url: `/api/relatorios/rota/${rotaAna}`, token: ana.token });
    expect(r.statusCode).toBe(200);
    const { calculo_salario: c, base, desconto_aluguel_funcionario } = r.json();
    // R$ 6.666,90 in 3 visited cities: 15,0007 bags, rounded once to 15,00 (average 5) -> R$ 120/bag, R$ 50/city, company pays the rent.
    expect(c.total_vendas).toBe(6666.9);
    expect(c.cidades_visitadas).toBe(3);
    expect(c.valor_por_bolsa).toBe(120);
    expect(c.valor_fixo_por_cidade).toBe(50);
    expect(c.boletos).toBe(3);
    expect(c.valor_boletos).toBe(16.5);
    expect(c.quem_paga_aluguel).toBe('escola');
    expect(desconto_aluguel_funcionario).toBe(0);
    // Every line multiplies out as printed: 15,00 × R$ 120,00.
    expect(c.total_bolsas).toBe(15);
    expect(c.valor_bolsas).toBe(1800);
    expect(c.total_salario).toBe(1800 + 150 + 16.5);
    expect(base.cidades_visitadas_ids.sort()).toEqual([5201108, 5204508, 5208707]);
    expect(base.vendas).toHaveLength(2);
    expect(base.valor_aluguel).toBe(800);
  });

  it('um funcionário não vê o salário da rota de outro (404); o admin vê qualquer uma', async () => {
    esperarRecusa(await t.chamar({ method: 'GET', url: `/api/relatorios/rota/${rotaAna}`, token: bruno.token }), 404, 'nao_encontrado');
    expect((await t.chamar({ method: 'GET', url: `/api/relatorios/rota/${rotaBruno}`, token: admin })).statusCode).toBe(200);
    esperarRecusa(await t.chamar({ method: 'GET', url: '/api/relatorios/rota/99999', token: admin }), 404, 'nao_encontrado');
  });
});

describe('GET /api/relatorios/rotas', () => {
  it('lista com vendas, despesas (sem as excluídas), créditos e saldo atual, exatos ao centavo', async () => {
    const r = await t.chamar({ method: 'GET', url: '/api/relatorios/rotas', token: admin });
    expect(r.statusCode).toBe(200);
    const porNome = Object.fromEntries(r.json().rotas.map((l: { rota_nome: string }) => [l.rota_nome, l]));
    expect(porNome['Rota Goiás']).toMatchObject({ funcionario_nome: 'Ana Estrada', status: 'ativa', total_vendas: 6666.9, total_despesas: 165.5, total_creditos: 1000, saldo_atual: 834.5 });
    expect(porNome['Rota Minas']).toMatchObject({ status: 'finalizada', total_vendas: 500, total_despesas: 0, total_creditos: 200, saldo_atual: 200 });
  });

  it('filtra por status, funcionário e período (rotas que cruzam o período)', async () => {
    const nomes = async (qs: string) =>
      (await t.chamar({ method: 'GET', url: `/api/relatorios/rotas?${qs}`, token: admin })).json().rotas.map((l: { rota_nome: string }) => l.rota_nome);
    expect(await nomes('status=finalizada')).toEqual(['Rota Minas']);
    expect(await nomes(`funcionario_id=${ana.id}`)).toEqual(['Rota Goiás']);
    expect(await nomes('data_inicio=2026-12-01')).toEqual([]);
    expect(await nomes('data_inicio=2026-11-15&data_fim=2026-11-16')).toHaveLength(2);
    expect(await nomes('status=todas')).toHaveLength(2);
  });

  it('recusa filtros inválidos com mensagem em pt-BR e é só para admin', async () => {
    esperarRecusa(await t.chamar({ method: 'GET', url: '/api/relatorios/rotas?status=xyz', token: admin }), 400, 'dados_invalidos', 'Status inválido.');
    esperarRecusa(await t.chamar({ method: 'GET', url: '/api/relatorios/rotas?data_inicio=2026-02-30', token: admin }), 400, 'dados_invalidos');
    esperarRecusa(await t.chamar({ method: 'GET', url: '/api/relatorios/rotas', token: ana.token }), 403, 'sem_permissao');
  });
});

describe('GET /api/relatorios/rota/:id/detalhes', () => {
  it('traz cidades visitadas e não visitadas com seus totais, o salário, o aluguel, o saldo final e os comprovantes', async () => {
    const r = await t.chamar({ method: 'GET', url: `/api/relatorios/rota/${rotaAna}/detalhes`, token: admin });
    expect(r.statusCode).toBe(200);
    const d = r.json();
    expect(d).toMatchObject({
      rota_nome: 'Rota Goiás',
      funcionario_nome: 'Ana Estrada',
      status: 'ativa',
      data_inicio_formatada: '01/11/2026',
      data_fim_formatada: '30/11/2026',
      total_cidades: 4,
      cidades_visitadas: 3,
      total_vendas: 6666.9,
      total_despesas: 165.5,
      total_creditos: 1000,
      valor_aluguel: 800,
      desconto_aluguel_funcionario: 0,
      desconto_aluguel_escola: 800,
      quem_pagou_aluguel: 'Escola',
      saldo_final: 834.5,
    });
    expect(d.cidades).toEqual([
      { cidade_id: 5208707, cidade_nome: 'Goiânia', uf: 'GO', visitada: true, total_vendas: 0.3, total_despesas: 45.5 },
      { cidade_id: 5201108, cidade_nome: 'Anápolis', uf: 'GO', visitada: true, total_vendas: 6666.6, total_despesas: 120 },
      { cidade_id: 5204508, cidade_nome: 'Caldas Novas', uf: 'GO', visitada: true, total_vendas: 0, total_despesas: 0 },
      { cidade_id: 5205109, cidade_nome: 'Catalão', uf: 'GO', visitada: false, total_vendas: 0, total_despesas: 0 },
    ]);
    expect(d.despesas).toHaveLength(2);
    const comCupom = d.despesas.find((x: { valor: number }) => x.valor === 45.5);
    expect(comCupom.cupom_url).toBe(`/api/despesas/${comCupom.id}/cupom`);
    expect(d.despesas.find((x: { valor: number }) => x.valor === 120).cupom_url).toBeNull();
    expect(d.total_salario).toBe(d.calculo_salario.total_salario);
  });

  it('só para admin; rota inexistente 404', async () => {
    esperarRecusa(await t.chamar({ method: 'GET', url: `/api/relatorios/rota/${rotaAna}/detalhes`, token: ana.token }), 403, 'sem_permissao');
    esperarRecusa(await t.chamar({ method: 'GET', url: '/api/relatorios/rota/424242/detalhes', token: admin }), 404, 'nao_encontrado', 'Rota não encontrada.');
  });
});

describe('GET /api/relatorios/rotas/exportar', () => {
  it('Excel: arquivo relatorio_rotas.xlsx com título, filtros, as colunas da tabela, valores e total', async () => {
    const r = await t.chamar({ method: 'GET', url: `/api/relatorios/rotas/exportar?formato=excel&funcionario_id=${ana.id}&status=ativa`, token: admin });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toContain('spreadsheetml');
    expect(r.headers['content-disposition']).toBe('attachment; filename="relatorio_rotas.xlsx"');
    const livro = new ExcelJS.Workbook();
    await livro.xlsx.load(r.rawPayload as unknown as ArrayBuffer);
    const aba = livro.getWorksheet('Relatório de Rotas')!;
    expect(String(aba.getCell('A1').value)).toContain('Relatório de Rotas');
    expect(String(aba.getCell('A3').value)).toBe('Filtros: Status: Ativa · Funcionário: Ana Estrada');
    expect(aba.getRow(5).values).toEqual([undefined, 'Rota', 'Funcionário', 'Status', 'Vendas', 'Despesas', 'Créditos', 'A devolver', 'A receber', 'Saldo Atual']);
    expect(aba.getRow(6).values).toEqual([undefined, 'Rota Goiás', 'Ana Estrada', 'Ativa', 6666.9, 165.5, 1000, 834.5, 0, 834.5]);
    expect(aba.getCell('D6').numFmt).toContain('R$');
    expect(aba.getRow(7).getCell(1).value).toBe('Total (1 rota)');
    expect(aba.getRow(7).getCell(4).value).toBe(6666.9);
  });

  it('CSV: relatorio_rotas.csv em UTF-8 com BOM, ponto e vírgula e vírgula decimal, só as rotas escolhidas', async () => {
    const r = await t.chamar({ method: 'GET', url: `/api/relatorios/rotas/exportar?formato=csv&rotas=${rotaAna}`, token: admin });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(r.headers['content-disposition']).toBe('attachment; filename="relatorio_rotas.csv"');
    const bytes = r.rawPayload;
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const linhas = bytes.subarray(3).toString('utf8').split('\r\n');
    expect(linhas[0]).toBe('Rota;Funcionário;Status;Vendas;Despesas;Créditos;A devolver;A receber;Saldo Atual');
    expect(linhas[1]).toBe('Rota Goiás;Ana Estrada;Ativa;6666,90;165,50;1000;834,50;0;834,50');
    expect(linhas.slice(2)).toEqual(['']);
  });

  it('PDF: arquivo relatorio_rotas.pdf cujo texto traz o título, os filtros, as rotas e os valores em reais', async () => {
    const r = await t.chamar({ method: 'GET', url: `/api/relatorios/rotas/exportar?formato=pdf&rotas=${rotaAna},${rotaBruno}`, token: admin });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('application/pdf');
    expect(r.headers['content-disposition']).toBe('attachment; filename="relatorio_rotas.pdf"');
    const texto = await textoDoPdf(r.rawPayload);
    expect(texto).toContain('Relatório de Rotas');
    expect(texto).toContain('2 rotas selecionadas');
    expect(texto).toContain('Rota Goiás');
    expect(texto).toContain('Rota Minas');
    expect(texto).toContain('R$ 6.666,90');
    expect(texto).toContain('R$ 7.166,90'); // total sales of both routes
    expect(texto).toContain('Total (2 rotas)');
    expect(texto).toContain('Página 1 de 4'); // the table, then each route's details (Rota Goiás's settlement pushes its expenses to a second page)
  });

  it('PDF: depois da tabela, cada rota traz o que o modal de detalhes mostra (cidades, vendas, despesas, cálculo do salário, aluguel, o acerto da rota)', async () => {
    const r = await t.chamar({ method: 'GET', url: `/api/relatorios/rotas/exportar?formato=pdf&rotas=${rotaAna},${rotaBruno}`, token: admin });
    expect(r.statusCode).toBe(200);
    // To look at the pages: RELATORIO_PDF_SAIDA=/tmp/relatorio.pdf, then pdftoppm -png.
    if (process.env.RELATORIO_PDF_SAIDA) await writeFile(process.env.RELATORIO_PDF_SAIDA, r.rawPayload);
    const paginas = await paginasDoPdf(r.rawPayload);
    expect(paginas.length).toBeGreaterThanOrEqual(3); // the table, then one page (at least) per route
    const goias = paginas.find((p) => p.includes('Detalhes da rota Rota Goiás'))!;
    expect(goias).toBeDefined();
    for (const trecho of [
      'Ana Estrada',
      '01/11/2026 a 30/11/2026',
      'Cidades visitadas: 3 de 4',
      'Desempenho médio: 5,00 bolsas por cidade',
      'Cidades visitadas (3)',
      'Goiânia (GO)',
      'R$ 0,30',
      'Anápolis (GO)',
      'R$ 6.666,60',
      'Cidades não visitadas (1)',
      'Catalão (GO)',
      'Cálculo do salário',
      'Bônus por cidade',
      '3 cidades visitadas × R$ 50,00',
      'R$ 150,00',
      'Boletos',
      '3 × R$ 5,50',
      'R$ 16,50',
      'Salário estimado (até agora)',
      'Aluguel',
      'Valor do aluguel',
      'R$ 800,00',
      'Pago pela escola',
      'Quem pagou o aluguel',
      'Escola',
      'Despesas (2)',
      'Alimentação',
      'R$ 45,50',
      'R$ 120,00',
      'Acerto da rota — Acerto depois da finalização',
      'Créditos desta rota',
      'Despesas pendentes',
      'A devolver',
      'R$ 834,50',
      'Pagos à parte, fora do acerto',
    ]) {
      expect(goias, trecho).toContain(trecho);
    }
    expect(goias).not.toContain('Salário pago');
    const minas = paginas.find((p) => p.includes('Detalhes da rota Rota Minas'))!;
    expect(minas).toBeDefined();
    for (const trecho of ['Bruno Viagem', 'Finalizada', 'Salário pago', 'Belo Horizonte (MG)', 'R$ 500,00', 'Cidades não visitadas (1)', 'Uberlândia (MG)', 'Nenhuma despesa registrada nesta rota.', 'R$ 200,00']) {
      expect(minas, trecho).toContain(trecho);
    }
  });

  it('só admin; formato inválido 400', async () => {
    esperarRecusa(await t.chamar({ method: 'GET', url: '/api/relatorios/rotas/exportar?formato=pdf', token: ana.token }), 403, 'sem_permissao');
    esperarRecusa(await t.chamar({ method: 'GET', url: '/api/relatorios/rotas/exportar?formato=docx', token: admin }), 400, 'dados_invalidos', 'Formato inválido.');
    esperarRecusa(await t.chamar({ method: 'GET', url: '/api/relatorios/rotas/exportar?formato=pdf&rotas=1,abc', token: admin }), 400, 'dados_invalidos', 'Rota inválida.');
  });
});

describe('GET /api/relatorios/rota/:id (resultado da rota para o funcionário)', () => {
  let dora: { id: number; token: string };
  let rotaDora: number;
  beforeAll(async () => {
    // Dora: 2 cities in MG, R$ 1.000,00 in sales and 2 boletos, both cities visited, R$ 100,00 rent; finished.
    dora = await t.criarFuncionario({ nome: 'Dora Resultado' });
    rotaDora = await criarRota(dora.id, 'Rota Triângulo', [3106200, 3170206], { valor_aluguel: 100 });
    await venda(rotaDora, dora.id, 3106200, dia, { dinheiro: 100_000, boletos: 2 });
    await inserirVisita(t.db, rotaDora, dora.id, 3170206, dia);
    await despesa(rotaDora, dora.id, 3106200, dia, 4_550);
    await despesa(rotaDora, dora.id, 3170206, dia, 12_000, { tipo: 'hospedagem' });
    await despesa(rotaDora, dora.id, 3170206, dia, 3_000);
    await despesa(rotaDora, dora.id, 3170206, dia, 50_000, { excluidaEm: new Date().toISOString() }); // deleted: never counted
    await movimento(dora.id, 'credito', 30_000, rotaDora);
    await movimento(dora.id, 'credito', 5_000, null); // not this route's money
    const r = await t.chamar({ method: 'PATCH', url: `/api/rotas/${rotaDora}/finalizar`, token: dora.token });
    expect(r.statusCode, r.body).toBe(200);
  });

  it('depois de finalizar, a dona da rota lê o salário final, as despesas por tipo, os créditos e o saldo a devolver', async () => {
    const r = await t.chamar({ method: 'GET', url: `/api/relatorios/rota/${rotaDora}`, token: dora.token });
    expect(r.statusCode, r.body).toBe(200);
    const { calculo_salario: c, resultado } = r.json();
    // 1,5 bags per R$ 666,66: 2,25 bags in 2 cities (average 1,125) -> R$ 60/bag, R$ 25/city, she pays the rent.
    expect(c).toMatchObject({ valor_por_bolsa: 60, valor_bolsas: 135, valor_fixo_por_cidade: 25, valor_cidades: 50, boletos: 2, valor_boletos: 11, quem_paga_aluguel: 'funcionario', desconto_aluguel: 100, total_salario: 96 });
    expect(resultado).toMatchObject({
      rota_nome: 'Rota Triângulo',
      status: 'finalizada',
      data_inicio: '2026-11-01',
      data_fim: '2026-11-30',
      total_cidades: 2,
      cidades_visitadas: 2,
      total_vendas: 1000,
      total_despesas: 195.5,
      total_creditos: 300,
      saldo_final: 104.5,
    });
    expect(resultado.finalizada_em).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(resultado.despesas_por_tipo).toEqual([
      { tipo: 'alimentacao', quantidade: 2, total: 75.5 },
      { tipo: 'hospedagem', quantidade: 1, total: 120 },
    ]);
  });

  it('um funcionário não lê o resultado da rota finalizada de outro (404, como se não existisse); o admin lê', async () => {
    for (const outro of [ana, bruno]) {
      esperarRecusa(await t.chamar({ method: 'GET', url: `/api/relatorios/rota/${rotaDora}`, token: outro.token }), 404, 'nao_encontrado', 'Rota não encontrada.');
    }
    esperarRecusa(await t.chamar({ method: 'GET', url: `/api/relatorios/rota/${rotaBruno}`, token: dora.token }), 404, 'nao_encontrado', 'Rota não encontrada.');
    esperarRecusa(await t.chamar({ method: 'GET', url: `/api/relatorios/rota/${rotaDora}` }), 401, 'nao_autenticado');
    const admin200 = await t.chamar({ method: 'GET', url: `/api/relatorios/rota/${rotaDora}`, token: admin });
    expect(admin200.statusCode).toBe(200);
    expect(admin200.json().resultado.saldo_final).toBe(104.5);
  });
});
