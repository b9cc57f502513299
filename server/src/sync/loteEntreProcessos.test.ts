/**
 * The same batch in two app processes at once (issue 21, item 3): a phone that gave up waiting sends
 * it again and the proxy picks the other process. The second one read the operation log before the
 * first committed, so it runs operations that are already applied. The log's key refuses the second
 * record; the run is then done again under the write lock, reading the log afresh, and every
 * operation is answered as a repetition (never an unexpected error, never counted twice).
 * Reproduced in one process: the log read at the start of the batch answers as it did before the
 * other process committed.
 */
import { sql, type SQL } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hoje, somarDias } from '../../../shared/dates';
import { ANAPOLIS, GOIANIA, criarRotaAtiva } from '../../test/despesas';
import { criarAppDeTeste, type AppDeTeste } from '../../test/helper';
import { linha } from '../db';
import * as registroOperacoes from './registroOperacoes';

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

    // This process read the log before the other committed: empty for these ids.
    const leitura = vi.spyOn(registroOperacoes, 'buscarAplicadas').mockResolvedValueOnce(new Map());
    const segundo = await lote(ops);
    leitura.mockRestore();

    expect(segundo.statusCode, segundo.body).toBe(200);
    expect(segundo.json().resultados).toEqual(ops.map((op) => expect.objectContaining({ id: op.id, status: 201, repetida: true })));
    expect({ vendas: await contar(sql`select count(*) as n from vendas`), registros: await contar(sql`select count(*) as n from operacoes_aplicadas`) }).toEqual(antes);
    const total = await contar(sql`select sum(dinheiro_centavos) as n from vendas where rota_id = ${rota}`);
    expect(total).toBe(1500 + 2500);
  });
});
