import { beforeEach, describe, expect, it } from 'vitest';
import type { Despesa } from '../../../shared/schemas/despesas';
import { bancoLocal } from '../offline/db';
import { despesaDeTeste, listaDeDespesas } from '../test/despesas';
import { avisosDoLimite, chaveCopiaDoDia, despesasConhecidasDoDia, lerDespesasDoDia } from './limiteDoDia';
import type { ItemFilaDespesa } from './fila';

const USUARIO = 2;
const DIA = '2026-12-03';
const ROTA = { id: 7, nome: 'Rota Centro-Oeste' };
const refeicao = (id: string, valor: number, extra: Partial<Despesa> = {}) => despesaDeTeste(id, { valor, data_despesa: DIA, ...extra }, ROTA);

const criacaoNaFila = (id: string, valor: number, extra: Record<string, unknown> = {}): ItemFilaDespesa => ({
  id: `op-${id}`,
  tipo: 'despesa.criar',
  dados: { operacao: 'criar', id, rota_id: 7, cidade_id: 5201108, data_despesa: DIA, tipo: 'alimentacao', tipo_outro: '', valor, descricao: '', registrado_em: '2026-12-03T12:00:00.000Z', rota_nome: '', cidade_nome: '', cidade_uf: '', funcionario_nome: '', cupom: null, ...extra },
  arquivos: [],
  estado: 'pendente',
  erro: null,
});

const valores = (l: { valorCentavos: number }[]) => l.map((d) => d.valorCentavos).sort((a, b) => a - b);

beforeEach(async () => {
  await Promise.all([bancoLocal.cache.clear(), bancoLocal.outbox.clear(), bancoLocal.sincronizados.clear()]);
});

describe('despesasConhecidasDoDia (pura)', () => {
  it('a cópia do servidor com a fila por cima: criações somam, edições trocam, exclusões tiram; sem a que está sendo editada', () => {
    const servidor = [refeicao('a', 100), refeicao('b', 50), refeicao('outro-dia', 70, { data_despesa: '2026-12-04' }), refeicao('outra-rota', 80, { rota_id: 9 })];
    const fila: ItemFilaDespesa[] = [
      criacaoNaFila('c', 30),
      { ...criacaoNaFila('b', 55, { operacao: 'editar', anterior: { valor: 50, tipo: 'alimentacao', data_despesa: DIA }, excluir_cupom: false }), tipo: 'despesa.editar' },
      { id: 'op-x', tipo: 'despesa.excluir', dados: { operacao: 'excluir', id: 'a', anterior: { valor: 100, tipo: 'alimentacao', data_despesa: DIA }, descricao_item: '' }, arquivos: [], estado: 'erro', erro: 'Recusada' },
    ];
    expect(valores(despesasConhecidasDoDia(servidor, fila, 7, DIA, null))).toEqual([3_000, 5_500]);
    expect(valores(despesasConhecidasDoDia(servidor, fila, 7, DIA, 'b'))).toEqual([3_000]);
  });

  it('uma rejeitada vem com o status (a regra compartilhada não a conta)', () => {
    const [d] = despesasConhecidasDoDia([refeicao('r', 90, { status_aprovacao: 'rejeitada', rejeitada: true })], [], 7, DIA, null);
    expect(d).toMatchObject({ status_aprovacao: 'rejeitada', valorCentavos: 9_000 });
    expect(avisosDoLimite({ tem_secretario: false }, { rota_id: 7, data_despesa: DIA, tipo: 'alimentacao', valorCentavos: 10_000 }, [d!]).acima).toBeNull();
  });
});

describe('lerDespesasDoDia (o aparelho)', () => {
  it('sem a cópia do dia, junta as páginas guardadas da lista (a mais nova vence) e só as desta pessoa', async () => {
    await bancoLocal.cache.bulkPut([
      { chave: 'despesas:lista:{"page":1}', usuarioId: USUARIO, dados: listaDeDespesas([refeicao('a', 100), refeicao('b', 50)]), atualizadoEm: '2026-12-03T10:00:00.000Z', confirmacoesAte: 0 },
      { chave: 'despesas:lista:{"page":2}', usuarioId: USUARIO, dados: listaDeDespesas([refeicao('b', 60)]), atualizadoEm: '2026-12-03T11:00:00.000Z', confirmacoesAte: 0 },
      { chave: 'despesas:lista:{"page":3}', usuarioId: 99, dados: listaDeDespesas([refeicao('de-outra-pessoa', 500)]), atualizadoEm: '2026-12-03T11:00:00.000Z', confirmacoesAte: 0 },
      { chave: 'despesas:lista:{"page":4}', usuarioId: USUARIO, dados: { despesas: 'ilegível' }, atualizadoEm: '2026-12-03T11:00:00.000Z', confirmacoesAte: 0 },
    ]);
    expect(valores(await lerDespesasDoDia(bancoLocal, USUARIO, 7, DIA, null))).toEqual([6_000, 10_000]);
  });

  it('a cópia do dia, quando existe, vale pelo dia inteiro; as escritas confirmadas depois dela entram', async () => {
    await bancoLocal.cache.bulkPut([
      { chave: 'despesas:lista:{"page":1}', usuarioId: USUARIO, dados: listaDeDespesas([refeicao('a', 100), refeicao('excluida-em-outro-celular', 50)]), atualizadoEm: '2026-12-03T10:00:00.000Z', confirmacoesAte: 0 },
      { chave: chaveCopiaDoDia(7, DIA), usuarioId: USUARIO, dados: listaDeDespesas([refeicao('a', 100)]), atualizadoEm: '2026-12-03T12:00:00.000Z', confirmacoesAte: 4 },
    ]);
    await bancoLocal.sincronizados.bulkPut([
      { ...criacaoNaFila('ja-na-copia', 20), usuarioId: USUARIO, descricao: '', chaves: [], criadoEm: '', recebidoEm: '', ordem: 4 },
      { ...criacaoNaFila('depois-da-copia', 40), usuarioId: USUARIO, descricao: '', chaves: [], criadoEm: '', recebidoEm: '', ordem: 5 },
    ]);
    expect(valores(await lerDespesasDoDia(bancoLocal, USUARIO, 7, DIA, null))).toEqual([4_000, 10_000]);
  });
});
