import { afterEach, describe, expect, it, vi } from 'vitest';
import { aoPrimeiroUso } from './aoPrimeiroUso';

describe('aoPrimeiroUso', () => {
  it('constrói na primeira chamada, uma vez só', () => {
    const criar = vi.fn(() => ({ criado: true }));
    const valor = aoPrimeiroUso(criar);
    expect(criar).not.toHaveBeenCalled();
    const primeiro = valor();
    expect(valor()).toBe(primeiro);
    expect(criar).toHaveBeenCalledTimes(1);
  });
});

describe('formatos Intl de shared/', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.resetModules();
  });

  it('nenhum é criado ao importar os módulos (o primeiro Intl da página inicia o ICU), e cada um uma vez, no uso', async () => {
    const construidos: string[] = [];
    for (const nome of ['DateTimeFormat', 'NumberFormat', 'Collator'] as const) {
      const original = Intl[nome];
      // A plain function: the modules call it with `new`.
      vi.spyOn(Intl, nome).mockImplementation(function (...args: unknown[]) {
        construidos.push(nome);
        return new (original as unknown as new (...a: unknown[]) => object)(...args);
      } as never);
    }
    vi.resetModules();
    const datas = await import('./dates');
    const dinheiro = await import('./money');
    const texto = await import('./texto');
    expect(construidos).toEqual([]);

    const usar = () => {
      expect(dinheiro.formatarCentavos(123456)).toBe('R$\u00a01.234,56');
      expect(texto.contagem(1500, 'item', 'itens')).toBe('1.500 itens');
      expect(texto.compararTexto('Íris', 'Maria')).toBeLessThan(0);
      expect(datas.formatarDataPorExtenso('2026-11-21')).toBe('sábado, 21 de novembro de 2026');
    };
    usar();
    // Money and counts are written without Intl at all (shared/numeros.ts).
    expect([...construidos].sort()).toEqual(['Collator', 'DateTimeFormat']);
    usar();
    expect(construidos).toHaveLength(2);
  });
});
