import { describe, expect, it } from 'vitest';
import { z } from '../../../shared/zod';
import { dadosVendaSchema, dadosVisitaSchema } from './fila';

// The zod schemas these readers replaced (the first screen loads no zod): same answers on every sample.
// The amounts are centavos (whole numbers) since the local database's version 4.
const valorCentavos = z.number().int().min(0);
const vendaZod = z.object({
  id: z.string().min(1),
  rota_id: z.number().int().positive(),
  cidade_id: z.number().int().positive(),
  data_venda: z.string(),
  valor_dinheiro: valorCentavos,
  valor_pix: valorCentavos,
  valor_cartao: valorCentavos,
  valor_link: valorCentavos,
  valor_boletos: z.number().int().min(0),
  observacoes: z.string(),
  registrado_em: z.string(),
  cidade_nome: z.string().optional(),
  cidade_uf: z.string().optional(),
});
const visitaZod = z.object({
  id: z.string().min(1),
  rota_id: z.number().int().positive(),
  cidade_id: z.number().int().positive(),
  data: z.string(),
  registrado_em: z.string(),
  cidade_nome: z.string().optional(),
  cidade_uf: z.string().optional(),
});

const venda = {
  id: '0190-abc',
  rota_id: 3,
  cidade_id: 5208707,
  data_venda: '2026-11-22',
  valor_dinheiro: 1050,
  valor_pix: 0,
  valor_cartao: 120000,
  valor_link: 1,
  valor_boletos: 2,
  observacoes: '',
  registrado_em: '2026-11-22T13:00:00.000Z',
};
const visita = { id: '0190-def', rota_id: 3, cidade_id: 5208707, data: '2026-11-22', registrado_em: '2026-11-22T13:00:00.000Z' };

// Each field replaced by values a corrupted or older item might hold.
const estranhos: unknown[] = [undefined, null, '', 'x', '3', 0, -1, 1.5, 2 ** 53, NaN, Infinity, -Infinity, true, [], {}];

function amostras(base: Record<string, unknown>, opcionais: string[]): unknown[] {
  const lista: unknown[] = [base, null, undefined, 'texto', 7, [], [base], { ...base, extra: 'fora', cidade_nome: 'Goiânia', cidade_uf: 'GO' }];
  for (const chave of [...Object.keys(base), ...opcionais]) {
    for (const v of estranhos) lista.push({ ...base, [chave]: v });
    const { [chave]: _fora, ...sem } = base;
    lista.push(sem);
  }
  return lista;
}

describe('leitores da fila de vendas (sem zod)', () => {
  it.each([
    ['venda', dadosVendaSchema, vendaZod, venda],
    ['visita', dadosVisitaSchema, visitaZod, visita],
  ] as const)('%s: aceita, recusa e lê exatamente como o schema zod que substituíram', (_nome, leitor, referencia, base) => {
    const lista = amostras(base, ['cidade_nome', 'cidade_uf']);
    expect(lista.length).toBeGreaterThan(100);
    for (const amostra of lista) {
      const esperado = referencia.safeParse(amostra);
      const lido = leitor.safeParse(amostra);
      expect({ amostra, success: lido.success }).toEqual({ amostra, success: esperado.success });
      expect(lido.data).toEqual(esperado.data);
    }
  });

  it('descarta chaves desconhecidas: só o que a API recebe vai no envio', () => {
    const lido = dadosVendaSchema.safeParse({ ...venda, cidade_nome: 'Goiânia', segredo: 'não enviar' });
    expect(lido.success && Object.keys(lido.data).sort()).toEqual([...Object.keys(venda), 'cidade_nome'].sort());
  });
});
