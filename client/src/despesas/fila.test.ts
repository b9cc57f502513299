import { describe, expect, it } from 'vitest';
import type { Despesa } from '../../../shared/schemas/despesas';
import { despesaDeTeste, listaDeDespesas } from '../test/despesas';
import { mesclarDespesas, saldoProjetado, type DadosCriar, type DadosEditar, type DadosExcluir, type ItemFilaDespesa } from './fila';

/** A R$ 10,00 expense with a receipt on route 1; the rest as the shared factory has it. */
const despesa = (id: string, extra: Partial<Despesa> = {}): Despesa =>
  despesaDeTeste(
    id,
    {
      valor: 10,
      descricao: '',
      arquivo_cupom: 'a'.repeat(32) + '.jpg',
      cupom_url: `/api/despesas/${id}/cupom`,
      cupom_mime: 'image/jpeg',
      cupom_nome: 'nota.jpg',
      registrado_em: '2026-11-20T12:00:00.000Z',
      recebido_em: '2026-11-20T12:00:01.000Z',
      atualizado_em: '2026-11-20T12:00:01.000Z',
      ...extra,
    },
    { id: 1, nome: 'Rota Centro' },
  );
const lista = (despesas: Despesa[]) => listaDeDespesas(despesas);

const base = {
  rota_id: 1,
  cidade_id: 5208707,
  tipo_outro: '',
  descricao: 'na estrada',
  registrado_em: '2026-11-21T15:00:00.000Z',
  rota_nome: 'Rota Centro',
  cidade_nome: 'Goiânia',
  cidade_uf: 'GO',
  funcionario_nome: 'Bruno Campo',
  cupom: null,
};

let seq = 0;
function item(dados: DadosCriar | DadosEditar | DadosExcluir, extra: Partial<ItemFilaDespesa> = {}): ItemFilaDespesa {
  seq += 1;
  return { id: `op-${seq}`, tipo: `despesa.${dados.operacao}`, dados, arquivos: [], estado: 'pendente', erro: null, ...extra };
}
const criar = (id: string, valor: number, extra: Partial<DadosCriar> = {}): DadosCriar => ({
  ...base,
  operacao: 'criar',
  id,
  data_despesa: '2026-11-21',
  tipo: 'combustivel',
  valor,
  ...extra,
});

describe('mesclarDespesas', () => {
  it('uma despesa na fila aparece no topo da página 1, marcada, e entra nos totais', () => {
    const servidor = lista([despesa('s1', { valor: 10.1 }), despesa('s2', { valor: 0.2, tipo: 'pedagio', data_despesa: '2026-11-19' })]);
    const r = mesclarDespesas(servidor, [item(criar('n1', 0.1), { arquivos: ['arq-1'] })], {}, 1);
    expect(r.despesas.map((d) => d.id)).toEqual(['n1', 's1', 's2']);
    expect(r.despesas[0]).toMatchObject({ envio: { operacao: 'criar', estado: 'pendente' }, cupomLocal: 'arq-1', cidade_nome: 'Goiânia', status_aprovacao: 'pendente' });
    expect(r.totais).toMatchObject({ geral: 10.4, combustivel: 0.1, alimentacao: 10.1, pedagio: 0.2 });
    expect(r.total).toBe(3);
    // Other pages keep the server's rows only; the totals still count it (they cover every page).
    const p2 = mesclarDespesas({ ...servidor, page: 2 }, [item(criar('n1', 0.1))], {}, 2);
    expect(p2.despesas.map((d) => d.id)).toEqual(['s1', 's2']);
    expect(p2.totais.geral).toBe(10.4);
  });

  it('respeita os filtros de tipo e data na sobreposição', () => {
    const fila = [item(criar('n1', 5, { tipo: 'pedagio' })), item(criar('n2', 7, { data_despesa: '2026-10-01' }))];
    const r = mesclarDespesas(lista([]), fila, { tipo: 'combustivel', data_inicio: '2026-11-01' }, 1);
    expect(r.despesas).toEqual([]);
    expect(r.totais.geral).toBe(0);
    const so = mesclarDespesas(lista([]), fila, { tipo: 'pedagio' }, 1);
    expect(so.despesas.map((d) => d.id)).toEqual(['n1']);
    expect(so.totais).toMatchObject({ geral: 5, pedagio: 5 });
  });

  it('edição na fila substitui a linha do servidor e troca os totais de tipo', () => {
    const servidor = lista([despesa('s1', { valor: 10 })]);
    const editar: DadosEditar = {
      ...base,
      operacao: 'editar',
      id: 's1',
      data_despesa: '2026-11-20',
      tipo: 'hospedagem',
      valor: 80.5,
      excluir_cupom: true,
      anterior: { valor: 10, tipo: 'alimentacao', data_despesa: '2026-11-20' },
    };
    const r = mesclarDespesas(servidor, [item(editar)], {}, 1);
    expect(r.despesas).toHaveLength(1);
    expect(r.despesas[0]).toMatchObject({ id: 's1', tipo: 'hospedagem', valor: 80.5, cupom_url: null, envio: { operacao: 'editar' }, recebido_em: '2026-11-20T12:00:01.000Z' });
    expect(r.totais).toMatchObject({ geral: 80.5, alimentacao: 0, hospedagem: 80.5 });
    expect(r.total).toBe(1);
  });

  it('exclusão na fila tira a linha e o valor; criar e excluir antes de enviar se anulam', () => {
    const servidor = lista([despesa('s1', { valor: 10 }), despesa('s2', { valor: 3 })]);
    const excluirS1: DadosExcluir = { operacao: 'excluir', id: 's1', anterior: { valor: 10, tipo: 'alimentacao', data_despesa: '2026-11-20' }, descricao_item: '' };
    const excluirN1: DadosExcluir = { operacao: 'excluir', id: 'n1', anterior: { valor: 4, tipo: 'combustivel', data_despesa: '2026-11-21' }, descricao_item: '' };
    const r = mesclarDespesas(servidor, [item(excluirS1), item(criar('n1', 4)), item(excluirN1)], {}, 1);
    expect(r.despesas.map((d) => d.id)).toEqual(['s2']);
    expect(r.totais.geral).toBe(3);
    expect(r.total).toBe(1);
  });

  it('um item recusado pelo servidor continua visível com a mensagem', () => {
    const r = mesclarDespesas(lista([]), [item(criar('n1', 4), { estado: 'erro', erro: 'Esta rota já foi finalizada e não aceita novos registros.' })], {}, 1);
    expect(r.despesas[0]!.envio).toEqual({ operacao: 'criar', estado: 'erro', erro: 'Esta rota já foi finalizada e não aceita novos registros.' });
  });

  it('se o servidor já tem a despesa (resposta perdida), mostra a versão dele sem contar duas vezes', () => {
    const r = mesclarDespesas(lista([despesa('n1', { valor: 4 })]), [item(criar('n1', 4))], {}, 1);
    expect(r.despesas).toHaveLength(1);
    expect(r.totais.geral).toBe(4);
    expect(r.despesas[0]!.recebido_em).not.toBe('');
  });

  it('ignora itens de outros domínios e de outra versão', () => {
    const alheio: ItemFilaDespesa = { id: 'x', tipo: 'venda.salvar', dados: { operacao: 'criar', id: 'v' }, arquivos: [], estado: 'pendente', erro: null };
    const quebrado: ItemFilaDespesa = { id: 'y', tipo: 'despesa.criar', dados: { qualquer: 1 }, arquivos: [], estado: 'pendente', erro: null };
    expect(mesclarDespesas(lista([]), [alheio, quebrado], {}, 1).despesas).toEqual([]);
  });
});

describe('saldoProjetado', () => {
  it('desconta o que está na fila: criar e aumentar tiram, diminuir e excluir devolvem (centavos exatos)', () => {
    const editar: DadosEditar = {
      ...base,
      operacao: 'editar',
      id: 'n1',
      data_despesa: '2026-11-21',
      tipo: 'combustivel',
      valor: 0.3,
      excluir_cupom: false,
      anterior: { valor: 0.1, tipo: 'combustivel', data_despesa: '2026-11-21' },
    };
    const excluir: DadosExcluir = { operacao: 'excluir', id: 's1', anterior: { valor: 0.2, tipo: 'alimentacao', data_despesa: '2026-11-20' }, descricao_item: '' };
    expect(saldoProjetado(100, [])).toBe(100);
    expect(saldoProjetado(100, [item(criar('n1', 0.1))])).toBe(99.9);
    expect(saldoProjetado(100, [item(criar('n1', 0.1)), item(editar)])).toBe(99.7);
    expect(saldoProjetado(100, [item(criar('n1', 0.1)), item(editar), item(excluir)])).toBe(99.9);
    expect(saldoProjetado(0, [item(criar('n2', 45.9))])).toBe(-45.9);
  });
});
