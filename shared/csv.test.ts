import { describe, expect, it } from 'vitest';
import { BOM_UTF8, gerarCsv, inicioCsv, linhaCsv, valorCsv } from './csv';

describe('CSV para planilhas brasileiras', () => {
  it('começa com o BOM, separa por ponto e vírgula, usa vírgula decimal e termina linhas com CRLF', () => {
    const csv = gerarCsv(['Rota', 'Vendas', 'Boletos'], [['Rota Sul', 1234.5, 3], ['Rota Norte', -20, 0]]);
    expect(csv.startsWith(BOM_UTF8)).toBe(true);
    expect(csv.slice(1)).toBe('Rota;Vendas;Boletos\r\nRota Sul;1234,50;3\r\nRota Norte;-20;0\r\n');
  });

  it('põe entre aspas o que tem separador, aspas ou quebra de linha, e dobra as aspas', () => {
    expect(valorCsv('Almoço; jantar')).toBe('"Almoço; jantar"');
    expect(valorCsv('Hotel "Central"')).toBe('"Hotel ""Central"""');
    expect(valorCsv('linha 1\nlinha 2')).toBe('"linha 1\nlinha 2"');
    expect(valorCsv(null)).toBe('');
    expect(valorCsv(undefined)).toBe('');
  });

  it('texto que a planilha leria como fórmula vai com um apóstrofo na frente; números negativos não', () => {
    expect(valorCsv('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(valorCsv('+5511999')).toBe("'+5511999");
    expect(valorCsv('-texto')).toBe("'-texto");
    expect(valorCsv('@soma')).toBe("'@soma");
    expect(valorCsv(-12.3)).toBe('-12,30');
    expect(valorCsv(0.1 + 0.2)).toBe('0,30');
  });
});

describe('CSV escrito linha a linha', () => {
  it('o início e as linhas juntos são o mesmo texto do CSV inteiro', () => {
    const cabecalho = ['Rota', 'Vendas'];
    const linhas = [['Rota Sul', 1234.5], ['Rota "Norte"; 2', 3]];
    expect(inicioCsv(cabecalho) + linhas.map(linhaCsv).join('')).toBe(gerarCsv(cabecalho, linhas));
    expect(linhaCsv(['a', 1.5])).toBe('a;1,50\r\n');
  });
});
