/**
 * Every list endpoint answers a bounded page with the total of the whole filtered
 * set, whatever `limit` asks; the summary totals are those of the whole filtered set, not of the page.
 */
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoje, somarDias } from '../../../shared/dates';
import { LIMITE_MAXIMO_PAGINA } from '../../../shared/schemas/paginacao';
import { criarAppDeTeste, esperarRecusa, type AppDeTeste } from '../../test/helper';
import { emTransacao } from '../db';
import { despesas, vendas } from '../db/tabelas';

const GOIANIA = 5208707;
const ANAPOLIS = 5201108;
const CALDAS = 5204508;
const CATALAO = 5205109;

const HOJE = hoje('America/Sao_Paulo');
/** 3 cities x 420 days = 1,260 sales of Ana: more than one maximal page. */
const DIAS = 420;

let t: AppDeTeste;
let tokenAdmin: string;
let ana: { id: number; token: string };
let beto: { id: number; token: string };
let rotaAna: number;
let rotaBeto: number;
/** Sums in centavos of Ana's sales, computed here from what was inserted. */
const somaAna = { dinheiro: 0, pix: 0, boletos: 0, n: 0 };
const somaAnaGoiania = { dinheiro: 0, n: 0 };

async function criarRota(funcionarioId: number, nome: string, cidades: number[]): Promise<number> {
  const r = await t.chamar({
    method: 'POST',
    url: '/api/rotas',
    token: tokenAdmin,
    payload: { nome, funcionario_id: funcionarioId, valor_aluguel: 0, data_inicio: somarDias(HOJE, -DIAS), data_fim: somarDias(HOJE, 30), cidades },
  });
  expect(r.statusCode, r.body).toBe(201);
  return r.json().rota.id;
}

async function ler(url: string, token = tokenAdmin) {
  const r = await t.chamar({ method: 'GET', url, token });
  expect(r.statusCode, r.body).toBe(200);
  return r.json();
}

beforeAll(async () => {
  t = await criarAppDeTeste();
  tokenAdmin = await t.tokenAdmin();
  const a = await t.criarFuncionario({ nome: 'Ana Estrada' });
  const b = await t.criarFuncionario({ nome: 'Beto Viagem' });
  ana = { id: a.id, token: a.token };
  beto = { id: b.id, token: b.token };
  rotaAna = await criarRota(ana.id, 'Rota Sul Goiano', [GOIANIA, ANAPOLIS, CALDAS]);
  rotaBeto = await criarRota(beto.id, 'Rota Sudoeste', [CATALAO]);

  // Straight into the table: the API's write path is not what is tested here.
  const linhas: (typeof vendas.$inferInsert)[] = [];
  const gastos: (typeof despesas.$inferInsert)[] = [];
  const agora = new Date().toISOString();
  for (let d = 0; d < DIAS; d++) {
    const data = somarDias(HOJE, -d);
    for (const [i, cidade] of [GOIANIA, ANAPOLIS, CALDAS].entries()) {
      const dinheiro = 1000 + d * 7 + i;
      const pix = 33 * i + 1;
      const boletos = (d + i) % 3;
      linhas.push({ id: uuidv7(), rotaId: rotaAna, cidadeId: cidade, funcionarioId: ana.id, dataVenda: data, dinheiroCentavos: dinheiro, pixCentavos: pix, boletos, registradoEm: agora });
      somaAna.dinheiro += dinheiro;
      somaAna.pix += pix;
      somaAna.boletos += boletos;
      somaAna.n += 1;
      if (cidade === GOIANIA) {
        somaAnaGoiania.dinheiro += dinheiro;
        somaAnaGoiania.n += 1;
      }
      gastos.push({ id: uuidv7(), rotaId: rotaAna, cidadeId: cidade, funcionarioId: ana.id, dataDespesa: data, tipo: 'alimentacao', valorCentavos: 500 + i, registradoEm: agora });
    }
    linhas.push({ id: uuidv7(), rotaId: rotaBeto, cidadeId: CATALAO, funcionarioId: beto.id, dataVenda: data, dinheiroCentavos: 99, registradoEm: agora });
  }
  await emTransacao(t.db, async (tx) => {
    for (let i = 0; i < linhas.length; i += 200) await tx.insert(vendas).values(linhas.slice(i, i + 200));
    for (let i = 0; i < gastos.length; i += 200) await tx.insert(despesas).values(gastos.slice(i, i + 200));
  });
}, 60_000);
afterAll(() => t.fechar());

describe('listas paginadas no servidor', () => {
  it('GET /vendas com limit=100000 responde no máximo 1000 linhas e o total do conjunto filtrado', async () => {
    const r = await ler(`/api/vendas?funcionario_id=${ana.id}&limit=100000`);
    expect(r.vendas.length).toBe(LIMITE_MAXIMO_PAGINA);
    expect(r.total).toBe(somaAna.n);
    expect(r.limit).toBe(LIMITE_MAXIMO_PAGINA);
    expect(r.page).toBe(1);
    // The second page holds the rest, without repeating any row.
    const r2 = await ler(`/api/vendas?funcionario_id=${ana.id}&limit=100000&page=2`);
    expect(r2.vendas.length).toBe(somaAna.n - LIMITE_MAXIMO_PAGINA);
    const ids = new Set([...r.vendas, ...r2.vendas].map((v: { id: string }) => v.id));
    expect(ids.size).toBe(somaAna.n);
  });

  it('GET /vendas sem limit responde uma página padrão, não a tabela inteira', async () => {
    const r = await ler('/api/vendas');
    expect(r.vendas.length).toBeLessThanOrEqual(100);
    expect(r.total).toBe(somaAna.n + DIAS);
  });

  it('GET /vendas/fechamento-diario: página limitada, totais de todo o conjunto filtrado', async () => {
    const r = await ler(`/api/vendas/fechamento-diario?rota_id=${rotaAna}&limit=100000`);
    expect(r.vendas.length).toBe(LIMITE_MAXIMO_PAGINA);
    expect(r.total).toBe(somaAna.n);
    expect(Math.round(r.totais.dinheiro * 100)).toBe(somaAna.dinheiro);
    expect(Math.round(r.totais.pix * 100)).toBe(somaAna.pix);
    expect(r.totais.boletos).toBe(somaAna.boletos);
    expect(Math.round(r.totais.total_geral * 100)).toBe(somaAna.dinheiro + somaAna.pix);

    // A small page carries the same totals: they are never the sum of the page.
    const pequena = await ler(`/api/vendas/fechamento-diario?rota_id=${rotaAna}&cidade_id=${GOIANIA}&limit=10&page=3`);
    expect(pequena.vendas.length).toBe(10);
    expect(pequena.total).toBe(somaAnaGoiania.n);
    expect(Math.round(pequena.totais.dinheiro * 100)).toBe(somaAnaGoiania.dinheiro);
    expect(pequena.page).toBe(3);
    expect(pequena.limit).toBe(10);
  });

  it('o funcionário pagina só as próprias vendas, qualquer filtro que mande', async () => {
    const r = await ler(`/api/vendas/fechamento-diario?funcionario_id=${ana.id}&limit=5`, beto.token);
    expect(r.total).toBe(DIAS);
    expect(r.vendas.every((v: { funcionario_id: number }) => v.funcionario_id === beto.id)).toBe(true);
  });

  it('página e limite inválidos são recusados em pt-BR', async () => {
    esperarRecusa(await t.chamar({ method: 'GET', url: '/api/vendas?limit=0', token: tokenAdmin }), 400, 'dados_invalidos', 'Limite inválido.');
    esperarRecusa(await t.chamar({ method: 'GET', url: '/api/vendas?page=abc', token: tokenAdmin }), 400, 'dados_invalidos', 'Página inválida.');
  });

  it('GET /despesas com limit=100000 responde no máximo 1000 e o total certo', async () => {
    const r = await ler('/api/despesas?limit=100000');
    expect(r.despesas.length).toBe(LIMITE_MAXIMO_PAGINA);
    expect(r.total).toBe(DIAS * 3);
    expect(Math.round(r.totais.geral * 100)).toBe(DIAS * (500 + 501 + 502));
  });

  it('GET /usuarios, /rotas, /cidades e /saldo/movimentacoes são paginados com total', async () => {
    const usuarios = await ler('/api/usuarios?limit=2');
    expect(usuarios.usuarios.length).toBe(2);
    expect(usuarios.total).toBe(3);
    const rotas = await ler('/api/rotas?limit=1&page=2');
    expect(rotas.rotas.length).toBe(1);
    expect(rotas.total).toBe(2);
    expect(rotas.page).toBe(2);
    const cidades = await ler('/api/cidades?limit=100000');
    expect(cidades.cidades.length).toBeLessThanOrEqual(LIMITE_MAXIMO_PAGINA);
    expect(cidades.total).toBeGreaterThan(0);
    const movimentos = await ler('/api/saldo/movimentacoes?limit=100000');
    expect(movimentos.limit).toBe(LIMITE_MAXIMO_PAGINA);
  });
});
