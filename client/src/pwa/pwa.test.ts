import { describe, expect, it } from 'vitest';
import { formatarBytes } from './armazenamento';
import { motivoParaEsperar } from './AvisoAtualizacao';

describe('motivoParaEsperar (uma atualização nunca custa trabalho)', () => {
  it('espera a fila esvaziar e os formulários fecharem', () => {
    expect(motivoParaEsperar(3, false, false)).toBe('Enviando 3 registros antes de atualizar...');
    expect(motivoParaEsperar(1, false, true)).toBe('Enviando 1 registro antes de atualizar...');
    expect(motivoParaEsperar(0, true, false)).toBe('Enviando 0 registros antes de atualizar...');
    expect(motivoParaEsperar(0, false, true)).toBe('Feche o formulário aberto para atualizar.');
    expect(motivoParaEsperar(0, false, false)).toBeNull();
  });
});

describe('formatarBytes', () => {
  it('usa vírgula decimal e a unidade certa', () => {
    expect(formatarBytes(512)).toBe('512 bytes');
    expect(formatarBytes(1536)).toBe('1,5 KB');
    expect(formatarBytes(5_300_000)).toBe('5,1 MB');
    expect(formatarBytes(250 * 1024 * 1024)).toBe('250 MB');
  });
});
