/**
 * The route's period on the phone (docs/decisions/rotas.md, 'O período da rota'): a sale queued
 * offline with a date before the route began is refused by the server on its own (422, 'A data ...
 * está fora do período da rota: ...'); the item stays in the queue as 'precisa de atenção' with that
 * message (what the sync panel lists), and the sale queued after it goes through.
 */
import { v7 as uuidv7 } from 'uuid';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hoje, somarDias } from '../../../shared/dates';
import type { AppDeTeste } from '../../../server/test/helper';
import { fecharApiReal, iniciarApiReal } from '../test/apiReal';
import { BancoLocal } from './db';
import { operacoes } from '.';
import './operacoes';
import { enfileirar, itensDoUsuario } from './outbox';
import { MotorSync } from './sync';

const CIDADES = [5208707, 5201108];
const dia = hoje('America/Sao_Paulo');
let t: AppDeTeste;
let funcionario: { id: number; token: string };
let rotaId: number;
let banco: BancoLocal;

beforeAll(async () => {
  ({ t, funcionario, rotaId } = await iniciarApiReal({ funcionario: 'Olga Offline', rota: 'Rota do Período', cidades: CIDADES }));
});
afterAll(() => fecharApiReal(t));
beforeEach(async () => {
  banco = new BancoLocal('teste-periodo-rota');
  await banco.open();
});
afterEach(async () => {
  await banco.delete();
});

async function enfileirarVenda(data: string, cidade: number, descricao: string) {
  await enfileirar(banco, {
    tipo: 'venda.salvar',
    usuarioId: funcionario.id,
    dados: { id: uuidv7(), rota_id: rotaId, cidade_id: cidade, data_venda: data, valor_dinheiro: 10, valor_pix: 0, valor_cartao: 0, valor_link: 0, valor_boletos: 0, observacoes: '', registrado_em: new Date().toISOString() },
    chaves: [`venda:${rotaId}:${cidade}:${data}`],
    descricao,
  });
}

describe('venda da fila datada antes do início da rota', () => {
  it('fica "precisa de atenção" com a mensagem do período; a seguinte chega', async () => {
    await enfileirarVenda('1900-01-01', CIDADES[0]!, 'Fechamento de 1900');
    await enfileirarVenda(somarDias(dia, -1), CIDADES[1]!, 'Fechamento de ontem');
    const motor = new MotorSync({ banco, operacoes, obterSessao: () => ({ usuarioId: funcionario.id, token: funcionario.token }), esperaBaseMs: 1000 });
    await motor.sincronizarAgora();
    motor.parar();
    const restantes = await itensDoUsuario(banco, funcionario.id);
    expect(restantes.map((i) => [i.descricao, i.estado, i.erro])).toEqual([
      ['Fechamento de 1900', 'erro', 'A data 01/01/1900 está fora do período da rota: são aceitas datas de 01/01/2024 até hoje (' + dia.split('-').reverse().join('/') + ').'],
    ]);
    const vendas = t.db.$client.prepare('select data_venda from vendas where rota_id = ?').all(rotaId);
    expect(vendas).toEqual([{ data_venda: somarDias(dia, -1) }]);
  });
});
