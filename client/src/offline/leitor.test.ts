/** The registered writes read their queued data without zod (offline/leitor.ts) and turn it into what travels. */
import { describe, expect, it } from 'vitest';
import { finalizacoesNaFila, OPERACAO_FINALIZAR_ROTA } from '../rotas/operacoes';
import { OPERACAO_REGISTRAR_VISITA, OPERACAO_SALVAR_VENDA } from '../vendas/fila';
import { TIPOS_OPERACAO } from '../../../shared/sync/operacoes';
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
  it('cada tipo de operação do registro compartilhado tem a sua metade no cliente', () => {
    for (const tipo of TIPOS_OPERACAO) expect(operacoes[tipo], tipo).toBeDefined();
  });

  it('venda: envia só os campos da operação, em centavos; um registro ilegível pede para registrar de novo', () => {
    const definicao = operacoes[OPERACAO_SALVAR_VENDA]!;
    expect(definicao.paraEnvio({ ...venda, valor_dinheiro: 1010, cidade_nome: 'Goiânia', cidade_uf: 'GO', antigo: 1 })).toEqual({
      ...venda,
      valor_dinheiro: 1010,
      versao_base: null,
    });
    expect(definicao.paraEnvio({ ...venda, versao_base: 3 })).toMatchObject({ versao_base: 3 });
    expect(() => definicao.paraEnvio({ ...venda, rota_id: '3' })).toThrow(/Registro ilegível/);
    expect(definicao.editarEm?.(venda)).toBe('/vendas?data=2026-11-22&cidade=7');
    expect(definicao.editarEm?.({ ...venda, cidade_id: 0 })).toBeNull();
  });

  it('visita: a rota, a cidade e o dia', () => {
    const definicao = operacoes[OPERACAO_REGISTRAR_VISITA]!;
    const visita = { id: 'x1', rota_id: 3, cidade_id: 7, data: '2026-11-22', registrado_em: '2026-11-22T13:00:00.000Z', cidade_nome: 'Goiânia' };
    expect(definicao.paraEnvio(visita)).toEqual({ id: 'x1', rota_id: 3, cidade_id: 7, data: '2026-11-22', registrado_em: '2026-11-22T13:00:00.000Z' });
    expect(() => definicao.paraEnvio({ ...visita, id: '' })).toThrow(/Registro ilegível/);
  });

  it('despesa: o valor em centavos; uma despesa ilegível pede para registrar de novo', () => {
    const despesa = { id: 'd1', rota_id: 3, cidade_id: 7, data_despesa: '2026-11-22', tipo: 'alimentacao', tipo_outro: 'x', valor: 45.9, descricao: 'Almoço', registrado_em: 'r' };
    expect(operacoes['despesa.criar']!.paraEnvio({ ...despesa, operacao: 'criar' })).toEqual({ ...despesa, tipo_outro: '', valor: 4590 });
    expect(operacoes['despesa.editar']!.paraEnvio({ ...despesa, operacao: 'editar', excluir_cupom: true })).toMatchObject({ valor: 4590, excluir_cupom: true });
    expect(operacoes['despesa.excluir']!.paraEnvio({ operacao: 'excluir', id: 'd1', rota_id: 3 })).toEqual({ id: 'd1', rota_id: 3 });
    expect(() => operacoes['despesa.criar']!.paraEnvio({ ...despesa, valor: '45,90' })).toThrow(/ilegível/);
  });

  it('finalizar rota: só a rota', () => {
    const definicao = operacoes[OPERACAO_FINALIZAR_ROTA]!;
    expect(definicao.paraEnvio({ rota_id: 4, rota_nome: 'Sul' })).toEqual({ rota_id: 4 });
    for (const ruim of [{ rota_id: 0 }, { rota_id: 1.5 }, { rota_id: '4' }, { rota_id: 4, rota_nome: null }, null]) {
      expect(() => definicao.paraEnvio(ruim)).toThrow(/ilegível/);
    }

    const item = (dados: unknown) => ({ tipo: OPERACAO_FINALIZAR_ROTA, dados, estado: 'pendente' as const, erro: null, criadoEm: '2026-11-22T18:00:00.000Z' });
    const naFila = finalizacoesNaFila([item({ rota_id: 4 }), item({ rota_id: -4 }), item({ rota_nome: 'sem id' })] as never);
    expect(naFila.map((f) => f.rotaId)).toEqual([4]);
  });
});
