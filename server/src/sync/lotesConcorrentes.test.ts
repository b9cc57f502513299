/**
 * Many employees' batches at once through two app instances on one database (two connection pools on
 * one PostgreSQL under the server-pg project, two connections on one SQLite file under server): each
 * employee's writes are serialized by their own lock, different employees never conflict
 * (db/travas.ts). Every operation is accepted (none interrupted, none 'nao_processado'), each
 * employee's ledger is an unbroken chain, and an admin's credits landing meanwhile join that chain.
 */
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoje, somarDias } from '../../../shared/dates';
import { criarApp } from '../app';
import type { App } from '../tipos';
import { abrirBanco, linhas, type Db } from '../db';
import { abrirBancoPostgresDoApp } from '../db/postgres';
import { urlDoPostgres } from '../db/motor';
import { recursosDoProjeto } from '../recursos';
import { ANAPOLIS, CALDAS_NOVAS, GOIANIA, criarRotaAtiva } from '../../test/despesas';
import { MOTOR_DE_TESTE } from '../../test/bancoDeTeste';
import { criarAppDeTeste, type AppDeTeste } from '../../test/helper';

const FUNCIONARIOS = 10;
const LOTES_POR_FUNCIONARIO = 4;
const DESPESAS_POR_LOTE = 10;
const VENDAS_POR_LOTE = 10;
const dia = hoje('America/Sao_Paulo');

let t: AppDeTeste;
let outra: { app: App; db: Db };

interface Funcionario {
  id: number;
  token: string;
  rota: number;
}

/** A second app instance on the same database (as a second process would be), with its own connections. */
async function segundaInstancia(): Promise<{ app: App; db: Db }> {
  const db =
    MOTOR_DE_TESTE === 'postgres'
      ? await abrirBancoPostgresDoApp({ url: urlDoPostgres(t.db)! })
      : abrirBanco({ arquivo: path.join(t.dataDir, 'app.db'), pastaMigracoes: recursosDoProjeto().pastaMigracoes });
  const app = await criarApp({ config: t.config, db, segredoJwt: t.config.jwtSecret!, pastaCliente: null });
  await app.ready();
  return { app, db };
}

beforeAll(async () => {
  t = await criarAppDeTeste();
  outra = await segundaInstancia();
}, 60_000);

afterAll(async () => {
  await outra?.app.close();
  if (outra && MOTOR_DE_TESTE === 'postgres') await (outra.db.$client as unknown as pg.Pool).end();
  else outra?.db.$client.close();
  await t?.fechar();
});

let seq = 0;
const venda = (f: Funcionario, cidade: number, data: string) => ({
  id: uuidv7(),
  tipo: 'venda.salvar',
  seq: ++seq,
  dados: { id: uuidv7(), rota_id: f.rota, cidade_id: cidade, data_venda: data, valor_dinheiro: 1_000, valor_pix: 0, valor_cartao: 0, valor_link: 0, valor_boletos: 0, observacoes: '' },
});
const despesa = (f: Funcionario, valor: number) => ({
  id: uuidv7(),
  tipo: 'despesa.criar',
  seq: ++seq,
  dados: { id: uuidv7(), rota_id: f.rota, cidade_id: GOIANIA, data_despesa: somarDias(dia, -1), tipo: 'combustivel', tipo_outro: '', valor, descricao: 'Abastecimento' },
});

/** The batch sent to one instance (0: the test app, 1: the other); answers each operation's status. */
async function lote(instancia: number, f: Funcionario, operacoes: unknown[]): Promise<(number | string)[]> {
  const app = instancia === 0 ? t.app : outra.app;
  const r = await app.inject({ method: 'POST', url: '/api/sync/lote', headers: { authorization: `Bearer ${f.token}` }, payload: { cliente_id: `celular-${f.id}`, operacoes } });
  expect(r.statusCode, r.body).toBe(200);
  return (r.json().resultados as { status: number | string }[]).map((x) => x.status);
}

/** The employee's ledger, checked link by link: each saldo_anterior is the previous saldo_novo. */
async function cadeia(funcionarioId: number): Promise<{ saldo: number; movimentos: number }> {
  const movs = await linhas<{ saldo_anterior_centavos: number; saldo_novo_centavos: number; tipo: string; valor_centavos: number }>(
    t.db,
    sql`select tipo, valor_centavos, saldo_anterior_centavos, saldo_novo_centavos from movimentacoes_saldo where funcionario_id = ${funcionarioId} order by id`,
  );
  let saldo = 0;
  for (const m of movs) {
    expect(m.saldo_anterior_centavos).toBe(saldo);
    saldo += m.tipo === 'debito' ? -m.valor_centavos : m.valor_centavos;
    expect(m.saldo_novo_centavos).toBe(saldo);
  }
  return { saldo, movimentos: movs.length };
}

async function novosFuncionarios(n: number): Promise<Funcionario[]> {
  const todos: Funcionario[] = [];
  for (let k = 0; k < n; k++) {
    const f = await t.criarFuncionario();
    todos.push({ id: f.id, token: f.token, rota: await criarRotaAtiva(t, f.id, [GOIANIA, ANAPOLIS, CALDAS_NOVAS]) });
  }
  return todos;
}

describe('lotes de muitos funcionários ao mesmo tempo, em duas instâncias do app', () => {
  it('todas as operações são aceitas e a corrente de saldos de cada um fica inteira', async () => {
    const funcionarios = await novosFuncionarios(FUNCIONARIOS);
    const admin = await t.tokenAdmin();
    // Each employee's batches go alternately to both instances, all of them in flight at once, with an
    // admin's credit to each employee landing among them (the same ledger, from outside the batch).
    const envios: Promise<(number | string)[]>[] = [];
    funcionarios.forEach((f, k) => {
      for (let l = 0; l < LOTES_POR_FUNCIONARIO; l++) {
        const ops = [
          ...Array.from({ length: DESPESAS_POR_LOTE }, (_, d) => despesa(f, 100 + d)),
          ...Array.from({ length: VENDAS_POR_LOTE }, (_, v) => venda(f, [GOIANIA, ANAPOLIS, CALDAS_NOVAS][v % 3]!, somarDias(dia, -(l * VENDAS_POR_LOTE + v) - 2))),
        ];
        envios.push(lote((k + l) % 2, f, ops));
      }
      const app = k % 2 === 0 ? outra.app : t.app;
      envios.push(
        app
          .inject({ method: 'POST', url: '/api/saldo/adicionar', headers: { authorization: `Bearer ${admin}` }, payload: { funcionario_id: f.id, valor: '50,00', descricao: 'Adiantamento', rota_id: null } })
          .then((r) => {
            expect(r.statusCode, r.body).toBe(201);
            return [201];
          }),
      );
    });
    const respostas = (await Promise.all(envios)).flat();
    const porStatus = respostas.reduce<Record<string, number>>((c, s) => ((c[String(s)] = (c[String(s)] ?? 0) + 1), c), {});
    // Nothing interrupted, nothing left unprocessed: every write accepted once.
    expect(porStatus).toEqual({ '201': FUNCIONARIOS * (LOTES_POR_FUNCIONARIO * (DESPESAS_POR_LOTE + VENDAS_POR_LOTE) + 1) });

    const gastoPorLote = Array.from({ length: DESPESAS_POR_LOTE }, (_, d) => 100 + d).reduce((a, b) => a + b, 0);
    for (const f of funcionarios) {
      const { saldo, movimentos } = await cadeia(f.id);
      expect(movimentos).toBe(LOTES_POR_FUNCIONARIO * DESPESAS_POR_LOTE + 1);
      expect(saldo).toBe(5_000 - LOTES_POR_FUNCIONARIO * gastoPorLote);
    }
  }, 120_000);

  it('o mesmo funcionário pelas duas instâncias ao mesmo tempo: uma escrita de cada vez, a corrente inteira', async () => {
    const [f] = await novosFuncionarios(1);
    const lotes = Array.from({ length: 6 }, (_, l) => Array.from({ length: 8 }, (_, d) => despesa(f!, 10 * (l + 1) + d)));
    const respostas = await Promise.all(lotes.map((ops, l) => lote(l % 2, f!, ops)));
    expect(respostas.flat().every((s) => s === 201)).toBe(true);
    const { saldo, movimentos } = await cadeia(f!.id);
    expect(movimentos).toBe(48);
    expect(saldo).toBe(-lotes.flat().reduce((soma, op) => soma + op.dados.valor, 0));
  }, 60_000);
});
