import { describe, expect, it } from 'vitest';
import { compararTexto, contagem, normalizarBusca, ordenarPorNome, plural } from './texto';

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

describe('compararTexto / ordenarPorNome (pt-BR)', () => {
  it('acentos e maiúsculas não mandam o nome para o fim', () => {
    const nomes = ['Maria', 'Íris', 'bruno', 'Zé', 'Álvaro', 'Ana', 'Érica', 'Otávio', 'Ôscar'];
    expect([...nomes].sort()).not.toEqual([...nomes].sort(compararTexto)); // byte order is wrong
    expect([...nomes].sort(compararTexto)).toEqual(['Álvaro', 'Ana', 'bruno', 'Érica', 'Íris', 'Maria', 'Ôscar', 'Otávio', 'Zé']);
    expect(['Paraná', 'Paraíba', 'Pará'].sort(compararTexto)).toEqual(['Pará', 'Paraíba', 'Paraná']);
  });

  it('ordenarPorNome devolve uma cópia e mantém a ordem de nomes iguais', () => {
    const lista = [
      { id: 1, nome: 'Maria' },
      { id: 2, nome: 'íris' },
      { id: 3, nome: 'Iris' },
    ];
    expect(ordenarPorNome(lista, (x) => x.nome).map((x) => x.id)).toEqual([2, 3, 1]);
    expect(lista.map((x) => x.id)).toEqual([1, 2, 3]);
  });
});

describe('plural / contagem (pt-BR)', () => {
  it('um é singular; zero e mais de um são plural', () => {
    expect(contagem(1, 'registro', 'registros')).toBe('1 registro');
    expect(contagem(0, 'registro', 'registros')).toBe('0 registros');
    expect(contagem(2, 'tentativa', 'tentativas')).toBe('2 tentativas');
    expect(contagem(1500, 'item', 'itens')).toBe('1.500 itens');
    expect(plural(1, 'chegou', 'chegaram')).toBe('chegou');
    expect(plural(3, 'chegou', 'chegaram')).toBe('chegaram');
  });
});
