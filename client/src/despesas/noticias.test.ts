import { describe, expect, it } from 'vitest';
import type { Despesa } from '../../../shared/schemas/despesas';
import { novidadesDasDespesas, novidadesDosCreditos, VISTOS_VAZIOS } from './noticias';

const d = (id: string, status: Despesa['status_aprovacao'], avaliado_em: string | null, motivo: string | null = null) =>
  ({ id, data_despesa: '2026-11-24', status_aprovacao: status, motivo_rejeicao: motivo, avaliado_em }) as Despesa;

describe('novidades (funções puras)', () => {
  it('a primeira olhada só registra; depois cada avaliação nova vira um aviso, na ordem em que aconteceu', () => {
    const primeira = novidadesDasDespesas(VISTOS_VAZIOS, [d('a', 'rejeitada', '2026-11-25T10:00:00.000Z', 'Sem nota')]);
    expect(primeira.noticias).toEqual([]);
    const depois = novidadesDasDespesas(primeira.vistos, [
      d('a', 'rejeitada', '2026-11-25T10:00:00.000Z', 'Sem nota'),
      d('c', 'aprovada', '2026-11-25T12:00:00.000Z'),
      d('b', 'rejeitada', '2026-11-25T11:00:00.000Z', 'Reenvie com a nota fiscal'),
      d('p', 'pendente', null),
    ]);
    expect(depois.noticias.map((n) => n.texto)).toEqual(['Despesa de 24/11 rejeitada: Reenvie com a nota fiscal', 'Despesa de 24/11 aprovada']);
    expect(depois.vistos.avaliadasAte).toBe('2026-11-25T12:00:00.000Z');
  });

  it('corrigida e rejeitada de novo (mesmo motivo) avisa de novo: vale a hora da avaliação, não só o status', () => {
    const v1 = novidadesDasDespesas(novidadesDasDespesas(VISTOS_VAZIOS, []).vistos, [d('a', 'rejeitada', '2026-11-25T10:00:00.000Z', 'Sem nota')]);
    expect(v1.noticias).toHaveLength(1);
    const v2 = novidadesDasDespesas(v1.vistos, [d('a', 'rejeitada', '2026-11-26T10:00:00.000Z', 'Sem nota')]);
    expect(v2.noticias.map((n) => n.id)).toEqual(['a:2026-11-26T10:00:00.000Z']);
  });

  it('créditos: só os de id maior que o último visto, do mais antigo ao mais novo, em reais pt-BR', () => {
    const primeira = novidadesDosCreditos(VISTOS_VAZIOS, [{ id: 4, valor: 10, data_movimentacao: '', descricao: '' }]);
    expect(primeira.noticias).toEqual([]);
    const r = novidadesDosCreditos(primeira.vistos, [
      { id: 6, valor: 1234.5, data_movimentacao: '', descricao: '' },
      { id: 5, valor: 200, data_movimentacao: '', descricao: '' },
      { id: 4, valor: 10, data_movimentacao: '', descricao: '' },
    ]);
    expect(r.noticias.map((n) => n.texto.replace(/\s/g, ' '))).toEqual(['Crédito de R$ 200,00 no saldo', 'Crédito de R$ 1.234,50 no saldo']);
    expect(r.vistos.creditoAte).toBe(6);
  });
});
