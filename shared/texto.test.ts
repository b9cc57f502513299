import { describe, expect, it } from 'vitest';
import { normalizarBusca } from './texto';

describe('normalizarBusca', () => {
  it.each([
    ['São Paulo', 'sao paulo'],
    ['São  Paulo', 'sao paulo'],
    ['  GOIÂNIA ', 'goiania'],
    ['Açaílândia', 'acailandia'],
    ['Ribeirão\tPreto\n', 'ribeirao preto'],
    ["Pingo-d'Água", "pingo-d'agua"],
    ['Itaú de Minas', 'itau de minas'],
    ['', ''],
  ])('%j -> %j', (texto, esperado) => {
    expect(normalizarBusca(texto)).toBe(esperado);
  });

  it('texto composto (NFC) e decomposto (NFD) dão o mesmo resultado', () => {
    const nfc = 'São Paulo'.normalize('NFC');
    const nfd = 'São Paulo'.normalize('NFD');
    expect(nfc).not.toBe(nfd);
    expect(normalizarBusca(nfc)).toBe(normalizarBusca(nfd));
  });

  it('mantém % e _ (quem escapa curingas é a consulta)', () => {
    expect(normalizarBusca('50%_A')).toBe('50%_a');
  });
});
