import { describe, expect, it } from 'vitest';
import { camposDe, oQueEnviar, type CamposVenda } from './formulario';
import { lerCampos } from './lerCampos';

const vazio: CamposVenda = { valor_dinheiro: '', valor_pix: '', valor_cartao: '', valor_link: '', valor_boletos: '', observacoes: '' };

describe('formulário de fechamento', () => {
  it('em branco vale 0; aceita vírgula e milhar como se digita no Brasil', () => {
    const r = lerCampos({ ...vazio, valor_dinheiro: '12,50', valor_pix: '1.234,56', valor_link: '0.1', valor_boletos: '3', observacoes: '  ok  ' });
    expect(r).toEqual({ ok: true, valores: { valor_dinheiro: 1250, valor_pix: 123456, valor_cartao: 0, valor_link: 10, valor_boletos: 3, observacoes: 'ok' } });
  });

  it('recusa negativo, texto, mais de 2 casas e boletos quebrados, com a mensagem de cada campo', () => {
    const r = lerCampos({ ...vazio, valor_dinheiro: '-5', valor_pix: 'abc', valor_cartao: '1,234', valor_boletos: '1.5' });
    expect(r).toEqual({
      ok: false,
      erros: {
        valor_dinheiro: 'Dinheiro não pode ser negativo.',
        valor_pix: 'Pix deve ser um número.',
        valor_cartao: 'Cartão deve ter no máximo 2 casas decimais.',
        valor_boletos: 'Boletos deve ser um número inteiro.',
      },
    });
  });

  it('envia venda só com algum valor, boleto ou observação; senão só a visita', () => {
    const ler = (c: Partial<CamposVenda>) => {
      const r = lerCampos({ ...vazio, ...c });
      if (!r.ok) throw new Error('inválido');
      return r.valores;
    };
    expect(oQueEnviar(ler({}), false)).toBe('visita');
    expect(oQueEnviar(ler({ valor_dinheiro: '0,00', observacoes: '   ' }), false)).toBe('visita');
    expect(oQueEnviar(ler({ valor_link: '0,01' }), false)).toBe('venda');
    expect(oQueEnviar(ler({ valor_boletos: '1' }), false)).toBe('venda');
    expect(oQueEnviar(ler({ observacoes: 'Prefeitura fechada' }), false)).toBe('venda');
    // Clearing an existing closing is an edit, not something to ignore.
    expect(oQueEnviar(ler({}), true)).toBe('venda');
  });

  it('abre a edição com os valores da venda (zeros em branco)', () => {
    expect(camposDe(null)).toEqual(vazio);
    expect(
      camposDe({ id: 'x', valor_dinheiro: 12.5, valor_pix: 0, valor_cartao: 1000, valor_link: 0, valor_boletos: 2, observacoes: 'a', total: 1012.5, registrado_em: '', versao: 1 }),
    ).toEqual({ valor_dinheiro: '12,50', valor_pix: '', valor_cartao: '1000,00', valor_link: '', valor_boletos: '2', observacoes: 'a' });
  });
});
