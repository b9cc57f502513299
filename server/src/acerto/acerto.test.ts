/**
 * A route's settlement (docs/decisions/salario-e-acerto.md, 'O acerto'): a rejected expense is not a company cost, so it
 * stays in 'A devolver' (before, it lowered 'Saldo a devolver' and a manager collected it short); the admin
 * records the acerto (cash returned or paid) as a ledger movement of its own type; nothing more than what is
 * open can be settled; the employee's balance ends at zero when the route is settled.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANAPOLIS, GOIANIA, camposDeDespesa, criarRotaAtiva, formulario } from '../../test/despesas';
import { criarAppDeTeste, esperarRecusa, type AppDeTeste } from '../../test/helper';
import { textoDoPdf } from '../../test/pdf';
import { linha, linhas } from '../db';

let t: AppDeTeste;
let admin: string;

beforeAll(async () => {
  t = await criarAppDeTeste();
  admin = await t.tokenAdmin();
});
afterAll(() => t.fechar());

interface Funcionario {
  id: number;
  token: string;
  rota: number;
}

let contador = 0;
async function funcionarioComRota(): Promise<Funcionario> {
  contador += 1;
  const f = await t.criarFuncionario({ nome: `Pessoa Acerto ${contador}` });
  return { id: f.id, token: f.token, rota: await criarRotaAtiva(t, f.id, [GOIANIA, ANAPOLIS], `Rota Acerto ${contador}`) };
}

async function creditar(f: Funcionario, valor: number, rota: number | null = f.rota) {
  const r = await t.chamar({ method: 'POST', url: '/api/saldo/adicionar', token: admin, payload: { funcionario_id: f.id, valor, descricao: 'Adiantamento', rota_id: rota } });
  expect(r.statusCode, r.body).toBe(201);
}

async function gastar(f: Funcionario, valor: string, avaliacao: 'aprovar' | 'rejeitar' | null): Promise<string> {
  const campos = camposDeDespesa(f.rota, { valor });
  const r = await t.chamar({ method: 'POST', url: '/api/despesas', token: f.token, ...(await formulario(campos)) });
  expect(r.statusCode, r.body).toBe(201);
  if (avaliacao) {
    const a = await t.chamar({ method: 'PATCH', url: `/api/despesas/${campos.id}/${avaliacao}`, token: admin, payload: avaliacao === 'rejeitar' ? { motivo: 'Sem nota fiscal' } : {} });
    expect(a.statusCode, a.body).toBe(200);
  }
  return campos.id;
}

const finalizar = async (f: Funcionario) => expect((await t.chamar({ method: 'PATCH', url: `/api/rotas/${f.rota}/finalizar`, token: f.token })).statusCode).toBe(200);
const detalhes = async (f: Funcionario) => (await t.chamar({ method: 'GET', url: `/api/relatorios/rota/${f.rota}/detalhes`, token: admin })).json();
const acertar = (f: Funcionario, corpo: Record<string, unknown>, token = admin) => t.chamar({ method: 'POST', url: `/api/rotas/${f.rota}/acerto`, token, payload: corpo });
const saldo = async (f: Funcionario) => (await linha<{ s: number }>(t.db, sql`select saldo_novo_centavos s from movimentacoes_saldo where funcionario_id = ${f.id} order by id desc limit 1`))?.s ?? 0;

describe('as figuras do acerto', () => {
  it('a despesa rejeitada continua a devolver (linha própria); a pendente conta como gasta; créditos sem rota ficam ao lado', async () => {
    const f = await funcionarioComRota();
    await creditar(f, 1000);
    await creditar(f, 900, null);
    await gastar(f, '300,00', 'aprovar');
    await gastar(f, '100,00', 'rejeitar');
    await gastar(f, '50,00', null);
    await finalizar(f);
    const d = await detalhes(f);
    expect(d.acerto).toMatchObject({
      creditos: 1000,
      creditos_sem_rota: 900,
      despesas_aprovadas: 300,
      despesas_pendentes: 50,
      despesas_rejeitadas: 100,
      a_devolver: 650,
      a_receber: 0,
      acertada_em: null,
      acertos: [],
    });
    expect(d.acerto.salario).toBe(d.total_salario);
    // 'Saldo final' is the settlement: the rejected R$ 100 no longer lowers it (before: 1000 − 450 = 550).
    expect(d.saldo_final).toBe(650);
    const resultado = (await t.chamar({ method: 'GET', url: `/api/relatorios/rota/${f.rota}`, token: f.token })).json().resultado;
    expect([resultado.saldo_final, resultado.acerto.a_devolver]).toEqual([650, 650]);
    const linhaRelatorio = (await t.chamar({ method: 'GET', url: `/api/relatorios/rotas?funcionario_id=${f.id}`, token: admin })).json().rotas[0];
    expect(linhaRelatorio).toMatchObject({ a_devolver: 650, a_receber: 0, creditos_sem_rota: 900, saldo_atual: 1450 });
  });
});

describe('POST /api/rotas/:id/acerto', () => {
  it('recusa a rota ativa, mais do que está em aberto e o sentido contrário; aceita o parcial e fecha com o resto', async () => {
    const f = await funcionarioComRota();
    await creditar(f, 1000);
    await gastar(f, '300,00', 'aprovar');
    await gastar(f, '100,00', 'rejeitar');
    esperarRecusa(await acertar(f, { valor: 100, sentido: 'devolvido' }), 409, 'conflito', 'A rota ainda está ativa: o acerto é registrado depois que o funcionário a finaliza.');
    await finalizar(f);
    esperarRecusa(await acertar(f, { valor: 700.01, sentido: 'devolvido' }), 409, 'conflito', 'O acerto de R$\u00a0700,01 passa do que está em aberto nesta rota (R$\u00a0700,00).');
    esperarRecusa(await acertar(f, { valor: 100, sentido: 'pago' }), 409, 'conflito', /a devolver pelo funcionário/);
    esperarRecusa(await acertar(f, { valor: -5, sentido: 'devolvido' }), 400, 'dados_invalidos', 'Valor não pode ser negativo.');
    esperarRecusa(await acertar(f, { valor: 5, sentido: 'emprestado' }), 400, 'dados_invalidos');

    const parcial = await acertar(f, { valor: 500, sentido: 'devolvido', observacao: 'Primeira parte em dinheiro' });
    expect(parcial.statusCode, parcial.body).toBe(201);
    expect(parcial.json().acerto).toMatchObject({ a_devolver: 200, acertada_em: null, acertos: [{ valor: 500, sentido: 'devolvido', admin: 'Administrador', observacao: 'Primeira parte em dinheiro' }] });
    esperarRecusa(await acertar(f, { valor: 200.01, sentido: 'devolvido' }), 409, 'conflito', /passa do que está em aberto nesta rota \(R\$\s200,00\)/);
    const resto = await acertar(f, { valor: 200, sentido: 'devolvido' });
    expect(resto.statusCode, resto.body).toBe(201);
    expect(resto.json().acerto).toMatchObject({ a_devolver: 0, a_receber: 0, acertada_em: expect.any(String) });
    esperarRecusa(await acertar(f, { valor: 0, sentido: 'devolvido' }), 409, 'conflito', 'Esta rota já está acertada: não há nada em aberto.');

    // The ledger: the rejected expense charged back once, the two acertos; the employee's balance is zero.
    const movs = await linhas<{ tipo: string; sentido: string | null; valor_centavos: number; descricao: string }>(
      t.db,
      sql`select tipo, sentido, valor_centavos, descricao from movimentacoes_saldo where funcionario_id = ${f.id} and admin_id is not null and tipo <> 'credito' order by id`,
    );
    expect(movs.map((m) => [m.tipo, m.sentido, m.valor_centavos])).toEqual([
      ['devolucao', null, 10_000],
      ['acerto', 'devolvido', 50_000],
      ['acerto', 'devolvido', 20_000],
    ]);
    expect(movs[0]!.descricao).toMatch(/^Despesa rejeitada cobrada no acerto: Alimentação — Anápolis/);
    expect(await saldo(f)).toBe(0);
    const auditoria = await linhas<{ acao: string }>(t.db, sql`select acao from auditoria where alvo_id = ${String(f.rota)} and acao = 'rota.acertar'`);
    expect(auditoria).toHaveLength(2);

    // The route's PDF prints the settlement and each acerto.
    const pdf = await t.chamar({ method: 'GET', url: `/api/relatorios/rotas/exportar?formato=pdf&rotas=${f.rota}`, token: admin });
    expect(pdf.statusCode).toBe(200);
    const texto = await textoDoPdf(pdf.rawPayload);
    for (const trecho of ['Acerto da rota — Acertada em', 'Despesas rejeitadas: R$ 100,00', 'Acertos registrados (2)', 'Devolvido pelo funcionário', 'Primeira parte em dinheiro', 'R$ 500,00', 'R$ 200,00']) {
      expect(texto.replace(/\u00a0/g, ' '), trecho).toContain(trecho);
    }
  });

  it('aprovar depois do acerto uma despesa que ele cobrou: a empresa a assume de novo (débito) e a rota fica a receber', async () => {
    const f = await funcionarioComRota();
    await creditar(f, 500);
    await gastar(f, '200,00', 'aprovar');
    const rejeitada = await gastar(f, '80,00', 'rejeitar');
    await finalizar(f);
    expect((await acertar(f, { valor: 300, sentido: 'devolvido' })).statusCode).toBe(201);
    expect(await saldo(f)).toBe(0);
    expect((await t.chamar({ method: 'PATCH', url: `/api/despesas/${rejeitada}/aprovar`, token: admin, payload: {} })).statusCode).toBe(200);
    expect((await detalhes(f)).acerto).toMatchObject({ a_devolver: 0, a_receber: 80, acertada_em: null });
    expect(await saldo(f)).toBe(-8_000);
    expect((await acertar(f, { valor: 80, sentido: 'pago' })).statusCode).toBe(201);
    expect(await saldo(f)).toBe(0);
    expect((await detalhes(f)).acerto.acertada_em).not.toBeNull();
  });

  it('nada em aberto mas uma despesa rejeitada: o acerto de valor zero fecha a rota e zera o saldo do funcionário', async () => {
    const f = await funcionarioComRota();
    await creditar(f, 300);
    await gastar(f, '300,00', 'aprovar');
    await gastar(f, '40,00', 'rejeitar');
    await finalizar(f);
    expect(await saldo(f)).toBe(-4_000);
    esperarRecusa(await acertar(f, { valor: 10, sentido: 'devolvido' }), 409, 'conflito', /Não há nada em aberto nesta rota/);
    const r = await acertar(f, { valor: 0, sentido: 'devolvido' });
    expect(r.statusCode, r.body).toBe(201);
    expect(r.json().acerto.acertada_em).not.toBeNull();
    expect(await saldo(f)).toBe(0);
  });

  it('com registros tardios aguardando decisão, o acerto espera', async () => {
    const f = await funcionarioComRota();
    await creditar(f, 100);
    await finalizar(f);
    const lote = await t.chamar({
      method: 'POST',
      url: '/api/sync/lote',
      token: f.token,
      payload: { cliente_id: 'outro', operacoes: [{ id: '01938c5e-7b1a-7c3d-8e4f-5a6b7c8d9e0f', tipo: 'visita.registrar', seq: 1, dados: { id: '01938c5e-7b1a-7c3d-8e4f-5a6b7c8d9e1f', rota_id: f.rota, cidade_id: GOIANIA, data: (await detalhes(f)).data_inicio } }] },
    });
    expect(lote.json().resultados[0].status).toBe(202);
    esperarRecusa(await acertar(f, { valor: 100, sentido: 'devolvido' }), 409, 'conflito', /1 registro que chegou depois da finalização aguardando decisão/);
  });

  it('só o admin registra; rota inexistente é 404', async () => {
    const f = await funcionarioComRota();
    await finalizar(f);
    esperarRecusa(await acertar(f, { valor: 0, sentido: 'devolvido' }, f.token), 403, 'sem_permissao');
    esperarRecusa(await t.chamar({ method: 'POST', url: '/api/rotas/999999/acerto', token: admin, payload: { valor: 0, sentido: 'devolvido' } }), 404, 'nao_encontrado');
  });
});
