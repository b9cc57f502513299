import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BancoLocal, restaurarItem } from './db';
import { confirmarItem, corrigirItem, corrigirRecusado, descartarItem, enfileirar, enfileirarOuCorrigir, HISTORICO_MAXIMO, itensDoUsuario, lerConfirmacoes, PODA_EM_LOTE, tentarNovamente } from './outbox';

let banco: BancoLocal;
let n = 0;
beforeEach(async () => {
  banco = new BancoLocal(`teste-outbox-${++n}`);
  await banco.open();
});
afterEach(async () => {
  await banco.delete();
});

const op = (usuarioId: number, descricao: string, arquivos?: { nome: string; tipo: string; conteudo: ArrayBuffer }[]) => ({
  tipo: 'venda.salvar',
  usuarioId,
  dados: { descricao },
  chaves: [`x:${descricao}`],
  descricao,
  ...(arquivos ? { arquivos } : {}),
});

describe('outbox', () => {
  it('guarda os itens na ordem em que foram registrados, separados por dono', async () => {
    await enfileirar(banco, op(1, 'a'));
    await enfileirar(banco, op(2, 'de outra pessoa'));
    await enfileirar(banco, op(1, 'b'));
    await enfileirar(banco, op(1, 'c'));
    const itens = await itensDoUsuario(banco, 1);
    expect(itens.map((i) => i.descricao)).toEqual(['a', 'b', 'c']);
    expect(itens.every((i) => i.estado === 'pendente' && i.tentativas === 0)).toBe(true);
    expect((await itensDoUsuario(banco, 2)).map((i) => i.descricao)).toEqual(['de outra pessoa']);
  });

  it('sobrevive a fechar e reabrir o banco (o app fechado, o celular reiniciado)', async () => {
    await enfileirar(banco, op(1, 'guardado'));
    banco.close();
    const reaberto = new BancoLocal(banco.name);
    await reaberto.open();
    expect((await itensDoUsuario(reaberto, 1)).map((i) => i.descricao)).toEqual(['guardado']);
    reaberto.close();
    await banco.open();
  });

  it('grava o arquivo do comprovante junto com o item, byte a byte', async () => {
    const bytes = new Uint8Array([0xff, 0xd8, 0xff, 1, 2, 3]);
    const item = await enfileirar(banco, op(1, 'com cupom', [{ nome: 'cupom.jpg', tipo: 'image/jpeg', conteudo: bytes.buffer }]));
    expect(item.arquivos).toHaveLength(1);
    const arquivo = await banco.arquivos.get(item.arquivos[0]!);
    expect(new Uint8Array(arquivo!.conteudo)).toEqual(bytes);
    expect(arquivo!.tamanho).toBe(6);
  });

  it('confirmar move o item para o histórico com a hora do servidor e apaga o arquivo', async () => {
    const item = await enfileirar(banco, op(1, 'x', [{ nome: 'a.pdf', tipo: 'application/pdf', conteudo: new ArrayBuffer(4) }]));
    await confirmarItem(banco, item, '2026-11-22T17:32:00.000Z');
    expect(await itensDoUsuario(banco, 1)).toHaveLength(0);
    expect(await banco.arquivos.count()).toBe(0);
    expect(await banco.sincronizados.get(item.id)).toMatchObject({ descricao: 'x', recebidoEm: '2026-11-22T17:32:00.000Z' });
  });

  it('o histórico guarda no máximo os últimos itens confirmados (podados em lotes)', async () => {
    for (let i = 0; i < HISTORICO_MAXIMO + PODA_EM_LOTE + 1; i++) {
      const item = await enfileirar(banco, op(1, `i${i}`));
      await confirmarItem(banco, item, new Date(Date.UTC(2026, 10, 22, 0, 0, i)).toISOString());
    }
    expect(await banco.sincronizados.count()).toBe(HISTORICO_MAXIMO);
    expect(await banco.sincronizados.filter((s) => s.descricao === 'i0').count()).toBe(0);
  });

  it('guarda os dados e a ordem de confirmação; não poda o que uma cópia guardada ainda não inclui', async () => {
    const primeiro = await enfileirar(banco, op(1, 'p'));
    await confirmarItem(banco, primeiro, '2026-11-22T00:00:00.000Z');
    expect(await banco.sincronizados.get(primeiro.id)).toMatchObject({ dados: { descricao: 'p' }, ordem: 1 });
    // A copy read right after the first confirmation: everything confirmed later may be missing from it.
    await banco.cache.put({ chave: 'saldo:resumo', usuarioId: 1, dados: {}, atualizadoEm: '2026-11-22T00:00:00.000Z', confirmacoesAte: 1 });
    for (let i = 0; i < HISTORICO_MAXIMO + PODA_EM_LOTE + 1; i++) {
      const item = await enfileirar(banco, op(1, `i${i}`));
      await confirmarItem(banco, item, new Date(Date.UTC(2026, 10, 22, 0, 0, i + 1)).toISOString());
    }
    expect(await banco.sincronizados.get(primeiro.id)).toBeUndefined();
    expect(await banco.sincronizados.count()).toBe(HISTORICO_MAXIMO + PODA_EM_LOTE + 1);
    expect(await lerConfirmacoes(banco)).toBe(HISTORICO_MAXIMO + PODA_EM_LOTE + 2);
  });

  it('tentar de novo, corrigir e descartar são decisões da pessoa sobre um item recusado', async () => {
    const a = await enfileirar(banco, op(1, 'a', [{ nome: 'a.png', tipo: 'image/png', conteudo: new ArrayBuffer(2) }]));
    const b = await enfileirar(banco, op(1, 'b'));
    await banco.outbox.where('id').anyOf(a.id, b.id).modify({ estado: 'erro', erro: 'Rota finalizada.' });
    await tentarNovamente(banco, a.id);
    await corrigirItem(banco, b.id, { descricao: 'b corrigido' }, 'b corrigido');
    let itens = await itensDoUsuario(banco, 1);
    expect(itens.map((i) => [i.descricao, i.estado, i.erro])).toEqual([
      ['a', 'pendente', null],
      ['b corrigido', 'pendente', null],
    ]);
    await descartarItem(banco, a.id);
    itens = await itensDoUsuario(banco, 1);
    expect(itens.map((i) => i.descricao)).toEqual(['b corrigido']);
    expect(await banco.arquivos.count()).toBe(0);
  });
});

describe('restaurarItem', () => {
  it('completa campos que uma versão antiga não gravava e recusa linhas sem sentido', () => {
    expect(restaurarItem({ id: 'x', tipo: 't', usuarioId: 1 })).toMatchObject({ arquivos: [], chaves: [], estado: 'pendente', tentativas: 0, descricao: 't' });
    expect(restaurarItem({ id: 'x', tipo: 't' })).toBeNull();
    expect(restaurarItem(undefined)).toBeNull();
  });
});

describe('corrigir um item recusado', () => {
  it('salvar de novo o que o servidor recusou corrige o item no lugar dele na fila; um item ainda pendente não é tocado', async () => {
    const a = await enfileirar(banco, op(1, 'a'));
    const recusado = await enfileirar(banco, { ...op(1, 'venda recusada', [{ nome: 'x.jpg', tipo: 'image/jpeg', conteudo: new ArrayBuffer(3) }]), chaves: ['venda:7:1:2026-11-20'] });
    await enfileirar(banco, op(1, 'c'));
    await banco.outbox.where('id').equals(recusado.id).modify({ estado: 'erro', erro: 'Rota finalizada.' });

    const corrigido = await enfileirarOuCorrigir(banco, { tipo: 'venda.salvar', usuarioId: 1, dados: { v: 2 }, chaves: ['venda:7:1:2026-11-20'], descricao: 'venda corrigida' });
    expect(corrigido.id).toBe(recusado.id);
    const itens = await itensDoUsuario(banco, 1);
    expect(itens.map((i) => [i.descricao, i.estado, i.erro])).toEqual([
      ['a', 'pendente', null],
      ['venda corrigida', 'pendente', null],
      ['c', 'pendente', null],
    ]);
    expect(itens[1]!.dados).toEqual({ v: 2 });
    expect(itens[1]!.arquivos).toEqual(recusado.arquivos); // no files given: keeps its receipt

    // Nothing refused for that key any more: a new save queues a new item.
    const novo = await enfileirarOuCorrigir(banco, { tipo: 'venda.salvar', usuarioId: 1, dados: { v: 3 }, chaves: ['venda:7:1:2026-11-20'], descricao: 'de novo' });
    expect(novo.id).not.toBe(recusado.id);
    expect(a.id).toBeTruthy();
  });

  it('com arquivos novos, troca os do item (e apaga os antigos do aparelho)', async () => {
    const recusado = await enfileirar(banco, { ...op(1, 'despesa', [{ nome: 'velho.jpg', tipo: 'image/jpeg', conteudo: new ArrayBuffer(3) }]), tipo: 'despesa.criar', chaves: ['despesa:d1'] });
    await banco.outbox.where('id').equals(recusado.id).modify({ estado: 'erro', erro: 'x' });
    const corrigido = await corrigirRecusado(banco, {
      tipo: 'despesa.criar',
      usuarioId: 1,
      dados: {},
      chaves: ['despesa:d1'],
      descricao: 'despesa',
      arquivos: [{ nome: 'novo.pdf', tipo: 'application/pdf', conteudo: new Uint8Array([37, 80]).buffer }],
    });
    expect(corrigido!.arquivos).toHaveLength(1);
    expect(await banco.arquivos.get(recusado.arquivos[0]!)).toBeUndefined();
    expect((await banco.arquivos.get(corrigido!.arquivos[0]!))!.nome).toBe('novo.pdf');
    // Another user's refused item with the same key is never touched.
    expect(await corrigirRecusado(banco, { tipo: 'despesa.criar', usuarioId: 2, dados: {}, chaves: ['despesa:d1'], descricao: '' })).toBeNull();
  });

  it('salvar de novo o que foi recusado toma também o lugar das versões mais antigas que esperavam atrás dele, numa transação', async () => {
    const venda = (v: number) => ({ tipo: 'venda.salvar', usuarioId: 1, dados: { v }, chaves: ['venda:7:1:2026-11-20'], descricao: `venda ${v}` });
    const primeira = await enfileirar(banco, venda(1));
    await enfileirar(banco, venda(2)); // saved again before the server answered the first
    await banco.outbox.where('id').equals(primeira.id).modify({ estado: 'erro', erro: 'Rota finalizada.' });
    const nova = await enfileirarOuCorrigir(banco, venda(3));
    expect(nova.id).toBe(primeira.id);
    const itens = await itensDoUsuario(banco, 1);
    expect(itens.map((i) => [i.id, i.dados, i.estado])).toEqual([[primeira.id, { v: 3 }, 'pendente']]);
  });
});
