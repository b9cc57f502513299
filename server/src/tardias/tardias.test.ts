/**
 * The employee's finish freezes the route (docs/decisions/rotas.md, 'A finalização congela a rota; o que chega
 * depois espera o admin'): a write queued on another phone that arrives in a batch after the finish is held (202), never
 * applied by itself and never lost; the admin accepts it (the figures and salary move, audited) or refuses
 * it with a reason the employee reads. Before this, such writes were applied at once (201) and the finished
 * route's total sales changed after the salary was computed on it.
 */
import { sql, type SQL } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoje, somarDias } from '../../../shared/dates';
import type { DadosOperacao, TipoOperacao } from '../../../shared/sync/operacoes';
import { ANAPOLIS, ARQUIVOS, CALDAS_NOVAS, GOIANIA, criarRotaAtiva, sha256, type ArquivoTeste } from '../../test/despesas';
import { criarAppDeTeste, esperarRecusa, type AppDeTeste } from '../../test/helper';
import { dadosDeVendaNaFila } from '../../test/sync';
import { linha, linhas } from '../db';

const SP = 'America/Sao_Paulo';
const dia = hoje(SP);
const ontem = somarDias(dia, -1);

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
  const f = await t.criarFuncionario({ nome: `Pessoa Tardia ${contador}` });
  const rota = await criarRotaAtiva(t, f.id, [GOIANIA, ANAPOLIS, CALDAS_NOVAS], `Rota Tardia ${contador}`);
  return { id: f.id, token: f.token, rota };
}

type Op = { id: string; tipo: TipoOperacao; seq: number; dados: unknown };
let seq = 0;
const op = <T extends TipoOperacao>(tipo: T, dados: DadosOperacao[T]): Op => ({ id: uuidv7(), tipo, seq: ++seq, dados });

const venda = (f: Funcionario, cidade: number, data: string, dinheiro: number, id = uuidv7()) =>
  op('venda.salvar', { ...dadosDeVendaNaFila(cidade, data, { id, valor_dinheiro: dinheiro, valor_pix: 0, valor_boletos: 0 }), rota_id: f.rota });

const despesa = (f: Funcionario, valor: number) =>
  op('despesa.criar', { id: uuidv7(), rota_id: f.rota, cidade_id: GOIANIA, data_despesa: ontem, tipo: 'alimentacao', tipo_outro: '', valor, descricao: 'Jantar' });

interface Resultado {
  id: string;
  status: number | string;
  situacao?: string;
  repetida?: boolean;
  corpo?: { error: string; codigo?: string };
}

async function lote(f: Funcionario, operacoes: Op[], { cliente = 'aparelho-2', arquivos = {} as Record<string, ArquivoTeste> } = {}): Promise<Resultado[]> {
  const corpo = { cliente_id: cliente, operacoes };
  let r;
  if (Object.keys(arquivos).length === 0) r = await t.chamar({ method: 'POST', url: '/api/sync/lote', token: f.token, payload: corpo });
  else {
    const fd = new FormData();
    fd.append('operacoes', JSON.stringify(corpo));
    for (const [id, a] of Object.entries(arquivos)) fd.append(`arquivo:${id}`, new Blob([new Uint8Array(a.conteudo)], { type: a.tipo }), a.nome);
    const resp = new Response(fd);
    r = await t.chamar({ method: 'POST', url: '/api/sync/lote', token: f.token, payload: Buffer.from(await resp.arrayBuffer()), headers: { 'content-type': resp.headers.get('content-type')! } });
  }
  expect(r.statusCode, r.body).toBe(200);
  return r.json().resultados as Resultado[];
}

const finalizar = async (f: Funcionario) => expect((await t.chamar({ method: 'PATCH', url: `/api/rotas/${f.rota}/finalizar`, token: f.token })).statusCode).toBe(200);
const umaLinha = async <T>(consulta: SQL) => (await linha<T>(t.db, consulta))!;
const detalhes = async (f: Funcionario) => (await t.chamar({ method: 'GET', url: `/api/relatorios/rota/${f.rota}/detalhes`, token: admin })).json();
const tardios = async (f: Funcionario, token = admin) => t.chamar({ method: 'GET', url: `/api/rotas/${f.rota}/tardios`, token });
const aceitar = (f: Funcionario, opId: string, token = admin) => t.chamar({ method: 'PATCH', url: `/api/rotas/${f.rota}/tardios/${opId}/aceitar`, token });
const recusar = (f: Funcionario, opId: string, motivo: unknown, token = admin) =>
  t.chamar({ method: 'PATCH', url: `/api/rotas/${f.rota}/tardios/${opId}/recusar`, token, payload: { motivo } });

describe('o que chega num lote depois da finalização fica guardado para o admin', () => {
  it('a venda de outro aparelho: 202 chegou_depois_da_finalizacao, os números da rota não mudam, e o reenvio é respondido do registro', async () => {
    const f = await funcionarioComRota();
    expect((await lote(f, [venda(f, GOIANIA, ontem, 240_000)], { cliente: 'aparelho-1' })).map((r) => r.status)).toEqual([201]);
    await finalizar(f);
    const antes = await detalhes(f);
    expect(antes.total_vendas).toBe(2400);

    const tardia = venda(f, ANAPOLIS, ontem, 120_101);
    const [r] = await lote(f, [tardia]);
    expect(r).toMatchObject({ id: tardia.id, status: 202, situacao: 'chegou_depois_da_finalizacao' });
    const depois = await detalhes(f);
    expect([depois.total_vendas, depois.calculo_salario.total_salario, depois.tardios_pendentes]).toEqual([2400, antes.calculo_salario.total_salario, 1]);

    // The answer was lost; the phone sends it again: answered from the log, not held twice.
    const [de_novo] = await lote(f, [tardia]);
    expect(de_novo).toMatchObject({ status: 202, repetida: true, situacao: 'chegou_depois_da_finalizacao' });
    expect((await umaLinha<{ n: number }>(sql`select count(*) n from operacoes_tardias where rota_id = ${f.rota}`)).n).toBe(1);

    const lista = await tardios(f);
    expect(lista.statusCode, lista.body).toBe(200);
    expect(lista.json().tardios).toEqual([
      expect.objectContaining({ operacao_id: tardia.id, tipo: 'venda.salvar', rotulo: 'Fechamento do dia', situacao: 'pendente', data: ontem, descricao: expect.stringMatching(/^Anápolis \(GO\), \d\d\/\d\d\/\d{4}: R\$\s1\.201,01$/) }),
    ]);
  });

  it('uma operação aplicada antes da finalização e reenviada depois continua respondida do registro (não é guardada)', async () => {
    const f = await funcionarioComRota();
    const antes = venda(f, GOIANIA, ontem, 10_000);
    expect((await lote(f, [antes]))[0]!.status).toBe(201);
    await finalizar(f);
    const [r] = await lote(f, [antes]);
    expect(r).toMatchObject({ status: 201, repetida: true });
    expect(r!.situacao).toBeUndefined();
    expect((await tardios(f)).json().tardios).toEqual([]);
  });

  it('visita, despesa com comprovante, edição e exclusão também ficam guardadas; o comprovante é guardado com os mesmos bytes', async () => {
    const f = await funcionarioComRota();
    const existente = despesa(f, 3_000);
    expect((await lote(f, [existente], { cliente: 'aparelho-1' }))[0]!.status).toBe(201);
    await finalizar(f);
    const visita = op('visita.registrar', { id: uuidv7(), rota_id: f.rota, cidade_id: CALDAS_NOVAS, data: ontem });
    const nova = despesa(f, 4_590);
    const edicao = op('despesa.editar', { ...(existente.dados as DadosOperacao['despesa.criar']), valor: 2_500, remover_cupons: [] });
    const exclusao = op('despesa.excluir', { id: (existente.dados as { id: string }).id, rota_id: f.rota });
    const nota = ARQUIVOS.jpeg();
    const r = await lote(f, [visita, nova, edicao, exclusao], { arquivos: { [nova.id]: nota } });
    expect(r.map((x) => [x.status, x.situacao])).toEqual(Array(4).fill([202, 'chegou_depois_da_finalizacao']));
    expect((await umaLinha<{ n: number }>(sql`select count(*) n from despesas where rota_id = ${f.rota}`)).n).toBe(1);
    expect((await umaLinha<{ n: number }>(sql`select count(*) n from visitas where rota_id = ${f.rota} and cidade_id = ${CALDAS_NOVAS}`)).n).toBe(0);

    // Accepted: the expense is created with its receipt, byte for byte, and the balance moves.
    const saldoAntes = (await umaLinha<{ s: number }>(sql`select saldo_novo_centavos s from movimentacoes_saldo where funcionario_id = ${f.id} order by id desc limit 1`)).s;
    const aceita = await aceitar(f, nova.id);
    expect(aceita.statusCode, aceita.body).toBe(200);
    expect(aceita.json().tardio).toMatchObject({ situacao: 'aceita', decidida_por: 'Administrador' });
    const criada = await t.chamar({ method: 'GET', url: `/api/despesas/${(nova.dados as { id: string }).id}/cupom`, token: admin });
    expect(criada.statusCode).toBe(200);
    expect(sha256(criada.rawPayload)).toBe(sha256(nota.conteudo));
    const saldoDepois = (await umaLinha<{ s: number }>(sql`select saldo_novo_centavos s from movimentacoes_saldo where funcionario_id = ${f.id} order by id desc limit 1`)).s;
    expect(saldoDepois).toBe(saldoAntes - 4_590);

    // The held copy of the receipt is gone; only the expense's own file remains.
    expect((await linhas<{ arquivo: string }>(t.db, sql`select arquivo from despesa_cupons dc join despesas d on d.id = dc.despesa_id where d.rota_id = ${f.rota}`)).length).toBe(1);
  });

  it('aceitar roda a escrita como antes da finalização: a venda entra, o salário é recalculado, e a auditoria registra', async () => {
    const f = await funcionarioComRota();
    expect((await lote(f, [venda(f, GOIANIA, ontem, 240_000)], { cliente: 'aparelho-1' }))[0]!.status).toBe(201);
    await finalizar(f);
    const tardia = venda(f, ANAPOLIS, ontem, 120_000);
    await lote(f, [tardia]);
    const r = await aceitar(f, tardia.id);
    expect(r.statusCode, r.body).toBe(200);
    const depois = await detalhes(f);
    expect([depois.total_vendas, depois.cidades_visitadas, depois.tardios_pendentes]).toEqual([3600, 2, 0]);
    const auditoria = await umaLinha<{ acao: string; alvo_id: string }>(sql`select acao, alvo_id from auditoria order by id desc limit 1`);
    expect(auditoria).toEqual({ acao: 'rota.aceitar_tardio', alvo_id: String(f.rota) });
    // Decided once: accepting again is 409.
    esperarRecusa(await aceitar(f, tardia.id), 409, 'conflito', 'Este registro já foi aceito.');
    // The route stays frozen for everything else.
    esperarRecusa(await t.chamar({ method: 'POST', url: '/api/vendas', token: f.token, payload: (venda(f, CALDAS_NOVAS, ontem, 100).dados as object) }), 409, 'rota_finalizada');
  });

  it('recusar pede o motivo, não aplica nada, e o funcionário lê o motivo no resultado da rota', async () => {
    const f = await funcionarioComRota();
    await finalizar(f);
    const nota = ARQUIVOS.pdf();
    const tardia = despesa(f, 9_000);
    await lote(f, [tardia], { arquivos: { [tardia.id]: nota } });
    esperarRecusa(await recusar(f, tardia.id, ''), 400, 'dados_invalidos', 'Motivo é obrigatório.');
    const r = await recusar(f, tardia.id, 'Jantar depois do fim da rota não é reembolsado.');
    expect(r.statusCode, r.body).toBe(200);
    expect((await umaLinha<{ n: number }>(sql`select count(*) n from despesas where rota_id = ${f.rota}`)).n).toBe(0);
    const resultado = await t.chamar({ method: 'GET', url: `/api/relatorios/rota/${f.rota}`, token: f.token });
    expect(resultado.json().tardios).toEqual([expect.objectContaining({ operacao_id: tardia.id, situacao: 'recusada', motivo: 'Jantar depois do fim da rota não é reembolsado.' })]);
    esperarRecusa(await aceitar(f, tardia.id), 409, 'conflito', 'Este registro já foi recusado.');
  });

  it('registros do mesmo fechamento são decididos na ordem em que chegaram', async () => {
    const f = await funcionarioComRota();
    await finalizar(f);
    const id = uuidv7();
    const primeira = venda(f, GOIANIA, ontem, 1_000, id);
    const segunda = venda(f, GOIANIA, ontem, 2_000, id);
    await lote(f, [primeira, segunda]);
    esperarRecusa(await aceitar(f, segunda.id), 409, 'conflito', /registro anterior deste mesmo fechamento/);
    expect((await aceitar(f, primeira.id)).statusCode).toBe(200);
    expect((await aceitar(f, segunda.id)).statusCode).toBe(200);
    expect((await detalhes(f)).total_vendas).toBe(20);
  });

  it('só o admin decide; o funcionário lê só os da própria rota; o de outro é 404', async () => {
    const a = await funcionarioComRota();
    const b = await funcionarioComRota();
    await finalizar(a);
    const tardia = venda(a, GOIANIA, ontem, 1_000);
    await lote(a, [tardia]);
    expect((await tardios(a, a.token)).json().tardios).toHaveLength(1);
    esperarRecusa(await tardios(a, b.token), 404, 'nao_encontrado');
    esperarRecusa(await aceitar(a, tardia.id, a.token), 403, 'sem_permissao');
    esperarRecusa(await recusar(a, tardia.id, 'não', b.token), 403, 'sem_permissao');
    // Named under another route: not found there.
    esperarRecusa(await t.chamar({ method: 'PATCH', url: `/api/rotas/${b.rota}/tardios/${tardia.id}/aceitar`, token: admin }), 404, 'nao_encontrado');
  });

  it('a rota cancelada pelo admin continua com a regra de antes: o trabalho do período ativo entra direto (201)', async () => {
    const f = await funcionarioComRota();
    expect((await t.chamar({ method: 'PATCH', url: `/api/rotas/${f.rota}/cancelar`, token: admin })).statusCode).toBe(200);
    expect((await lote(f, [venda(f, GOIANIA, dia, 5_000)]))[0]!.status).toBe(201);
  });
});
