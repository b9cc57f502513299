/**
 * The rules of the exports of whole sets (docs/decisions/paineis-e-relatorios.md, 'O ZIP do contador'): the period
 * the accountant's file may cover, the file's name, the names of the receipts inside it and how a
 * download's size is told. Pure: the server's route, the ZIP and the Relatórios button share them.
 */
import { ehDataValida, formatarData } from './dates';
import { formatarNumero } from './numeros';

/** A year, leap day included: a whole calendar year always fits, thirteen months never do. */
export const DIAS_MAXIMOS_EXPORTACAO = 366;

const diaUtc = (data: string) => Date.UTC(Number(data.slice(0, 4)), Number(data.slice(5, 7)) - 1, Number(data.slice(8, 10))) / 86_400_000;

/** Days from `inicio` to `fim`, both counted ('2026-11-01' to '2026-11-30' is 30). */
export function diasNoPeriodo(inicio: string, fim: string): number {
  return diaUtc(fim) - diaUtc(inicio) + 1;
}

/** Why the period cannot be exported (pt-BR, for a 422); null when it can. Both dates already valid 'yyyy-mm-dd'. */
export function recusaDoPeriodo(inicio: string, fim: string): string | null {
  if (inicio > fim) return `A data inicial (${formatarData(inicio)}) é depois da data final (${formatarData(fim)}).`;
  const dias = diasNoPeriodo(inicio, fim);
  if (dias > DIAS_MAXIMOS_EXPORTACAO) {
    return `O período tem ${formatarNumero(dias)} dias: exporte no máximo ${DIAS_MAXIMOS_EXPORTACAO} dias (um ano) de cada vez.`;
  }
  return null;
}

/** 'contabilidade_2026-11-01_a_2026-11-30.zip' */
export function nomeDoArquivoContabil(inicio: string, fim: string): string {
  return `contabilidade_${inicio}_a_${fim}.zip`;
}

/** The month of `dia` ('yyyy-mm-dd', today in APP_TZ): the period asked when the filters have none. */
export function mesDe(dia: string): { inicio: string; fim: string } {
  const ano = Number(dia.slice(0, 4));
  const mes = Number(dia.slice(5, 7));
  const ultimo = new Date(Date.UTC(ano, mes, 0)).getUTCDate();
  const prefixo = dia.slice(0, 8);
  return { inicio: `${prefixo}01`, fim: `${prefixo}${String(ultimo).padStart(2, '0')}` };
}

/**
 * The period of the filters, completed: both blank is the month of `hoje`; one blank takes the other's
 * month edge (a start alone runs to the end of its month, an end alone starts on the first of its month).
 */
export function periodoDosFiltros(dataInicio: string, dataFim: string, hoje: string): { inicio: string; fim: string } {
  const inicio = ehDataValida(dataInicio) ? dataInicio : '';
  const fim = ehDataValida(dataFim) ? dataFim : '';
  if (inicio && fim) return { inicio, fim };
  if (inicio) return { inicio, fim: mesDe(inicio).fim };
  if (fim) return { inicio: mesDe(fim).inicio, fim };
  return mesDe(hoje);
}

/** ASCII-safe part of a file name: 'João da Silva' -> 'joao-da-silva'; never empty, at most `maximo` characters. */
export function slugAscii(texto: string, maximo = 40, vazio = 'sem-nome'): string {
  const slug = texto
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, maximo)
    .replace(/-+$/, '');
  return slug || vazio;
}

/** 4800 centavos -> '48-00' (a comma or a dot in a file name confuses some systems). */
export function valorNoNome(centavos: number): string {
  const inteiro = Math.trunc(Math.abs(centavos) / 100);
  const resto = Math.abs(centavos) % 100;
  return `${centavos < 0 ? 'menos-' : ''}${inteiro}-${String(resto).padStart(2, '0')}`;
}

const EXTENSAO_DO_MIME: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/heic': 'heic',
  'image/heif': 'heif',
  'application/pdf': 'pdf',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
};

/** The receipt's extension: from its checked type, else from its original name, else 'bin'. */
export function extensaoDoComprovante(mime: string, nomeOriginal: string): string {
  const doMime = EXTENSAO_DO_MIME[mime.toLowerCase()];
  if (doMime) return doMime;
  const doNome = /\.([a-z0-9]{1,5})$/i.exec(nomeOriginal)?.[1];
  return doNome ? doNome.toLowerCase() : 'bin';
}

export interface ComprovanteParaNomear {
  /** The expense's date, 'yyyy-mm-dd'. */
  data: string;
  funcionario: string;
  /** The type as people read it ('Alimentação', or the text of 'outro'). */
  tipo: string;
  valorCentavos: number;
  mime: string;
  nomeOriginal: string;
}

/** 'aaaa-mm-dd_funcionario_tipo_valor' (without the suffix nor the extension). */
export function baseDoComprovante(c: ComprovanteParaNomear): string {
  return `${c.data}_${slugAscii(c.funcionario)}_${slugAscii(c.tipo, 30, 'despesa')}_${valorNoNome(c.valorCentavos)}`;
}

/**
 * Names receipts in the order they are given: the first of a name is 'base.ext', the next ones
 * 'base-2.ext', 'base-3.ext'. The date starts every name, so names of different days never collide:
 * given the receipts day by day, it only remembers the current day's names (bounded memory for a year).
 */
export class NomesDeComprovantes {
  private dia: string | null = null;
  private usados = new Set<string>();

  nome(c: ComprovanteParaNomear): string {
    if (c.data !== this.dia) {
      this.dia = c.data;
      this.usados = new Set();
    }
    const base = baseDoComprovante(c);
    const extensao = extensaoDoComprovante(c.mime, c.nomeOriginal);
    let nome = `${base}.${extensao}`;
    for (let n = 2; this.usados.has(nome); n++) nome = `${base}-${n}.${extensao}`;
    this.usados.add(nome);
    return nome;
  }
}

/** A download's size as people read it: '830 B', '12 KB', '1,4 MB'. */
export function formatarBytes(bytes: number): string {
  if (bytes < 1024) return `${formatarNumero(bytes)} B`;
  if (bytes < 1024 * 1024) return `${formatarNumero(Math.floor(bytes / 1024))} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${formatarNumero(bytes / (1024 * 1024), 1)} MB`;
  return `${formatarNumero(bytes / (1024 * 1024 * 1024), 2)} GB`;
}
