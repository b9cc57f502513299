/**
 * The same batch in two app processes at once: a phone that gave up waiting sends
 * it again and the proxy picks the other process. A batch does not read the operation log up front:
 * it runs its operations, the log's key refuses an applied one's record, the run is rolled
 * back, the log is read, and the run goes again answering those from it; every operation is answered
 * as a repetition (never an unexpected error, never counted twice). One process sending the same batch
 * twice goes exactly the way a second process does.
 */
import { sql, type SQL } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hoje, somarDias } from '../../../shared/dates';
import { ANAPOLIS, GOIANIA, criarRotaAtiva } from '../../test/despesas';
import { criarAppDeTeste, type AppDeTeste } from '../../test/helper';
import * as banco from '../db';
import { linha } from '../db';
import * as registroOperacoes from './registroOperacoes';

const { buscarAplicadas } = registroOperacoes;

let t: AppDeTeste;
let ana: { id: number; token: string };
let rota: number;
const dia = hoje('America/Sao_Paulo');

beforeAll(async () => {
  t = await criarAppDeTeste();
  ana = await t.criarFuncionario({ nome: 'Ana Paralela' });
  rota = await criarRotaAtiva(t, ana.id, [GOIANIA, ANAPOLIS], 'Rota paralela');
});
afterAll(() => t.fechar());

const venda = (cidade: number, data: string, dinheiro: number) => ({
  id: uuidv7(),
  tipo: 'venda.salvar',
  seq: 1,
  dados: { id: uuidv7(), rota_id: rota, cidade_id: cidade, data_venda: data, valor_dinheiro: dinheiro, valor_pix: 0, valor_cartao: 0, valor_link: 0, valor_boletos: 0, observacoes: '' },
});

const lote = (operacoes: unknown[]) => t.chamar({ method: 'POST', url: '/api/sync/lote', token: ana.token, payload: { cliente_id: 'celular-a', operacoes } });
const contar = async (consulta: SQL) => (await linha<{ n: number }>(t.db, consulta))!.n;

describe('o mesmo lote aplicado por outro processo depois de este ler o registro', () => {
  it('cada operação volta como repetida, nada é gravado de novo e o lote não é interrompido', async () => {
    const d = somarDias(dia, -2);
    const ops = [venda(GOIANIA, d, 1500), venda(ANAPOLIS, d, 2500)];
    const primeiro = await lote(ops);
    expect(primeiro.json().resultados.map((r: { status: number }) => r.status)).toEqual([201, 201]);
    const antes = { vendas: await contar(sql`select count(*) as n from vendas`), registros: await contar(sql`select count(*) as n from operacoes_aplicadas`) };

    // This process knows nothing of the other's commit until its run's insert is refused: the log is
    // read once, after that, and the run goes again with the answers.
    const leituras: string[][] = [];
    const leitura = vi.spyOn(registroOperacoes, 'buscarAplicadas').mockImplementation(async (db, ids) => {
      leituras.push(ids);
      return buscarAplicadas(db, ids);
    });
    const segundo = await lote(ops);
    leitura.mockRestore();
    expect(leituras).toEqual([ops.map((op) => op.id)]);

    expect(segundo.statusCode, segundo.body).toBe(200);
    expect(segundo.json().resultados).toEqual(ops.map((op) => expect.objectContaining({ id: op.id, status: 201, repetida: true })));
    expect({ vendas: await contar(sql`select count(*) as n from vendas`), registros: await contar(sql`select count(*) as n from operacoes_aplicadas`) }).toEqual(antes);
    const total = await contar(sql`select sum(dinheiro_centavos) as n from vendas where rota_id = ${rota}`);
    expect(total).toBe(1500 + 2500);
  });
});

describe('o registro de operações lido só quando preciso', () => {
  it('um lote só de operações novas não consulta o registro: a chave dele é a conferência', async () => {
    const d = somarDias(dia, -3);
    const ops = [venda(GOIANIA, d, 700), venda(ANAPOLIS, d, 800)];
    const leitura = vi.spyOn(registroOperacoes, 'buscarAplicadas');
    const resposta = await lote(ops);
    const leituras = leitura.mock.calls.length;
    leitura.mockRestore();

    expect(resposta.json().resultados.map((r: { status: number }) => r.status)).toEqual([201, 201]);
    expect(leituras).toBe(0);
    expect(await contar(sql`select count(*) as n from operacoes_aplicadas where id in (${ops[0]!.id}, ${ops[1]!.id})`)).toBe(2);
  });

  it('o lote reenviado com novas depois das já aplicadas: a segunda corrida, sem savepoints, responde as aplicadas pelo registro e grava as novas pelo caminho direto', async () => {
    const d = somarDias(dia, -5);
    const aplicadas = [venda(GOIANIA, d, 300), venda(ANAPOLIS, d, 400)];
    await lote(aplicadas);
    const novas = [venda(GOIANIA, somarDias(d, -1), 500), venda(ANAPOLIS, somarDias(d, -1), 600)];
    const savepoints = vi.spyOn(banco, 'emSavepoint');
    const resposta = await lote([...aplicadas, ...novas]);
    const porSavepoint = savepoints.mock.calls.length;
    savepoints.mockRestore();

    expect(resposta.json().resultados).toEqual([
      ...aplicadas.map((op) => expect.objectContaining({ id: op.id, status: 201, repetida: true })),
      ...novas.map((op) => ({ id: op.id, status: 201, recebido_em: expect.any(String) })),
    ]);
    expect(porSavepoint).toBe(0);
    expect(await contar(sql`select sum(dinheiro_centavos) as n from vendas where rota_id = ${rota} and data_venda in (${d}, ${somarDias(d, -1)})`)).toBe(1800);
  });

  it('uma operação já aplicada no meio de novas: as novas entram uma vez, a repetida volta como repetida', async () => {
    const d = somarDias(dia, -4);
    const primeira = venda(GOIANIA, d, 900);
    await lote([primeira]);
    const nova = venda(ANAPOLIS, d, 1100);
    const resposta = await lote([nova, primeira]);

    expect(resposta.json().resultados).toEqual([
      expect.objectContaining({ id: nova.id, status: 201 }),
      expect.objectContaining({ id: primeira.id, status: 201, repetida: true }),
    ]);
    expect(resposta.json().resultados[0].repetida).toBeUndefined();
    expect(await contar(sql`select count(*) as n from vendas where rota_id = ${rota} and data_venda = ${d}`)).toBe(2);
    expect(await contar(sql`select sum(dinheiro_centavos) as n from vendas where rota_id = ${rota} and data_venda = ${d}`)).toBe(2000);
  });
});
