/**
 * Uploads go to disk as they arrive, never whole into memory: each file part is
 * piped into a temporary file under DATA_DIR/uploads-tmp, keeping only its first and last bytes
 * (what the type check reads). DATA_DIR/uploads-tmp is on the same filesystem as DATA_DIR/uploads,
 * so putting a receipt in place is a hard link (no bytes copied). Every temporary file a request
 * made is removed when the request is done (answered, refused, aborted or failed): a receipt put in
 * place keeps its stored name, the rest is gone (`Temporarios.limpar`).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BYTES_AMOSTRA_CUPOM } from '../../../shared/tipoDoCupom';

/** Bytes kept from the start and from the end of a file: enough for every type check (cupons.ts). */
export const BYTES_AMOSTRA = BYTES_AMOSTRA_CUPOM;

export function pastaTemporaria(dataDir: string): string {
  return path.join(dataDir, 'uploads-tmp');
}

/** A file received to disk: where it is, its size, and its first and last bytes. */
export interface ArquivoRecebido {
  caminho: string;
  tamanho: number;
  /** The first BYTES_AMOSTRA bytes (or the whole file, when smaller). */
  inicio: Buffer;
  /** The last BYTES_AMOSTRA bytes (a zip names its entries again at the end). */
  fim: Buffer;
  /** The part stopped at the size limit: the file on disk is cut. */
  truncado: boolean;
  /** `aceitar` refused a chunk: the rest of the part was read and thrown away, the file is cut. */
  descartado: boolean;
}

/**
 * The first and last BYTES_AMOSTRA bytes of a file seen in pieces (what the type check reads), each
 * kept in one buffer of that size: nothing allocated per piece.
 */
class Amostra {
  private readonly primeiros = Buffer.allocUnsafe(BYTES_AMOSTRA);
  private bytesInicio = 0;
  private readonly ultimos = Buffer.allocUnsafe(BYTES_AMOSTRA);
  private bytesFim = 0;

  ver(pedaco: Buffer): void {
    if (this.bytesInicio < BYTES_AMOSTRA) this.bytesInicio += pedaco.copy(this.primeiros, this.bytesInicio);
    if (pedaco.length >= BYTES_AMOSTRA) {
      pedaco.copy(this.ultimos, 0, pedaco.length - BYTES_AMOSTRA);
      this.bytesFim = BYTES_AMOSTRA;
      return;
    }
    // What stays of the tail moves to the front, the piece goes after it.
    const fica = Math.min(this.bytesFim, BYTES_AMOSTRA - pedaco.length);
    this.ultimos.copyWithin(0, this.bytesFim - fica, this.bytesFim);
    pedaco.copy(this.ultimos, fica);
    this.bytesFim = fica + pedaco.length;
  }

  get inicio(): Buffer {
    return Buffer.from(this.primeiros.subarray(0, this.bytesInicio));
  }

  get fim(): Buffer {
    return Buffer.from(this.ultimos.subarray(0, this.bytesFim));
  }
}

/**
 * A temporary file written in pieces by code that cannot await each one (a parser fed chunk by
 * chunk): `acrescentar` keeps the piece, `descarregar` writes what was kept. The caller
 * descarrega after each chunk it feeds, so what waits in memory is at most one chunk's worth.
 */
export class GravacaoTemporaria {
  private arquivo: fs.promises.FileHandle | null = null;
  private fechada = false;
  private pendentes: Buffer[] = [];
  private readonly amostra = new Amostra();
  tamanho = 0;

  constructor(readonly caminho: string) {}

  acrescentar(pedaco: Buffer): void {
    if (pedaco.length === 0) return;
    this.pendentes.push(pedaco);
    this.amostra.ver(pedaco);
    this.tamanho += pedaco.length;
  }

  async descarregar(): Promise<void> {
    if (this.fechada) throw new Error(`gravação já fechada: ${this.caminho}`);
    this.arquivo ??= await fs.promises.open(this.caminho, 'wx');
    const pendentes = this.pendentes;
    this.pendentes = [];
    for (const pedaco of pendentes) await this.arquivo.write(pedaco);
  }

  /** Writes what is left and closes the file: the file as received. */
  async concluir(): Promise<ArquivoRecebido> {
    await this.descarregar();
    await this.fechar();
    return { caminho: this.caminho, tamanho: this.tamanho, inicio: this.amostra.inicio, fim: this.amostra.fim, truncado: false, descartado: false };
  }

  /** Closes without finishing (the read failed): the file is the request's to remove. Never throws. */
  async fechar(): Promise<void> {
    this.fechada = true;
    const arquivo = this.arquivo;
    this.arquivo = null;
    await arquivo?.close().catch(() => undefined);
  }
}

/**
 * The temporary files of one request. `receber` streams a part to a new one; `limpar` (in a
 * `finally`) removes them all, moved or not (a moved one is simply no longer there).
 */
export class Temporarios {
  private readonly caminhos = new Set<string>();

  constructor(private readonly pasta: string) {}

  /** A new, unused path for a temporary file (created by the caller with flag 'wx'). */
  novoCaminho(): string {
    const caminho = path.join(this.pasta, `${randomBytes(16).toString('hex')}.part`);
    this.caminhos.add(caminho);
    return caminho;
  }

  /**
   * Copies a stream to a new temporary file. `aceitar` sees each chunk's size (the request's
   * budget): once it says no, the rest of the stream is still read (so the request can be answered)
   * but thrown away, and the result says `descartado`.
   */
  async receber(fluxo: Readable & { truncated?: boolean }, aceitar?: (bytes: number) => boolean): Promise<ArquivoRecebido> {
    await fs.promises.mkdir(this.pasta, { recursive: true });
    const caminho = this.novoCaminho();
    let tamanho = 0;
    const vista = new Amostra();
    let descartado = false;
    const amostra = new Transform({
      transform(pedaco: Buffer, _codificacao, feito) {
        if (descartado || (aceitar && !aceitar(pedaco.length))) {
          descartado = true;
          feito();
          return;
        }
        tamanho += pedaco.length;
        vista.ver(pedaco);
        feito(null, pedaco);
      },
    });
    try {
      // Opened before the copy: a write stream opened by path opens in libuv's pool, and pipeline() does
      // not wait for that when the part had already failed (a body cut short) — the file was then created
      // after `remover` ran, and stayed (seen in a loaded CI run).
      const arquivo = await fs.promises.open(caminho, 'wx');
      await pipeline(fluxo, amostra, arquivo.createWriteStream());
    } catch (erro) {
      await this.remover(caminho);
      throw erro;
    }
    return { caminho, tamanho, inicio: vista.inicio, fim: vista.fim, truncado: fluxo.truncated === true, descartado };
  }

  /** A new temporary file written in pieces (a receipt decoded from a rescue file as it is read). */
  gravacao(): GravacaoTemporaria {
    return new GravacaoTemporaria(this.novoCaminho());
  }

  async remover(caminho: string): Promise<void> {
    await fs.promises.rm(caminho, { force: true });
    this.caminhos.delete(caminho);
  }

  /** Removes every temporary file of the request that is still there. Never throws. */
  async limpar(): Promise<void> {
    await Promise.all([...this.caminhos].map((c) => this.remover(c).catch(() => undefined)));
  }
}

/** Temporary files left by a process that stopped mid-upload: removed at start when older than an hour. */
export function limparTemporariosAntigos(pasta: string, agora = Date.now()): void {
  let nomes: string[];
  try {
    nomes = fs.readdirSync(pasta);
  } catch {
    return;
  }
  for (const nome of nomes) {
    if (!nome.endsWith('.part')) continue;
    const caminho = path.join(pasta, nome);
    try {
      if (agora - fs.statSync(caminho).mtimeMs > 60 * 60 * 1000) fs.rmSync(caminho, { force: true });
    } catch {
      // gone meanwhile
    }
  }
}

/** True when both files have exactly the same bytes (read in chunks, never whole). */
export async function mesmosBytes(a: string, b: string): Promise<boolean> {
  let fa: fs.promises.FileHandle | undefined;
  let fb: fs.promises.FileHandle | undefined;
  try {
    fa = await fs.promises.open(a, 'r');
    fb = await fs.promises.open(b, 'r');
    const [sa, sb] = await Promise.all([fa.stat(), fb.stat()]);
    if (sa.size !== sb.size) return false;
    const ba = Buffer.alloc(BYTES_AMOSTRA);
    const bb = Buffer.alloc(BYTES_AMOSTRA);
    for (let pos = 0; pos < sa.size; ) {
      const [ra, rb] = await Promise.all([fa.read(ba, 0, BYTES_AMOSTRA, pos), fb.read(bb, 0, BYTES_AMOSTRA, pos)]);
      if (ra.bytesRead !== rb.bytesRead || ra.bytesRead === 0) return ra.bytesRead === rb.bytesRead && pos >= sa.size;
      if (!ba.subarray(0, ra.bytesRead).equals(bb.subarray(0, rb.bytesRead))) return false;
      pos += ra.bytesRead;
    }
    return true;
  } catch {
    return false;
  } finally {
    await fa?.close();
    await fb?.close();
  }
}
