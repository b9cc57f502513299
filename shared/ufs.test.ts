import { describe, expect, it } from 'vitest';
import { nomeDaUf, UFS } from './ufs';

describe('UFs', () => {
  it('são as 27 unidades da federação, sem repetir sigla nem código', () => {
    expect(UFS).toHaveLength(27);
    expect(new Set(UFS.map((u) => u.uf)).size).toBe(27);
    expect(new Set(UFS.map((u) => u.codigo)).size).toBe(27);
  });

  it('nomeDaUf dá o nome do estado, e devolve a sigla desconhecida como veio', () => {
    expect(nomeDaUf('GO')).toBe('Goiás');
    expect(nomeDaUf('MG')).toBe('Minas Gerais');
    expect(nomeDaUf('XX')).toBe('XX');
  });
});
