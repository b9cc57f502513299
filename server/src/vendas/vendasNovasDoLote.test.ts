/**
 * New sales of a batch go straight to the driver
 * (vendasNovasDoLote.ts). What they write and what the phone is answered must be what salvarVenda's
 * steps write and answer: the same batches are replayed on a second server with the direct path
 * turned off, and both must agree on every answer, row and log entry.
 */
import { inArray, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { hoje, somarDias } from '../../../shared/dates';
import { ANAPOLIS, CALDAS_NOVAS, CATALAO, GOIANIA, criarRotaAtiva } from '../../test/despesas';
import { criarAppDeTeste, type AppDeTeste } from '../../test/helper';
import { dadosDeVendaNaFila } from '../../test/sync';
import { MOTOR_DE_TESTE } from '../../test/bancoDeTeste';
import { linhas } from '../db';
import { operacoesAplicadas, vendas as vendasTabela } from '../db/tabelas';
import { VendasNovasDoLote } from './vendasNovasDoLote';

const dia = hoje('America/Sao_Paulo');

interface Lado {
  t: AppDeTeste;
  ana: { id: number; token: string };
  rota: number;
  /** Another employee's route, on the same cities. */
  rotaDoBruno: number;
}

async function montar(): Promise<Lado> {
  const t = await criarAppDeTeste();
  const ana = await t.criarFuncionario({ nome: 'Ana Direta' });
  const rota = await criarRotaAtiva(t, ana.id, [GOIANIA, ANAPOLIS, CALDAS_NOVAS], 'Rota Direta');
  const bruno = await t.criarFuncionario({ nome: 'Bruno Alheio' });
  const rotaDoBruno = await criarRotaAtiva(t, bruno.id, [GOIANIA, ANAPOLIS, CALDAS_NOVAS], 'Rota do Bruno');
  return { t, ana, rota, rotaDoBruno };
}


/** A sale as the phone's engine queues it; the route is given when the batch is sent. */
function venda(cidade: number, data: string, mudar: Record<string, unknown> = {}, id = uuidv7()) {
  return { id: `op-${uuidv7()}`, tipo: 'venda.salvar', seq: 0, dados: dadosDeVendaNaFila(cidade, data, { id, ...mudar }) };
}
type Operacao = ReturnType<typeof venda>;

let seq = 0;
async function enviar(lado: Lado, ops: Operacao[], cliente = 'celular-da-ana') {
  const rotaDe = (dados: Operacao['dados']) => ('rota_id' in dados && dados.rota_id === 'do Bruno' ? lado.rotaDoBruno : lado.rota);
  const operacoes = ops.map((op) => ({ ...op, seq: op.seq || ++seq, dados: { ...op.dados, rota_id: rotaDe(op.dados) } }));
  const r = await lado.t.chamar({ method: 'POST', url: '/api/sync/lote', token: lado.ana.token, payload: { cliente_id: cliente, operacoes } });
  expect(r.statusCode, r.body).toBe(200);
  return r.json().resultados as { id: string; status: number | string; repetida?: true; recebido_em?: string | null; corpo?: unknown }[];
}

/** The answers and what the batch's operations stored, without the server's clock. */
async function estado(lado: Lado, ops: Operacao[], resultados: Awaited<ReturnType<typeof enviar>>) {
  const vendas = await linhas<Record<string, unknown>>(
    lado.t.db,
    sql`select id, cidade_id, data_venda, dinheiro_centavos, pix_centavos, cartao_centavos, link_centavos, boletos, observacoes,
          registrado_em, versao, alterada_por_cliente
        from vendas where ${inArray(vendasTabela.id, ops.map((op) => op.dados.id))} order by id`,
  );
  const registro = await linhas<Record<string, unknown>>(
    lado.t.db,
    sql`select id, cliente_id, seq, tipo, status, recebido_em is not null as tem_recibo
        from operacoes_aplicadas where ${inArray(operacoesAplicadas.id, ops.map((op) => op.id))} order by id`,
  );
  return { resultados: resultados.map(({ recebido_em, ...r }) => ({ ...r, recibo: recebido_em === undefined ? 'ausente' : typeof recebido_em })), vendas, registro };
}

// SQLite only: PostgreSQL answers each statement with a promise and every sale goes salvarVenda's way.
describe.skipIf(MOTOR_DE_TESTE === 'postgres')('vendas novas do lote, direto no banco', () => {
  let direto: Lado;
  let geral: Lado;
  beforeAll(async () => {
    direto = await montar();
    geral = await montar();
  });
  afterAll(async () => {
    await direto.t.fechar();
    await geral.t.fechar();
  });
  afterEach(() => vi.restoreAllMocks());

  it('um lote de 200 vendas novas vai todo pelo caminho direto: cada venda e o seu registro com o recibo que o celular recebe', async () => {
    const gravar = vi.spyOn(VendasNovasDoLote.prototype, 'gravar');
    const ops = Array.from({ length: 200 }, (_, i) => ({ ...venda([GOIANIA, ANAPOLIS, CALDAS_NOVAS][i % 3]!, somarDias(dia, -200 - Math.floor(i / 3))), seq: ++seq }));
    const res = await enviar(direto, ops);

    expect(gravar).toHaveBeenCalledTimes(200);
    expect(gravar.mock.results.every((r) => typeof r.value === 'string')).toBe(true);
    expect(res.map((r) => r.status)).toEqual(ops.map(() => 201));
    // Their log rows go 50 to a statement: every one is there, with its own sequence number.
    const registro = await linhas<{ id: string; seq: number }>(direto.t.db, sql`select id, seq from operacoes_aplicadas where ${inArray(operacoesAplicadas.id, ops.map((op) => op.id))}`);
    expect(new Map(registro.map((r) => [r.id, r.seq]))).toEqual(new Map(ops.map((op) => [op.id, op.seq])));
    const [primeira] = await linhas<Record<string, unknown>>(
      direto.t.db,
      sql`select funcionario_id, rota_id, dinheiro_centavos, pix_centavos, boletos, registrado_em, recebido_em, atualizado_em, versao, alterada_por_cliente
          from vendas where id = ${ops[0]!.dados.id}`,
    );
    expect(primeira).toEqual({
      funcionario_id: direto.ana.id,
      rota_id: direto.rota,
      dinheiro_centavos: 1_000,
      pix_centavos: 250,
      boletos: 1,
      registrado_em: ops[0]!.dados.registrado_em,
      recebido_em: res[0]!.recebido_em,
      atualizado_em: res[0]!.recebido_em,
      versao: 1,
      alterada_por_cliente: 'celular-da-ana',
    });
  });

  it.each([
    [60, 'num comando de 50 registros'],
    [110, 'entre os que sobram para o fim da corrida'],
  ])('uma operação já registrada, agora com outra venda nova, na posição %i (%s): responde repetida, a venda dela não é gravada e as outras entram uma vez', async (posicao) => {
    const primeiroDia = somarDias(dia, -500 - posicao * 2);
    const original = { ...venda(GOIANIA, primeiroDia), seq: ++seq };
    await enviar(direto, [original]);
    const ops = Array.from({ length: 120 }, (_, i) => venda([ANAPOLIS, CALDAS_NOVAS][i % 2]!, somarDias(primeiroDia, -1 - Math.floor(i / 2))));
    // The same operation again, carrying a sale that would be new (another id, a free day).
    ops[posicao] = { ...original, dados: { ...original.dados, id: uuidv7(), cidade_id: GOIANIA, data_venda: somarDias(primeiroDia, -1) } };
    const res = await enviar(direto, ops);

    expect(res[posicao]).toEqual({ id: original.id, status: 201, recebido_em: expect.any(String), repetida: true });
    expect(res.filter((_, i) => i !== posicao).map((r) => [r.status, r.repetida])).toEqual(ops.slice(1).map(() => [201, undefined]));
    const gravadas = await linhas<{ id: string }>(direto.t.db, sql`select id from vendas where ${inArray(vendasTabela.id, ops.map((op) => op.dados.id))}`);
    expect(gravadas.map((v) => v.id).sort()).toEqual(ops.filter((_, i) => i !== posicao).map((op) => op.dados.id).sort());
    const registros = await linhas<{ n: number }>(direto.t.db, sql`select count(*) as n from operacoes_aplicadas where ${inArray(operacoesAplicadas.id, ops.map((op) => op.id))}`);
    expect(registros[0]!.n).toBe(120);
  });

  it('cada caso que não é venda nova segue o seu caminho, e as respostas, as vendas e o registro são os mesmos de um servidor sem o caminho direto', async () => {
    const base = somarDias(dia, -20);
    const jaNoServidor = venda(GOIANIA, base);
    const lotes: { ops: Operacao[]; cliente?: string }[] = [
      { ops: [jaNoServidor, venda(ANAPOLIS, base)] },
      {
        // No refusal: the batch's run goes through in one transaction, new sales the direct way, the rest each its own.
        ops: [
          venda(CALDAS_NOVAS, base), // new
          venda(GOIANIA, base, { valor_pix: 900 }), // another id on a day taken: converges on that closing (200)
          venda(ANAPOLIS, somarDias(base, -1)), // new
          { ...jaNoServidor, id: `op-${uuidv7()}`, dados: { ...jaNoServidor.dados, valor_dinheiro: 5_000, registrado_em: `${base}T21:00:00.000Z` } }, // the same sale edited later
          venda(CALDAS_NOVAS, somarDias(base, -1)),
          venda(CALDAS_NOVAS, somarDias(base, -1), { valor_boletos: 3 }), // the day an earlier operation of this batch took
        ],
      },
      // A refusal each: the run is done again with a savepoint per operation, each its kind's way.
      { ops: [venda(GOIANIA, somarDias(base, -3)), venda(CATALAO, base)] }, // not on the route
      { ops: [venda(ANAPOLIS, somarDias(base, -3)), venda(GOIANIA, somarDias(dia, 1))] }, // in the future
      { ops: [venda(CALDAS_NOVAS, somarDias(base, -3)), venda(GOIANIA, somarDias(base, -4), { rota_id: 'do Bruno' })] }, // another employee's route
      { ops: [venda(GOIANIA, somarDias(base, -2))], cliente: 'outro-celular' },
    ];
    // The same operations (same ids and sequence numbers) to both servers, in the same order.
    const fixos = lotes.map((l) => ({ ...l, ops: l.ops.map((op) => ({ ...op, seq: ++seq })) }));
    const aqui: Awaited<ReturnType<typeof estado>>[] = [];
    const la: Awaited<ReturnType<typeof estado>>[] = [];
    const gravar = vi.spyOn(VendasNovasDoLote.prototype, 'gravar');
    const respostas: Awaited<ReturnType<typeof enviar>> = [];
    for (const { ops, cliente } of fixos) {
      const resultados = await enviar(direto, ops, cliente);
      respostas.push(...resultados);
      aqui.push(await estado(direto, ops, resultados));
    }
    // Every new sale of the batches without a refusal, and only those, went the direct way.
    // (In the batch with refusals, the sales before the first one were written the direct way too, then rolled back with the run.)
    const semRecusa = [...fixos[0]!.ops, ...fixos[1]!.ops, ...fixos[5]!.ops].map((op) => op.id);
    const diretas = gravar.mock.calls.filter(([operacaoId], i) => gravar.mock.results[i]!.value !== null && semRecusa.includes(operacaoId)).map(([operacaoId]) => operacaoId);
    expect(diretas).toEqual(respostas.filter((r) => r.status === 201 && semRecusa.includes(r.id)).map((r) => r.id));
    vi.restoreAllMocks();
    vi.spyOn(VendasNovasDoLote.prototype, 'gravar').mockReturnValue(null);
    for (const { ops, cliente } of fixos) la.push(await estado(geral, ops, await enviar(geral, ops, cliente)));

    expect(aqui[1]!.resultados.map((r) => r.status)).toEqual([201, 200, 201, 200, 201, 200]);
    expect([2, 3, 4].map((i) => aqui[i]!.resultados.map((r) => r.status))).toEqual([
      [201, 422],
      [201, 422],
      [201, 404],
    ]);
    expect(aqui).toEqual(la);
  });
});
