/**
 * Server sync throughput (docs/decisions/vazao-da-sincronizacao.md): what the faster batch path
 * must keep. Sales in the phone's usual
 * form skip zod (shared/sync/esquemas.ts, vendaCanonica), anything else still goes through the
 * schema; a new sale is inserted before its id is looked up; the log is read with one join.
 */
import { inArray, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hoje, somarDias } from '../../../shared/dates';
import { ANAPOLIS, CALDAS_NOVAS, GOIANIA, criarRotaAtiva } from '../../test/despesas';
import { MOTOR_DE_TESTE } from '../../test/bancoDeTeste';
import { criarAppDeTeste, type AppDeTeste } from '../../test/helper';
import { dadosDeVendaNaFila } from '../../test/sync';
import { linha, linhas } from '../db';
import { operacoesAplicadas } from '../db/tabelas';
import { ID_JA_USADO } from '../vendas/servico';

let t: AppDeTeste;
let ana: { id: number; token: string };
let rota: number;
const dia = hoje('America/Sao_Paulo');
const CLIENTE = 'celular-da-ana';
let seq = 0;

beforeAll(async () => {
  t = await criarAppDeTeste();
  ana = await t.criarFuncionario({ nome: 'Ana Vazão' });
  rota = await criarRotaAtiva(t, ana.id, [GOIANIA, ANAPOLIS, CALDAS_NOVAS], 'Rota da Vazão');
});
afterAll(() => t.fechar());

/** A sale as the phone's engine queues it, on Ana's route unless `mudar` says otherwise. */
function venda(cidade: number, data: string, mudar: Record<string, unknown> = {}) {
  const id = uuidv7();
  return { id: `op-${id}`, tipo: 'venda.salvar', seq: ++seq, dados: dadosDeVendaNaFila(cidade, data, { id, rota_id: rota, ...mudar }) };
}

type Operacao = ReturnType<typeof venda>;

async function lote(operacoes: Operacao[]) {
  const r = await t.chamar({ method: 'POST', url: '/api/sync/lote', token: ana.token, payload: { cliente_id: CLIENTE, operacoes } });
  expect(r.statusCode, r.body).toBe(200);
  return r.json().resultados as { id: string; status: number | string; repetida?: true; recebido_em?: string | null; corpo?: { error: string } }[];
}

const linhaDaVenda = (id: string) =>
  linha<{ id: string; dinheiro_centavos: number; pix_centavos: number; boletos: number; observacoes: string; registrado_em: string }>(
    t.db,
    sql`select id, dinheiro_centavos, pix_centavos, boletos, observacoes, registrado_em from vendas where id = ${id}`,
  );
const noRegistro = async (opId: string) => (await linha<{ n: number }>(t.db, sql`select count(*) as n from operacoes_aplicadas where id = ${opId}`))!.n;

describe('lote de vendas: o caminho rápido não muda nenhuma resposta', () => {
  it('vendas fora da forma do celular passam pelo esquema e são gravadas normalizadas; uma inválida no meio é recusada sozinha, sem linha nem registro dela, e as vizinhas ficam', async () => {
    const d = somarDias(dia, -30);
    const idMaiusculo = uuidv7();
    const normal = venda(GOIANIA, d);
    // An old app or a rescue file: upper-case id with spaces, the note with spaces, amounts left out, an instant without milliseconds.
    const foraDaForma = venda(ANAPOLIS, d, {
      id: ` ${idMaiusculo.toUpperCase()} `,
      observacoes: '  Feira na praça  ',
      valor_pix: undefined,
      valor_boletos: '2',
      registrado_em: '2026-01-05T10:00:00Z',
    });
    const invalida = venda(CALDAS_NOVAS, '2026-02-30');
    const depois = venda(CALDAS_NOVAS, d);
    const res = await lote([normal, foraDaForma, invalida, depois]);

    expect(res.map((r) => r.status)).toEqual([201, 201, 400, 201]);
    expect(res[2]!.corpo!.error).toBe('Data da venda inválida (use o formato aaaa-mm-dd).');
    expect(await linhaDaVenda(idMaiusculo)).toEqual({
      id: idMaiusculo,
      dinheiro_centavos: 1_000,
      pix_centavos: 0,
      boletos: 2,
      observacoes: 'Feira na praça',
      registrado_em: '2026-01-05T10:00:00.000Z',
    });
    expect(await linhaDaVenda(normal.dados.id)).toMatchObject({ dinheiro_centavos: 1_000, pix_centavos: 250, boletos: 1, observacoes: '' });
    expect(await linhaDaVenda(depois.dados.id)).toBeDefined();
    expect(await linhaDaVenda(invalida.dados.id)).toBeUndefined();
    expect(await Promise.all([normal, foraDaForma, invalida, depois].map((op) => noRegistro(op.id)))).toEqual([1, 1, 0, 1]);
  });

  it('uma venda recusada pela regra no meio de 201 não deixa linha dela; as outras 200 ficam, e o lote repetido é respondido pelo registro sem gravar nada', async () => {
    const ops = Array.from({ length: 200 }, (_, i) => venda([GOIANIA, ANAPOLIS][i % 2]!, somarDias(dia, -100 - Math.floor(i / 2))));
    const recusada = venda(5211503, somarDias(dia, -99)); // Itumbiara is not on the route
    ops.splice(117, 0, recusada);
    const res = await lote(ops);
    expect(res[117]).toMatchObject({ id: recusada.id, status: 422, corpo: { error: 'Esta cidade não faz parte da rota.' } });
    expect(res.filter((r) => r.status === 201)).toHaveLength(200);
    expect(await linhaDaVenda(recusada.dados.id)).toBeUndefined();
    expect(await noRegistro(recusada.id)).toBe(0);

    const contar = async () => (await linha<{ n: number }>(t.db, sql`select count(*) as n from vendas`))!.n;
    const antes = await contar();
    const repetido = await lote(ops);
    // The accepted ones from the log, marked; the refused one refused again (it was never recorded).
    expect(repetido.filter((r) => r.status === 201 && r.repetida)).toHaveLength(200);
    expect(repetido[117]).toMatchObject({ status: 422 });
    expect(await contar()).toBe(antes);
  });

  it('um lote de 250 vendas grava no registro cada operação com o seu aparelho, sequência, tipo, status e recibo, e repetido é respondido todo por ele', async () => {
    const ops = Array.from({ length: 250 }, (_, i) => venda([GOIANIA, ANAPOLIS, CALDAS_NOVAS][i % 3]!, somarDias(dia, -300 - Math.floor(i / 3))));
    const res = await lote(ops);
    expect(res.map((r) => r.status)).toEqual(ops.map(() => 201));
    const registro = await linhas<{ id: string; usuario_id: number; cliente_id: string; seq: number; tipo: string; status: number; recebido_em: string }>(
      t.db,
      sql`select id, usuario_id, cliente_id, seq, tipo, status, recebido_em from operacoes_aplicadas where ${inArray(operacoesAplicadas.id, ops.map((op) => op.id))}`,
    );
    const porId = new Map(registro.map((r) => [r.id, r]));
    expect(porId.size).toBe(250);
    ops.forEach((op, i) => {
      expect(porId.get(op.id)).toEqual({ id: op.id, usuario_id: ana.id, cliente_id: CLIENTE, seq: op.seq, tipo: 'venda.salvar', status: 201, recebido_em: res[i]!.recebido_em });
    });
    const repetido = await lote(ops);
    expect(repetido.map((r) => [r.status, r.repetida, r.recebido_em])).toEqual(res.map((r) => [201, true, r.recebido_em]));
  });

  it('a mesma operação duas vezes no mesmo lote é aplicada uma vez; repetida, as duas vêm do registro', async () => {
    const op = venda(GOIANIA, somarDias(dia, -40));
    const primeira = await lote([op, op]);
    expect(primeira.map((r) => [r.status, r.repetida])).toEqual([
      [201, undefined],
      [201, true],
    ]);
    const segunda = await lote([op, op]);
    expect(segunda.map((r) => [r.status, r.repetida])).toEqual([
      [201, true],
      [201, true],
    ]);
    expect(await noRegistro(op.id)).toBe(1);
  });

  it.each([
    [1, 'logo depois'],
    [60, 'noutro comando de registros'],
  ])('o mesmo id de operação duas vezes num lote, a segunda com outra venda nova (%i vendas entre elas, %s): só a primeira venda entra; a segunda volta repetida', async (entre) => {
    const d = somarDias(dia, -450 - entre * 2);
    const primeira = venda(GOIANIA, d);
    const meio = Array.from({ length: entre - 1 }, (_, i) => venda(ANAPOLIS, somarDias(d, -1 - i)));
    const outraVenda = venda(CALDAS_NOVAS, d);
    const mesmaOperacao = { ...outraVenda, id: primeira.id };
    const res = await lote([primeira, ...meio, mesmaOperacao]);

    expect(res[0]).toEqual({ id: primeira.id, status: 201, recebido_em: expect.any(String) });
    expect(res.at(-1)).toEqual({ id: primeira.id, status: 201, recebido_em: res[0]!.recebido_em, repetida: true });
    expect(res.slice(1, -1).every((r) => r.status === 201 && !r.repetida)).toBe(true);
    expect(await linhaDaVenda(primeira.dados.id)).toBeDefined();
    expect(await linhaDaVenda(outraVenda.dados.id)).toBeUndefined();
    expect(await noRegistro(primeira.id)).toBe(1);
  });

  it('uma venda numa rota que não existe, entre vendas da rota dela, é recusada sozinha como rota não encontrada', async () => {
    const d = somarDias(dia, -70);
    const antes = venda(GOIANIA, d);
    const semRota = venda(GOIANIA, somarDias(dia, -71), { rota_id: 987_654 });
    const depois = venda(ANAPOLIS, d);
    const res = await lote([antes, semRota, depois]);
    expect(res.map((r) => r.status)).toEqual([201, 404, 201]);
    expect(res[1]!.corpo!.error).toBe('Rota não encontrada.');
    expect(await linhaDaVenda(semRota.dados.id)).toBeUndefined();
    expect(await noRegistro(semRota.id)).toBe(0);
  });

  it('o id de uma venda já gravada numa outra cidade é recusado como id usado, mesmo quando a regra da rota recusaria a nova; nada muda', async () => {
    const gravada = venda(GOIANIA, somarDias(dia, -50));
    await lote([gravada]);
    // Same sale id, now on a city off the route: the taken id is what answers, as before the insert went first.
    const mesmoId = { ...venda(5211503, somarDias(dia, -51)), dados: { ...venda(5211503, somarDias(dia, -51)).dados, id: gravada.dados.id } };
    const [r] = await lote([mesmoId]);
    expect(r).toMatchObject({ status: 409, corpo: { error: ID_JA_USADO } });
    // And on the route's own city, on another day: the same.
    const outroDia = { ...venda(ANAPOLIS, somarDias(dia, -52)), dados: { ...venda(ANAPOLIS, somarDias(dia, -52)).dados, id: gravada.dados.id } };
    const [r2] = await lote([outroDia]);
    expect(r2).toMatchObject({ status: 409, corpo: { error: ID_JA_USADO } });
    expect(await linhaDaVenda(gravada.dados.id)).toMatchObject({ dinheiro_centavos: 1_000 });
  });

  it('outro aparelho com outro id para o mesmo dia converge no fechamento já gravado (200, o id do gravado), sem uma segunda linha', async () => {
    const d = somarDias(dia, -60);
    const primeira = venda(CALDAS_NOVAS, d);
    await lote([primeira]);
    const outroAparelho = await t.chamar({
      method: 'POST',
      url: '/api/sync/lote',
      token: ana.token,
      payload: { cliente_id: 'tablet-da-ana', operacoes: [venda(CALDAS_NOVAS, d, { valor_dinheiro: 1_000, valor_pix: 250 })] },
    });
    expect(outroAparelho.json().resultados[0].status).toBe(200);
    const n = (await linha<{ n: number }>(t.db, sql`select count(*) as n from vendas where cidade_id = ${CALDAS_NOVAS} and data_venda = ${d}`))!.n;
    expect(n).toBe(1);
  });
});

describe.skipIf(MOTOR_DE_TESTE === 'postgres')('a rota de um lote lida uma vez', () => {
  /** The SQL of every statement run on the SQLite driver while `fn` runs. */
  async function comandosDurante(fn: () => Promise<unknown>): Promise<string[]> {
    const prototipo = Object.getPrototypeOf(t.db.$client.prepare('select 1')) as Record<'get' | 'all' | 'run' | 'iterate', (...a: unknown[]) => unknown>;
    const espioes = (['get', 'all', 'run', 'iterate'] as const).map((metodo) => vi.spyOn(prototipo, metodo));
    try {
      await fn();
      return espioes.flatMap((e) => (e.mock.contexts as { source: string }[]).map((c) => c.source));
    } finally {
      for (const e of espioes) e.mockRestore();
    }
  }

  it('200 vendas em 20 cidades e 10 dias consultam a rota e as suas cidades uma vez, e a cidade fora dela ainda é recusada', async () => {
    const novas = Array.from({ length: 20 }, (_, i) => 9_300_000 + i);
    const inserirCidade = t.db.$client.prepare("insert into cidades (id, nome, nome_busca, uf) values (?, ?, ?, 'GO')");
    for (const [i, id] of novas.entries()) inserirCidade.run(id, `Vila ${i}`, `vila ${i}`);
    const bia = await t.criarFuncionario({ nome: 'Bia Vinte Cidades' });
    const rotaDaBia = await criarRotaAtiva(t, bia.id, novas, 'Rota de Vinte Cidades');
    const ops = Array.from({ length: 200 }, (_, i) => venda(novas[i % 20]!, somarDias(dia, -1 - Math.floor(i / 20)), { rota_id: rotaDaBia }));
    const enviar = async (operacoes: Operacao[]) => {
      const r = await t.chamar({ method: 'POST', url: '/api/sync/lote', token: bia.token, payload: { cliente_id: 'celular-da-bia', operacoes } });
      expect(r.statusCode, r.body).toBe(200);
      return r.json().resultados as { status: number | string; corpo?: { error: string } }[];
    };
    let resultados: Awaited<ReturnType<typeof enviar>> = [];
    const comandos = await comandosDurante(async () => (resultados = await enviar(ops)));
    expect(resultados.map((r) => r.status)).toEqual(ops.map(() => 201));
    // Before: one lookup of the city on the route per (route, city) of the run, 20 here.
    const daRota = comandos.filter((c) => c.includes('"rota_cidades"'));
    expect(daRota).toHaveLength(1);
    // The cities read once still answer for each sale: one off the route is refused, its neighbour taken.
    const [recusada, aceita] = await enviar([venda(GOIANIA, somarDias(dia, -1), { rota_id: rotaDaBia }), venda(novas[0]!, somarDias(dia, -30), { rota_id: rotaDaBia })]);
    expect(recusada).toMatchObject({ status: 422, corpo: { error: 'Esta cidade não faz parte da rota.' } });
    expect(aceita!.status).toBe(201);
  });
});
