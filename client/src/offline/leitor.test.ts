/** The registered writes read their queued data and the server's answers without zod (offline/leitor.ts). */
import { describe, expect, it } from 'vitest';
import { finalizacoesNaFila, OPERACAO_FINALIZAR_ROTA } from '../rotas/operacoes';
import { OPERACAO_REGISTRAR_VISITA, OPERACAO_SALVAR_VENDA } from '../vendas/fila';
import { operacoes } from '.';
import './operacoes';

const venda = {
  id: 'v1',
  rota_id: 3,
  cidade_id: 7,
  data_venda: '2026-11-22',
  valor_dinheiro: 10,
  valor_pix: 0,
  valor_cartao: 0,
  valor_link: 0,
  valor_boletos: 1,
  observacoes: '',
  registrado_em: '2026-11-22T13:00:00.000Z',
};

describe('operações registradas, lidas sem zod', () => {
  it('venda: envia só os campos da API; um registro ilegível pede para registrar de novo', () => {
    const definicao = operacoes[OPERACAO_SALVAR_VENDA]!;
    expect(definicao.requisicao({ ...venda, cidade_nome: 'Goiânia', cidade_uf: 'GO', antigo: 1 }, [])).toEqual({ metodo: 'POST', caminho: '/vendas', corpo: venda });
    expect(() => definicao.requisicao({ ...venda, rota_id: '3' }, [])).toThrow(/Registro ilegível/);
    expect(definicao.editarEm?.(venda)).toBe('/vendas?data=2026-11-22&cidade=7');
    expect(definicao.editarEm?.({ ...venda, cidade_id: 0 })).toBeNull();
    expect(definicao.recebidoEm?.({ venda: { atualizado_em: '2026-11-22T13:00:01.000Z', outro: 1 } })).toBe('2026-11-22T13:00:01.000Z');
    for (const estranho of [null, {}, { venda: null }, { venda: { atualizado_em: 5 } }, 'x']) expect(definicao.recebidoEm?.(estranho)).toBeUndefined();
  });

  it('visita: o caminho da rota e da cidade; a hora de recebimento do servidor', () => {
    const definicao = operacoes[OPERACAO_REGISTRAR_VISITA]!;
    const visita = { id: 'x1', rota_id: 3, cidade_id: 7, data: '2026-11-22', registrado_em: '2026-11-22T13:00:00.000Z', cidade_nome: 'Goiânia' };
    expect(definicao.requisicao(visita, [])).toEqual({
      metodo: 'POST',
      caminho: '/rotas/3/cidades/7/visitar',
      corpo: { id: 'x1', data: '2026-11-22', registrado_em: '2026-11-22T13:00:00.000Z' },
    });
    expect(() => definicao.requisicao({ ...visita, id: '' }, [])).toThrow(/Registro ilegível/);
    expect(definicao.recebidoEm?.({ visita: { recebido_em: 'agora' } })).toBe('agora');
    expect(definicao.recebidoEm?.({ visita: {} })).toBeUndefined();
  });

  it('finalizar rota: lê o registro e a hora da finalização do servidor', () => {
    const definicao = operacoes[OPERACAO_FINALIZAR_ROTA]!;
    expect(definicao.requisicao({ rota_id: 4, rota_nome: 'Sul' }, [])).toEqual({ metodo: 'PATCH', caminho: '/rotas/4/finalizar' });
    for (const ruim of [{ rota_id: 0 }, { rota_id: 1.5 }, { rota_id: '4' }, { rota_id: 4, rota_nome: null }, null]) {
      expect(() => definicao.requisicao(ruim, [])).toThrow(/ilegível/);
    }
    expect(definicao.recebidoEm?.({ rota: { finalizada_em: '2026-11-22T18:00:00.000Z' } })).toBe('2026-11-22T18:00:00.000Z');
    expect(definicao.recebidoEm?.({ rota: { finalizada_em: null } })).toBeUndefined();
    expect(definicao.recebidoEm?.({ rota: {} })).toBeUndefined();

    const item = (dados: unknown) => ({ tipo: OPERACAO_FINALIZAR_ROTA, dados, estado: 'pendente' as const, erro: null, criadoEm: '2026-11-22T18:00:00.000Z' });
    const naFila = finalizacoesNaFila([item({ rota_id: 4 }), item({ rota_id: -4 }), item({ rota_nome: 'sem id' })] as never);
    expect(naFila.map((f) => f.rotaId)).toEqual([4]);
  });
});
