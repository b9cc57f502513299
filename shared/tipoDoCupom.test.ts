import { describe, expect, it } from 'vitest';
import { CUPOM_TAMANHO_MAXIMO, MENSAGEM_ARQUIVO_GRANDE, MENSAGEM_TIPO_ARQUIVO } from './schemas/despesas';
import { detectarTipoCupom, recusaDoCupom } from './tipoDoCupom';

const bytes = (...partes: (number[] | string)[]) =>
  new Uint8Array(partes.flatMap((p) => (typeof p === 'string' ? Array.from(p, (c) => c.charCodeAt(0)) : p)));

describe('detectarTipoCupom: o tipo pelos bytes, nunca pelo nome', () => {
  it.each([
    ['JPEG', bytes([0xff, 0xd8, 0xff, 0xe0]), 'image/jpeg'],
    ['PNG', bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]), 'image/png'],
    ['WEBP', bytes('RIFF', [0, 0, 0, 0], 'WEBPVP8 '), 'image/webp'],
    ['HEIC', bytes([0, 0, 0, 0x18], 'ftypheic', [0, 0, 0, 0]), 'image/heic'],
    ['HEIF', bytes([0, 0, 0, 0x18], 'ftypmif1', [0, 0, 0, 0]), 'image/heif'],
    ['PDF', bytes('%PDF-1.7\n'), 'application/pdf'],
    ['DOC', bytes([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0]), 'application/msword'],
    ['DOCX', bytes([0x50, 0x4b, 0x03, 0x04], '....[Content_Types].xml....word/document.xml'), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  ])('%s é aceito', (_nome, amostra, mime) => {
    expect(detectarTipoCupom(amostra)?.mime).toBe(mime);
  });

  it('um DOCX cujas primeiras entradas são grandes é reconhecido pelo diretório no fim do zip', () => {
    const inicio = bytes([0x50, 0x4b, 0x03, 0x04], '[Content_Types].xml', 'x'.repeat(100));
    expect(detectarTipoCupom(inicio)).toBeNull();
    expect(detectarTipoCupom(inicio, bytes('PK..word/document.xml'))?.extensao).toBe('docx');
  });

  it.each([
    ['texto renomeado para .jpg', bytes('isto não é uma foto')],
    ['GIF', bytes('GIF89a')],
    ['MP4', bytes([0, 0, 0, 0x18], 'ftypisom', [0, 0, 0, 0])],
    ['zip que não é DOCX', bytes([0x50, 0x4b, 0x03, 0x04], 'planilha.xlsx')],
    ['vazio', new Uint8Array(0)],
    ['JPEG cortado', bytes([0xff, 0xd8])],
  ])('%s é recusado', (_nome, amostra) => {
    expect(detectarTipoCupom(amostra)).toBeNull();
  });
});

describe('recusaDoCupom: o que o servidor recusaria, com as palavras dele', () => {
  const pdf = bytes('%PDF-1.4');
  it('acima do limite do servidor: grande demais, mesmo sendo PDF', () => {
    expect(recusaDoCupom({ tamanho: CUPOM_TAMANHO_MAXIMO + 1, inicio: pdf, fim: pdf })).toBe(MENSAGEM_ARQUIVO_GRANDE);
    expect(recusaDoCupom({ tamanho: CUPOM_TAMANHO_MAXIMO, inicio: pdf, fim: pdf })).toBeNull();
  });
  it('bytes que não são imagem, PDF nem DOC: tipo não aceito', () => {
    const texto = bytes('olá');
    expect(recusaDoCupom({ tamanho: 3, inicio: texto, fim: texto })).toBe(MENSAGEM_TIPO_ARQUIVO);
  });
});
