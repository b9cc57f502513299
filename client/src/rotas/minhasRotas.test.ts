import { describe, expect, it } from 'vitest';
import type { Rota } from '../../../shared/schemas/rotas';
import { rotaDeTeste } from '../test/rotas';
import { mesclarMinhasRotas, type FinalizacaoNaFila } from './minhasRotas';

function rota(id: number, extra: Partial<Rota> = {}): Rota {
  return rotaDeTeste({ id, nome: `Rota ${id}`, funcionario_nome: 'Bruno', criado_em: '2026-10-30T12:00:00.000Z', ...extra });
}

const finalizada = (id: number, em: string) => rota(id, { status: 'finalizada', finalizada_em: em });
const naFila = (rotaId: number, estado: FinalizacaoNaFila['estado'] = 'pendente', criadoEm = '2026-11-22T15:00:00.000Z'): FinalizacaoNaFila => ({
  rotaId,
  estado,
  erro: estado === 'erro' ? 'Esta rota foi cancelada e não pode ser finalizada.' : null,
  criadoEm,
});

describe('mesclarMinhasRotas', () => {
  it('sem nada na fila, mostra o que o servidor diz', () => {
    const servidor = { ativas: [rota(1)], finalizadas: [finalizada(2, '2026-10-31T20:00:00.000Z')] };
    expect(mesclarMinhasRotas(servidor, [])).toEqual(servidor);
  });

  it('a rota finalizada neste aparelho vai na hora para as finalizadas, no topo, aguardando envio', () => {
    const r = mesclarMinhasRotas({ ativas: [rota(1), rota(3)], finalizadas: [finalizada(2, '2026-10-31T20:00:00.000Z')] }, [naFila(1)]);
    expect(r.ativas.map((x) => x.id)).toEqual([3]);
    expect(r.finalizadas.map((x) => [x.id, x.status, x.envio])).toEqual([
      [1, 'finalizada', 'pendente'],
      [2, 'finalizada', undefined],
    ]);
    expect(r.finalizadas[0]!.finalizada_em).toBe('2026-11-22T15:00:00.000Z');
  });

  it('recusada pelo servidor: a rota continua onde o servidor a tem, com o motivo', () => {
    const r = mesclarMinhasRotas({ ativas: [rota(1)], finalizadas: [] }, [naFila(1, 'erro')]);
    expect(r.finalizadas).toEqual([]);
    expect(r.ativas).toEqual([{ ...rota(1), envio: 'erro', erroEnvio: 'Esta rota foi cancelada e não pode ser finalizada.' }]);
    // A retry queued after the refusal counts as pending.
    const novamente = mesclarMinhasRotas({ ativas: [rota(1)], finalizadas: [] }, [naFila(1, 'erro'), naFila(1)]);
    expect(novamente.finalizadas.map((x) => x.envio)).toEqual(['pendente']);
  });

  it('confirmada pelo servidor enquanto a lista na tela ainda é a antiga: não volta para as ativas', () => {
    const r = mesclarMinhasRotas({ ativas: [rota(1)], finalizadas: [] }, [], new Set([1]));
    expect(r.ativas).toEqual([]);
    expect(r.finalizadas.map((x) => [x.id, x.status, x.envio])).toEqual([[1, 'finalizada', undefined]]);
  });

  it('uma rota nas duas listas (uma delas mais nova) aparece uma vez, como finalizada', () => {
    const r = mesclarMinhasRotas({ ativas: [rota(1)], finalizadas: [finalizada(1, '2026-11-22T15:01:00.000Z')] }, [naFila(1)]);
    expect(r.ativas).toEqual([]);
    expect(r.finalizadas).toHaveLength(1);
    expect(r.finalizadas[0]).toMatchObject({ id: 1, envio: 'pendente', finalizada_em: '2026-11-22T15:01:00.000Z' });
  });

  it('várias finalizadas aqui: a mais recente primeiro', () => {
    const r = mesclarMinhasRotas({ ativas: [rota(1), rota(2)], finalizadas: [] }, [naFila(1, 'pendente', '2026-11-20T10:00:00.000Z'), naFila(2, 'pendente', '2026-11-21T10:00:00.000Z')]);
    expect(r.finalizadas.map((x) => x.id)).toEqual([2, 1]);
  });
});
