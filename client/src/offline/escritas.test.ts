import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BancoLocal } from './db';
import { escritasSobreCopia, lerEscritas } from './escritas';
import { confirmarItem, enfileirar } from './outbox';

let banco: BancoLocal;
beforeEach(() => {
  banco = new BancoLocal(`escritas-${Math.random()}`);
});
afterEach(async () => {
  banco.close();
  await banco.delete();
});

const op = (usuarioId: number, n: string) => ({ tipo: 'venda.salvar', usuarioId, dados: { n }, chaves: [`venda:${n}`], descricao: n });

describe('escritas do aparelho sobre uma cópia', () => {
  it('a fila e o que foi confirmado depois da cópia; nunca o que a cópia já inclui, nem o de outra pessoa', async () => {
    const a = await enfileirar(banco, op(1, 'a'));
    await confirmarItem(banco, a, '2026-11-24T10:00:00.000Z'); // ordem 1
    const b = await enfileirar(banco, op(1, 'b'));
    await confirmarItem(banco, b, '2026-11-24T09:00:00.000Z'); // ordem 2: a server clock behind does not matter
    await enfileirar(banco, op(1, 'c'));
    const outra = await enfileirar(banco, op(2, 'x'));
    await confirmarItem(banco, outra, '2026-11-24T11:00:00.000Z');

    const escritas = await lerEscritas(banco, 1);
    const nomes = (confirmacoesAte: number | undefined) => escritasSobreCopia(escritas, confirmacoesAte).map((e) => [(e.dados as { n: string }).n, e.estado]);
    expect(nomes(1)).toEqual([
      ['b', 'enviado'],
      ['c', 'pendente'],
    ]);
    expect(nomes(3)).toEqual([['c', 'pendente']]);
    // A copy kept by an older version does not say: every confirmed write kept counts.
    expect(nomes(undefined)).toEqual([
      ['a', 'enviado'],
      ['b', 'enviado'],
      ['c', 'pendente'],
    ]);
  });

  it('histórico de versões antigas (sem os dados) não entra', async () => {
    await banco.sincronizados.put({ id: 'velho', usuarioId: 1, tipo: 'venda.salvar', descricao: 'v', chaves: [], criadoEm: '2026-11-01T00:00:00.000Z', recebidoEm: '2026-11-01T00:00:00.000Z' });
    expect(escritasSobreCopia(await lerEscritas(banco, 1), undefined)).toEqual([]);
  });
});
