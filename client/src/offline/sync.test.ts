import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ErroApi, ErroOffline } from '../api/client';
import { BancoLocal } from './db';
import { enfileirar, itensDoUsuario, type Operacoes } from './outbox';
import { esperaParaTentativa, MotorSync, type Sessao } from './sync';

let banco: BancoLocal;
let n = 0;
let agora: number;
let chamadas: { metodo: string; caminho: string; corpo: unknown; token: string | null | undefined }[];
let respostas: ((caminho: string) => unknown)[];
let sessao: Sessao | null;

const operacoes: Operacoes = {
  'teste.enviar': {
    requisicao: (dados) => ({ metodo: 'POST', caminho: `/itens/${(dados as { nome: string }).nome}`, corpo: dados }),
    recebidoEm: (r) => (r as { recebido_em?: string } | undefined)?.recebido_em,
  },
};

function criarMotor() {
  return new MotorSync({
    banco,
    operacoes,
    obterSessao: () => sessao,
    agora: () => agora,
    esperaBaseMs: 1000,
    esperaMaximaMs: 8000,
    enviar: async (metodo, caminho, { corpo, token }) => {
      chamadas.push({ metodo, caminho, corpo, token });
      const proxima = respostas.shift();
      return proxima ? proxima(caminho) : { recebido_em: '2026-11-22T17:32:00.000Z' };
    },
  });
}

const enfileirarNome = (nome: string, chaves = [`item:${nome}`], usuarioId = 1, tipo = 'teste.enviar') =>
  enfileirar(banco, { tipo, usuarioId, dados: { nome }, chaves, descricao: `Item ${nome}` });

beforeEach(async () => {
  banco = new BancoLocal(`teste-sync-${++n}`);
  await banco.open();
  agora = Date.UTC(2026, 10, 22, 12, 0, 0);
  chamadas = [];
  respostas = [];
  sessao = { usuarioId: 1, token: 'tok-1' };
});
afterEach(() => banco.delete());

describe('MotorSync', () => {
  it('envia os itens do dono da sessão, na ordem, com o token dele, e guarda a hora de recebimento', async () => {
    await enfileirarNome('a');
    await enfileirarNome('de-outro', ['item:x'], 2);
    await enfileirarNome('b');
    const motor = criarMotor();
    await motor.sincronizarAgora();
    expect(chamadas.map((c) => c.caminho)).toEqual(['/itens/a', '/itens/b']);
    expect(chamadas.every((c) => c.token === 'tok-1')).toBe(true);
    expect(await itensDoUsuario(banco, 1)).toHaveLength(0);
    expect(await itensDoUsuario(banco, 2)).toHaveLength(1); // waits for its owner
    const historico = await banco.sincronizados.toArray();
    expect(historico.map((h) => h.recebidoEm)).toEqual(['2026-11-22T17:32:00.000Z', '2026-11-22T17:32:00.000Z']);
    expect(motor.estado().ultimaSincronizacao).toBe(new Date(agora).toISOString());
  });

  it('sem conexão, o item fica na fila com nova tentativa mais tarde e os seguintes esperam (ordem mantida)', async () => {
    await enfileirarNome('a');
    await enfileirarNome('b');
    respostas.push(() => {
      throw new ErroOffline();
    });
    const motor = criarMotor();
    await motor.sincronizarAgora();
    motor.parar();
    expect(chamadas.map((c) => c.caminho)).toEqual(['/itens/a']);
    const [a, b] = await itensDoUsuario(banco, 1);
    expect(a).toMatchObject({ estado: 'pendente', tentativas: 1, proximaTentativaEm: agora + 1000 });
    expect(b).toMatchObject({ estado: 'pendente', tentativas: 0 });

    // Before the backoff ends nothing is sent; after it, both go, in order.
    await motor.sincronizarAgora();
    motor.parar();
    expect(chamadas).toHaveLength(1);
    agora += 1000;
    await motor.sincronizarAgora();
    expect(chamadas.map((c) => c.caminho)).toEqual(['/itens/a', '/itens/a', '/itens/b']);
    expect(await itensDoUsuario(banco, 1)).toHaveLength(0);
  });

  it('a conexão voltou ou a pessoa pediu: quem estava esperando a próxima tentativa vai na hora', async () => {
    await enfileirarNome('a');
    respostas.push(() => {
      throw new ErroOffline();
    });
    const motor = criarMotor();
    await motor.sincronizarAgora();
    expect((await itensDoUsuario(banco, 1))[0]).toMatchObject({ tentativas: 1, proximaTentativaEm: agora + 1000 });
    await motor.sincronizarAgora(); // the periodic pass respects the wait
    expect(chamadas).toHaveLength(1);
    await motor.sincronizarAgora({ ignorarEspera: true });
    motor.parar();
    expect(chamadas).toHaveLength(2);
    expect(await itensDoUsuario(banco, 1)).toHaveLength(0);
  });

  it('o evento online do navegador dispara a sincronização sem esperar', async () => {
    await enfileirarNome('a');
    respostas.push(() => {
      throw new ErroOffline();
    });
    const motor = criarMotor();
    await motor.iniciar();
    expect(chamadas).toHaveLength(1);
    window.dispatchEvent(new Event('online'));
    await new Promise((r) => setTimeout(r, 50));
    motor.parar();
    expect(chamadas).toHaveLength(2);
    expect(await itensDoUsuario(banco, 1)).toHaveLength(0);
  });

  it('erros 5xx e 429 também são passageiros: o item nunca é descartado', async () => {
    await enfileirarNome('a');
    respostas.push(() => {
      throw new ErroApi(503, 'Serviço temporariamente indisponível.');
    });
    const motor = criarMotor();
    await motor.sincronizarAgora();
    motor.parar();
    expect((await itensDoUsuario(banco, 1))[0]).toMatchObject({ estado: 'pendente', tentativas: 1 });
  });

  it('espera cresce em dobro a cada tentativa até o máximo', () => {
    expect([1, 2, 3, 4, 5, 10].map((t) => esperaParaTentativa(t, 1000, 8000))).toEqual([1000, 2000, 4000, 8000, 8000, 8000]);
  });

  it('401 pausa a fila sem mexer nos itens; depois de entrar de novo ela continua', async () => {
    await enfileirarNome('a');
    await enfileirarNome('b');
    respostas.push(() => {
      throw new ErroApi(401, 'Sessão expirada. Faça login novamente.');
    });
    const motor = criarMotor();
    await motor.sincronizarAgora();
    expect(motor.estado().pausadoPorSessao).toBe(true);
    expect(await itensDoUsuario(banco, 1)).toHaveLength(2);
    expect((await itensDoUsuario(banco, 1))[0]).toMatchObject({ estado: 'pendente', tentativas: 0 });

    await motor.sincronizarAgora(); // still paused: nothing sent
    expect(chamadas).toHaveLength(1);

    sessao = { usuarioId: 1, token: 'tok-novo' };
    await motor.retomar();
    motor.parar();
    expect(chamadas.slice(1).map((c) => [c.caminho, c.token])).toEqual([
      ['/itens/a', 'tok-novo'],
      ['/itens/b', 'tok-novo'],
    ]);
    expect(await itensDoUsuario(banco, 1)).toHaveLength(0);
  });

  it('uma recusa (409) marca "precisa de atenção" com a mensagem; itens da mesma entidade esperam, os outros seguem', async () => {
    await enfileirarNome('criar', ['despesa:1']);
    await enfileirarNome('editar', ['despesa:1']);
    await enfileirarNome('outra', ['despesa:2']);
    respostas.push(() => {
      throw new ErroApi(409, 'Esta rota já foi finalizada.');
    });
    const motor = criarMotor();
    await motor.sincronizarAgora();
    motor.parar();
    expect(chamadas.map((c) => c.caminho)).toEqual(['/itens/criar', '/itens/outra']);
    const itens = await itensDoUsuario(banco, 1);
    expect(itens.map((i) => [i.descricao, i.estado, i.erro])).toEqual([
      ['Item criar', 'erro', 'Esta rota já foi finalizada.'],
      ['Item editar', 'pendente', null],
    ]);
  });

  it('um tipo de operação desconhecido (outra versão do app) vira "precisa de atenção", nunca some', async () => {
    await enfileirarNome('velho', ['k'], 1, 'tipo.que.nao.existe');
    const motor = criarMotor();
    await motor.sincronizarAgora();
    motor.parar();
    expect(chamadas).toHaveLength(0);
    expect((await itensDoUsuario(banco, 1))[0]).toMatchObject({ estado: 'erro' });
  });

  it('chamadas simultâneas compartilham uma execução e nada é enviado duas vezes', async () => {
    for (const nome of ['a', 'b', 'c']) await enfileirarNome(nome);
    const motor = criarMotor();
    await Promise.all([motor.sincronizarAgora(), motor.sincronizarAgora(), motor.sincronizarAgora()]);
    motor.parar();
    expect(chamadas.map((c) => c.caminho)).toEqual(['/itens/a', '/itens/b', '/itens/c']);
  });

  it('sem sessão nada é enviado', async () => {
    await enfileirarNome('a');
    sessao = null;
    const motor = criarMotor();
    await motor.sincronizarAgora();
    expect(chamadas).toHaveLength(0);
  });
});
