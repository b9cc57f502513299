/**
 * The NFC-e (modelo 65) on a receipt: its 44-character chave de acesso, checked the
 * same way on the phone and on the server, and what the receipt's QR code says.
 *
 * Chave (Manual de Orientação do Contribuinte, NF-e/NFC-e 4.00; NT 2025.001 for the alphanumeric CNPJ):
 *   cUF(2) AAMM(4) CNPJ(14) mod(2) serie(3) nNF(9) tpEmis(1) cNF(8) cDV(1)
 * cDV is modulo 11 over the first 43 characters, weights 2..9 repeated from the right, each character
 * worth (code - 48) so that the letters of an alphanumeric CNPJ (from July 2026) count too ('A' = 17);
 * a remainder of 0 or 1 gives 0. The CNPJ's own two check digits follow the same rule.
 *
 * QR code (Manual de Especificações Técnicas do DANFE NFC-e e QR Code, versão 2; NT 2025.001 versão 3),
 * the URL's `p=` parameter, fields separated by '|':
 *   online (v2):        chave|2|tpAmb|idCSC|hash
 *   contingency (v2):   chave|2|tpAmb|dia|vNF|digVal|idCSC|hash
 *   online (v3):        chave|3|tpAmb
 *   contingency (v3):   chave|3|tpAmb|dia|vNF|tpIdDest|idDest|assinatura
 * dia is the day of the month of emission (month and year are in the chave), vNF the total with '.'.
 * Version 1 (obsolete) put the chave in `chNFe=`; only the chave is read from it.
 *
 * Zod-free and DOM-free: the server, the form and the admin's details import it.
 */

import { UFS } from './ufs';

export const TAMANHO_CHAVE_NFCE = 44;
export const MODELO_NFCE = '65';

/** IBGE state codes (cUF) -> UF. */
export const UF_DO_CODIGO: Readonly<Record<string, string>> = Object.fromEntries(UFS.map((u) => [String(u.codigo), u.uf]));

/**
 * Each state's public page to look an NFC-e up by its chave (the "urlChave" printed on the DANFE NFC-e,
 * production environment, as listed by the NT 2015.002 table). The person pastes the chave there.
 */
export const CONSULTA_NFCE_POR_UF: Readonly<Record<string, string>> = {
  AC: 'https://www.sefaznet.ac.gov.br/nfce/consulta',
  AL: 'https://www.sefaz.al.gov.br/nfce/consulta',
  AM: 'https://www.sefaz.am.gov.br/nfce/consulta',
  AP: 'https://www.sefaz.ap.gov.br/nfce/consulta',
  BA: 'https://www.sefaz.ba.gov.br/nfce/consulta',
  CE: 'https://www.sefaz.ce.gov.br/nfce/consulta',
  DF: 'https://www.fazenda.df.gov.br/nfce/consulta',
  ES: 'https://www.sefaz.es.gov.br/nfce/consulta',
  GO: 'https://www.sefaz.go.gov.br/nfce/consulta',
  MA: 'https://www.sefaz.ma.gov.br/nfce/consulta',
  MG: 'https://portalsped.fazenda.mg.gov.br/portalnfce',
  MS: 'https://www.dfe.ms.gov.br/nfce/consulta',
  MT: 'https://www.sefaz.mt.gov.br/nfce/consultanfce',
  PA: 'https://www.sefa.pa.gov.br/nfce/consulta',
  PB: 'https://www.sefaz.pb.gov.br/nfce/consulta',
  PE: 'https://nfce.sefaz.pe.gov.br/nfce/consulta',
  PI: 'https://www.sefaz.pi.gov.br/nfce/consulta',
  PR: 'https://www.fazenda.pr.gov.br/nfce/consulta',
  RJ: 'https://www.fazenda.rj.gov.br/nfce/consulta',
  RN: 'https://www.set.rn.gov.br/nfce/consulta',
  RO: 'https://www.sefin.ro.gov.br/nfce/consulta',
  RR: 'https://www.sefaz.rr.gov.br/nfce/consulta',
  RS: 'https://www.sefaz.rs.gov.br/nfce/consulta',
  SC: 'https://sat.sef.sc.gov.br/nfce/consulta',
  SE: 'https://www.nfce.se.gov.br/nfce/consulta',
  SP: 'https://www.nfce.fazenda.sp.gov.br/NFCeConsultaPublica',
  TO: 'https://www.sefaz.to.gov.br/nfce/consulta',
};

/** The national portal's public consultation, for a state missing from the table. */
export const CONSULTA_NFE_NACIONAL = 'https://www.nfe.fazenda.gov.br/portal/consultaRecaptcha.aspx';

export const MENSAGEM_CHAVE_INVALIDA = 'Chave da NFC-e inválida';

export interface NfceLida {
  /** The 44 characters, upper case, no separators. */
  chave: string;
  /** State of the issuer ('SP'). */
  uf: string;
  /** Year and month of emission, 'AAAA-MM'. */
  anoMes: string;
  /** 14 characters (digits, or digits and capital letters from 2026). */
  cnpjEmitente: string;
  modelo: string;
  serie: number;
  numero: number;
  /** tpEmis: 1 normal, 9 contingency offline. */
  tipoEmissao: number;
  /** Date of emission 'AAAA-MM-DD': only contingency QR codes carry the day. */
  data?: string;
  /** The receipt's total in centavos: only contingency QR codes carry it. */
  totalCentavos?: number;
}

export type Validacao<T> = { ok: true; valor: T } | { ok: false; motivo: string };

const valorDoCaractere = (c: string) => c.charCodeAt(0) - 48;

/** Modulo 11 with weights 2..9 repeated from the right; remainder 0 or 1 -> 0. */
function modulo11(texto: string): number {
  let soma = 0;
  for (let i = texto.length - 1, peso = 2; i >= 0; i--, peso = peso === 9 ? 2 : peso + 1) soma += valorDoCaractere(texto[i]!) * peso;
  const resto = soma % 11;
  return resto < 2 ? 0 : 11 - resto;
}

/** The check digit of the first 43 characters of a chave. */
export function digitoVerificadorChave(chave43: string): number {
  return modulo11(chave43.slice(0, 43));
}

/** A CNPJ's (numeric or alphanumeric) two check digits are right. */
export function cnpjValido(cnpj: string): boolean {
  if (!/^[0-9A-Z]{12}[0-9]{2}$/.test(cnpj) || /^0{14}$/.test(cnpj)) return false;
  const d1 = modulo11(cnpj.slice(0, 12));
  const d2 = modulo11(cnpj.slice(0, 12) + d1);
  return cnpj.endsWith(`${d1}${d2}`);
}

/** What a person or a scanner gave, without spaces, dots or dashes, in capitals. */
export function normalizarChave(texto: string): string {
  return texto.replace(/[\s.\-/]/g, '').toUpperCase();
}

const invalida = (motivo: string): { ok: false; motivo: string } => ({ ok: false, motivo: `${MENSAGEM_CHAVE_INVALIDA}: ${motivo}` });

/** Checks a chave de acesso of an NFC-e; the answer is the normalized chave, or why not (pt-BR). */
export function validarChaveNfce(texto: string): Validacao<string> {
  const chave = normalizarChave(texto);
  if (chave.length !== TAMANHO_CHAVE_NFCE) return invalida(`ela tem 44 caracteres, e foram informados ${chave.length}.`);
  if (!/^[0-9]{6}[0-9A-Z]{12}[0-9]{26}$/.test(chave)) return invalida('use só números (e letras maiúsculas no CNPJ do emitente, a partir de 2026).');
  const codigoUf = chave.slice(0, 2);
  if (!UF_DO_CODIGO[codigoUf]) return invalida(`o código de estado ${codigoUf} não existe.`);
  const mes = Number(chave.slice(4, 6));
  if (mes < 1 || mes > 12) return invalida(`o mês de emissão ${chave.slice(4, 6)} não existe.`);
  if (!cnpjValido(chave.slice(6, 20))) return invalida('o CNPJ do emitente contido nela não confere.');
  const modelo = chave.slice(20, 22);
  if (modelo !== MODELO_NFCE) return invalida(`o modelo ${modelo} não é de NFC-e (65).`);
  if (digitoVerificadorChave(chave) !== Number(chave[43])) return invalida('o dígito verificador não confere. Confira os números digitados.');
  return { ok: true, valor: chave };
}

/** The parts of a valid chave (validarChaveNfce first). */
export function lerChaveNfce(chave: string): NfceLida {
  return {
    chave,
    uf: UF_DO_CODIGO[chave.slice(0, 2)]!,
    anoMes: `20${chave.slice(2, 4)}-${chave.slice(4, 6)}`,
    cnpjEmitente: chave.slice(6, 20),
    modelo: chave.slice(20, 22),
    serie: Number(chave.slice(22, 25)),
    numero: Number(chave.slice(25, 34)),
    tipoEmissao: Number(chave[34]),
  };
}

const diasNoMes = (ano: number, mes: number) => new Date(Date.UTC(ano, mes, 0)).getUTCDate();

/** 'DD' of the chave's month -> 'AAAA-MM-DD', when it is a day of that month. */
function dataDoDia(anoMes: string, dia: string): string | undefined {
  if (!/^\d{1,2}$/.test(dia)) return undefined;
  const [ano, mes] = anoMes.split('-').map(Number) as [number, number];
  const d = Number(dia);
  if (d < 1 || d > diasNoMes(ano, mes)) return undefined;
  return `${anoMes}-${String(d).padStart(2, '0')}`;
}

/** '1500.00' / '12.5' / '7' -> centavos, without floating point. */
function centavosDoValor(valor: string): number | undefined {
  const m = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(valor);
  if (!m) return undefined;
  const centavos = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  return centavos > 0 ? centavos : undefined;
}

function parametro(conteudo: string, nome: string): string | null {
  const m = new RegExp(`[?&]${nome}=([^&#\\s]*)`, 'i').exec(conteudo);
  if (!m) return null;
  try {
    return decodeURIComponent(m[1]!.replace(/\+/g, ' '));
  } catch {
    return m[1]!;
  }
}

export const MENSAGEM_QR_SEM_NFCE = 'O QR code lido não é de uma NFC-e.';

/**
 * Reads the text of a receipt's QR code: the chave (checked), and on a contingency receipt the date
 * and the total. A valid chave with an unreadable day or total still answers, without them.
 */
export function lerQrNfce(conteudo: string): Validacao<NfceLida> {
  const texto = conteudo.trim();
  const p = parametro(texto, 'p');
  const campos = p !== null ? p.split('|') : null;
  const bruta = campos ? campos[0]! : (parametro(texto, 'chNFe') ?? (/^[0-9A-Z\s]{44,60}$/i.test(texto) ? texto : null));
  if (bruta === null) return { ok: false, motivo: MENSAGEM_QR_SEM_NFCE };
  const chave = validarChaveNfce(bruta);
  if (!chave.ok) return chave;
  const nfce = lerChaveNfce(chave.valor);
  // Contingency: day at 3 and total at 4, in both versions 2 (8 fields) and 3 (8 fields).
  if (campos && campos.length >= 7) {
    const data = dataDoDia(nfce.anoMes, campos[3]!.trim());
    const totalCentavos = centavosDoValor(campos[4]!.trim());
    if (data) nfce.data = data;
    if (totalCentavos !== undefined) nfce.totalCentavos = totalCentavos;
  }
  return { ok: true, valor: nfce };
}

/** '12345678000195' -> '12.345.678/0001-95' (letters of an alphanumeric CNPJ stay as they are). */
export function formatarCnpj(cnpj: string): string {
  if (cnpj.length !== 14) return cnpj;
  return `${cnpj.slice(0, 2)}.${cnpj.slice(2, 5)}.${cnpj.slice(5, 8)}/${cnpj.slice(8, 12)}-${cnpj.slice(12)}`;
}

/** The chave in blocks of 4, as the DANFE prints it. */
export function formatarChaveNfce(chave: string): string {
  return (chave.match(/.{1,4}/g) ?? []).join(' ');
}

/** 'AAAA-MM' -> 'MM/AAAA'. */
export function formatarMesAno(anoMes: string): string {
  const [ano, mes] = anoMes.split('-');
  return `${mes}/${ano}`;
}

/** 'CNPJ 12.345.678/0001-95 · 11/2026': what the form shows of a read NFC-e. */
export function resumoNfce(nfce: Pick<NfceLida, 'cnpjEmitente' | 'anoMes'>): string {
  return `CNPJ ${formatarCnpj(nfce.cnpjEmitente)} · ${formatarMesAno(nfce.anoMes)}`;
}

/** Where the admin looks the NFC-e up: the issuing state's public page, else the national portal. */
export function urlConsultaNfce(chave: string): string {
  const uf = UF_DO_CODIGO[chave.slice(0, 2)];
  const daUf = uf ? CONSULTA_NFCE_POR_UF[uf] : undefined;
  return daUf ?? `${CONSULTA_NFE_NACIONAL}?tipoConsulta=resumo&nfe=${encodeURIComponent(chave)}`;
}
