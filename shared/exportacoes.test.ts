import { describe, expect, it } from 'vitest';
import {
  diasNoPeriodo,
  extensaoDoComprovante,
  formatarBytes,
  mesDe,
  nomeDoArquivoContabil,
  NomesDeComprovantes,
  periodoDosFiltros,
  recusaDoPeriodo,
  slugAscii,
  valorNoNome,
} from './exportacoes';

describe('período da exportação para o contador', () => {
  it('conta os dois dias das pontas e aceita até 366 dias', () => {
    expect(diasNoPeriodo('2026-11-01', '2026-11-30')).toBe(30);
    expect(diasNoPeriodo('2026-11-01', '2026-11-01')).toBe(1);
    expect(recusaDoPeriodo('2028-01-01', '2028-12-31')).toBeNull(); // ano bissexto: 366 dias
    expect(recusaDoPeriodo('2026-01-01', '2027-01-01')).toBeNull();
  });

  it('recusa início depois do fim e período maior que um ano, em pt-BR', () => {
    expect(recusaDoPeriodo('2026-12-01', '2026-11-30')).toBe('A data inicial (01/12/2026) é depois da data final (30/11/2026).');
    expect(recusaDoPeriodo('2026-01-01', '2027-01-02')).toBe('O período tem 367 dias: exporte no máximo 366 dias (um ano) de cada vez.');
  });

  it('nomeia o arquivo com as duas datas', () => {
    expect(nomeDoArquivoContabil('2026-11-01', '2026-11-30')).toBe('contabilidade_2026-11-01_a_2026-11-30.zip');
  });

  it('completa o período dos filtros: vazio é o mês de hoje; uma ponta só leva a outra ponta do mês dela', () => {
    expect(mesDe('2028-02-10')).toEqual({ inicio: '2028-02-01', fim: '2028-02-29' });
    expect(periodoDosFiltros('', '', '2026-12-07')).toEqual({ inicio: '2026-12-01', fim: '2026-12-31' });
    expect(periodoDosFiltros('2026-11-10', '', '2026-12-07')).toEqual({ inicio: '2026-11-10', fim: '2026-11-30' });
    expect(periodoDosFiltros('', '2026-10-15', '2026-12-07')).toEqual({ inicio: '2026-10-01', fim: '2026-10-15' });
    expect(periodoDosFiltros('2026-01-01', '2026-06-30', '2026-12-07')).toEqual({ inicio: '2026-01-01', fim: '2026-06-30' });
  });
});

describe('nomes dos comprovantes dentro do ZIP', () => {
  const base = { data: '2026-11-03', funcionario: 'João da Silva', tipo: 'Alimentação', valorCentavos: 4800, mime: 'image/jpeg', nomeOriginal: 'IMG_0001.JPG' };

  it('são ASCII: data, funcionário, tipo e valor', () => {
    expect(slugAscii('Ênio Araújo  Filho')).toBe('enio-araujo-filho');
    expect(slugAscii('***')).toBe('sem-nome');
    expect(valorNoNome(4800)).toBe('48-00');
    expect(valorNoNome(1234505)).toBe('12345-05');
    expect(new NomesDeComprovantes().nome(base)).toBe('2026-11-03_joao-da-silva_alimentacao_48-00.jpg');
  });

  it('a extensão vem do tipo conferido, senão do nome original', () => {
    expect(extensaoDoComprovante('application/pdf', 'nota')).toBe('pdf');
    expect(extensaoDoComprovante('application/octet-stream', 'recibo.TXT')).toBe('txt');
    expect(extensaoDoComprovante('application/octet-stream', 'recibo')).toBe('bin');
  });

  it("dois nomes iguais no mesmo dia ganham '-2', '-3'; o dia seguinte recomeça", () => {
    const nomes = new NomesDeComprovantes();
    expect(nomes.nome(base)).toBe('2026-11-03_joao-da-silva_alimentacao_48-00.jpg');
    expect(nomes.nome(base)).toBe('2026-11-03_joao-da-silva_alimentacao_48-00-2.jpg');
    expect(nomes.nome({ ...base, mime: 'application/pdf' })).toBe('2026-11-03_joao-da-silva_alimentacao_48-00.pdf');
    expect(nomes.nome(base)).toBe('2026-11-03_joao-da-silva_alimentacao_48-00-3.jpg');
    expect(nomes.nome({ ...base, data: '2026-11-04' })).toBe('2026-11-04_joao-da-silva_alimentacao_48-00.jpg');
  });
});

describe('tamanho de um download', () => {
  it('em B, KB, MB e GB com vírgula decimal', () => {
    expect(formatarBytes(830)).toBe('830 B');
    expect(formatarBytes(12 * 1024 + 5)).toBe('12 KB');
    expect(formatarBytes(1.4 * 1024 * 1024)).toBe('1,4 MB');
    expect(formatarBytes(3 * 1024 * 1024 * 1024)).toBe('3,00 GB');
  });
});
