import { describe, expect, it } from 'vitest';
import { abaixoDaMinima, compararVersoes, VERSAO_MINIMA_APP, versaoAntiga, versaoValida } from './versao';

describe('versaoValida', () => {
  it('aceita major.minor.patch com pré-lançamento opcional', () => {
    for (const v of ['0.1.0', '1.2.3', '10.20.30', '1.0.0-beta', '1.0.0-beta.2', '1.0.0-rc-1.x', VERSAO_MINIMA_APP]) expect(versaoValida(v), v).toBe(true);
  });

  it('recusa lixo, zeros à esquerda, metadados de build, textos longos e não-ASCII', () => {
    for (const v of ['', '1', '1.2', '1.2.3.4', 'v1.2.3', '01.2.3', '1.2.3+abc', '1.2.3-', '1.2.3-beta..1', ' 1.2.3', '1.2.3\n', '1.2.3-çé', `1.2.3-${'a'.repeat(40)}`, '9999999.0.0', null, 3, undefined]) {
      expect(versaoValida(v), String(v)).toBe(false);
    }
  });
});

describe('compararVersoes', () => {
  it('compara números como números, não como texto', () => {
    expect(compararVersoes('0.10.0', '0.9.0')).toBe(1);
    expect(compararVersoes('0.9.0', '0.10.0')).toBe(-1);
    expect(compararVersoes('1.0.0', '0.99.99')).toBe(1);
    expect(compararVersoes('2.1.3', '2.1.3')).toBe(0);
    expect(compararVersoes('2.1.3', '2.1.10')).toBe(-1);
  });

  it('segue a precedência do semver para pré-lançamentos', () => {
    const ordem = ['1.0.0-alpha', '1.0.0-alpha.1', '1.0.0-alpha.beta', '1.0.0-beta', '1.0.0-beta.2', '1.0.0-beta.11', '1.0.0-rc.1', '1.0.0'];
    for (let i = 0; i < ordem.length - 1; i++) {
      expect(compararVersoes(ordem[i]!, ordem[i + 1]!), `${ordem[i]} < ${ordem[i + 1]}`).toBe(-1);
      expect(compararVersoes(ordem[i + 1]!, ordem[i]!)).toBe(1);
    }
  });

  it('recusa comparar o que não é versão', () => {
    expect(() => compararVersoes('abc', '1.0.0')).toThrow(/Versão inválida/);
    expect(() => compararVersoes('1.0.0', '1.0')).toThrow(/Versão inválida/);
  });
});

describe('versaoAntiga', () => {
  it('só é antiga a versão abaixo da mínima; a própria mínima e as seguintes passam', () => {
    expect(versaoAntiga('0.0.9', '0.1.0')).toBe(true);
    expect(versaoAntiga('0.1.0-rc.1', '0.1.0')).toBe(true);
    expect(versaoAntiga('0.1.0', '0.1.0')).toBe(false);
    expect(versaoAntiga('0.2.0', '0.1.0')).toBe(false);
  });
});

describe('abaixoDaMinima', () => {
  it('só uma versão legível e anterior à mínima é barrada; ausente, de script ou lixo passa', () => {
    expect(abaixoDaMinima('0.0.9', '0.1.0')).toBe(true);
    expect(abaixoDaMinima(' 0.0.9 ', '0.1.0')).toBe(true);
    expect(abaixoDaMinima('0.1.0', '0.1.0')).toBe(false);
    for (const ilegivel of [undefined, null, 7, '', 'teste', '0.0.1.0', ['0.0.9']]) expect(abaixoDaMinima(ilegivel, '0.1.0')).toBe(false);
  });
});
