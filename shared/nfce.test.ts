import { describe, expect, it } from 'vitest';
import {
  cnpjValido,
  CONSULTA_NFE_NACIONAL,
  digitoVerificadorChave,
  formatarChaveNfce,
  formatarCnpj,
  lerQrNfce,
  MENSAGEM_QR_SEM_NFCE,
  resumoNfce,
  urlConsultaNfce,
  validarChaveNfce,
} from './nfce';

// Built by hand: SP (35), 2026-11, CNPJ 12.345.678/0001-95, modelo 65, série 1, nº 12345, tpEmis 1, cNF 00000123, cDV 9.
const CHAVE = '35261112345678000195650010000123451000001239';
// Alphanumeric CNPJ (the Receita's own example 12.ABC.345/01DE-35), contingency (tpEmis 9), cDV 0.
const CHAVE_ALFA = '35261112ABC34501DE35650010000000429876543210';
// A real NFC-e chave published in nfephp-org/sped-nfe's docs (PR, 2017-04): checked with nothing of ours.
const CHAVE_REAL_PR = '41170410422724000187650010000005101000010235';

describe('chave de acesso da NFC-e', () => {
  it('aceita uma chave com o dígito certo e lê suas partes', () => {
    expect(validarChaveNfce(CHAVE)).toEqual({ ok: true, valor: CHAVE });
    const qr = lerQrNfce(`https://www.nfce.fazenda.sp.gov.br/qrcode?p=${CHAVE}|2|1|1|0123456789ABCDEF0123456789ABCDEF01234567`);
    expect(qr).toEqual({
      ok: true,
      valor: { chave: CHAVE, uf: 'SP', anoMes: '2026-11', cnpjEmitente: '12345678000195', modelo: '65', serie: 1, numero: 12345, tipoEmissao: 1 },
    });
  });

  it('confere o dígito de uma chave real e de uma NF-e real (modelo 55, recusada por não ser NFC-e)', () => {
    expect(validarChaveNfce(CHAVE_REAL_PR).ok).toBe(true);
    const nfe55 = '11210205883509000224550020000063421000657553';
    expect(digitoVerificadorChave(nfe55)).toBe(3);
    expect(validarChaveNfce(nfe55)).toEqual({ ok: false, motivo: 'Chave da NFC-e inválida: o modelo 55 não é de NFC-e (65).' });
  });

  it('recusa o dígito verificador errado', () => {
    const errada = CHAVE.slice(0, 43) + '8';
    expect(validarChaveNfce(errada)).toEqual({ ok: false, motivo: 'Chave da NFC-e inválida: o dígito verificador não confere. Confira os números digitados.' });
    // One digit mistyped in the middle (the number 12345 -> 12346) also fails the check.
    expect(validarChaveNfce(CHAVE.replace('000012345', '000012346')).ok).toBe(false);
  });

  it('recusa o tamanho errado, dizendo quantos caracteres vieram', () => {
    expect(validarChaveNfce(CHAVE.slice(0, 43))).toEqual({ ok: false, motivo: 'Chave da NFC-e inválida: ela tem 44 caracteres, e foram informados 43.' });
    expect(validarChaveNfce(`${CHAVE}1`).ok).toBe(false);
    expect(validarChaveNfce('').ok).toBe(false);
  });

  it('aceita a chave digitada em blocos, com pontos ou em minúsculas', () => {
    expect(validarChaveNfce(formatarChaveNfce(CHAVE))).toEqual({ ok: true, valor: CHAVE });
    expect(validarChaveNfce(CHAVE_ALFA.toLowerCase())).toEqual({ ok: true, valor: CHAVE_ALFA });
  });

  it('aceita o CNPJ alfanumérico (letras valem código - 48) e recusa letras fora do CNPJ', () => {
    expect(cnpjValido('12ABC34501DE35')).toBe(true);
    expect(cnpjValido('12ABC34501DE36')).toBe(false);
    expect(validarChaveNfce(CHAVE_ALFA)).toEqual({ ok: true, valor: CHAVE_ALFA });
    // 'A' weighs 17 ('A' - 48): letters read as 0, or shifted by one ('BCD'), the digit would differ.
    expect(digitoVerificadorChave(CHAVE_ALFA)).toBe(0);
    expect(digitoVerificadorChave(CHAVE_ALFA.replace('ABC', '000'))).toBe(5);
    expect(digitoVerificadorChave(CHAVE_ALFA.replace('ABC', 'BCD'))).toBe(1);
    const letraNoNumero = CHAVE.slice(0, 30) + 'A' + CHAVE.slice(31);
    expect(validarChaveNfce(letraNoNumero).ok).toBe(false);
  });

  it('recusa estado, mês e CNPJ impossíveis', () => {
    const comDv = (c43: string) => c43 + digitoVerificadorChave(c43);
    expect(validarChaveNfce(comDv(`99${CHAVE.slice(2, 43)}`))).toEqual({ ok: false, motivo: 'Chave da NFC-e inválida: o código de estado 99 não existe.' });
    expect(validarChaveNfce(comDv(`352613${CHAVE.slice(6, 43)}`))).toEqual({ ok: false, motivo: 'Chave da NFC-e inválida: o mês de emissão 13 não existe.' });
    expect(validarChaveNfce(comDv(`352611${'12345678000196'}${CHAVE.slice(20, 43)}`))).toEqual({
      ok: false,
      motivo: 'Chave da NFC-e inválida: o CNPJ do emitente contido nela não confere.',
    });
  });
});

describe('QR code da NFC-e', () => {
  it('contingência (versão 2): lê a data (dia do QR, mês e ano da chave) e o total em centavos', () => {
    const url = `http://www.fazenda.sp.gov.br/qr?p=${CHAVE_ALFA}|2|1|05|1234.56|${'6a'.repeat(28)}|1|${'F'.repeat(40)}`;
    const r = lerQrNfce(url);
    expect(r.ok && r.valor).toMatchObject({ chave: CHAVE_ALFA, cnpjEmitente: '12ABC34501DE35', tipoEmissao: 9, data: '2026-11-05', totalCentavos: 123456 });
  });

  it('contingência com o separador codificado (%7C) e versão 3', () => {
    const r = lerQrNfce(`https://x.gov.br/nfce?p=${CHAVE}%7C3%7C1%7C30%7C7.5%7C1%7C12345678909%7CAB12`);
    expect(r.ok && r.valor).toMatchObject({ data: '2026-11-30', totalCentavos: 750 });
  });

  it('um dia que o mês não tem ou um total ilegível ficam de fora, a chave continua lida', () => {
    const r = lerQrNfce(`https://x.gov.br/q?p=${CHAVE}|2|1|31|12,50|aa|1|bb`);
    expect(r.ok).toBe(true);
    expect(r.ok && r.valor.data).toBeUndefined();
    expect(r.ok && r.valor.totalCentavos).toBeUndefined();
  });

  it('versão 1 (chNFe=) e a chave sozinha também valem; outro QR não', () => {
    expect(lerQrNfce(`https://nfce.x.gov.br/consulta?chNFe=${CHAVE}&nVersao=100&tpAmb=1`).ok).toBe(true);
    expect(lerQrNfce(CHAVE).ok).toBe(true);
    expect(lerQrNfce('https://exemplo.com/pix?valor=10')).toEqual({ ok: false, motivo: MENSAGEM_QR_SEM_NFCE });
    expect(lerQrNfce(`https://x.gov.br/q?p=${CHAVE.slice(0, 43)}8|2|1|1|ab`)).toMatchObject({ ok: false });
  });
});

describe('apresentação', () => {
  it('formata CNPJ, chave em blocos de 4 e o resumo do formulário', () => {
    expect(formatarCnpj('12345678000195')).toBe('12.345.678/0001-95');
    expect(formatarCnpj('12ABC34501DE35')).toBe('12.ABC.345/01DE-35');
    expect(formatarChaveNfce(CHAVE)).toBe('3526 1112 3456 7800 0195 6500 1000 0123 4510 0000 1239');
    expect(resumoNfce({ cnpjEmitente: '12345678000195', anoMes: '2026-11' })).toBe('CNPJ 12.345.678/0001-95 · 11/2026');
  });

  it('consulta na página do estado emissor; estado fora da tabela vai ao portal nacional com a chave', () => {
    expect(urlConsultaNfce(CHAVE)).toBe('https://www.nfce.fazenda.sp.gov.br/NFCeConsultaPublica');
    expect(urlConsultaNfce(CHAVE_REAL_PR)).toBe('https://www.fazenda.pr.gov.br/nfce/consulta');
    expect(urlConsultaNfce(`99${CHAVE.slice(2)}`)).toBe(`${CONSULTA_NFE_NACIONAL}?tipoConsulta=resumo&nfe=99${CHAVE.slice(2)}`);
  });
});
