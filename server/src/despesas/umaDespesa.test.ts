/**
 * GET /api/despesas/:id: one expense as the list shows it, for the screen that opens it from an address
 * (the audit trail's link to '/despesas?despesa=<id>'), whatever filters the list has. The admin and the
 * owner read it; anyone else, and an expense deleted since, get the same 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { criarCenarioDeDespesas, camposDeDespesa, formulario, type CenarioDespesas } from '../../test/despesas';
import { esperarRecusa } from '../../test/helper';

let c: CenarioDespesas;
let id: string;

beforeAll(async () => {
  c = await criarCenarioDeDespesas();
  const campos = camposDeDespesa(c.rotaAna, { tipo: 'outro', tipo_outro: 'Lavagem do carro', valor: '35,50' });
  const r = await c.t.chamar({ method: 'POST', url: '/api/despesas', token: c.ana.token, ...(await formulario(campos)) });
  expect(r.statusCode, r.body).toBe(201);
  id = r.json().despesa.id;
});
afterAll(async () => {
  await c?.t.fechar();
});

describe('GET /api/despesas/:id', () => {
  it('o admin e a dona leem a despesa inteira, como a lista a mostra', async () => {
    const lista = (await c.t.chamar({ method: 'GET', url: '/api/despesas', token: c.tokenAdmin })).json().despesas as { id: string }[];
    for (const token of [c.tokenAdmin, c.ana.token]) {
      const r = await c.t.chamar({ method: 'GET', url: `/api/despesas/${id}`, token });
      expect(r.statusCode, r.body).toBe(200);
      expect(r.json().despesa).toEqual(lista.find((d) => d.id === id));
      expect(r.json().despesa).toMatchObject({ funcionario_nome: 'Ana Estrada', tipo: 'outro', tipo_outro: 'Lavagem do carro', valor: 35.5, rota_nome: 'Rota Centro-Oeste' });
    }
  });

  it('outro funcionário, um id desconhecido e uma despesa excluída: 404 em pt-BR; um id malformado: 400', async () => {
    esperarRecusa(await c.t.chamar({ method: 'GET', url: `/api/despesas/${id}`, token: c.bruno.token }), 404, 'nao_encontrado', 'Despesa não encontrada.');
    esperarRecusa(await c.t.chamar({ method: 'GET', url: '/api/despesas/0193a2b4-0000-7000-8000-000000000009', token: c.tokenAdmin }), 404, 'nao_encontrado', 'Despesa não encontrada.');
    esperarRecusa(await c.t.chamar({ method: 'GET', url: '/api/despesas/nao-e-um-id', token: c.tokenAdmin }), 400, 'dados_invalidos');
    expect((await c.t.chamar({ method: 'GET', url: `/api/despesas/${id}` })).statusCode).toBe(401);

    const excluida = await c.t.chamar({ method: 'DELETE', url: `/api/despesas/${id}`, token: c.ana.token });
    expect(excluida.statusCode, excluida.body).toBe(200);
    esperarRecusa(await c.t.chamar({ method: 'GET', url: `/api/despesas/${id}`, token: c.tokenAdmin }), 404, 'nao_encontrado', 'Despesa não encontrada.');
  });
});
