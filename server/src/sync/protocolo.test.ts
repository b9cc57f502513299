/**
 * The sync protocol (docs/decisions/sincronizacao.md) through POST /api/sync/lote and the rescue
 * import, with operations as the current app sends them ({ id, tipo, seq, dados }, amounts in
 * centavos). Each block is one of the ways the field broke the previous protocol.
 */
import { sql, type SQL } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoje, somarDias } from '../../../shared/dates';
import type { DadosOperacao, TipoOperacao } from '../../../shared/sync/operacoes';
import { ANAPOLIS, CALDAS_NOVAS, GOIANIA, criarRotaAtiva, type ArquivoTeste } from '../../test/despesas';
import { criarAppDeTeste, type AppDeTeste } from '../../test/helper';
import { arquivoPendencias, formularioPendencias } from '../../test/pendencias';
import { linha, linhas } from '../db';

let t: AppDeTeste;
const dia = hoje('America/Sao_Paulo');

interface Funcionario {
  id: number;
  token: string;
  nome: string;
  email: string;
  rota: number;
}

beforeAll(async () => {
  t = await criarAppDeTeste();
});
afterAll(() => t.fechar());

let contador = 0;
async function novoFuncionario(cidades = [GOIANIA, ANAPOLIS, CALDAS_NOVAS]): Promise<Funcionario> {
  contador += 1;
  const nome = `Pessoa ${contador}`;
  const f = await t.criarFuncionario({ nome });
  const rota = await criarRotaAtiva(t, f.id, cidades, `Rota ${contador}`);
  const { email } = await umaLinha<{ email: string }>(sql`select email from usuarios where id = ${f.id}`);
  return { id: f.id, token: f.token, nome, email, rota };
}

type Op = { id: string; tipo: TipoOperacao; seq: number; dados: unknown };
let seq = 0;
const op = <T extends TipoOperacao>(tipo: T, dados: DadosOperacao[T], id = uuidv7()): Op => ({ id, tipo, seq: ++seq, dados });

const venda = (f: Funcionario, cidade: number, data: string, dinheiro: number, extra: Partial<DadosOperacao['venda.salvar']> = {}) =>
  op('venda.salvar', {
    id: extra.id ?? uuidv7(),
    rota_id: f.rota,
    cidade_id: cidade,
    data_venda: data,
    valor_dinheiro: dinheiro,
    valor_pix: 0,
    valor_cartao: 0,
    valor_link: 0,
    valor_boletos: 0,
    observacoes: '',
    registrado_em: new Date().toISOString(),
    ...extra,
  });

const camposDespesa = (f: Funcionario, valor: number) => ({
  rota_id: f.rota,
  cidade_id: GOIANIA,
  data_despesa: somarDias(dia, -1),
  tipo: 'alimentacao',
  tipo_outro: '',
  valor,
  descricao: 'Almoço',
});

interface Resultado {
  id: string;
  status: number | string;
  repetida?: boolean;
  recebido_em?: string | null;
  corpo?: { error: string; codigo?: string; conflito?: unknown };
}

async function lote(f: Funcionario, operacoes: Op[], { cliente = 'aparelho-1', arquivos = {} as Record<string, ArquivoTeste> } = {}): Promise<Resultado[]> {
  const corpo = { cliente_id: cliente, operacoes };
  let r;
  if (Object.keys(arquivos).length === 0) {
    r = await t.chamar({ method: 'POST', url: '/api/sync/lote', token: f.token, payload: corpo });
  } else {
    const fd = new FormData();
    fd.append('operacoes', JSON.stringify(corpo));
    for (const [id, a] of Object.entries(arquivos)) fd.append(`arquivo:${id}`, new Blob([new Uint8Array(a.conteudo)], { type: a.tipo }), a.nome);
    const resp = new Response(fd);
    r = await t.chamar({
      method: 'POST',
      url: '/api/sync/lote',
      token: f.token,
      payload: Buffer.from(await resp.arrayBuffer()),
      headers: { 'content-type': resp.headers.get('content-type')! },
    });
  }
  expect(r.statusCode, r.body).toBe(200);
  return r.json().resultados as Resultado[];
}

const umaLinha = async <T>(consulta: SQL) => (await linha<T>(t.db, consulta))!;
const variasLinhas = <T>(consulta: SQL) => linhas<T>(t.db, consulta);

/** The ledger of an employee is a chain: each saldo_anterior is the previous saldo_novo. */
async function cadeiaDoSaldo(funcionarioId: number): Promise<{ saldo: number; movimentos: number }> {
  const movs = await variasLinhas<{ tipo: string; valor_centavos: number; saldo_anterior_centavos: number; saldo_novo_centavos: number }>(sql`select tipo, valor_centavos, saldo_anterior_centavos, saldo_novo_centavos from movimentacoes_saldo where funcionario_id = ${funcionarioId} order by id`);
  let saldo = 0;
  for (const m of movs) {
    expect(m.saldo_anterior_centavos).toBe(saldo);
    saldo += m.tipo === 'debito' ? -m.valor_centavos : m.valor_centavos;
    expect(m.saldo_novo_centavos).toBe(saldo);
  }
  return { saldo, movimentos: movs.length };
}

describe('D1: cada operação tem o seu resultado; uma recusa nunca cai em outra', () => {
  it('um comprovante GIF recusa só a sua despesa (415, com a mensagem do arquivo); as vendas do mesmo lote são aceitas', async () => {
    const f = await novoFuncionario();
    const gif: ArquivoTeste = { nome: 'nota.gif', tipo: 'image/gif', conteudo: Buffer.from('GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00!\xf9\x04\x00\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;', 'latin1') };
    const v1 = venda(f, GOIANIA, somarDias(dia, -2), 10_000);
    const gasto = op('despesa.criar', { id: uuidv7(), ...camposDespesa(f, 4590) });
    const v2 = venda(f, ANAPOLIS, somarDias(dia, -2), 20_000);
    const r = await lote(f, [v1, gasto, v2], { arquivos: { [gasto.id]: gif } });
    expect(r.map((x) => x.status)).toEqual([201, 415, 201]);
    expect(r[1]!.corpo!.error).toMatch(/Tipo de arquivo não aceito/);
    expect((await umaLinha<{ n: number }>(sql`select count(*) n from vendas where funcionario_id = ${f.id}`)).n).toBe(2);
    expect((await umaLinha<{ n: number }>(sql`select count(*) n from despesas where funcionario_id = ${f.id}`)).n).toBe(0);
  });

  it('dados inválidos e um tipo desconhecido são recusados sozinhos, cada um com a sua mensagem', async () => {
    const f = await novoFuncionario();
    const invalida = venda(f, GOIANIA, somarDias(dia, -3), -5);
    const estranha = { id: uuidv7(), tipo: 'venda.apagar', seq: ++seq, dados: {} } as unknown as Op;
    const boa = venda(f, ANAPOLIS, somarDias(dia, -3), 500);
    const r = await lote(f, [invalida, estranha, boa]);
    expect(r.map((x) => x.status)).toEqual([400, 422, 201]);
    expect(r[0]!.corpo!.error).toBe('Dinheiro não pode ser negativo.');
    expect(r[1]!.corpo!.error).toMatch(/Operação desconhecida/);
  });
});

describe('D2: nenhum limite depende de quantas escritas a rota tem na fila', () => {
  it('60 fechamentos e a finalização da rota num lote só; uma venda recusada retém a finalização, não as outras vendas', async () => {
    const f = await novoFuncionario();
    const vendas = Array.from({ length: 60 }, (_, i) => venda(f, [GOIANIA, ANAPOLIS, CALDAS_NOVAS][i % 3]!, somarDias(dia, -1 - Math.floor(i / 3)), 1000 + i));
    const finalizar = op('rota.finalizar', { rota_id: f.rota });
    const ok = await lote(f, [...vendas, finalizar]);
    expect(ok.filter((x) => x.status === 201)).toHaveLength(60);
    expect(ok.at(-1)!.status).toBe(200);

    const g = await novoFuncionario();
    const recusada = venda(g, GOIANIA, somarDias(dia, 2), 100); // in the future: refused
    const outras = [venda(g, ANAPOLIS, somarDias(dia, -1), 100), venda(g, CALDAS_NOVAS, somarDias(dia, -1), 100)];
    const r = await lote(g, [recusada, ...outras, op('rota.finalizar', { rota_id: g.rota })]);
    expect(r.map((x) => x.status)).toEqual([422, 201, 201, 'retido']);
    expect((await umaLinha<{ status: string }>(sql`select status from rotas where id = ${g.rota}`)).status).toBe('ativa');
  });
});

describe('D3: exatamente uma vez, para todo tipo de operação', () => {
  it('criar, editar e excluir com as respostas perdidas: reenviados, são respondidos pelo registro e nada se repete', async () => {
    const f = await novoFuncionario();
    const id = uuidv7();
    const criar = op('despesa.criar', { id, ...camposDespesa(f, 5000) });
    const editar = op('despesa.editar', { id, ...camposDespesa(f, 3000), excluir_cupom: false });
    const excluir = op('despesa.excluir', { id, rota_id: f.rota });
    // The server commits each, the phone never sees the answers: it sends all three again, twice.
    await lote(f, [criar]);
    await lote(f, [editar]);
    await lote(f, [excluir]);
    const antes = await cadeiaDoSaldo(f.id);
    for (let i = 0; i < 2; i++) {
      const r = await lote(f, [criar, editar, excluir]);
      expect(r.map((x) => [x.status, x.repetida])).toEqual([
        [201, true],
        [200, true],
        [200, true],
      ]);
    }
    expect(await cadeiaDoSaldo(f.id)).toEqual(antes);
    expect(antes).toEqual({ saldo: 0, movimentos: 3 });
    expect((await umaLinha<{ excluida_em: string | null }>(sql`select excluida_em from despesas where id = ${id}`)).excluida_em).not.toBeNull();
  });

  it('uma edição reenviada depois de outra não desfaz a mais nova nem move o saldo de novo', async () => {
    const f = await novoFuncionario();
    const id = uuidv7();
    const criar = op('despesa.criar', { id, ...camposDespesa(f, 5000) });
    const para30 = op('despesa.editar', { id, ...camposDespesa(f, 3000), excluir_cupom: false });
    const para50 = op('despesa.editar', { id, ...camposDespesa(f, 5000), excluir_cupom: false });
    await lote(f, [criar, para30, para50]);
    const antes = await cadeiaDoSaldo(f.id);
    const r = await lote(f, [para30]);
    expect(r[0]!.repetida).toBe(true);
    expect((await umaLinha<{ valor_centavos: number }>(sql`select valor_centavos from despesas where id = ${id}`)).valor_centavos).toBe(5000);
    expect(await cadeiaDoSaldo(f.id)).toEqual(antes);
  });

  it('um arquivo de pendências antigo importado de novo responde "já recebido" e não devolve o valor antigo', async () => {
    const f = await novoFuncionario();
    const id = uuidv7();
    const criar = op('despesa.criar', { id, ...camposDespesa(f, 5000) });
    const editar = op('despesa.editar', { id, ...camposDespesa(f, 3000), excluir_cupom: false });
    const arquivo = arquivoPendencias({ id: f.id, nome: f.nome, email: f.email }, [criar, editar].map((o) => ({ ...o, criadoEm: new Date().toISOString(), descricao: o.tipo })));
    const admin = await t.tokenAdmin();
    const importar = async () => {
      const { payload, headers } = await formularioPendencias(arquivo);
      const r = await t.chamar({ method: 'POST', url: '/api/sync/importar', token: admin, payload, headers });
      expect(r.statusCode, r.body).toBe(200);
      return r.json() as { itens: { situacao: string }[] };
    };
    expect((await importar()).itens.map((i) => i.situacao)).toEqual(['aceito', 'aceito']);
    // The phone then changes the expense again and syncs; the old file is imported once more.
    await lote(f, [op('despesa.editar', { id, ...camposDespesa(f, 7000), excluir_cupom: false })], { cliente: arquivo.dispositivo! });
    expect((await importar()).itens.map((i) => i.situacao)).toEqual(['ja_recebido', 'ja_recebido']);
    expect((await umaLinha<{ valor_centavos: number }>(sql`select valor_centavos from despesas where id = ${id}`)).valor_centavos).toBe(7000);
    expect((await cadeiaDoSaldo(f.id)).saldo).toBe(-7000);
  });

  it('visita e o seu "Desfazer" no mesmo lote e reenviados: a cidade fica sem visita, e o reenvio não muda nada', async () => {
    const f = await novoFuncionario();
    const data = somarDias(dia, -1);
    const visita = op('visita.registrar', { id: uuidv7(), rota_id: f.rota, cidade_id: ANAPOLIS, data, registrado_em: new Date().toISOString() });
    const desfazer = op('visita.desfazer', { id: uuidv7(), rota_id: f.rota, cidade_id: ANAPOLIS, data });
    const r = await lote(f, [visita, desfazer]);
    expect(r.map((x) => x.status)).toEqual([200, 200]);
    const visitasDoDia = () => variasLinhas<{ id: string }>(sql`select id from visitas where rota_id = ${f.rota} and cidade_id = ${ANAPOLIS} and data = ${data}`);
    expect(await visitasDoDia()).toEqual([]);
    // The answer was lost: the same batch again is answered from the record, the visit is not back.
    const denovo = await lote(f, [visita, desfazer]);
    expect(denovo.map((x) => x.repetida)).toEqual([true, true]);
    expect(await visitasDoDia()).toEqual([]);
    // Malformed data is refused on its own.
    const ruim = await lote(f, [op('visita.desfazer', { id: uuidv7(), rota_id: f.rota, cidade_id: ANAPOLIS, data: '2026-02-30' })]);
    expect(ruim[0]).toMatchObject({ status: 400, corpo: { codigo: 'dados_invalidos' } });
  });

  it('o id de uma operação de outra pessoa é recusado', async () => {
    const a = await novoFuncionario();
    const b = await novoFuncionario();
    const v = venda(a, GOIANIA, somarDias(dia, -1), 100);
    await lote(a, [v]);
    const copia = { ...v, dados: { ...(v.dados as object), id: uuidv7(), rota_id: b.rota } };
    const r = await lote(b, [copia]);
    expect(r[0]!.status).toBe(409);
  });

  /**
   * Property: whatever the link does (answers lost, batches delivered twice, old rescue files
   * imported again), the end state is exactly that of applying each operation once, in device order.
   */
  it('propriedade: entregas perdidas, duplicadas e reimportações terminam no estado de aplicar cada operação uma vez, na ordem', async () => {
    let semente = 20261125;
    const aleatorio = () => {
      semente = (semente * 1103515245 + 12345) % 2 ** 31;
      return semente / 2 ** 31;
    };
    const admin = await t.tokenAdmin();
    for (let rodada = 0; rodada < 12; rodada++) {
      const f = await novoFuncionario();
      const cliente = uuidv7();
      // The device's operations on two expenses, in its order; the expected state alongside.
      const ops: Op[] = [];
      const esperado = new Map<string, number | null>();
      const ids = [uuidv7(), uuidv7()];
      for (let i = 0; i < 10; i++) {
        const id = ids[Math.floor(aleatorio() * ids.length)]!;
        const atual = esperado.get(id);
        const valor = 100 * (1 + Math.floor(aleatorio() * 90));
        if (atual === undefined) {
          ops.push(op('despesa.criar', { id, ...camposDespesa(f, valor) }));
          esperado.set(id, valor);
        } else if (atual === null) {
          continue; // deleted: nothing more on it
        } else if (aleatorio() < 0.2) {
          ops.push(op('despesa.excluir', { id, rota_id: f.rota }));
          esperado.set(id, null);
        } else {
          ops.push(op('despesa.editar', { id, ...camposDespesa(f, valor), excluir_cupom: false }));
          esperado.set(id, valor);
        }
      }
      // Deliver in order; each batch may lose its answer (sent again), arrive twice, or be followed by
      // an import of a rescue file exported at some earlier moment.
      let confirmadas = 0;
      let tentativas = 0;
      while (confirmadas < ops.length && tentativas++ < 200) {
        const tamanho = 1 + Math.floor(aleatorio() * 4);
        const pedaco = ops.slice(confirmadas, confirmadas + tamanho);
        const sorteio = aleatorio();
        const r = await lote(f, pedaco, { cliente });
        if (sorteio < 0.2) await lote(f, pedaco, { cliente });
        if (sorteio > 0.8) {
          const antigo = ops.slice(0, confirmadas + Math.floor(aleatorio() * (pedaco.length + 1)));
          if (antigo.length > 0) {
            const arquivo = { ...arquivoPendencias({ id: f.id, nome: f.nome, email: f.email }, antigo.map((o) => ({ ...o, criadoEm: new Date().toISOString(), descricao: o.tipo }))), dispositivo: cliente };
            const { payload, headers } = await formularioPendencias(arquivo);
            expect((await t.chamar({ method: 'POST', url: '/api/sync/importar', token: admin, payload, headers })).statusCode).toBe(200);
          }
        }
        for (const x of r) expect(typeof x.status === 'number' && x.status < 300, JSON.stringify(x)).toBe(true);
        if (aleatorio() < 0.35) continue; // the answer was lost: the phone sends the same again
        confirmadas += pedaco.length;
      }
      expect(confirmadas).toBe(ops.length);
      let saldoEsperado = 0;
      for (const [id, valor] of esperado) {
        const guardada = await umaLinha<{ valor_centavos: number; excluida_em: string | null }>(sql`select valor_centavos, excluida_em from despesas where id = ${id}`);
        if (valor === null) expect(guardada.excluida_em).not.toBeNull();
        else {
          expect(guardada.excluida_em).toBeNull();
          expect(guardada.valor_centavos).toBe(valor);
          saldoEsperado -= valor;
        }
      }
      expect((await cadeiaDoSaldo(f.id)).saldo).toBe(saldoEsperado);
      // One record per operation, never two.
      expect((await umaLinha<{ n: number }>(sql`select count(*) n from operacoes_aplicadas where usuario_id = ${f.id}`)).n).toBe(ops.length);
    }
  });
});

describe('D4: o relógio do aparelho não decide nada; uma escrita ignorada nunca é respondida como aceita', () => {
  it('relógio 3 h adiantado e depois corrigido: a correção de R$ 100 para R$ 250 vale, pela ordem do aparelho', async () => {
    const f = await novoFuncionario();
    const id = uuidv7();
    const data = somarDias(dia, -1);
    const adiantado = new Date(Date.now() + 3 * 3600_000).toISOString();
    const criar = venda(f, GOIANIA, data, 10_000, { id, registrado_em: adiantado });
    const corrigir = venda(f, GOIANIA, data, 25_000, { id, registrado_em: new Date().toISOString() });
    const r = await lote(f, [criar, corrigir]);
    expect(r.map((x) => x.status)).toEqual([201, 200]);
    expect((await umaLinha<{ dinheiro_centavos: number }>(sql`select dinheiro_centavos from vendas where id = ${id}`)).dinheiro_centavos).toBe(25_000);
  });

  it('outro aparelho editando sobre uma versão velha recebe um conflito com os dois valores, e nada muda', async () => {
    const f = await novoFuncionario();
    const id = uuidv7();
    const data = somarDias(dia, -1);
    await lote(f, [venda(f, ANAPOLIS, data, 10_000, { id })], { cliente: 'celular' });
    await lote(f, [venda(f, ANAPOLIS, data, 12_000, { id, versao_base: 1 })], { cliente: 'tablet' });
    // The phone edits the copy it read at version 1.
    const r = await lote(f, [venda(f, ANAPOLIS, data, 9_000, { id, versao_base: 1 })], { cliente: 'celular' });
    expect(r[0]!.status).toBe(409);
    expect(r[0]!.corpo!.codigo).toBe('conflito_de_versao');
    expect(r[0]!.corpo!.error).toMatch(/Dinheiro: no servidor R\$\s120,00, neste aparelho R\$\s90,00\. Escolha/);
    expect(r[0]!.corpo!.conflito).toMatchObject({ versao_atual: 2, servidor: { valor_dinheiro: 12_000 }, enviado: { valor_dinheiro: 9_000 } });
    expect((await umaLinha<{ dinheiro_centavos: number }>(sql`select dinheiro_centavos from vendas where id = ${id}`)).dinheiro_centavos).toBe(12_000);
    // Keeping the phone's value: the same write based on the version the conflict named.
    const mantida = await lote(f, [venda(f, ANAPOLIS, data, 9_000, { id, versao_base: 2 })], { cliente: 'celular' });
    expect(mantida[0]!.status).toBe(200);
    expect(await umaLinha<{ dinheiro_centavos: number; versao: number }>(sql`select dinheiro_centavos, versao from vendas where id = ${id}`)).toEqual({ dinheiro_centavos: 9_000, versao: 3 });
  });
});
