import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ErroApi, ErroOffline } from '../api/client';
import { buscarComCache, carregarComCache, dadosDaCarga } from './cache';
import { anotarLeiturasDeValores } from '../test/leiturasDoBanco';
import { BancoLocal, type EntradaCache } from './db';

let banco: BancoLocal;
let n = 0;
beforeEach(async () => {
  banco = new BancoLocal(`teste-cache-${++n}`);
  await banco.open();
});
afterEach(() => banco.delete());

describe('buscarComCache', () => {
  it('guarda a resposta do servidor e a devolve sem conexão, com a data', async () => {
    const online = await buscarComCache(banco, 'rota-ativa', 7, async () => ({ nome: 'Rota Sul' }));
    expect(online.origem).toBe('servidor');
    const offline = await buscarComCache(banco, 'rota-ativa', 7, async () => {
      throw new ErroOffline();
    });
    expect(offline).toMatchObject({ origem: 'cache', dados: { nome: 'Rota Sul' }, atualizadoEm: online.atualizadoEm });
  });

  it('nunca mostra os dados de outra pessoa guardados no mesmo aparelho', async () => {
    await buscarComCache(banco, 'rota-ativa', 7, async () => ({ nome: 'Rota de outro' }));
    await expect(
      buscarComCache(banco, 'rota-ativa', 8, async () => {
        throw new ErroOffline();
      }),
    ).rejects.toBeInstanceOf(ErroOffline);
  });

  it('com sinal, o pedido ao servidor não espera o conteúdo da cópia guardada sair do IndexedDB (um celular barato leva centenas de ms nisso)', async () => {
    await buscarComCache(banco, 'historico', 7, async () => Array.from({ length: 300 }, (_, i) => ({ i, texto: 'x'.repeat(100) })));
    const lidos = await anotarLeiturasDeValores(banco, 'cache', (valor) => (valor as EntradaCache).chave);
    const online = await buscarComCache(banco, 'historico', 7, async () => [{ i: 1 }]);
    expect(online).toMatchObject({ origem: 'servidor', dados: [{ i: 1 }] });
    expect(lidos).toEqual([]);
  });

  it('uma recusa do servidor não é mascarada pelo cache', async () => {
    await buscarComCache(banco, 'k', 1, async () => 1);
    await expect(
      buscarComCache(banco, 'k', 1, async () => {
        throw new ErroApi(403, 'Sem permissão');
      }),
    ).rejects.toBeInstanceOf(ErroApi);
  });
});

describe('carregarComCache', () => {
  const semRede = async (): Promise<string[]> => {
    throw new ErroOffline();
  };

  it('sem conexão e sem cópia no aparelho: diz que falta (a tela explica), sem dados', async () => {
    const carga = await carregarComCache(banco, 'lista', 1, semRede, [], 'a lista');
    expect(carga).toEqual({ semDados: 'offline' });
    expect(dadosDaCarga(carga)).toBeUndefined();
  });

  it('sem conexão com cópia: a cópia, com a data em que veio do servidor e até qual confirmação ela inclui', async () => {
    const online = await carregarComCache(banco, 'lista', 1, async () => ['a'], [], 'a lista');
    const offline = await carregarComCache(banco, 'lista', 1, semRede, [], 'a lista');
    expect(offline).toEqual({ dados: ['a'], origem: 'cache', atualizadoEm: (online as { atualizadoEm: string }).atualizadoEm, confirmacoesAte: 0 });
  });

  it('a cópia guarda o contador de confirmações de quando o pedido saiu (o que confirmar depois pode faltar nela)', async () => {
    await banco.meta.put({ chave: 'confirmacoes', valor: 7 });
    const r = await buscarComCache(banco, 'lista', 1, async () => {
      // Confirmed while the answer travels: the copy may or may not have it, so it counts as after.
      await banco.meta.put({ chave: 'confirmacoes', valor: 8 });
      return ['a'];
    });
    expect(r.confirmacoesAte).toBe(7);
    expect((await banco.cache.get('lista'))?.confirmacoesAte).toBe(7);
  });

  it('falha do servidor: registra no console e devolve o vazio (seção 8), sem usar a cópia antiga', async () => {
    await carregarComCache(banco, 'lista', 1, async () => ['velho'], [], 'a lista');
    const erro = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const carga = await carregarComCache(
      banco,
      'lista',
      1,
      async () => {
        throw new ErroApi(500, 'Erro interno');
      },
      [],
      'a lista',
    );
    expect(dadosDaCarga(carga)).toEqual([]);
    expect(erro).toHaveBeenCalledWith('Erro ao carregar a lista:', expect.any(ErroApi));
    erro.mockRestore();
  });
});
