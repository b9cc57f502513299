/**
 * Finishing a route through the outbox, replayed by the sync engine against the real API on a
 * temporary database: after the route's earlier queued writes, held back by a refused one,
 * offline until the connection returns, and refused with the server's message when cancelled.
 */
import { v7 as uuidv7 } from 'uuid';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hoje } from '../../../shared/dates';
import type { Rota } from '../../../shared/schemas/rotas';
import { criarAppDeTeste, type AppDeTeste } from '../../../server/test/helper';
import { definirFetch, definirOrigemApi } from '../api/client';
import { operacoes as registradas } from '../offline';
import '../offline/operacoes';
import { BancoLocal } from '../offline/db';
import { descartarItem, enfileirar, itensDoUsuario, type Operacoes } from '../offline/outbox';
import { MotorSync } from '../offline/sync';
import { enfileirarFinalizacao, finalizacoesConfirmadas, OPERACAO_FINALIZAR_ROTA } from './operacoes';

const GOIANIA = 5208707;
const ANAPOLIS = 5201108;
const SAO_PAULO = 3550308;

let t: AppDeTeste;
let banco: BancoLocal;
let n = 0;
let funcionario: { id: number; token: string };
let rota: Rota;
let agora = Date.UTC(2026, 10, 22, 12);

// The app's own registry (a visit stands for the route's earlier writes: sales and expenses carry rota_id the same way).
const operacoes: Operacoes = registradas;

beforeAll(async () => {
  t = await criarAppDeTeste();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  definirOrigemApi(`http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`);
});
afterAll(async () => {
  definirOrigemApi('');
  await t.fechar();
});
beforeEach(async () => {
  banco = new BancoLocal(`teste-rotas-servidor-${++n}`);
  await banco.open();
  const f = await t.criarFuncionario();
  funcionario = { id: f.id, token: f.token };
  const r = await t.chamar({
    method: 'POST',
    url: '/api/rotas',
    token: await t.tokenAdmin(),
    payload: { nome: `Rota Sul ${n}`, funcionario_id: f.id, data_inicio: '2026-11-01', data_fim: '2026-11-30', cidades: [GOIANIA, ANAPOLIS] },
  });
  rota = r.json().rota;
});
afterEach(async () => {
  definirFetch((...a) => fetch(...a));
  await banco.delete();
});

function motor() {
  return new MotorSync({ banco, operacoes, obterSessao: () => ({ usuarioId: funcionario.id, token: funcionario.token }), agora: () => agora, esperaBaseMs: 1000 });
}

async function sincronizar() {
  const m = motor();
  await m.sincronizarAgora();
  m.parar();
}

function enfileirarVisita(cidadeId: number) {
  const id = uuidv7();
  return enfileirar(banco, {
    tipo: 'visita.registrar',
    usuarioId: funcionario.id,
    dados: { id, rota_id: rota.id, cidade_id: cidadeId, data: hoje(t.config.appTz), registrado_em: new Date().toISOString() },
    chaves: [`venda:${rota.id}:${cidadeId}:${hoje(t.config.appTz)}`],
    descricao: 'Visita',
  });
}

async function statusNoServidor(): Promise<string> {
  const r = await t.chamar({ method: 'GET', url: `/api/rotas/${rota.id}`, token: funcionario.token });
  return r.json().rota.status;
}

describe('finalizar rota pela fila', () => {
  it('chega ao servidor depois das escritas da rota enfileiradas antes, e o histórico guarda a hora do servidor', async () => {
    const visita = await enfileirarVisita(GOIANIA);
    const item = await enfileirarFinalizacao(banco, rota, funcionario.id);
    expect(item).toMatchObject({ tipo: OPERACAO_FINALIZAR_ROTA, descricao: `Finalizar rota ${rota.nome}`, dados: { rota_id: rota.id } });
    // Its own key only: what it waits for comes from the registry, however many writes the route has.
    expect(item.chaves).toEqual([`rota:${rota.id}`]);
    expect(visita.chaves).toHaveLength(1);

    await sincronizar();
    expect(await itensDoUsuario(banco, funcionario.id)).toEqual([]);
    expect(await statusNoServidor()).toBe('finalizada');
    const status = await t.chamar({ method: 'GET', url: `/api/rotas/${rota.id}/cidades-status`, token: funcionario.token });
    expect(status.json().cidades.find((c: { cidade_id: number }) => c.cidade_id === GOIANIA).visitada).toBe(true);

    const historico = await banco.sincronizados.toArray();
    const finalizacao = historico.find((h) => h.tipo === OPERACAO_FINALIZAR_ROTA)!;
    const lida = (await t.chamar({ method: 'GET', url: `/api/rotas/${rota.id}`, token: funcionario.token })).json().rota as Rota;
    expect(finalizacao.recebidoEm).toBe(lida.finalizada_em);
    expect(finalizacoesConfirmadas(historico)).toEqual(new Set([rota.id]));
  });

  it('uma escrita recusada da mesma rota segura a finalização até a pessoa resolver', async () => {
    const recusada = await enfileirarVisita(SAO_PAULO); // not on the route: 422
    await enfileirarFinalizacao(banco, rota, funcionario.id);
    await sincronizar();
    const [primeiro, segundo] = await itensDoUsuario(banco, funcionario.id);
    expect(primeiro).toMatchObject({ id: recusada.id, estado: 'erro', erro: 'Esta cidade não faz parte da rota.' });
    expect(segundo).toMatchObject({ tipo: OPERACAO_FINALIZAR_ROTA, estado: 'pendente', tentativas: 0 });
    expect(await statusNoServidor()).toBe('ativa');

    await descartarItem(banco, recusada.id);
    await sincronizar();
    expect(await itensDoUsuario(banco, funcionario.id)).toEqual([]);
    expect(await statusNoServidor()).toBe('finalizada');
  });

  it('sem conexão fica na fila; volta a conexão e a rota é finalizada uma vez só', async () => {
    await enfileirarFinalizacao(banco, rota, funcionario.id);
    definirFetch(async () => {
      throw new TypeError('Failed to fetch');
    });
    await sincronizar();
    // No signal is no attempt: the wait does not grow while the phone is out of coverage.
    expect((await itensDoUsuario(banco, funcionario.id))[0]).toMatchObject({ estado: 'pendente', tentativas: 0 });
    expect(await statusNoServidor()).toBe('ativa');

    // The server finishes it but the answer is lost; the replay is answered with the same route.
    let perdida = false;
    definirFetch(async (url, init) => {
      const resposta = await fetch(url, init);
      if (!perdida) {
        perdida = true;
        throw new TypeError('Failed to fetch');
      }
      return resposta;
    });
    agora += 2000;
    await sincronizar();
    expect(await statusNoServidor()).toBe('finalizada');
    const depoisDaPerda = (await t.chamar({ method: 'GET', url: `/api/rotas/${rota.id}`, token: funcionario.token })).json().rota.finalizada_em;
    agora += 4000;
    await sincronizar();
    expect(await itensDoUsuario(banco, funcionario.id)).toEqual([]);
    expect((await t.chamar({ method: 'GET', url: `/api/rotas/${rota.id}`, token: funcionario.token })).json().rota.finalizada_em).toBe(depoisDaPerda);
  });

  it('rota cancelada pelo admin: a finalização fica "precisa de atenção" com a mensagem do servidor', async () => {
    await enfileirarFinalizacao(banco, rota, funcionario.id);
    await t.chamar({ method: 'PATCH', url: `/api/rotas/${rota.id}/cancelar`, token: await t.tokenAdmin() });
    await sincronizar();
    expect((await itensDoUsuario(banco, funcionario.id))[0]).toMatchObject({
      estado: 'erro',
      erro: 'Esta rota foi cancelada pelo administrador e não pode ser finalizada. As vendas, visitas e despesas feitas até o dia do cancelamento continuam sendo aceitas.',
    });
    expect(await statusNoServidor()).toBe('cancelada');
  });

  it('um registro ilegível (de outra versão) é marcado para a pessoa decidir, sem ir ao servidor', async () => {
    await enfileirar(banco, { tipo: OPERACAO_FINALIZAR_ROTA, usuarioId: funcionario.id, dados: { rota: 'x' }, chaves: ['rota:x'], descricao: 'Antigo' });
    await sincronizar();
    expect((await itensDoUsuario(banco, funcionario.id))[0]).toMatchObject({
      estado: 'erro',
      erro: 'Registro de finalização ilegível. Descarte-o e finalize a rota de novo.',
    });
    expect(await statusNoServidor()).toBe('ativa');
  });
});
