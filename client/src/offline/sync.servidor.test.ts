/**
 * The sync engine against the real API on a temporary database, over real HTTP on loopback,
 * through the batch endpoint (POST /api/sync/lote): lost answers, a server that is down, refusals,
 * an expired session, and a backlog of 500 writes.
 */
import Dexie from 'dexie';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hoje, somarDias } from '../../../shared/dates';
import type { AppDeTeste } from '../../../server/test/helper';
import { definirFetch } from '../api/client';
import { fecharApiReal, iniciarApiReal } from '../test/apiReal';
import { BancoLocal } from './db';
import { operacoes as registradas } from '.';
import './operacoes';
import { enfileirar, itensDoUsuario, type Operacoes } from './outbox';
import { MotorSync } from './sync';
import { LIMITES_LOTE } from './transporte';

let t: AppDeTeste;
let funcionario: { id: number; token: string };
let rotaId: number;
let banco: BancoLocal;
let n = 0;
const agora = Date.UTC(2026, 10, 22, 12);
let chamadasLote = 0;
const CIDADES = [5208707, 5201108, 5204508];
const dia = hoje('America/Sao_Paulo');

// The app's own registry: a queued closing goes exactly as the sales screen queues it.
const operacoes: Operacoes = registradas;

beforeAll(async () => {
  ({ t, funcionario, rotaId } = await iniciarApiReal({ funcionario: 'Eva Estrada', rota: 'Rota Sync', cidades: CIDADES }));
});
afterAll(() => fecharApiReal(t));
beforeEach(async () => {
  banco = new BancoLocal(`teste-sync-servidor-${++n}`);
  await banco.open();
  chamadasLote = 0;
  definirFetch(async (url, init) => {
    if (String(url).endsWith('/api/sync/lote')) chamadasLote += 1;
    return fetch(url, init);
  });
});
afterEach(async () => {
  definirFetch((...a) => fetch(...a));
  await banco.delete();
});

function motor(limites = LIMITES_LOTE, token: string | null = funcionario.token) {
  return new MotorSync({ banco, operacoes, obterSessao: () => ({ usuarioId: funcionario.id, token }), agora: () => agora, esperaBaseMs: 1000, limites });
}

let diaSeq = 0;
/** Queues `quantas` closings on distinct days; returns their sale ids. */
async function enfileirarVendas(quantas: number, extra: Record<string, unknown> = {}): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < quantas; i++) {
    const data = somarDias(dia, -(++diaSeq));
    const id = uuidv7();
    ids.push(id);
    await enfileirar(banco, {
      tipo: 'venda.salvar',
      usuarioId: funcionario.id,
      dados: { id, rota_id: rotaId, cidade_id: CIDADES[i % 3], data_venda: data, valor_dinheiro: 1000, valor_pix: 10, valor_cartao: 0, valor_link: 0, valor_boletos: 0, observacoes: '', registrado_em: new Date().toISOString(), ...extra },
      chaves: [`venda:${rotaId}:${CIDADES[i % 3]}:${data}`],
      descricao: `Fechamento ${i}`,
    });
  }
  return ids;
}

function vendasNoServidor(ids: string[]): number {
  const r = t.db.$client.prepare(`select count(*) as n from vendas where id in (select value from json_each(?))`).get(JSON.stringify(ids)) as { n: number };
  return r.n;
}

describe('MotorSync contra o servidor real (lotes)', () => {
  it('a resposta de um lote se perde no caminho: o lote é repetido e cada venda existe exatamente uma vez', async () => {
    const ids = await enfileirarVendas(5);
    let perdida = false;
    definirFetch(async (url, init) => {
      chamadasLote += 1;
      const resposta = await fetch(url, init);
      if (chamadasLote === 2 && !perdida) {
        perdida = true; // the server did the writes of the second batch...
        throw new TypeError('Failed to fetch'); // ...but the answer never reached the phone
      }
      return resposta;
    });
    const m = motor({ ...LIMITES_LOTE, escritas: 2 });
    await m.sincronizarAgora();
    m.parar();
    expect(await itensDoUsuario(banco, funcionario.id)).toHaveLength(3); // items 3-5 wait, order kept
    expect(vendasNoServidor(ids)).toBe(4); // the server did have items 3 and 4

    // A lost answer reads as no signal: no backoff, the probe (or the `online` event) sends again.
    expect((await itensDoUsuario(banco, funcionario.id))[0]).toMatchObject({ tentativas: 0, proximaTentativaEm: null });
    await m.sincronizarAgora({ ignorarEspera: true });
    m.parar();
    expect(await itensDoUsuario(banco, funcionario.id)).toHaveLength(0);
    expect(vendasNoServidor(ids)).toBe(5);
    expect(await banco.sincronizados.count()).toBe(5);
    // 'Recebido pelo servidor às ...' is the server's own time for each record, not the phone's clock.
    const recebidos = await banco.sincronizados.toArray();
    const doServidor = t.db.$client.prepare('select atualizado_em from vendas where id = ?').pluck();
    const horas = recebidos.map((s) => s.recebidoEm).sort();
    const noServidor = ids.map((id) => doServidor.get(id) as string).sort();
    expect(horas).toEqual(noServidor);
  });

  it('o servidor fora do ar: tudo espera e nada se perde', async () => {
    await enfileirarVendas(2);
    definirFetch(async () => {
      throw new TypeError('Failed to fetch');
    });
    const m = motor();
    await m.sincronizarAgora();
    m.parar();
    const itens = await itensDoUsuario(banco, funcionario.id);
    // No answer at all (no signal): nothing counted against the items, no growing wait.
    expect(itens.map((i) => [i.estado, i.tentativas, i.proximaTentativaEm])).toEqual([
      ['pendente', 0, null],
      ['pendente', 0, null],
    ]);
    expect(m.estado().online).toBe(false);
  });

  it('uma recusa fica marcada com a mensagem em pt-BR do servidor e o resto do lote segue', async () => {
    const boas = await enfileirarVendas(1);
    await enfileirar(banco, {
      tipo: 'venda.salvar',
      usuarioId: funcionario.id,
      dados: { id: uuidv7(), rota_id: rotaId, cidade_id: 5211503, data_venda: dia, valor_dinheiro: 500, valor_pix: 0, valor_cartao: 0, valor_link: 0, valor_boletos: 0, observacoes: '', registrado_em: new Date().toISOString() },
      chaves: ['venda:fora'],
      descricao: 'Fora da rota',
    });
    const depois = await enfileirarVendas(1);
    const m = motor();
    await m.sincronizarAgora();
    m.parar();
    const restantes = await itensDoUsuario(banco, funcionario.id);
    expect(restantes.map((i) => [i.descricao, i.estado, i.erro])).toEqual([['Fora da rota', 'erro', 'Esta cidade não faz parte da rota.']]);
    expect(vendasNoServidor([...boas, ...depois])).toBe(2);
  });

  it('token recusado (401) pausa a fila e não altera nada', async () => {
    const ids = await enfileirarVendas(1);
    const m = motor(LIMITES_LOTE, 'token.invalido.x');
    await m.sincronizarAgora();
    m.parar();
    expect(m.estado().pausadoPorSessao).toBe(true);
    expect((await itensDoUsuario(banco, funcionario.id))[0]).toMatchObject({ estado: 'pendente', tentativas: 0 });
    expect(vendasNoServidor(ids)).toBe(0);
  });

  it('500 escritas na fila chegam em poucas idas ao servidor, não em 500', async () => {
    const ids = await enfileirarVendas(500);
    const m = motor();
    await m.sincronizarAgora();
    m.parar();
    expect(await itensDoUsuario(banco, funcionario.id)).toHaveLength(0);
    expect(vendasNoServidor(ids)).toBe(500);
    expect(chamadasLote).toBe(Math.ceil(500 / LIMITES_LOTE.escritas));
    expect(chamadasLote).toBeLessThanOrEqual(3);
  }, 60_000);

  it('uma fila gravada pela versão anterior do aplicativo (60 vendas e a finalização com as chaves de todas) é atualizada e enviada inteira', async () => {
    // The outbox exactly as the previous version left it on the phone (Dexie version 1).
    const nome = `teste-fila-antiga-${++n}`;
    const antigo = new Dexie(nome);
    antigo.version(1).stores({ outbox: '++seq, &id, usuarioId, [usuarioId+estado]', sincronizados: 'id, usuarioId, recebidoEm', arquivos: 'id', cache: 'chave, usuarioId', rascunhos: 'chave, usuarioId', meta: 'chave' });
    const { id: olga, token } = await t.criarFuncionario({ nome: 'Olga Antiga' });
    const rota = await t.chamar({
      method: 'POST',
      url: '/api/rotas',
      token: await t.tokenAdmin(),
      payload: { nome: 'Rota antiga', funcionario_id: olga, tem_secretario: false, valor_aluguel: 0, data_inicio: '2026-01-01', data_fim: '2026-12-31', observacoes: '', cidades: CIDADES },
    });
    const rotaAntiga = rota.json().rota as { id: number };
    const chaves: string[] = [];
    const ids: string[] = [];
    for (let i = 0; i < 60; i++) {
      const data = somarDias(dia, -1 - Math.floor(i / 3));
      const cidade = CIDADES[i % 3]!;
      const chave = `venda:${rotaAntiga.id}:${cidade}:${data}`;
      const id = uuidv7();
      ids.push(id);
      chaves.push(chave);
      await antigo.table('outbox').add({
        id: uuidv7(),
        usuarioId: olga,
        tipo: 'venda.salvar',
        dados: { id, rota_id: rotaAntiga.id, cidade_id: cidade, data_venda: data, valor_dinheiro: 12.5, valor_pix: 0, valor_cartao: 0, valor_link: 0, valor_boletos: 1, observacoes: '', registrado_em: new Date().toISOString(), cidade_nome: 'Goiânia' },
        arquivos: [],
        chaves: [chave],
        descricao: `Fechamento ${i}`,
        estado: 'pendente',
        tentativas: 0,
        proximaTentativaEm: null,
        erro: null,
        criadoEm: new Date().toISOString(),
      });
    }
    await antigo.table('outbox').add({
      id: uuidv7(),
      usuarioId: olga,
      tipo: 'rota.finalizar',
      dados: { rota_id: rotaAntiga.id, rota_nome: 'Rota antiga' },
      arquivos: [],
      chaves: [`rota:${rotaAntiga.id}`, ...chaves],
      descricao: 'Finalizar rota Rota antiga',
      estado: 'pendente',
      tentativas: 0,
      proximaTentativaEm: null,
      erro: null,
      criadoEm: new Date().toISOString(),
    });
    antigo.close();

    // The update opens it: the finishing keeps only its own key.
    const atualizado = new BancoLocal(nome);
    await atualizado.open();
    const itens = await itensDoUsuario(atualizado, olga);
    expect(itens).toHaveLength(61);
    expect(itens.at(-1)!.chaves).toEqual([`rota:${rotaAntiga.id}`]);

    const m = new MotorSync({ banco: atualizado, operacoes, obterSessao: () => ({ usuarioId: olga, token }), agora: () => agora, esperaBaseMs: 1000 });
    await m.sincronizarAgora();
    m.parar();
    expect(await itensDoUsuario(atualizado, olga)).toHaveLength(0);
    expect(vendasNoServidor(ids)).toBe(60);
    expect((t.db.$client.prepare('select status from rotas where id = ?').get(rotaAntiga.id) as { status: string }).status).toBe('finalizada');
    const centavos = t.db.$client.prepare('select sum(dinheiro_centavos) as s from vendas where rota_id = ?').get(rotaAntiga.id) as { s: number };
    expect(centavos.s).toBe(60 * 1250);
    await atualizado.delete();
  });
});
