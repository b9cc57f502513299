import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BancoLocal } from '../offline/db';
import { itensDoUsuario } from '../offline/outbox';
import { OP_CRIAR, OP_EDITAR, type DadosCriar } from './fila';
import { enfileirarCriacao, enfileirarEdicao } from './operacoes';

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
