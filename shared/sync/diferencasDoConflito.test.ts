import { describe, expect, it } from 'vitest';
import type { ConflitoDeVersao, ValoresEmConflito } from '../api/errors';
import { diferencasDoConflito } from './diferencasDoConflito';

const base: ValoresEmConflito = { valor_dinheiro: 150_000, valor_pix: 67_040, valor_cartao: 50_000, valor_link: 0, valor_boletos: 3, observacoes: '' };
const conflito = (servidor: Partial<ValoresEmConflito>, enviado: Partial<ValoresEmConflito>): ConflitoDeVersao => ({
  versao_atual: 2,
  servidor: { ...base, ...servidor },
  enviado: { ...base, ...enviado },
});
const normalizar = (s: string) => s.replace(/\s/g, ' ');

describe('diferencasDoConflito', () => {
  it('lista só os campos que diferem, com rótulos e dinheiro em pt-BR, o do aparelho e o do servidor', () => {
    // Example totals: R$ 2.670,40 on this device against R$ 2.550,90 on the server, both with 3 boletos.
    const d = diferencasDoConflito(conflito({ valor_pix: 55_090 }, { valor_pix: 67_040 }));
    expect(d.map((c) => ({ ...c, aparelho: normalizar(c.aparelho), servidor: normalizar(c.servidor) }))).toEqual([
      { campo: 'valor_pix', rotulo: 'Pix', aparelho: 'R$ 670,40', servidor: 'R$ 550,90' },
    ]);
  });

  it('boletos como contagem, observação como texto (vazia: "sem observação") e vários campos na ordem do formulário', () => {
    const d = diferencasDoConflito(
      conflito({ valor_dinheiro: 100_000, valor_boletos: 2, observacoes: 'Cliente pagou parte em cheque' }, { valor_dinheiro: 120_000, valor_boletos: 3, observacoes: '' }),
    );
    expect(d.map((c) => c.campo)).toEqual(['valor_dinheiro', 'valor_boletos', 'observacoes']);
    expect(d[1]).toEqual({ campo: 'valor_boletos', rotulo: 'Boletos', aparelho: '3', servidor: '2' });
    expect(d[2]).toEqual({ campo: 'observacoes', rotulo: 'Observações', aparelho: 'sem observação', servidor: 'Cliente pagou parte em cheque' });
  });

  it('valores iguais: nenhuma diferença (o total diferente só aparece nas parcelas que mudaram)', () => {
    expect(diferencasDoConflito(conflito({}, {}))).toEqual([]);
    expect(diferencasDoConflito(conflito({ valor_cartao: 0, valor_link: 50_000 }, {})).map((c) => c.rotulo)).toEqual(['Cartão', 'Link']);
  });
});
