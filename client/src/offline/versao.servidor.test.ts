/**
 * The phone's report and the minimum version, end to end against the real API (real HTTP on
 * loopback): the headers every request carries, a 426 that pauses the queue without losing anything,
 * and the queue going again after the update (or when the server accepts this version again).
 */
import { v7 as uuidv7 } from 'uuid';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hoje, somarDias } from '../../../shared/dates';
import type { CelularComFila } from '../../../shared/schemas/dispositivos';
import type { AppDeTeste } from '../../../server/test/helper';
import { api, definirFetch } from '../api/client';
import { salvarSessao } from '../auth/sessaoLocal';
import { fecharApiReal, iniciarApiReal } from '../test/apiReal';
import { definirVersaoAppParaTeste, versaoApp } from '../versaoApp';
import { BancoLocal } from './db';
import { cabecalhosDoDispositivo, CHAVE_DISPOSITIVO, iniciarRelatorioDoDispositivo } from './dispositivo';
import { operacoes as registradas } from '.';
import './operacoes';
import { enfileirar, itensDoUsuario, type Operacoes } from './outbox';
import { MotorSync } from './sync';

let t: AppDeTeste;
let funcionario: { id: number; token: string };
let rotaId: number;
let banco: BancoLocal;
let pararRelatorio: () => void;
let n = 0;
let pedidos: { url: string; cabecalhos: Record<string, string> }[];
const CIDADES = [5208707, 5201108, 5204508];
const dia = hoje('America/Sao_Paulo');

const operacoes: Operacoes = registradas;

beforeAll(async () => {
  // The client under test is 0.1.0 (package.json, through vite's define); the server wants 0.2.0.
  ({ t, funcionario, rotaId } = await iniciarApiReal({ env: { VERSAO_MINIMA_APP: '0.2.0' }, funcionario: 'Vera Versão', rota: 'Rota Versão', cidades: CIDADES }));
});
afterAll(() => fecharApiReal(t));
beforeEach(async () => {
  banco = new BancoLocal(`teste-versao-${++n}`);
  await banco.open();
  t.config.versaoMinimaApp = '0.2.0';
  salvarSessao(funcionario.token, { id: funcionario.id, nome: 'Vera Versão', email: 'vera@teste.com.br', tipo: 'funcionario', ativo: true } as never);
  pedidos = [];
  definirFetch(async (url, init) => {
    pedidos.push({ url: String(url), cabecalhos: { ...(init?.headers as Record<string, string>) } });
    return fetch(url, init);
  });
  pararRelatorio = iniciarRelatorioDoDispositivo(banco);
  // The install id is read (or made) asynchronously: wait for it before the first request.
  await expect.poll(async () => (await banco.meta.get(CHAVE_DISPOSITIVO))?.valor).toBeTypeOf('string');
});
afterEach(async () => {
  pararRelatorio();
  definirVersaoAppParaTeste(null);
  definirFetch((...a) => fetch(...a));
  await banco.delete();
});

let diaSeq = 0;
async function enfileirarVenda(criadoHaMs = 0) {
  const data = somarDias(dia, -1 - diaSeq++);
  const item = await enfileirar(banco, {
    tipo: 'venda.salvar',
    usuarioId: funcionario.id,
    dados: { id: uuidv7(), rota_id: rotaId, cidade_id: CIDADES[0], data_venda: data, valor_dinheiro: 10, valor_pix: 0, valor_cartao: 0, valor_link: 0, valor_boletos: 0, observacoes: '', registrado_em: new Date().toISOString() },
    chaves: [`venda:${data}`],
    descricao: `Venda ${data}`,
  });
  if (criadoHaMs) await banco.outbox.where('id').equals(item.id).modify({ criadoEm: new Date(Date.now() - criadoHaMs).toISOString() });
}

const motor = () => new MotorSync({ banco, operacoes, obterSessao: () => ({ usuarioId: funcionario.id, token: funcionario.token }), esperaBaseMs: 1000 });
const lotes = () => pedidos.filter((p) => p.url.endsWith('/api/sync/lote'));
const vendasNoServidor = () => (t.db.$client.prepare('select count(*) as n from vendas where funcionario_id = ?').get(funcionario.id) as { n: number }).n;

/** This test's phone (each test is a new install) as the admin dashboard lists it. */
async function celularDaVera(): Promise<CelularComFila | undefined> {
  const r = await t.chamar({ method: 'GET', url: '/api/relatorios/dashboard-admin', token: await t.tokenAdmin() });
  const id = (await banco.meta.get(CHAVE_DISPOSITIVO))!.valor;
  return (r.json().celulares as CelularComFila[]).find((c) => c.funcionario_id === funcionario.id && c.dispositivo_id === id);
}

describe('versão mínima e relato do celular, contra o servidor de verdade', () => {
  it('cada requisição leva a versão e o relato da fila; 426 pausa a fila sem descartar nada; o admin vê o que espera no celular', async () => {
    const antes = vendasNoServidor();
    await enfileirarVenda(26 * 3600_000);
    await enfileirarVenda();
    // The in-memory summary (a liveQuery) catches up with the queue.
    await expect.poll(() => cabecalhosDoDispositivo(funcionario.id)['X-Fila']).toBe('venda=2;visita=0;despesa=0;rota=0');
    const m = motor();
    await m.sincronizarAgora();
    m.parar();

    expect(m.estado().atualizacaoNecessaria).toBe(true);
    expect(lotes()).toHaveLength(1);
    const cabecalhos = lotes()[0]!.cabecalhos;
    expect(cabecalhos['X-Versao-App']).toBe(versaoApp());
    expect(versaoApp()).toBe('0.1.0');
    expect(cabecalhos['X-Dispositivo']).toBe((await banco.meta.get(CHAVE_DISPOSITIVO))!.valor);
    expect(cabecalhos['X-Fila']).toBe('venda=2;visita=0;despesa=0;rota=0');
    expect(Number(cabecalhos['X-Fila-Idade'])).toBeGreaterThanOrEqual(26 * 3600);
    // Nothing discarded, nothing marked: the items wait as they were.
    const itens = await itensDoUsuario(banco, funcionario.id);
    expect(itens.map((i) => [i.estado, i.tentativas, i.erro])).toEqual([
      ['pendente', 0, null],
      ['pendente', 0, null],
    ]);
    expect(vendasNoServidor()).toBe(antes);

    // The admin sees it, flagged as an old version, with the oldest item's age.
    const celular = await celularDaVera();
    expect(celular).toMatchObject({ versao: '0.1.0', versao_antiga: true, fila: { venda: 2, visita: 0, despesa: 0, rota: 0 } });
    expect(Date.now() - Date.parse(celular!.mais_antigo_em!)).toBeGreaterThan(24 * 3600_000);

    // Still paused: the next pass only asks the server's minimum, it does not send the queue again.
    await m.sincronizarAgora({ ignorarEspera: true });
    expect(lotes()).toHaveLength(1);
    expect(pedidos.at(-1)!.url).toMatch(/\/api\/config$/);
  });

  it('depois da atualização (outra versão do aplicativo) a mesma fila é enviada, e o celular some da lista do admin', async () => {
    const antes = vendasNoServidor();
    await enfileirarVenda();
    const m = motor();
    await m.sincronizarAgora();
    expect(m.estado().atualizacaoNecessaria).toBe(true);
    expect(await itensDoUsuario(banco, funcionario.id)).toHaveLength(1);

    definirVersaoAppParaTeste('0.2.0'); // the new build is running
    await m.sincronizarAgora();
    m.parar();
    expect(m.estado().atualizacaoNecessaria).toBe(false);
    expect(lotes().map((l) => l.cabecalhos['X-Versao-App'])).toEqual(['0.1.0', '0.2.0']);
    expect(await itensDoUsuario(banco, funcionario.id)).toHaveLength(0);
    expect(vendasNoServidor()).toBe(antes + 1);

    // The next contact reports an empty queue: nothing left on the phone for the admin to see.
    expect(await celularDaVera()).toBeDefined();
    await expect.poll(() => cabecalhosDoDispositivo(funcionario.id)['X-Fila']).toBe('venda=0;visita=0;despesa=0;rota=0');
    await api.get('/rotas/ativas/funcionario');
    expect(await celularDaVera()).toBeUndefined();
  });

  it('se o servidor voltar a aceitar esta versão, a fila segue sem atualizar; sem resposta do servidor, continua pausada', async () => {
    await enfileirarVenda();
    const m = motor();
    await m.sincronizarAgora();
    expect(m.estado().atualizacaoNecessaria).toBe(true);

    definirFetch(async () => {
      throw new TypeError('Failed to fetch');
    });
    await m.sincronizarAgora();
    expect(m.estado().atualizacaoNecessaria).toBe(true);

    definirFetch(async (url, init) => {
      pedidos.push({ url: String(url), cabecalhos: { ...(init?.headers as Record<string, string>) } });
      return fetch(url, init);
    });
    t.config.versaoMinimaApp = '0.1.0';
    await m.sincronizarAgora();
    m.parar();
    expect(m.estado().atualizacaoNecessaria).toBe(false);
    expect(await itensDoUsuario(banco, funcionario.id)).toHaveLength(0);
  });
});
