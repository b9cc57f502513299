import { describe, expect, it } from 'vitest';
import { ehTipoOperacao, OPERACOES, retencaoDe, Retencoes, TIPOS_OPERACAO, type DadosOperacao } from './operacoes';

const venda = (cidade: number, data = '2026-11-20'): DadosOperacao['venda.salvar'] => ({
  id: `v-${cidade}-${data}`,
  rota_id: 7,
  cidade_id: cidade,
  data_venda: data,
  valor_dinheiro: 1000,
  valor_pix: 0,
  valor_cartao: 0,
  valor_link: 0,
  valor_boletos: 0,
  observacoes: '',
});

describe('registro das escritas offline', () => {
  it('cada tipo tem a sua definição, com o próprio nome', () => {
    for (const tipo of TIPOS_OPERACAO) expect(OPERACOES[tipo].tipo).toBe(tipo);
    expect(ehTipoOperacao('venda.salvar')).toBe(true);
    expect(ehTipoOperacao('venda.apagar')).toBe(false);
    expect(ehTipoOperacao(3)).toBe(false);
  });

  it('uma venda recusada retém a edição do mesmo dia e a finalização da rota, não as outras vendas', () => {
    const r = new Retencoes();
    r.reter(retencaoDe({ tipo: 'venda.salvar', dados: venda(1) }));
    expect(r.retida(retencaoDe({ tipo: 'venda.salvar', dados: venda(1) }))).toBe(true);
    expect(r.retida(retencaoDe({ tipo: 'visita.registrar', dados: { id: 'x', rota_id: 7, cidade_id: 1, data: '2026-11-20' } }))).toBe(true);
    expect(r.retida(retencaoDe({ tipo: 'venda.salvar', dados: venda(2) }))).toBe(false);
    expect(r.retida(retencaoDe({ tipo: 'rota.finalizar', dados: { rota_id: 7 } }))).toBe(true);
    expect(r.retida(retencaoDe({ tipo: 'rota.finalizar', dados: { rota_id: 8 } }))).toBe(false);
  });

  it('a finalização carrega só a própria chave, quantas escritas a rota tiver', () => {
    expect(retencaoDe({ tipo: 'rota.finalizar', dados: { rota_id: 7 } })).toEqual({ espera: ['rota:7', 'fim-da-rota:7'], retem: ['rota:7'] });
    // A refused finishing holds nothing of the sales that come after it.
    const r = new Retencoes();
    r.reter(retencaoDe({ tipo: 'rota.finalizar', dados: { rota_id: 7 } }));
    expect(r.retida(retencaoDe({ tipo: 'venda.salvar', dados: venda(1) }))).toBe(false);
  });

  it('o efeito de cada despesa no saldo, em centavos', () => {
    const campos = { id: 'd', rota_id: 7, cidade_id: 1, data_despesa: '2026-11-20', tipo: 'alimentacao', tipo_outro: '', descricao: '' };
    expect(OPERACOES['despesa.criar'].efeito({ ...campos, valor: 4590 }).saldo).toBe(-4590);
    expect(OPERACOES['despesa.editar'].efeito({ ...campos, valor: 3000 }, { valor: 5000 }).saldo).toBe(2000);
    expect(OPERACOES['despesa.excluir'].efeito({ id: 'd' }, { valor: 5000 }).saldo).toBe(5000);
    expect(OPERACOES['venda.salvar'].efeito(venda(1)).dia).toEqual({ rota_id: 7, cidade_id: 1, data: '2026-11-20', situacao: 'vendida' });
  });
});
