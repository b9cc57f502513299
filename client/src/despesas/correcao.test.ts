import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BancoLocal } from '../offline/db';
import { itensDoUsuario } from '../offline/outbox';
import { OP_CRIAR, OP_EDITAR, type DadosCriar } from './fila';
import { cuponsNaFila, enfileirarCriacao, enfileirarEdicao } from './operacoes';

let banco: BancoLocal;
let n = 0;
beforeEach(async () => {
  banco = new BancoLocal(`teste-correcao-despesa-${++n}`);
  await banco.open();
});
afterEach(() => banco.delete());

const dados = (valor: number) => ({
  id: '01a20000-0000-7000-8000-0000000000d1',
  rota_id: 7,
  cidade_id: 5208707,
  data_despesa: '2026-11-20',
  tipo: 'alimentacao' as const,
  tipo_outro: '',
  valor,
  descricao: 'Almoço',
  registrado_em: '2026-11-20T15:00:00.000Z',
  rota_nome: 'Rota Sul',
  cidade_nome: 'Goiânia',
  cidade_uf: 'GO',
  funcionario_nome: 'Eva',
});
const cupom = { nome: 'nota.jpg', tipo: 'image/jpeg', conteudo: new Uint8Array([0xff, 0xd8, 0xff, 1]).buffer };
const anterior = { valor: 45.9, tipo: 'alimentacao' as const, data_despesa: '2026-11-20' };

async function criarRecusada() {
  const item = await enfileirarCriacao(1, dados(45.9), cupom, banco);
  await banco.outbox.where('id').equals(item.id).modify({ estado: 'erro', erro: 'Esta rota já foi finalizada.' });
  return item;
}

describe('corrigir uma despesa recusada', () => {
  it('editar uma despesa cuja criação foi recusada corrige a própria criação, mantendo o comprovante', async () => {
    const criada = await criarRecusada();
    const corrigida = await enfileirarEdicao(1, dados(39.9), anterior, { cupom: null, excluirCupom: false }, banco);
    expect(corrigida.id).toBe(criada.id);
    const [item] = await itensDoUsuario(banco, 1);
    expect(item).toMatchObject({ tipo: OP_CRIAR, estado: 'pendente', arquivos: criada.arquivos });
    expect((item!.dados as DadosCriar).valor).toBe(39.9);
    expect((item!.dados as DadosCriar).cupom).toEqual({ nome: 'nota.jpg', tipo: 'image/jpeg' });
  });

  it('tirando o comprovante na correção, ele sai do item e do aparelho', async () => {
    const criada = await criarRecusada();
    await enfileirarEdicao(1, dados(39.9), anterior, { cupom: null, excluirCupom: true }, banco);
    const [item] = await itensDoUsuario(banco, 1);
    expect(item!.arquivos).toEqual([]);
    expect((item!.dados as DadosCriar).cupom).toBeNull();
    expect(await banco.arquivos.get(criada.arquivos[0]!)).toBeUndefined();
  });

  it('registrar de novo a mesma despesa recusada corrige o item; sem recusa, editar vai para a fila como alteração', async () => {
    const criada = await criarRecusada();
    const de_novo = await enfileirarCriacao(1, dados(50), null, banco);
    expect(de_novo.id).toBe(criada.id);
    expect(((await itensDoUsuario(banco, 1))[0]!.dados as DadosCriar).cupom).toEqual({ nome: 'nota.jpg', tipo: 'image/jpeg' });
    await enfileirarEdicao(1, dados(51), anterior, { cupom: null, excluirCupom: false }, banco);
    expect((await itensDoUsuario(banco, 1)).map((i) => i.tipo)).toEqual([OP_CRIAR, OP_EDITAR]);
  });
});

describe('comprovantes ainda no aparelho e versões na fila', () => {
  const pdf = (nome: string) => ({ nome, tipo: 'application/pdf', conteudo: new TextEncoder().encode(`%PDF-1.4 ${nome}`).buffer as ArrayBuffer });

  it('na criação recusada: tirar o comprovante ruim e pôr outro troca só os arquivos, no mesmo lugar da fila', async () => {
    const criada = await criarRecusada();
    const [ruim] = await cuponsNaFila(1, dados(45.9).id, banco);
    const corrigida = await enfileirarEdicao(1, dados(45.9), anterior, { novos: [pdf('boa.pdf')], removerCupons: [], removerLocais: [ruim!.id] }, banco);
    expect(corrigida.id).toBe(criada.id);
    const [item] = await itensDoUsuario(banco, 1);
    expect(item).toMatchObject({ tipo: OP_CRIAR, estado: 'pendente', seq: criada.seq });
    expect((item!.dados as DadosCriar).cupons).toEqual([{ nome: 'boa.pdf', tipo: 'application/pdf' }]);
    expect((await banco.arquivos.toArray()).map((a) => a.nome)).toEqual(['boa.pdf']);
  });

  it('numa criação que só aguarda envio: o comprovante removido sai dela, e a alteração vai para a fila depois', async () => {
    const criada = await enfileirarCriacao(1, dados(45.9), [cupom, pdf('segunda.pdf')], banco);
    const locais = await cuponsNaFila(1, dados(45.9).id, banco);
    expect(locais.map((c) => c.nome)).toEqual(['nota.jpg', 'segunda.pdf']);
    await enfileirarEdicao(1, dados(50), anterior, { novos: [], removerCupons: [], removerLocais: [locais[0]!.id] }, banco);
    const itens = await itensDoUsuario(banco, 1);
    expect(itens.map((i) => i.tipo)).toEqual([OP_CRIAR, OP_EDITAR]);
    expect(itens[0]).toMatchObject({ id: criada.id, arquivos: [locais[1]!.id] });
    expect((itens[0]!.dados as DadosCriar).cupons).toEqual([{ nome: 'segunda.pdf', tipo: 'application/pdf' }]);
    expect(await banco.arquivos.count()).toBe(1);
  });

  it('uma alteração recusada, salva de novo, guarda o que o servidor tinha antes dela e os comprovantes do servidor que ela removia', async () => {
    const primeira = await enfileirarEdicao(1, dados(39.9), anterior, { novos: [], removerCupons: [11] }, banco);
    await banco.outbox.where('id').equals(primeira.id).modify({ estado: 'erro', erro: 'Comprovante recusado.' });
    // The form shows the refused change laid over: its 'before' is the refused values, receipt 11 already gone.
    const nova = await enfileirarEdicao(1, dados(41), { ...anterior, valor: 39.9 }, { novos: [], removerCupons: [12] }, banco);
    expect(nova.id).toBe(primeira.id);
    const [item] = await itensDoUsuario(banco, 1);
    expect(item!.dados).toMatchObject({ operacao: 'editar', valor: 41, anterior, remover_cupons: [11, 12] });
    expect(item!.estado).toBe('pendente');
  });

  it('criação recusada com uma alteração esperando atrás: a nova versão toma o lugar das duas, com os comprovantes delas', async () => {
    const criada = await criarRecusada();
    await banco.outbox.where('id').equals(criada.id).modify({ estado: 'pendente' });
    await enfileirarEdicao(1, dados(40), anterior, { novos: [pdf('cartao.pdf')], removerCupons: [] }, banco);
    await banco.outbox.where('id').equals(criada.id).modify({ estado: 'erro', erro: 'Comprovante recusado.' });
    expect(await banco.outbox.count()).toBe(2);
    await enfileirarEdicao(1, dados(42), anterior, { novos: [], removerCupons: [] }, banco);
    const itens = await itensDoUsuario(banco, 1);
    expect(itens).toHaveLength(1);
    expect(itens[0]).toMatchObject({ id: criada.id, tipo: OP_CRIAR, estado: 'pendente' });
    expect((itens[0]!.dados as DadosCriar).valor).toBe(42);
    expect((itens[0]!.dados as DadosCriar).cupons!.map((c) => c.nome)).toEqual(['nota.jpg', 'cartao.pdf']);
    expect((await banco.arquivos.toArray()).map((a) => a.nome).sort()).toEqual(['cartao.pdf', 'nota.jpg']);
  });
});
