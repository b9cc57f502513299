/**
 * The sync engine against the real API on a temporary database, over real HTTP on loopback,
 * with the connection failing in the middle of a replay.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { criarAppDeTeste, type AppDeTeste } from '../../../server/test/helper';
import { definirFetch, definirOrigemApi } from '../api/client';
import { salvarSessao } from '../auth/sessaoLocal';
import { BancoLocal } from './db';
import { enfileirar, itensDoUsuario, type Operacoes } from './outbox';
import { MotorSync } from './sync';

let t: AppDeTeste;
let tokenAdmin: string;
let ids: number[];
let banco: BancoLocal;
let n = 0;
let agora = Date.UTC(2026, 10, 22, 12);

// An idempotent write the server already has: renaming a user. Replaying it changes nothing.
const operacoes: Operacoes = {
  'usuario.renomear': {
    requisicao: (dados) => {
      const { id, nome } = dados as { id: number; nome: string };
      return { metodo: 'PATCH', caminho: `/usuarios/${id}`, corpo: { nome } };
    },
  },
};

beforeAll(async () => {
  t = await criarAppDeTeste();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const endereco = t.app.server.address() as { port: number };
  definirOrigemApi(`http://127.0.0.1:${endereco.port}`);
  tokenAdmin = await t.tokenAdmin();
  ids = [];
  for (let i = 0; i < 5; i++) ids.push((await t.criarFuncionario()).id);
});
afterAll(async () => {
  definirOrigemApi('');
  await t.fechar();
});
beforeEach(async () => {
  banco = new BancoLocal(`teste-sync-servidor-${++n}`);
  await banco.open();
  salvarSessao(tokenAdmin, { id: 1, nome: 'Administrador', email: 'a', tipo: 'admin', ativo: true, bloqueado: false, tentativas_login: 0, data_criacao: '' });
});
afterEach(async () => {
  definirFetch((...a) => fetch(...a));
  await banco.delete();
});

function motor() {
  return new MotorSync({ banco, operacoes, obterSessao: () => ({ usuarioId: 1, token: tokenAdmin }), agora: () => agora, esperaBaseMs: 1000 });
}

async function nomeNoServidor(id: number): Promise<string> {
  const r = await t.chamar({ method: 'GET', url: '/api/usuarios', token: tokenAdmin });
  return r.json().usuarios.find((u: { id: number }) => u.id === id).nome;
}

describe('MotorSync contra o servidor real', () => {
  it('a conexão cai no meio da reprodução: o resto chega depois, cada escrita exatamente como pedida', async () => {
    for (const [i, id] of ids.entries()) {
      await enfileirar(banco, { tipo: 'usuario.renomear', usuarioId: 1, dados: { id, nome: `Renomeado ${i}` }, chaves: [`usuario:${id}`], descricao: `Renomear ${i}` });
    }
    let chamadas = 0;
    let respostaPerdida = false;
    definirFetch(async (url, init) => {
      chamadas += 1;
      if (chamadas === 3 && !respostaPerdida) {
        respostaPerdida = true;
        await fetch(url, init); // the server does the write...
        throw new TypeError('Failed to fetch'); // ...but the answer never reaches the phone
      }
      return fetch(url, init);
    });

    const m = motor();
    await m.sincronizarAgora();
    m.parar();
    expect(await itensDoUsuario(banco, 1)).toHaveLength(3); // items 3, 4, 5 wait
    expect((await itensDoUsuario(banco, 1))[0]).toMatchObject({ descricao: 'Renomear 2', tentativas: 1, estado: 'pendente' });
    expect(await nomeNoServidor(ids[3]!)).not.toBe('Renomeado 3'); // order kept: nothing after the failure went

    agora += 1000;
    await m.sincronizarAgora();
    m.parar();
    expect(await itensDoUsuario(banco, 1)).toHaveLength(0);
    for (const [i, id] of ids.entries()) expect(await nomeNoServidor(id)).toBe(`Renomeado ${i}`);
    expect(await banco.sincronizados.count()).toBe(5);
  });

  it('o servidor fora do ar: tudo espera e nada se perde', async () => {
    await enfileirar(banco, { tipo: 'usuario.renomear', usuarioId: 1, dados: { id: ids[0], nome: 'Sem servidor' }, chaves: ['u'], descricao: 'x' });
    definirFetch(async () => {
      throw new TypeError('Failed to fetch');
    });
    const m = motor();
    await m.sincronizarAgora();
    m.parar();
    expect((await itensDoUsuario(banco, 1))[0]).toMatchObject({ estado: 'pendente', tentativas: 1 });
    expect(m.estado().online).toBe(false);
  });

  it('uma recusa do servidor fica marcada com a mensagem em pt-BR dele', async () => {
    await enfileirar(banco, { tipo: 'usuario.renomear', usuarioId: 1, dados: { id: ids[0], nome: 'X' }, chaves: ['u'], descricao: 'Nome curto' });
    const m = motor();
    await m.sincronizarAgora();
    m.parar();
    expect((await itensDoUsuario(banco, 1))[0]).toMatchObject({ estado: 'erro', erro: 'Nome deve ter pelo menos 2 caracteres.' });
  });

  it('token recusado (401) pausa a fila e não altera nada', async () => {
    await enfileirar(banco, { tipo: 'usuario.renomear', usuarioId: 1, dados: { id: ids[1], nome: 'Pausado' }, chaves: ['u'], descricao: 'x' });
    const m = new MotorSync({ banco, operacoes, obterSessao: () => ({ usuarioId: 1, token: 'token.invalido.x' }), agora: () => agora });
    await m.sincronizarAgora();
    m.parar();
    expect(m.estado().pausadoPorSessao).toBe(true);
    expect((await itensDoUsuario(banco, 1))[0]).toMatchObject({ estado: 'pendente', tentativas: 0 });
    expect(await nomeNoServidor(ids[1]!)).not.toBe('Pausado');
  });
});
