/**
 * The admin's Vendas, Despesas and Auditoria export their whole filtered set, not the page on screen
 * (docs/decisions/paineis-e-relatorios.md, 'O ZIP do contador'): GET /api/vendas/exportar, /api/despesas/exportar and
 * /api/auditoria/exportar take each list's own filters, validated by its schema, and stream a CSV.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatarData, somarDias } from '../../../shared/dates';
import { formatarCentavos } from '../../../shared/money';
import { ANAPOLIS, CALDAS_NOVAS, GOIANIA, criarCenarioDeDespesas, ontem, type CenarioDespesas } from '../../test/despesas';
import { inserirDespesa, inserirVenda } from '../../test/fabricas';
import { esperarRecusa } from '../../test/helper';

let c: CenarioDespesas;
const D = ontem();
/** More than the largest page a list answers (LIMITE_MAXIMO_PAGINA, 1.000). */
const DIAS = 520;

beforeAll(async () => {
  c = await criarCenarioDeDespesas();
  for (let i = 0; i < DIAS; i++) {
    const dia = somarDias(D, -i);
    await inserirVenda(c.t.db, c.rotaAna, c.ana.id, GOIANIA, dia, { dinheiro: 1000 + i, pix: 50 });
    await inserirVenda(c.t.db, c.rotaAna, c.ana.id, ANAPOLIS, dia, { cartao: 2000 });
    await inserirDespesa(c.t.db, c.rotaAna, c.ana.id, ANAPOLIS, dia, 4590, { descricao: `Almoço ${i}`, tipo: 'alimentacao' });
    await inserirDespesa(c.t.db, c.rotaAna, c.ana.id, GOIANIA, dia, 12000, { tipo: 'hospedagem', statusAprovacao: i % 2 === 0 ? 'aprovada' : 'rejeitada', motivoRejeicao: i % 2 === 0 ? null : 'Sem nota; refazer' });
  }
  await inserirVenda(c.t.db, c.rotaBruno, c.bruno.id, CALDAS_NOVAS, D, { dinheiro: 777, boletos: 3 });
  await inserirDespesa(c.t.db, c.rotaBruno, c.bruno.id, CALDAS_NOVAS, D, 100, { descricao: '=1+1', tipo: 'outro', tipoOutro: 'Lavanderia' });
  // 60 audit rows (more than its page of 50): one credit each.
  for (let i = 0; i < 60; i++) {
    const r = await c.t.chamar({ method: 'POST', url: '/api/saldo/adicionar', token: c.tokenAdmin, payload: { funcionario_id: c.bruno.id, valor: 1 + i, descricao: `Crédito ${i}`, rota_id: c.rotaBruno } });
    expect(r.statusCode, r.body).toBe(201);
  }
}, 120_000);
afterAll(() => c.t.fechar());

const linhas = (corpo: string) => corpo.replace(/^\uFEFF/, '').split('\r\n').filter(Boolean);

async function csv(url: string) {
  const r = await c.t.chamar({ method: 'GET', url, token: c.tokenAdmin });
  expect(r.statusCode, r.body.slice(0, 300)).toBe(200);
  expect(r.headers['content-type']).toBe('text/csv; charset=utf-8');
  expect(r.headers['cache-control']).toBe('no-store');
  expect(r.body.startsWith('\uFEFF')).toBe(true);
  return { r, linhas: linhas(r.body) };
}

describe('GET /api/vendas/exportar', () => {
  it('leva todas as vendas do filtro, além de uma página, na ordem da tela, com BOM, ponto e vírgula e vírgula decimal', async () => {
    const { r, linhas: l } = await csv(`/api/vendas/exportar?formato=csv&funcionario_id=${c.ana.id}&status_rota=ativa&page=1&limit=10`);
    expect(r.headers['content-disposition']).toBe('attachment; filename="vendas.csv"');
    expect(l[0]).toBe('Data;Funcionário;Rota;Status;Cidade;Dinheiro;Pix;Cartão;Link;Boletos;Total;Observações');
    expect(l).toHaveLength(1 + DIAS * 2);
    // Newest day first; in a day, by city name (Anápolis before Goiânia), as the screen lists them.
    expect(l[1]).toBe(`${formatarData(D)};Ana Estrada;Rota Centro-Oeste;Ativa;Anápolis (GO);0;0;20;0;0;20;`);
    expect(l[2]).toBe(`${formatarData(D)};Ana Estrada;Rota Centro-Oeste;Ativa;Goiânia (GO);10;0,50;0;0;0;10,50;`);
    expect(l.at(-1)).toBe(`${formatarData(somarDias(D, -(DIAS - 1)))};Ana Estrada;Rota Centro-Oeste;Ativa;Goiânia (GO);15,19;0,50;0;0;0;15,69;`);
    expect(r.body).not.toContain('Bruno Campo');
  });

  it('aplica os filtros da lista (datas, cidade) e recusa um filtro inválido com 400 pt-BR', async () => {
    const { linhas: l } = await csv(`/api/vendas/exportar?data_inicio=${somarDias(D, -9)}&data_fim=${D}&cidade_id=${GOIANIA}`);
    expect(l).toHaveLength(1 + 10);
    esperarRecusa(await c.t.chamar({ method: 'GET', url: '/api/vendas/exportar?data_inicio=2026-02-30', token: c.tokenAdmin }), 400, 'dados_invalidos', /Data de início inválida/);
    esperarRecusa(await c.t.chamar({ method: 'GET', url: '/api/vendas/exportar?formato=pdf', token: c.tokenAdmin }), 400, 'dados_invalidos', 'Formato inválido.');
  });

  it('só o admin', async () => {
    esperarRecusa(await c.t.chamar({ method: 'GET', url: '/api/vendas/exportar', token: c.ana.token }), 403, 'sem_permissao');
  });
});

describe('GET /api/despesas/exportar', () => {
  it('leva todas as despesas do filtro, além de uma página, com status, motivo e comprovantes', async () => {
    const { r, linhas: l } = await csv(`/api/despesas/exportar?formato=csv&funcionario_id=${c.ana.id}&page=2&limit=20`);
    expect(r.headers['content-disposition']).toBe('attachment; filename="despesas.csv"');
    expect(l[0]).toBe('Data;Registrado por;Rota;Cidade;Tipo;Valor;Descrição;Status;Motivo da rejeição;Chave da NFC-e;Comprovantes');
    expect(l).toHaveLength(1 + DIAS * 2);
    expect(l).toContain(`${formatarData(somarDias(D, -1))};Ana Estrada;Rota Centro-Oeste;Goiânia (GO);Hospedagem;120;;Rejeitada;"Sem nota; refazer";;0`);
    expect(l).toContain(`${formatarData(D)};Ana Estrada;Rota Centro-Oeste;Anápolis (GO);Alimentação;45,90;Almoço 0;Pendente;;;0`);
    expect(r.body).not.toContain('Bruno Campo');
  });

  it('aplica os filtros da lista: tipo e status', async () => {
    const { linhas: l } = await csv(`/api/despesas/exportar?tipo=hospedagem&status_aprovacao=rejeitada`);
    expect(l).toHaveLength(1 + DIAS / 2);
    const { linhas: outro, r } = await csv(`/api/despesas/exportar?funcionario_id=${c.bruno.id}`);
    expect(outro).toHaveLength(2);
    // A description that a spreadsheet would run as a formula goes as text.
    expect(r.body).toContain(`;Outro: Lavanderia;1;'=1+1;Pendente;`);
    esperarRecusa(await c.t.chamar({ method: 'GET', url: '/api/despesas/exportar?tipo=viagem', token: c.tokenAdmin }), 400, 'dados_invalidos', 'Tipo de despesa inválido.');
  });

  it('só o admin (o funcionário não exporta nem as próprias)', async () => {
    esperarRecusa(await c.t.chamar({ method: 'GET', url: '/api/despesas/exportar', token: c.ana.token }), 403, 'sem_permissao');
  });
});

describe('GET /api/auditoria/exportar', () => {
  it('leva todos os registros do filtro (mais que a página de 50), mais recentes primeiro', async () => {
    const { r, linhas: l } = await csv('/api/auditoria/exportar?formato=csv&acao=saldo.creditar&limit=5');
    expect(r.headers['content-disposition']).toBe('attachment; filename="auditoria.csv"');
    expect(l[0]).toBe('Quando;Administrador;Ação;Sobre;O que mudou');
    expect(l).toHaveLength(1 + 60);
    // 'Sobre' is the record in words, as the screen shows it (auditoria/descricao.ts).
    expect(l[1]).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2};Administrador;Crédito no saldo;/);
    expect(l[1]).toContain(`;Crédito no saldo;Crédito de ${formatarCentavos(6000)} para Bruno Campo;`);
    expect(l[1]).toContain(`Valor: ${formatarCentavos(6000)}`);
    expect(l[1]).toContain('Rota: Rota Sul (#');
    expect(l.at(-1)).toContain(`Valor: ${formatarCentavos(100)}`);
  });

  it('aplica o filtro de data e recusa uma ação desconhecida', async () => {
    const { linhas: l } = await csv('/api/auditoria/exportar?data_inicio=2020-01-01&data_fim=2020-01-31');
    expect(l).toHaveLength(1);
    esperarRecusa(await c.t.chamar({ method: 'GET', url: '/api/auditoria/exportar?acao=nada', token: c.tokenAdmin }), 400, 'dados_invalidos', 'Ação inválida.');
  });

  it('só o admin', async () => {
    esperarRecusa(await c.t.chamar({ method: 'GET', url: '/api/auditoria/exportar', token: c.bruno.token }), 403, 'sem_permissao');
  });
});
