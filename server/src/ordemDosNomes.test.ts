/**
 * Every list of people and places the API gives comes in pt-BR order — 'Íris'
 * before 'Maria', 'ana' among the A's, 'Paraíba' before 'Paraná' — not SQLite's byte order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoje, somarDias } from '../../shared/dates';
import { compararTexto } from '../../shared/texto';
import { criarAppDeTeste, type AppDeTeste } from '../test/helper';

const NOMES = ['Maria Souza', 'Íris Lima', 'ana Beatriz', 'Zé Carlos', 'Álvaro Dias', 'Bruno Alves'];
const ORDEM = ['Álvaro Dias', 'ana Beatriz', 'Bruno Alves', 'Íris Lima', 'Maria Souza', 'Zé Carlos'];
const GOIANIA = 5208707;

let t: AppDeTeste;
let token: string;

beforeAll(async () => {
  t = await criarAppDeTeste();
  token = await t.tokenAdmin();
  const dia = hoje('America/Sao_Paulo');
  for (const nome of NOMES) {
    const f = await t.criarFuncionario({ nome });
    const r = await t.chamar({
      method: 'POST',
      url: '/api/rotas',
      token,
      payload: { nome: `Rota de ${nome}`, funcionario_id: f.id, tem_secretario: false, valor_aluguel: 0, data_inicio: somarDias(dia, -1), data_fim: somarDias(dia, 5), observacoes: '', cidades: [GOIANIA] },
    });
    expect(r.statusCode, r.body).toBe(201);
    const c = await t.chamar({ method: 'POST', url: '/api/saldo/adicionar', token, payload: { funcionario_id: f.id, valor: 10, descricao: 'Adiantamento', rota_id: r.json().rota.id } });
    expect(c.statusCode, c.body).toBe(201);
  }
});
afterAll(() => t.fechar());

const get = async (url: string) => {
  const r = await t.chamar({ method: 'GET', url, token });
  expect(r.statusCode, r.body).toBe(200);
  return r.json();
};
const soFuncionarios = (nomes: string[]) => nomes.filter((n) => NOMES.includes(n));

describe('listas de pessoas e lugares em ordem pt-BR', () => {
  it('GET /usuarios e /usuarios/funcionarios', async () => {
    expect(soFuncionarios((await get('/api/usuarios')).usuarios.map((u: { nome: string }) => u.nome))).toEqual(ORDEM);
    expect((await get('/api/usuarios?emRota=true')).usuarios.map((u: { nome: string }) => u.nome)).toEqual(ORDEM);
    expect((await get('/api/usuarios/funcionarios')).funcionarios.map((u: { nome: string }) => u.nome)).toEqual(ORDEM);
  });

  it('GET /saldo, /saldo/funcionarios e /saldo/relatorio', async () => {
    expect((await get('/api/saldo')).saldos.map((s: { funcionario_nome: string }) => s.funcionario_nome)).toEqual(ORDEM);
    const f = await get('/api/saldo/funcionarios');
    expect((Array.isArray(f) ? f : f.funcionarios).map((u: { nome: string }) => u.nome)).toEqual(ORDEM);
    expect((await get('/api/saldo/relatorio')).relatorio.map((l: { funcionario_nome: string }) => l.funcionario_nome)).toEqual(ORDEM);
  });

  it('GET /relatorios/dashboard-admin: funcionários em rota', async () => {
    expect((await get('/api/relatorios/dashboard-admin')).funcionarios.map((f: { nome: string }) => f.nome)).toEqual(ORDEM);
  });

  it('GET /estados', async () => {
    const nomes = (await get('/api/estados')).estados.map((e: { nome: string }) => e.nome);
    expect(nomes).toEqual([...nomes].sort(compararTexto));
    expect(nomes.indexOf('Paraíba')).toBeLessThan(nomes.indexOf('Paraná'));
  });
});
