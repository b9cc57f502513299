/**
 * The rescue file (.sgp) read as it streams, in memory bounded whatever its size. The file is one
 * JSON object (client/src/offline/exportacao.ts): a header, then `operacoes`, each with its receipts
 * as base64 strings (`arquivo`, and `arquivos` when there are several). Those strings are nearly all
 * of a large file, and they are never held: each is decoded as it passes into a temporary file of
 * its own. Everything else is built into the same value JSON.parse would give, with each receipt's
 * `base64` left empty, and it may take at most LIMITE_JSON_FORA_DOS_COMPROVANTES bytes of the file.
 *
 * A whole JSON.parse held the file's bytes, its text, the parsed strings and the decoded receipts at
 * once: one 93 MB file peaked at 477 MB, and two at once ran a 256 MB heap out.
 */
import fs from 'node:fs';
import { CUPOM_TAMANHO_MAXIMO } from '../../../shared/schemas/despesas';
import { FORMATO_PENDENCIAS } from '../../../shared/schemas/pendencias';
import type { ArquivoRecebido, GravacaoTemporaria, Temporarios } from '../arquivos/temporarios';
import { arquivoGrande, dadosInvalidos } from '../errors';

export const MENSAGEM_NAO_E_PENDENCIAS =
  'Este arquivo não é um arquivo de pendências do Sistema de Gestão. Escolha o arquivo .sgp criado em "Exportar pendências".';
export const MENSAGEM_COMPROVANTE_ILEGIVEL = 'Comprovante ilegível no arquivo.';

/**
 * The file's bytes outside the receipts' base64: twice the batch sync's 8 MB of JSON. A phone's
 * largest queue (5,000 writes, an old finishing with the keys of its whole route) is a few MB.
 */
export const LIMITE_JSON_FORA_DOS_COMPROVANTES = 16 * 1024 * 1024;
export const MENSAGEM_JSON_GRANDE =
  'O arquivo de pendências tem dados demais além dos comprovantes (mais de 16 MB): ele não foi criado por "Exportar pendências".';
/** Nesting a real file never reaches (its deepest is a write's data); deeper is refused, not recursed into. */
const PROFUNDIDADE_MAXIMA = 64;
/** A number or a literal longer than this is not one. */
const ATOMO_MAXIMO = 64;

/** A receipt of the file, decoded on disk. */
export interface ComprovanteLido {
  /** The decoded bytes on disk; cut at CUPOM_TAMANHO_MAXIMO + 1 when larger (`bytes` says how large it was). */
  recebido: ArquivoRecebido;
  /** Decoded bytes in the file. */
  bytes: number;
}

export interface PendenciasLidas {
  /** The file's JSON, each receipt's `base64` left ''. */
  bruto: unknown;
  /** Each receipt by where it sits in the file (`chaveDoComprovante`). */
  comprovantes: Map<string, ComprovanteLido>;
}

/** `operacoes[i].arquivo` (indice null) or `operacoes[i].arquivos[j]`. */
export const chaveDoComprovante = (operacao: number, indice: number | null) => (indice === null ? `${operacao}:arquivo` : `${operacao}:arquivos:${indice}`);

type Objeto = Record<string, unknown>;
type Contexto =
  | { tipo: 'objeto'; valor: Objeto; chave: string | null; espera: 'chaveOuFim' | 'chave' | 'doisPontos' | 'valor' | 'virgulaOuFim' }
  | { tipo: 'lista'; valor: unknown[]; espera: 'valorOuFim' | 'valor' | 'virgulaOuFim' };

const ASPAS = 0x22;
const BARRA_INVERTIDA = 0x5c;
const IGUAL = 0x3d;
const ESPACOS = new Set([0x20, 0x09, 0x0a, 0x0d]);
const DELIMITADORES = new Set([...ESPACOS, 0x2c, 0x5d, 0x7d]);
/** 1: a base64 letter; 2: '=' (padding, only at the end). */
const BASE64 = new Uint8Array(256);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/') BASE64[c.charCodeAt(0)] = 1;
BASE64[IGUAL] = 2;

const malformado = () => dadosInvalidos(MENSAGEM_NAO_E_PENDENCIAS);

function atribuir(objeto: Objeto, chave: string, valor: unknown): void {
  // As JSON.parse does: '__proto__' is a key like any other, never the object's prototype.
  if (chave === '__proto__') Object.defineProperty(objeto, chave, { value: valor, writable: true, enumerable: true, configurable: true });
  else objeto[chave] = valor;
}

/** One receipt's base64 being decoded into its temporary file. */
class Comprovante {
  /** Letters not yet decoded (fewer than 4: base64 decodes in groups of 4). */
  private resto = '';
  private preenchimento = 0;
  /** A backslash ended the last run: the next byte is what it escapes. */
  private escapando = false;
  bytes = 0;
  private decodificado = Buffer.alloc(0);
  /** Set once its last bytes are on disk and the file closed. */
  recebido: ArquivoRecebido | null = null;

  constructor(
    readonly chave: string,
    readonly gravacao: GravacaoTemporaria,
  ) {}

  /** A run of the string's bytes (no quote in it). */
  ler(trecho: Buffer): void {
    if (this.escapando || trecho.includes(BARRA_INVERTIDA)) trecho = this.semEscapes(trecho);
    let fimDasLetras = this.preenchimento > 0 ? 0 : trecho.length;
    for (let i = 0; i < trecho.length; i++) {
      const tipo = BASE64[trecho[i]!];
      if (tipo === 1 && this.preenchimento === 0) continue;
      if (tipo === 2) {
        if (this.preenchimento === 0) fimDasLetras = i;
        this.preenchimento += 1;
        if (this.preenchimento <= 2) continue;
      }
      // A letter after '=', a third '=', an escape or anything else: the schema's own refusal.
      throw dadosInvalidos(MENSAGEM_COMPROVANTE_ILEGIVEL);
    }
    const letras = this.resto + trecho.toString('latin1', 0, fimDasLetras);
    const inteiras = letras.length - (letras.length % 4);
    this.resto = letras.slice(inteiras);
    if (inteiras === 0) return;
    // Decoded into this receipt's own buffer, reused chunk after chunk (written out before the next one):
    // a new buffer per chunk left tens of MB of garbage outside the heap between collections.
    const tamanho = (inteiras / 4) * 3;
    if (this.decodificado.length < tamanho) this.decodificado = Buffer.allocUnsafe(tamanho);
    const escritos = this.decodificado.write(letras.slice(0, inteiras), 0, 'base64');
    this.escrever(this.decodificado.subarray(0, escritos));
  }

  /** '\/' is '/' (some JSON writers escape it); any other escape has no place in base64. */
  private semEscapes(trecho: Buffer): Buffer {
    const limpo: number[] = [];
    for (const b of trecho) {
      if (this.escapando) {
        if (b !== 0x2f) throw dadosInvalidos(MENSAGEM_COMPROVANTE_ILEGIVEL);
        this.escapando = false;
        limpo.push(b);
      } else if (b === BARRA_INVERTIDA) this.escapando = true;
      else limpo.push(b);
    }
    return Buffer.from(limpo);
  }

  /** The closing quote: what is left decodes as Buffer.from does (missing padding tolerated); its own buffer, as `ler`'s is not written out yet. */
  terminar(): void {
    if (this.escapando) throw dadosInvalidos(MENSAGEM_COMPROVANTE_ILEGIVEL);
    if (this.resto) this.escrever(Buffer.from(this.resto, 'base64'));
    this.resto = '';
  }

  private escrever(bytes: Buffer): void {
    // Past the receipt limit only counted: the operation is refused for its size, the disk not filled.
    const cabe = Math.max(0, CUPOM_TAMANHO_MAXIMO + 1 - this.bytes);
    if (cabe > 0) this.gravacao.acrescentar(bytes.length <= cabe ? bytes : bytes.subarray(0, cabe));
    this.bytes += bytes.length;
  }
}

/**
 * The incremental reader: `alimentar` each chunk of the file in order, `descarregar` after each (the
 * receipts' decoded bytes go to disk), `concluir` at the end.
 */
class LeitorPendencias {
  private readonly pilha: Contexto[] = [];
  private raiz: Objeto | null = null;
  private terminou = false;
  private bytesForaDosComprovantes = 0;
  private modo: 'estrutura' | 'texto' | 'atomo' | 'comprovante' = 'estrutura';
  private pedacos: Buffer[] = [];
  private tamanhoDoToken = 0;
  private escapando = false;
  private comprovante: Comprovante | null = null;
  /** Receipts with a file still open: the one being read, and those finished in the last chunk. */
  private abertos: Comprovante[] = [];
  private readonly lidos = new Map<string, Comprovante>();

  constructor(private readonly temporarios: Temporarios) {}

  alimentar(pedaco: Buffer): void {
    let i = 0;
    const n = pedaco.length;
    while (i < n) {
      if (this.modo === 'comprovante') {
        const fim = pedaco.indexOf(ASPAS, i);
        const ate = fim === -1 ? n : fim;
        this.comprovante!.ler(pedaco.subarray(i, ate));
        if (fim === -1) return;
        this.comprovante!.terminar();
        this.lidos.set(this.comprovante!.chave, this.comprovante!);
        this.comprovante = null;
        this.modo = 'estrutura';
        this.entregar('');
        i = fim + 1;
        continue;
      }
      if (this.modo === 'texto') {
        let j = i;
        for (; j < n; j++) {
          const b = pedaco[j]!;
          if (this.escapando) this.escapando = false;
          else if (b === BARRA_INVERTIDA) this.escapando = true;
          else if (b === ASPAS) break;
        }
        this.guardar(pedaco.subarray(i, j));
        if (j === n) return;
        let texto: string;
        try {
          texto = JSON.parse(`"${Buffer.concat(this.pedacos).toString('utf8')}"`) as string;
        } catch {
          throw malformado();
        }
        this.pedacos = [];
        this.modo = 'estrutura';
        this.contar(1);
        i = j + 1;
        const topo = this.pilha.at(-1);
        if (topo?.tipo === 'objeto' && (topo.espera === 'chave' || topo.espera === 'chaveOuFim')) {
          topo.chave = texto;
          topo.espera = 'doisPontos';
        } else this.entregar(texto);
        continue;
      }
      if (this.modo === 'atomo') {
        let j = i;
        while (j < n && !DELIMITADORES.has(pedaco[j]!)) j++;
        this.guardar(pedaco.subarray(i, j));
        if (this.tamanhoDoToken > ATOMO_MAXIMO) throw malformado();
        if (j === n) return;
        let valor: unknown;
        try {
          valor = JSON.parse(Buffer.concat(this.pedacos).toString('latin1'));
        } catch {
          throw malformado();
        }
        this.pedacos = [];
        this.modo = 'estrutura';
        this.entregar(valor);
        i = j; // the delimiter is structure: read next
        continue;
      }
      i = this.estrutura(pedaco, i);
    }
  }

  /** Whitespace and punctuation from `i`; returns where the next token starts (or the chunk's end). */
  private estrutura(pedaco: Buffer, i: number): number {
    for (; i < pedaco.length; i++) {
      const b = pedaco[i]!;
      this.contar(1);
      if (ESPACOS.has(b)) continue;
      if (this.terminou) throw malformado();
      const topo = this.pilha.at(-1);
      if (b === 0x2c) {
        // ','
        if (topo?.espera !== 'virgulaOuFim') throw malformado();
        topo.espera = topo.tipo === 'objeto' ? 'chave' : 'valor';
      } else if (b === 0x3a) {
        // ':'
        if (topo?.tipo !== 'objeto' || topo.espera !== 'doisPontos') throw malformado();
        topo.espera = 'valor';
      } else if (b === 0x7d || b === 0x5d) {
        // '}' or ']'
        const tipo = b === 0x7d ? 'objeto' : 'lista';
        if (topo?.tipo !== tipo || !(topo.espera === 'virgulaOuFim' || topo.espera === 'chaveOuFim' || topo.espera === 'valorOuFim')) throw malformado();
        this.pilha.pop();
        if (this.pilha.length === 0) this.terminou = true;
        else this.pilha.at(-1)!.espera = 'virgulaOuFim';
      } else if (b === 0x7b || b === 0x5b) {
        // '{' or '['
        if (this.pilha.length >= PROFUNDIDADE_MAXIMA) throw malformado();
        if (b === 0x7b) {
          const valor: Objeto = {};
          this.abrir(valor);
          this.pilha.push({ tipo: 'objeto', valor, chave: null, espera: 'chaveOuFim' });
        } else {
          const valor: unknown[] = [];
          this.abrir(valor);
          this.pilha.push({ tipo: 'lista', valor, espera: 'valorOuFim' });
        }
      } else if (b === ASPAS) {
        this.esperarValorOuChave();
        const destino = this.ondeVaiOComprovante();
        if (destino !== null) {
          this.comprovante = new Comprovante(destino, this.temporarios.gravacao());
          this.abertos.push(this.comprovante);
          this.modo = 'comprovante';
        } else {
          this.modo = 'texto';
          this.tamanhoDoToken = 0;
          this.escapando = false;
        }
        return i + 1;
      } else if (b === 0x2d || (b >= 0x30 && b <= 0x39) || b === 0x74 || b === 0x66 || b === 0x6e) {
        // a number, true, false or null
        if (!this.esperaValor()) throw malformado();
        this.modo = 'atomo';
        this.tamanhoDoToken = 0;
        this.contar(-1); // counted again as part of the token
        return i;
      } else throw malformado();
    }
    return i;
  }

  private guardar(trecho: Buffer): void {
    if (trecho.length === 0) return;
    this.contar(trecho.length);
    this.tamanhoDoToken += trecho.length;
    // A copy: the chunk's memory may be reused by the stream that gave it.
    this.pedacos.push(Buffer.from(trecho));
  }

  private contar(bytes: number): void {
    this.bytesForaDosComprovantes += bytes;
    if (this.bytesForaDosComprovantes > LIMITE_JSON_FORA_DOS_COMPROVANTES) throw arquivoGrande(MENSAGEM_JSON_GRANDE);
  }

  private esperaValor(): boolean {
    const topo = this.pilha.at(-1);
    if (!topo) return false; // the file is one object: a bare value at the top is not a rescue file
    return topo.espera === 'valor' || topo.espera === 'valorOuFim';
  }

  private esperarValorOuChave(): void {
    const topo = this.pilha.at(-1);
    if (topo?.tipo === 'objeto' && (topo.espera === 'chave' || topo.espera === 'chaveOuFim')) return;
    if (!this.esperaValor()) throw malformado();
  }

  /** A container starts where a value is expected (the top one only at the very beginning). */
  private abrir(valor: Objeto | unknown[]): void {
    const topo = this.pilha.at(-1);
    if (!topo) {
      if (this.raiz !== null || Array.isArray(valor)) throw malformado();
      this.raiz = valor;
      return;
    }
    if (!this.esperaValor()) throw malformado();
    if (topo.tipo === 'objeto') atribuir(topo.valor, topo.chave!, valor);
    else topo.valor.push(valor);
  }

  /** A finished value into the container that expects it. */
  private entregar(valor: unknown): void {
    const topo = this.pilha.at(-1)!;
    if (topo.tipo === 'objeto') {
      atribuir(topo.valor, topo.chave!, valor);
      // The header names the kind of file first: another JSON is refused before it is read through.
      if (this.pilha.length === 1 && topo.chave === 'formato' && valor !== FORMATO_PENDENCIAS) throw malformado();
    } else topo.valor.push(valor);
    topo.espera = 'virgulaOuFim';
  }

  /**
   * Where the string about to start is a receipt's base64 (operacoes[i].arquivo.base64 or
   * operacoes[i].arquivos[j].base64 of the top object): its key, else null.
   */
  private ondeVaiOComprovante(): string | null {
    const p = this.pilha;
    const topo = p.at(-1);
    if (topo?.tipo !== 'objeto' || topo.espera !== 'valor' || topo.chave !== 'base64') return null;
    const [raiz, operacoes, operacao] = p;
    if (raiz?.tipo !== 'objeto' || raiz.chave !== 'operacoes' || operacoes?.tipo !== 'lista' || operacao?.tipo !== 'objeto') return null;
    const i = operacoes.valor.length - 1;
    if (p.length === 4 && operacao.chave === 'arquivo') return chaveDoComprovante(i, null);
    const lista = p[3];
    if (p.length === 5 && operacao.chave === 'arquivos' && lista?.tipo === 'lista') return chaveDoComprovante(i, lista.valor.length - 1);
    return null;
  }

  /** Writes the decoded bytes kept while the last chunk was read; the receipts finished in it are closed. */
  async descarregar(): Promise<void> {
    for (const c of this.abertos) {
      if (c === this.comprovante) await c.gravacao.descarregar();
      else c.recebido = await c.gravacao.concluir();
    }
    this.abertos = this.abertos.filter((c) => c === this.comprovante);
  }

  async concluir(): Promise<PendenciasLidas> {
    if (!this.terminou || this.modo !== 'estrutura') throw malformado();
    await this.descarregar();
    const comprovantes = new Map<string, ComprovanteLido>();
    for (const [chave, c] of this.lidos) comprovantes.set(chave, { recebido: c.recebido!, bytes: c.bytes });
    return { bruto: this.raiz, comprovantes };
  }

  /** The read stopped (a refusal, a failed disk): the open files are closed; the request removes them. */
  async abandonar(): Promise<void> {
    for (const c of this.abertos) await c.gravacao.fechar();
  }
}

/**
 * A file's chunks read into one buffer, reused: the reader is done with a chunk (it copies what it
 * keeps) before it asks for the next.
 */
export async function* pedacosDoArquivo(caminho: string, tamanho = 64 * 1024): AsyncGenerator<Buffer> {
  const arquivo = await fs.promises.open(caminho, 'r');
  try {
    const buffer = Buffer.allocUnsafe(tamanho);
    for (;;) {
      const { bytesRead } = await arquivo.read(buffer, 0, tamanho, null);
      if (bytesRead === 0) return;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await arquivo.close();
  }
}

/**
 * Reads a rescue file from its chunks (pedacosDoArquivo). Refusals are the same a whole JSON.parse and
 * the schema's base64 check gave: not JSON or not this kind of file, a receipt that is not base64.
 */
export async function lerArquivoPendencias(pedacos: AsyncIterable<Buffer>, temporarios: Temporarios): Promise<PendenciasLidas> {
  const leitor = new LeitorPendencias(temporarios);
  try {
    for await (const pedaco of pedacos) {
      leitor.alimentar(pedaco);
      await leitor.descarregar();
    }
    return await leitor.concluir();
  } catch (erro) {
    await leitor.abandonar();
    throw erro;
  }
}
