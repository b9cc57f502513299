import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ErroApi, ErroOffline } from '../api/client';
import { buscarComCache } from './cache';
import { BancoLocal } from './db';

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

  it('uma recusa do servidor não é mascarada pelo cache', async () => {
    await buscarComCache(banco, 'k', 1, async () => 1);
    await expect(
      buscarComCache(banco, 'k', 1, async () => {
        throw new ErroApi(403, 'Sem permissão');
      }),
    ).rejects.toBeInstanceOf(ErroApi);
  });
});
