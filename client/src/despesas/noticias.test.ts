import { describe, expect, it } from 'vitest';
import type { Despesa } from '../../../shared/schemas/despesas';
import { noticiasEmOrdem, novidadesDasDespesas, novidadesDosCreditos, pedeCorrecao, VISTOS_VAZIOS, type Noticia } from './noticias';

const d = (id: string, status: Despesa['status_aprovacao'], avaliado_em: string | null, motivo: string | null = null, extra: Partial<Despesa> = {}) =>
  ({ id, data_despesa: '2026-11-24', tipo: 'alimentacao', tipo_outro: null, valor: 48, status_aprovacao: status, motivo_rejeicao: motivo, avaliado_em, ...extra }) as Despesa;
const semEspacoDuro = (s: string) => s.replace(/\s/g, ' ');

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
    expect(depois.noticias.map((n) => semEspacoDuro(n.texto))).toEqual([
      'Alimentação · R$ 48,00 · 24/11 rejeitada: Reenvie com a nota fiscal',
      'Alimentação · R$ 48,00 · 24/11 aprovada',
    ]);
    // When it happened, for the list's order.
    expect(depois.noticias.map((n) => n.em)).toEqual(['2026-11-25T11:00:00.000Z', '2026-11-25T12:00:00.000Z']);
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

  it('cada aviso nomeia a despesa: tipo (o "Outro" pelo nome dado), valor e data', () => {
    const primeira = novidadesDasDespesas(VISTOS_VAZIOS, []);
    const r = novidadesDasDespesas(primeira.vistos, [
      d('x', 'rejeitada', '2026-12-04T10:00:00.000Z', null, { tipo: 'outro', tipo_outro: 'Lavagem do carro', valor: 61.7, data_despesa: '2026-12-03' }),
    ]);
    expect(semEspacoDuro(r.noticias[0]!.texto)).toBe('Lavagem do carro · R$ 61,70 · 03/12 rejeitada');
  });
});

describe('a lista de novidades', () => {
  const n = (id: string, em?: string): Noticia => ({ id, tipo: 'aprovada', texto: id, ...(em ? { em } : {}) });

  it('a mais nova primeiro, também entre as guardadas por versões sem a hora (pela ordem de chegada, depois das datadas)', () => {
    const guardadas = [n('antiga-1'), n('antiga-2'), n('b', '2026-11-25T11:00:00.000Z'), n('c', '2026-11-26T09:00:00.000Z'), n('a', '2026-11-24T10:00:00.000Z')];
    expect(noticiasEmOrdem(guardadas).map((x) => x.id)).toEqual(['c', 'b', 'a', 'antiga-2', 'antiga-1']);
  });

  it('"Ver e corrigir" só numa rejeição sem correção na fila nem aceita depois dela, e enquanto a despesa não saiu de Rejeitada', () => {
    const rejeicao: Noticia = { id: 'd1:2026-11-25T12:00:00.000Z', tipo: 'rejeitada', texto: '…', despesaId: 'd1', em: '2026-11-25T12:00:00.000Z' };
    const nenhuma = { naFila: new Set<string>(), aceitasEm: new Map<string, string>() };
    expect(pedeCorrecao(rejeicao, nenhuma)).toBe(true);
    expect(pedeCorrecao(rejeicao, nenhuma, 'rejeitada')).toBe(true);
    expect(pedeCorrecao({ ...rejeicao, tipo: 'aprovada' }, nenhuma)).toBe(false);
    expect(pedeCorrecao(rejeicao, { ...nenhuma, naFila: new Set(['d1']) })).toBe(false);
    expect(pedeCorrecao(rejeicao, { ...nenhuma, aceitasEm: new Map([['d1', '2026-11-25T13:00:00.000Z']]) })).toBe(false);
    // A correction accepted before this rejection (rejected again since) does not answer it.
    expect(pedeCorrecao(rejeicao, { ...nenhuma, aceitasEm: new Map([['d1', '2026-11-25T08:00:00.000Z']]) })).toBe(true);
    expect(pedeCorrecao(rejeicao, nenhuma, 'pendente')).toBe(false);
  });
});
