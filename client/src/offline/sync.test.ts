import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Retencoes } from '../../../shared/sync/operacoes';
import { ErroApi, ErroOffline } from '../api/client';
import { BancoLocal } from './db';
import { lerEscritas } from './escritas';
import { enfileirar, itensDoUsuario, type Operacoes } from './outbox';
import { esperaParaTentativa, MotorSync, semEnvioEmCurso, TRAVA_SYNC, type Sessao } from './sync';
import type { ResultadoEnvio, Transporte } from './transporte';

let banco: BancoLocal;
let n = 0;
let agora: number;
/** Each operation the fake server received, in order (its item's name), with the token and device. */
let chamadas: { caminho: string; token: string | null | undefined; cliente: string }[];
/** What the fake server does with each request, in turn: throw (the request fails) or refuse some items by name. */
let respostas: (() => Record<string, { status: number; corpo?: unknown }> | void)[];
let sessao: Sessao | null;

// A kind only these tests know: the engine holds it back by the keys stored on the item.
const operacoes: Operacoes = { 'teste.enviar': { paraEnvio: (dados) => dados as never } };

/** A server that answers each operation on its own, holding later ones on a refused entity. */
const nomeDe = (dados: unknown) => (dados as { nome: string }).nome;

const servidorFalso: Transporte = async (envios, token, cliente) => {
  for (const { item } of envios) chamadas.push({ caminho: `/itens/${nomeDe(item.dados)}`, token, cliente });
  const resposta = respostas.shift()?.();
  const retencoes = new Retencoes();
  const resultados: ResultadoEnvio[] = [];
  for (const { item } of envios) {
    const nome = nomeDe(item.dados);
    const retencao = { espera: item.chaves, retem: item.chaves };
    if (retencoes.retida(retencao)) {
      resultados.push({ id: item.id, status: 'retido' });
      continue;
    }
    const recusa = resposta?.[nome];
    if (recusa) {
      retencoes.reter(retencao);
      resultados.push({ id: item.id, ...recusa });
      continue;
    }
    resultados.push({ id: item.id, status: 201, recebido_em: '2026-11-22T17:32:00.000Z' });
  }
  return resultados;
};

function criarMotor(extra: Partial<ConstructorParameters<typeof MotorSync>[0]> = {}) {
  return new MotorSync({
    banco,
    operacoes,
    obterSessao: () => sessao,
    agora: () => agora,
    esperaBaseMs: 1000,
    esperaMaximaMs: 8000,
    transporte: servidorFalso,
    obterClienteId: async () => 'aparelho-teste',
    travas: null,
    ...extra,
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
    expect(chamadas.every((c) => c.token === 'tok-1' && c.cliente === 'aparelho-teste')).toBe(true);
    expect(await itensDoUsuario(banco, 1)).toHaveLength(0);
    expect(await itensDoUsuario(banco, 2)).toHaveLength(1); // waits for its owner
    const historico = await banco.sincronizados.toArray();
    expect(historico.map((h) => h.recebidoEm)).toEqual(['2026-11-22T17:32:00.000Z', '2026-11-22T17:32:00.000Z']);
    expect(motor.estado().ultimaSincronizacao).toBe(new Date(agora).toISOString());
  });

  it('sem resposta a tempo, o item fica na fila com nova tentativa mais tarde e os seguintes esperam (ordem mantida)', async () => {
    await enfileirarNome('a');
    await enfileirarNome('b');
    respostas.push(() => {
      throw new ErroOffline('O servidor demorou demais para responder.', true);
    });
    const motor = criarMotor();
    await motor.sincronizarAgora();
    motor.parar();
    expect(chamadas.map((c) => c.caminho)).toEqual(['/itens/a', '/itens/b']); // one batch, lost
    const [a, b] = await itensDoUsuario(banco, 1);
    expect(a).toMatchObject({ estado: 'pendente', tentativas: 1, proximaTentativaEm: agora + 1000 });
    expect(b).toMatchObject({ estado: 'pendente', tentativas: 0 });

    // Before the backoff ends nothing is sent; after it, both go, in order.
    await motor.sincronizarAgora();
    motor.parar();
    expect(chamadas).toHaveLength(2);
    agora += 1000;
    await motor.sincronizarAgora();
    expect(chamadas.map((c) => c.caminho)).toEqual(['/itens/a', '/itens/b', '/itens/a', '/itens/b']);
    expect(await itensDoUsuario(banco, 1)).toHaveLength(0);
  });

  it('a conexão voltou ou a pessoa pediu: quem estava esperando a próxima tentativa vai na hora', async () => {
    await enfileirarNome('a');
    respostas.push(() => {
      throw new ErroOffline('O servidor demorou demais para responder.', true);
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

  it('429 do limite por usuário: a fila longa espera o Retry-After do servidor e continua, sem recusar nenhuma escrita', async () => {
    for (const nome of ['a', 'b', 'c']) await enfileirarNome(nome);
    respostas.push(() => {
      throw new ErroApi(429, 'Muitas requisições em pouco tempo. Aguarde 42 segundos e tente novamente.', 'muitas_tentativas', 42);
    });
    const motor = criarMotor();
    await motor.sincronizarAgora();
    const [primeiro, ...resto] = await itensDoUsuario(banco, 1);
    // Not the 1 s backoff of a first failure: the 42 s the server asked for. Nothing is marked refused.
    expect(primeiro).toMatchObject({ estado: 'pendente', tentativas: 1, proximaTentativaEm: agora + 42_000 });
    expect(resto.every((i) => i.estado === 'pendente')).toBe(true);
    agora += 42_000;
    await motor.sincronizarAgora();
    motor.parar();
    expect(await itensDoUsuario(banco, 1)).toHaveLength(0);
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
    expect(chamadas).toHaveLength(2);

    sessao = { usuarioId: 1, token: 'tok-novo' };
    await motor.retomar();
    motor.parar();
    expect(chamadas.slice(2).map((c) => [c.caminho, c.token])).toEqual([
      ['/itens/a', 'tok-novo'],
      ['/itens/b', 'tok-novo'],
    ]);
    expect(await itensDoUsuario(banco, 1)).toHaveLength(0);
  });

  it('uma recusa (409) marca "precisa de atenção" com a mensagem; itens da mesma entidade esperam, os outros seguem', async () => {
    await enfileirarNome('criar', ['despesa:1']);
    await enfileirarNome('editar', ['despesa:1']);
    await enfileirarNome('outra', ['despesa:2']);
    respostas.push(() => ({ criar: { status: 409, corpo: { error: 'Esta rota já foi finalizada.' } } }));
    const motor = criarMotor();
    await motor.sincronizarAgora();
    motor.parar();
    // One batch; the server held the edit behind the refused create, and the next pass does not send it.
    expect(chamadas.map((c) => c.caminho)).toEqual(['/itens/criar', '/itens/editar', '/itens/outra']);
    const itens = await itensDoUsuario(banco, 1);
    expect(itens.map((i) => [i.descricao, i.estado, i.erro])).toEqual([
      ['Item criar', 'erro', 'Esta rota já foi finalizada.'],
      ['Item editar', 'pendente', null],
    ]);
  });

  it('202 chegou_depois_da_finalizacao: sai da fila (o servidor guardou), fica no histórico como tardia e nunca vai para as telas', async () => {
    await enfileirarNome('tardia', ['venda:1']);
    await enfileirarNome('normal', ['venda:2']);
    respostas.push(() => ({ tardia: { status: 202, situacao: 'chegou_depois_da_finalizacao', recebido_em: '2026-11-22T17:40:00.000Z' } as never }));
    const motor = criarMotor();
    await motor.sincronizarAgora();
    motor.parar();
    expect(await itensDoUsuario(banco, 1)).toEqual([]);
    const historico = await banco.sincronizados.toArray();
    expect(historico.map((h) => [h.descricao, h.tardia ?? false]).sort()).toEqual([
      ['Item normal', false],
      ['Item tardia', true],
    ]);
    // Kept by the server for the admin, it is in no copy: the screens lay only the applied one over theirs.
    const { confirmadas } = await lerEscritas(banco, 1);
    expect(confirmadas.map((c) => c.descricao)).toEqual(['Item normal']);
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

  it('um pedido recusado inteiro (413 de um proxy) é dividido até a recusa cair no item que a causa; os outros chegam', async () => {
    for (const nome of ['a', 'b', 'ruim', 'c', 'd']) await enfileirarNome(nome);
    // The proxy refuses any request carrying the big item, whatever else is in it.
    const proxy: Transporte = async (envios, token, cliente) => {
      if (envios.some((e) => (e.item.dados as { nome: string }).nome === 'ruim')) {
        chamadas.push({ caminho: `lote de ${envios.length}`, token, cliente });
        throw new ErroApi(413, 'O envio é grande demais para o servidor.');
      }
      return servidorFalso(envios, token, cliente);
    };
    const motor = criarMotor({ transporte: proxy });
    await motor.sincronizarAgora();
    motor.parar();
    const itens = await itensDoUsuario(banco, 1);
    expect(itens.map((i) => [i.descricao, i.estado, i.erro])).toEqual([['Item ruim', 'erro', 'O envio é grande demais para o servidor.']]);
    expect((await banco.sincronizados.toArray()).map((h) => h.descricao).sort()).toEqual(['Item a', 'Item b', 'Item c', 'Item d']);
  });

  it('um conflito de versão guarda os dois valores no item, para a pessoa escolher', async () => {
    await enfileirarNome('venda');
    const conflito = { versao_atual: 4, servidor: { valor_dinheiro: 100 }, enviado: { valor_dinheiro: 250 } };
    respostas.push(() => ({ venda: { status: 409, corpo: { error: 'Este fechamento foi alterado em outro aparelho.', codigo: 'conflito_de_versao', conflito } } }));
    const motor = criarMotor();
    await motor.sincronizarAgora();
    motor.parar();
    expect((await itensDoUsuario(banco, 1))[0]).toMatchObject({ estado: 'erro', conflito });
  });

  it('uma aba só envia: com a trava da sincronização em outra aba, esta não manda nada; livre, manda', async () => {
    await enfileirarNome('a');
    let ocupada = true;
    const pedidos: { nome: string; opcoes: LockOptions }[] = [];
    const travas = {
      request: (async (nome: string, opcoes: LockOptions, fn: (trava: Lock | null) => Promise<unknown>) => {
        pedidos.push({ nome, opcoes });
        return fn(ocupada ? null : ({ name: nome, mode: 'exclusive' } as Lock));
      }) as unknown as LockManager['request'],
    };
    const motor = criarMotor({ travas });
    await motor.sincronizarAgora();
    expect(chamadas).toHaveLength(0);
    expect(pedidos).toEqual([{ nome: TRAVA_SYNC, opcoes: { ifAvailable: true } }]);
    ocupada = false;
    await motor.sincronizarAgora();
    motor.parar();
    expect(chamadas.map((c) => c.caminho)).toEqual(['/itens/a']);
  });

  it('semEnvioEmCurso: mexer num item da fila espera o envio em curso terminar (a mesma trava), e o envio seguinte espera a mudança', async () => {
    await enfileirarNome('a');
    // A lock manager as the browser's: one holder at a time, the others queue (or skip, with ifAvailable).
    let fila = Promise.resolve();
    let ocupada = false;
    const travas = {
      request: (async (nome: string, opcoesOuFn: LockOptions | ((t: Lock | null) => Promise<unknown>), talvezFn?: (t: Lock | null) => Promise<unknown>) => {
        const fn = (typeof opcoesOuFn === 'function' ? opcoesOuFn : talvezFn)!;
        if (typeof opcoesOuFn === 'object' && opcoesOuFn.ifAvailable && ocupada) return fn(null);
        const vez = fila.then(async () => {
          ocupada = true;
          try {
            return await fn({ name: nome, mode: 'exclusive' } as Lock);
          } finally {
            ocupada = false;
          }
        });
        fila = vez.then(() => undefined, () => undefined);
        return vez;
      }) as unknown as LockManager['request'],
    };
    const ordem: string[] = [];
    let liberarResposta!: () => void;
    const respostaPresa = new Promise<void>((r) => (liberarResposta = r));
    const motor = criarMotor({
      travas,
      transporte: async (envios, token, cliente) => {
        ordem.push('pedido saiu');
        await respostaPresa;
        ordem.push('resposta chegou');
        return servidorFalso(envios, token, cliente);
      },
    });
    const passada = motor.sincronizarAgora();
    await expect.poll(() => ordem).toEqual(['pedido saiu']);
    const mudanca = semEnvioEmCurso(async () => {
      ordem.push('mudança na fila');
    }, travas);
    liberarResposta();
    await Promise.all([passada, mudanca]);
    motor.parar();
    expect(ordem).toEqual(['pedido saiu', 'resposta chegou', 'mudança na fila']);
  });

  it('mostra o progresso de uma fila longa ("Enviando 2 de 5") e os itens de outro usuário que esperam neste aparelho', async () => {
    for (const nome of ['a', 'b', 'c', 'd', 'e']) await enfileirarNome(nome);
    await enfileirarNome('dela', ['item:dela'], 2);
    const motor = criarMotor({ limites: { escritas: 2, arquivos: 10, bytes: 1e9 } });
    const vistos: string[] = [];
    motor.assinar(() => {
      const p = motor.estado().progresso;
      const texto = p ? `${p.enviados}/${p.total}` : '-';
      if (vistos.at(-1) !== texto) vistos.push(texto);
    });
    await motor.sincronizarAgora();
    expect(vistos).toEqual(['0/5', '2/5', '4/5', '5/5', '-']);
    motor.acompanharContagem();
    await new Promise<void>((fim) => {
      const parar = motor.assinar(() => {
        if (motor.estado().deOutrosUsuarios === 1) {
          parar();
          fim();
        }
      });
      if (motor.estado().deOutrosUsuarios === 1) fim();
    });
    motor.parar();
    expect(motor.estado()).toMatchObject({ pendentes: 0, deOutrosUsuarios: 1 });
  });
});

describe('foraDaPassada (o "Desfazer" de um registro recém-feito)', () => {
  it('sem passada, roda na hora; com uma passada que não termina na espera, não roda e diz false; terminada, roda', async () => {
    let soltar: () => void = () => undefined;
    const presa = new Promise<void>((r) => (soltar = r));
    const motor = criarMotor({
      transporte: async (envios, ...resto) => {
        await presa;
        return servidorFalso(envios, ...resto);
      },
    });
    let rodou = 0;
    expect(await motor.foraDaPassada(async () => void rodou++)).toBe(true);
    await enfileirarNome('a');
    const passada = motor.sincronizarAgora();
    expect(await motor.foraDaPassada(async () => void rodou++, 20)).toBe(false);
    expect(rodou).toBe(1);
    // The pass ends while the undo waits for it: it runs then.
    const esperando = motor.foraDaPassada(async () => void rodou++, 5000);
    soltar();
    expect(await esperando).toBe(true);
    await passada;
    expect(rodou).toBe(2);
  });

  it('com a trava de outra aba ocupada durante toda a espera, não roda', async () => {
    const motor = criarMotor({
      travas: { request: (async (_nome: string, _opcoes: LockOptions, cb: (l: Lock | null) => Promise<unknown>) => cb(null)) as unknown as LockManager['request'] },
    });
    let rodou = false;
    expect(await motor.foraDaPassada(async () => void (rodou = true))).toBe(false);
    expect(rodou).toBe(false);
  });
});
