/**
 * Continuous off-site copy of the SQLite database and the local receipts: Litestream's
 * technique (a snapshot, then the WAL shipped in segments; restore = snapshot, then each WAL applied in
 * order by SQLite's own recovery) built on @aws-sdk/client-s3, since Litestream cannot be installed here.
 *
 * Bucket layout under the prefix (COPIA_S3_PREFIX):
 *   geracoes/<geracao>/retrato.db.gz                    the database file as it was when the generation began
 *   geracoes/<geracao>/wal/<indice>/<offset>.seg.gz     bytes [offset, offset + length) of WAL number <indice>
 *   uploads/<nome>                                      the receipts of DATA_DIR/uploads (local storage only)
 *
 * How continuity is kept (the WAL format: copiaContinuaWal.ts):
 * - `leitor`, our own connection, always holds a read transaction. While it does, SQLite cannot restart
 *   the WAL (overwrite it from the top): a restart needs every reader off the WAL, and backfilling is
 *   limited to what every reader has seen. So frames stay in the file until we have read them.
 * - Checkpoints are ours: when the current WAL passes `limiteWalBytes` (15 MB, under the 4000 frames of
 *   the app's wal_autocheckpoint, which so never has to run; if it does, it can only backfill), we take
 *   the write lock (BEGIN IMMEDIATE on `leitor`, refused at once if someone is writing: tried again next
 *   cycle), read the last frames, run a PASSIVE checkpoint from `controle` and
 *   check it copied every frame we read. Only then may the WAL restart: the next WAL header with other
 *   salts begins the next index. Any other change (salts we did not expect, a WAL shorter than what we
 *   read) cannot be proven continuous and begins a new generation with a new snapshot.
 * - Each start of the process begins a new generation, and so does a day's age: a snapshot is the raw
 *   database file copied while `leitor` holds its read transaction (pages can only change through
 *   backfilling of frames we also ship, from offset 0 of the current WAL), so no page layout differs
 *   between the snapshot and the WAL frames applied on it (VACUUM INTO would renumber pages).
 * - `aguardarCopia()` resolves once a cycle that began after the call has uploaded everything: commits
 *   before the call are in the WAL it read. One cycle serves every request waiting (group commit).
 * - A bucket that fails: the cycle fails, is tried again with backoff (1 s doubling to 30 s), the WAL
 *   keeps the frames meanwhile (no checkpoint until they are shipped), waits end at their bound with
 *   `copiado: false` (the batch then answers 503: sync/rotas.ts), `falha()` says so for /api/health and
 *   `estado()` reports the lag. A request that waits may try the bucket again sooner than the backoff,
 *   at most once a second (TENTATIVA_PEDIDA_MS): the first replay after the bucket is back is served
 *   then, not up to 30 s later. Nothing here ever throws into a request.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { constants as zlibConstants, createGzip, gzip } from 'node:zlib';
import Database from 'better-sqlite3';
import type { ConfigS3 } from '../config';
import { BucketDaCopia } from './copiaContinuaBucket';
import { lerCabecalhoWal, mesmoSal, quadrosConfirmados, TAMANHO_CABECALHO_WAL, type CabecalhoWal, type PosicaoWal } from './copiaContinuaWal';
import { MODO_ARQUIVO } from './permissoes';
import { vivo } from './processo';
import { pidDaTrava } from './travaEntreProcessos';

export interface LogDaCopia {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface OpcoesCopiaContinua {
  /** DATA_DIR/app.db. */
  arquivoBanco: string;
  /** DATA_DIR/uploads, mirrored to `uploads/`; null when the receipts are in S3 already (S3_BUCKET). */
  pastaComprovantes: string | null;
  bucket: ConfigS3;
  log: LogDaCopia;
  nativeBinding?: unknown;
  /** The app's own connection in this process, if its automatic checkpoints should be turned off (not needed: see the header). */
  bancoDoApp?: Database.Database;
  /** Between two cycles when nothing asks for one sooner. */
  intervaloMs?: number;
  /** WAL size from which it is checkpointed (once everything in it is shipped). */
  limiteWalBytes?: number;
  /** Age at which a generation is replaced by a new one with a fresh snapshot. */
  geracaoMaximaMs?: number;
  /** Older generations than this are deleted from the bucket (the newest previous one is always kept). */
  retencaoMs?: number;
  /**
   * WAL size at which, with the bucket failing, the copy gives up waiting for it: it checkpoints what
   * was not shipped (the disk must not fill up and stop the server) and begins a new generation when
   * the bucket is back.
   */
  limiteAtrasoWalBytes?: number;
}

export interface EstadoDaCopia {
  geracao: string | null;
  indice: number;
  /** Bytes of the current WAL index already uploaded. */
  offsetEnviado: number;
  /** When the last cycle that uploaded everything began (0: none yet). */
  ultimaCopiaCompletaMs: number;
  /** How old the newest write surely off-site may be: now - ultimaCopiaCompletaMs. */
  atrasoMs: number;
  erro: string | null;
  falhasSeguidas: number;
  /** WAL indexes finished by our own checkpoints in this process. */
  checkpoints: number;
  geracoesIniciadas: number;
  comprovantesEnviados: number;
}

export interface ResultadoDaEspera {
  /** Everything committed before the call is in the bucket. */
  copiado: boolean;
  atrasoMs: number;
}

interface Segmento {
  geracao: string;
  indice: number;
  offset: number;
  bytes: Buffer;
}

const comprimir = promisify(gzip);
const PREFIXO_GERACOES = 'geracoes/';
/** While the bucket fails, a request that waits tries it again at most this often (the timer backs off to 30 s). */
const TENTATIVA_PEDIDA_MS = 1000;
/** Bytes of WAL read into one segment at most (a transaction larger than this makes one segment of its own). */
const TAMANHO_SEGMENTO = 8 * 1024 * 1024;
const PREFIXO_COMPROVANTES = 'uploads/';
const NOME_COMPROVANTE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/;

export const nomeRetrato = (geracao: string) => `${PREFIXO_GERACOES}${geracao}/retrato.db.gz`;
export const prefixoWal = (geracao: string) => `${PREFIXO_GERACOES}${geracao}/wal/`;
export const nomeSegmento = (geracao: string, indice: number, offset: number) =>
  `${prefixoWal(geracao)}${String(indice).padStart(8, '0')}/${String(offset).padStart(16, '0')}.seg.gz`;
export { PREFIXO_COMPROVANTES, PREFIXO_GERACOES };

/** A generation's name sorts by its start: 20261128T081500123Z-1a2b3c4d. */
function novaGeracao(agora: number): string {
  return `${new Date(agora).toISOString().replace(/[-:.]/g, '')}-${randomBytes(4).toString('hex')}`;
}

/** When the generation began, from its name (NaN for a name not made here). */
export function inicioDaGeracao(nome: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})Z-[0-9a-f]{8}$/.exec(nome);
  if (!m) return Number.NaN;
  return Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!, +m[7]!);
}

function mensagem(erro: unknown): string {
  const e = erro as { name?: string; message?: string; code?: string };
  return [e.name, e.code, e.message].filter(Boolean).join(': ') || String(erro);
}

/** The replicator of one database file; started by `iniciarCopiaContinua`. */
export class CopiaContinua {
  private readonly leitor: Database.Database;
  private readonly controle: Database.Database;
  private readonly arquivoWal: string;
  private readonly intervaloMs: number;
  private readonly limiteWalBytes: number;
  private readonly geracaoMaximaMs: number;
  private readonly retencaoMs: number;
  private readonly limiteAtrasoWalBytes: number;

  private geracao: string | null = null;
  private inicioGeracaoMs = 0;
  private indice = 0;
  /** Header of the current index's WAL (null: none seen yet in this index). */
  private cabecalho: CabecalhoWal | null = null;
  /** Read into `pendentes` up to here in the current index. */
  private lido: PosicaoWal = { offset: 0, soma1: 0, soma2: 0 };
  private enviado = 0;
  /** Our checkpoint copied every frame of this index: the next header with other salts begins the next index. */
  private indiceFechado = false;
  private pendentes: Segmento[] = [];
  /** Receipts in the bucket (name -> size); null until listed. */
  private manifesto: Map<string, number> | null = null;

  private ciclosIniciados = 0;
  private ultimoCicloCompleto = -1;
  private ultimaCopiaCompletaMs = 0;
  private cicloEmAndamento: Promise<void> | null = null;
  private proximoCiclo: NodeJS.Timeout | null = null;
  private esperaAte = 0;
  /** When the last cycle failed (0: the last one did not). */
  private falhouEm = 0;
  private falhasSeguidas = 0;
  private erro: string | null = null;
  private checkpoints = 0;
  private geracoesIniciadas = 0;
  private comprovantesEnviados = 0;
  private parado = false;
  private readonly esperando = new Set<{ alvo: number; resolver: (r: ResultadoDaEspera) => void; limite: NodeJS.Timeout }>();

  constructor(
    private readonly opcoes: OpcoesCopiaContinua,
    private readonly bucket: BucketDaCopia,
    /** The lock file this process holds: touched every cycle, so a lock nobody touches is known as abandoned. */
    private readonly trava: string | null = null,
  ) {
    this.arquivoWal = `${opcoes.arquivoBanco}-wal`;
    this.intervaloMs = opcoes.intervaloMs ?? 1000;
    this.limiteWalBytes = opcoes.limiteWalBytes ?? 15 * 1024 * 1024;
    this.geracaoMaximaMs = opcoes.geracaoMaximaMs ?? 24 * 3600_000;
    this.retencaoMs = opcoes.retencaoMs ?? 7 * 24 * 3600_000;
    this.limiteAtrasoWalBytes = opcoes.limiteAtrasoWalBytes ?? 256 * 1024 * 1024;
    const ligacao = opcoes.nativeBinding ? { nativeBinding: opcoes.nativeBinding as string } : {};
    this.leitor = new Database(opcoes.arquivoBanco, { ...ligacao, fileMustExist: true });
    this.controle = new Database(opcoes.arquivoBanco, { ...ligacao, fileMustExist: true });
    for (const c of [this.leitor, this.controle]) {
      c.pragma('journal_mode = WAL');
      // Never wait on a lock: a busy checkpoint or write lock is tried again next cycle, and the event loop is the app's.
      c.pragma('busy_timeout = 0');
      c.pragma('wal_autocheckpoint = 0');
    }
    opcoes.bancoDoApp?.pragma('wal_autocheckpoint = 0');
    this.abrirLeitura();
  }

  /** Starts the cycles: the first one begins a generation (snapshot) and lists the receipts already in the bucket. */
  iniciar(): void {
    this.agendar(0);
  }

  /**
   * Resolves once everything committed (and every receipt stored) before the call is in the bucket, or
   * at `limiteMs` with `copiado: false` (the bucket is failing or slow). Never rejects.
   */
  aguardarCopia(limiteMs = 5_000): Promise<ResultadoDaEspera> {
    const alvo = this.ciclosIniciados;
    if (this.ultimoCicloCompleto >= alvo) return Promise.resolve({ copiado: true, atrasoMs: this.atrasoMs() });
    return new Promise((resolver) => {
      const espera = {
        alvo,
        resolver,
        limite: setTimeout(() => {
          this.esperando.delete(espera);
          resolver({ copiado: false, atrasoMs: this.atrasoMs() });
        }, limiteMs),
      };
      this.esperando.add(espera);
      if (!this.cicloEmAndamento) this.agendarPedido();
    });
  }

  estado(): EstadoDaCopia {
    return {
      geracao: this.geracao,
      indice: this.indice,
      offsetEnviado: this.enviado,
      ultimaCopiaCompletaMs: this.ultimaCopiaCompletaMs,
      atrasoMs: this.atrasoMs(),
      erro: this.erro,
      falhasSeguidas: this.falhasSeguidas,
      checkpoints: this.checkpoints,
      geracoesIniciadas: this.geracoesIniciadas,
      comprovantesEnviados: this.comprovantesEnviados,
    };
  }

  /**
   * What is failing, in pt-BR, or null: the last cycle failed (the bucket refused or did not answer), so
   * writes committed since are only on this disk. A replicator that has not finished its first cycle
   * yet is not failing (it is starting).
   */
  falha(): string | null {
    if (this.falhasSeguidas === 0) return null;
    return `A cópia contínua não consegue enviar ao bucket (${this.falhasSeguidas} ${this.falhasSeguidas === 1 ? 'tentativa' : 'tentativas'} seguidas sem sucesso).`;
  }

  /** Last cycle (bounded by `limiteMs`), then the connections are closed. */
  async parar(limiteMs = 10_000): Promise<ResultadoDaEspera> {
    if (this.parado) return { copiado: false, atrasoMs: this.atrasoMs() };
    const r = await this.aguardarCopia(limiteMs);
    this.parado = true;
    if (this.proximoCiclo) clearTimeout(this.proximoCiclo);
    await this.cicloEmAndamento?.catch(() => undefined);
    for (const e of this.esperando) {
      clearTimeout(e.limite);
      e.resolver({ copiado: false, atrasoMs: this.atrasoMs() });
    }
    this.esperando.clear();
    if (this.leitor.inTransaction) this.leitor.exec('ROLLBACK');
    this.leitor.close();
    this.controle.close();
    this.bucket.fechar();
    return r;
  }

  /** For the other processes of this DATA_DIR (`aguardarPeloArquivo`): when the last complete cycle began. */
  private publicarEstado(): void {
    try {
      fs.writeFileSync(arquivoDeEstado(this.opcoes.arquivoBanco), String(this.ultimaCopiaCompletaMs), { mode: MODO_ARQUIVO });
    } catch (erro) {
      this.opcoes.log.warn({ erro: mensagem(erro) }, 'cópia contínua: estado não publicado para os outros processos');
    }
  }

  private atrasoMs(): number {
    return this.ultimaCopiaCompletaMs === 0 ? Number.POSITIVE_INFINITY : Math.max(0, Date.now() - this.ultimaCopiaCompletaMs);
  }

  /**
   * A cycle for someone waiting: at once, or while the bucket is failing no sooner than
   * TENTATIVA_PEDIDA_MS after the last failure (sooner than the backoff's timer when that is later).
   */
  private agendarPedido(): void {
    const livreEm = this.falhouEm === 0 ? 0 : Math.min(this.esperaAte, this.falhouEm + TENTATIVA_PEDIDA_MS);
    const ms = Math.max(0, livreEm - Date.now());
    if (ms === 0 || !this.proximoCiclo || this.proximoEm > Date.now() + ms) this.agendar(ms);
  }

  private proximoEm = 0;

  private agendar(ms: number): void {
    if (this.parado) return;
    if (this.proximoCiclo) clearTimeout(this.proximoCiclo);
    this.proximoEm = Date.now() + ms;
    this.proximoCiclo = setTimeout(() => {
      this.proximoCiclo = null;
      if (this.cicloEmAndamento || this.parado) return;
      this.cicloEmAndamento = this.ciclo().finally(() => {
        this.cicloEmAndamento = null;
        // Group commit: whoever asked while this cycle ran is served by the next one, right away. Checked
        // here, where no cycle is running any more: a request in between schedules its own.
        if (this.esperando.size > 0) this.agendarPedido();
      });
    }, ms);
  }

  private async ciclo(): Promise<void> {
    const numero = this.ciclosIniciados++;
    const inicio = Date.now();
    if (this.trava) {
      try {
        fs.utimesSync(this.trava, new Date(inicio), new Date(inicio));
      } catch {
        // removed meanwhile: the next start takes it again
      }
    }
    try {
      await this.copiar();
      this.ultimoCicloCompleto = numero;
      this.ultimaCopiaCompletaMs = inicio;
      this.publicarEstado();
      if (this.falhasSeguidas > 0) this.opcoes.log.info({ falhas: this.falhasSeguidas }, 'cópia contínua: o bucket voltou a responder, cópia em dia');
      this.falhasSeguidas = 0;
      this.erro = null;
      this.esperaAte = 0;
      this.falhouEm = 0;
      for (const e of this.esperando) {
        if (e.alvo <= numero) {
          clearTimeout(e.limite);
          this.esperando.delete(e);
          e.resolver({ copiado: true, atrasoMs: this.atrasoMs() });
        }
      }
      this.agendar(this.intervaloMs);
    } catch (erro) {
      this.falhasSeguidas++;
      this.erro = mensagem(erro);
      const pausa = Math.min(30_000, 1000 * 2 ** (this.falhasSeguidas - 1));
      this.falhouEm = Date.now();
      this.esperaAte = this.falhouEm + pausa;
      const registro = { erro: this.erro, falhas: this.falhasSeguidas, proximaTentativaMs: pausa, atrasoMs: this.atrasoMs() };
      if (this.falhasSeguidas === 1 || this.falhasSeguidas % 10 === 0) this.opcoes.log.error(registro, 'cópia contínua: falha ao enviar ao bucket; tentando de novo');
      else this.opcoes.log.warn(registro, 'cópia contínua: ainda sem enviar ao bucket');
      if (this.geracao !== null && this.walBytes() >= this.limiteAtrasoWalBytes) this.desistirDaGeracao();
      this.agendar(pausa);
    }
  }

  /** One cycle: everything committed so far (and the receipts) into the bucket. Throws on any bucket failure. */
  private async copiar(): Promise<void> {
    for (let tentativa = 1; ; tentativa++) {
      if (this.geracao === null || (this.pendentes.length === 0 && Date.now() - this.inicioGeracaoMs >= this.geracaoMaximaMs)) {
        await this.comecarGeracao();
      }
      await this.enviarPendentes(); // left by a failed cycle
      // A segment at a time: after an outage the WAL may hold far more than should sit in memory at once.
      let haMais = true;
      while (haMais && this.geracao !== null) {
        haMais = this.lerNovosQuadros(TAMANHO_SEGMENTO);
        await this.enviarPendentes();
      }
      if (this.geracao !== null) break;
      // Continuity lost: a new generation (its snapshot, then the WAL from its top) within this same cycle.
      if (tentativa === 3) throw new Error('continuidade do WAL perdida três vezes seguidas');
    }
    await this.espelharComprovantes();
    // The current index's length, not the file's: after a restart SQLite reuses the file from the top, so its size stays at its peak.
    if (this.lido.offset >= this.limiteWalBytes && this.checkpointControlado()) {
      await this.enviarPendentes();
    }
  }

  private abrirLeitura(): void {
    this.leitor.exec('BEGIN');
    this.leitor.prepare('select count(*) from sqlite_master').get();
  }

  private walBytes(): number {
    try {
      return fs.statSync(this.arquivoWal).size;
    } catch {
      return 0;
    }
  }

  /** Bytes of the WAL from `desde` to its end (`ate` bytes at most). */
  private lerWal(desde: number, ate = Number.POSITIVE_INFINITY): Buffer {
    let fd: number;
    try {
      fd = fs.openSync(this.arquivoWal, 'r');
    } catch {
      return Buffer.alloc(0);
    }
    try {
      const tamanho = fs.fstatSync(fd).size;
      if (tamanho <= desde) return Buffer.alloc(0);
      const dados = Buffer.allocUnsafe(Math.min(tamanho - desde, ate));
      let lidos = 0;
      while (lidos < dados.length) {
        const n = fs.readSync(fd, dados, lidos, dados.length - lidos, desde + lidos);
        if (n === 0) break;
        lidos += n;
      }
      return dados.subarray(0, lidos);
    } finally {
      fs.closeSync(fd);
    }
  }

  /**
   * Synchronous: reads the frames committed since `lido` into `pendentes`. A header with other salts
   * begins the next index after our checkpoint, and a new generation otherwise (marked by `geracao = null`).
   */
  private lerNovosQuadros(maximo = Number.POSITIVE_INFINITY): boolean {
    const bytesDoTopo = this.lerWal(0, TAMANHO_CABECALHO_WAL);
    const topo = lerCabecalhoWal(bytesDoTopo);
    if (!topo) {
      // Empty (after a TRUNCATE) or being created: only a problem if we had read frames no checkpoint of ours folded.
      if (this.lido.offset > 0 && !this.indiceFechado) this.perderContinuidade('o WAL sumiu ou foi zerado por outro processo');
      return false;
    }
    if (!this.cabecalho || !mesmoSal(topo, this.cabecalho)) {
      if (this.cabecalho && this.lido.offset > 0 && !this.indiceFechado) {
        this.perderContinuidade('o WAL recomeçou sem um checkpoint desta cópia');
        return false;
      }
      if (this.lido.offset > 0) this.indice++;
      this.cabecalho = topo;
      this.lido = { offset: 0, soma1: topo.soma1, soma2: topo.soma2 };
      this.enviado = 0;
      this.indiceFechado = false;
    }
    const inicio = Math.max(this.lido.offset, TAMANHO_CABECALHO_WAL);
    // At most `maximo` bytes, more only while no whole transaction fits (one bigger than that).
    let dados = this.lerWal(inicio, maximo);
    let r = quadrosConfirmados(dados, this.cabecalho, { ...this.lido, offset: inicio });
    while (r.transacoes === 0 && dados.length === maximo) {
      maximo *= 2;
      dados = this.lerWal(inicio, maximo);
      r = quadrosConfirmados(dados, this.cabecalho, { ...this.lido, offset: inicio });
    }
    if (dados.length === 0 && this.walBytes() < this.lido.offset) {
      this.perderContinuidade('o WAL ficou menor do que o já lido');
      return false;
    }
    if (r.transacoes === 0) return false;
    const quadros = dados.subarray(0, r.ate.offset - inicio);
    // The index's first segment carries the WAL header: restoring concatenates the segments into a WAL file.
    const bytes = this.lido.offset === 0 ? Buffer.concat([bytesDoTopo, quadros]) : Buffer.from(quadros);
    this.pendentes.push({ geracao: this.geracao!, indice: this.indice, offset: this.lido.offset, bytes });
    this.lido = r.ate;
    this.indiceFechado = false;
    return dados.length === maximo;
  }

  /**
   * The bucket has been failing for so long that the WAL kept for it passed `limiteAtrasoWalBytes`: the
   * WAL is folded into the database (and truncated) unshipped, and the copy starts over with a new
   * generation once the bucket answers. What was not shipped stays only on this disk until then.
   */
  private desistirDaGeracao(): void {
    this.leitor.exec('ROLLBACK');
    let truncado = false;
    try {
      const [r] = this.controle.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
      truncado = r?.busy === 0;
    } catch {
      // busy: tried again at the next failure
    } finally {
      this.abrirLeitura();
    }
    if (!truncado) return;
    this.opcoes.log.error(
      { geracao: this.geracao, limiteAtrasoWalBytes: this.limiteAtrasoWalBytes },
      'cópia contínua: bucket fora do ar por tempo demais; o WAL foi aplicado ao banco sem ser enviado, para não encher o disco. Uma geração nova começa quando o bucket voltar',
    );
    this.geracao = null;
    this.pendentes = [];
  }

  private perderContinuidade(motivo: string): void {
    this.opcoes.log.warn({ geracao: this.geracao, indice: this.indice, motivo }, 'cópia contínua: continuidade perdida, começando uma nova geração');
    this.geracao = null;
  }

  private async enviarPendentes(): Promise<void> {
    while (this.pendentes.length > 0) {
      const s = this.pendentes[0]!;
      // Off the event loop (libuv's pool) and at the fastest level: batches waiting for this upload are
      // answered sooner, and the requests being served meanwhile keep the thread (WAL pages still shrink ~10x).
      const corpo = await comprimir(s.bytes, { level: zlibConstants.Z_BEST_SPEED });
      await this.bucket.gravar(nomeSegmento(s.geracao, s.indice, s.offset), corpo);
      this.pendentes.shift();
      if (s.geracao === this.geracao && s.indice === this.indice) this.enviado = s.offset + s.bytes.length;
    }
  }

  /**
   * Synchronous: under the write lock, the last frames into `pendentes`, then a PASSIVE checkpoint that
   * must copy every frame of the WAL; true when the index is closed that way.
   */
  private checkpointControlado(): boolean {
    this.leitor.exec('ROLLBACK');
    // Never wait for the lock: the holder may be this process's own open transaction (async, between two
    // awaits), which cannot finish while this event loop waits. Busy: next cycle.
    try {
      this.leitor.exec('BEGIN IMMEDIATE');
    } catch {
      this.abrirLeitura();
      return false;
    }
    let fechado = false;
    try {
      this.lerNovosQuadros();
      if (this.geracao !== null && this.cabecalho) {
        const quadros = (this.lido.offset - TAMANHO_CABECALHO_WAL) / (24 + this.cabecalho.tamanhoPagina);
        const [r] = this.controle.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
        fechado = !!r && r.busy === 0 && r.log === r.checkpointed && r.log === quadros && quadros > 0;
      }
    } finally {
      this.leitor.exec('COMMIT');
      this.abrirLeitura();
    }
    if (fechado) {
      this.indiceFechado = true;
      this.checkpoints++;
    }
    return fechado;
  }

  /** A new generation: the WAL truncated if nobody is using it, the raw database file uploaded, index 0 from the current WAL's top. */
  private async comecarGeracao(): Promise<void> {
    const geracao = novaGeracao(Date.now());
    this.leitor.exec('ROLLBACK');
    try {
      this.controle.pragma('wal_checkpoint(TRUNCATE)');
    } catch {
      // busy: the snapshot below is right anyway, with the current WAL shipped from its top
    } finally {
      this.abrirLeitura();
    }
    this.geracao = geracao;
    this.inicioGeracaoMs = inicioDaGeracao(geracao);
    this.indice = 0;
    this.cabecalho = null;
    this.lido = { offset: 0, soma1: 0, soma2: 0 };
    this.enviado = 0;
    // Whatever WAL is there now is part of index 0 from its top; if every frame of it was already in the
    // file we copy, SQLite may restart it (new salts): that is the next index, not a break.
    this.indiceFechado = true;
    this.pendentes = [];
    const temporario = path.join(path.dirname(this.opcoes.arquivoBanco), `copia-continua-retrato-${process.pid}.db.gz`);
    try {
      await pipeline(fs.createReadStream(this.opcoes.arquivoBanco), createGzip(), fs.createWriteStream(temporario, { mode: MODO_ARQUIVO }));
      const bytes = await this.bucket.gravarArquivo(nomeRetrato(geracao), temporario);
      this.geracoesIniciadas++;
      this.opcoes.log.info({ geracao, bytesDoRetrato: bytes, bucket: this.bucket.descricao }, 'cópia contínua: nova geração (retrato do banco enviado)');
    } catch (erro) {
      this.geracao = null; // no snapshot, no generation: the next try begins another
      throw erro;
    } finally {
      fs.rmSync(temporario, { force: true });
    }
    await this.apagarGeracoesAntigas(geracao).catch((erro: unknown) =>
      this.opcoes.log.warn({ erro: mensagem(erro) }, 'cópia contínua: gerações antigas não apagadas (tentado de novo na próxima geração)'),
    );
  }

  /** Generations begun before the retention window, except the newest one before the current. */
  private async apagarGeracoesAntigas(atual: string): Promise<void> {
    const anteriores = (await this.bucket.subpastas(PREFIXO_GERACOES)).filter((g) => g < atual && !Number.isNaN(inicioDaGeracao(g)));
    const limite = Date.now() - this.retencaoMs;
    for (const g of anteriores.slice(0, -1)) {
      if (inicioDaGeracao(g) >= limite) continue;
      const objetos = await this.bucket.listar(`${PREFIXO_GERACOES}${g}/`);
      // The snapshot first: a generation half deleted has none, and a restore never chooses it.
      const retrato = nomeRetrato(g);
      await this.bucket.remover([retrato, ...objetos.map((o) => o.nome).filter((n) => n !== retrato)]);
    }
  }

  /** DATA_DIR/uploads against the bucket's `uploads/`: new files uploaded, removed ones deleted. */
  private async espelharComprovantes(): Promise<void> {
    const pasta = this.opcoes.pastaComprovantes;
    if (!pasta) return;
    if (!this.manifesto) {
      const remotos = await this.bucket.listar(PREFIXO_COMPROVANTES);
      this.manifesto = new Map(remotos.map((o) => [o.nome.slice(PREFIXO_COMPROVANTES.length), o.tamanho]));
    }
    let nomes: string[];
    try {
      nomes = fs.readdirSync(pasta).filter((n) => NOME_COMPROVANTE.test(n));
    } catch {
      nomes = [];
    }
    const locais = new Set(nomes);
    for (const nome of nomes) {
      let tamanho: number;
      try {
        const st = fs.statSync(path.join(pasta, nome));
        if (!st.isFile()) continue;
        tamanho = st.size;
      } catch {
        continue; // removed meanwhile
      }
      if (this.manifesto.get(nome) === tamanho) continue;
      await this.bucket.gravarArquivo(`${PREFIXO_COMPROVANTES}${nome}`, path.join(pasta, nome));
      this.manifesto.set(nome, tamanho);
      this.comprovantesEnviados++;
    }
    const removidos = [...this.manifesto.keys()].filter((n) => !locais.has(n));
    if (removidos.length > 0) {
      await this.bucket.remover(removidos.map((n) => `${PREFIXO_COMPROVANTES}${n}`));
      for (const n of removidos) this.manifesto.delete(n);
    }
  }
}

const arquivoDeEstado = (arquivoBanco: string) => path.join(path.dirname(arquivoBanco), 'copia-continua.estado');

/**
 * `aguardarCopia` in a process that does not replicate: waits until the replicating process publishes a
 * complete cycle that began after the call (same machine, same clock), looking every 50 ms, bounded.
 */
async function aguardarPeloArquivo(arquivoBanco: string, limiteMs: number): Promise<ResultadoDaEspera> {
  const chamada = Date.now();
  const ler = () => {
    try {
      const n = Number(fs.readFileSync(arquivoDeEstado(arquivoBanco), 'utf8'));
      return Number.isFinite(n) ? n : 0;
    } catch {
      return 0;
    }
  };
  for (;;) {
    const ultima = ler();
    if (ultima > chamada) return { copiado: true, atrasoMs: Math.max(0, Date.now() - ultima) };
    if (Date.now() - chamada >= limiteMs) return { copiado: false, atrasoMs: ultima === 0 ? Number.POSITIVE_INFINITY : Date.now() - ultima };
    await new Promise((resolver) => setTimeout(resolver, 50));
  }
}

/**
 * The copy as a process that does not replicate sees it: failing when the replicating process has
 * published no complete cycle for this long (it cycles every second while the bucket answers).
 */
export const COPIA_PARADA_MS = 30_000;

function falhaPeloArquivo(arquivoBanco: string): string | null {
  let ultima: number;
  try {
    ultima = Number(fs.readFileSync(arquivoDeEstado(arquivoBanco), 'utf8'));
  } catch {
    return null; // nothing published yet: the replicating process is starting
  }
  if (!Number.isFinite(ultima) || Date.now() - ultima < COPIA_PARADA_MS) return null;
  return `A cópia contínua não é concluída há ${Math.round((Date.now() - ultima) / 1000)} s.`;
}

/** One replicator per DATA_DIR: the other processes of the same machine leave it to the holder of this file. */
/** A lock not touched for this long belongs to nobody (the holder touches it every cycle, at most 30 s apart): covers a pid reused after a reboot. */
const TRAVA_ABANDONADA_MS = 5 * 60_000;

function tomarTrava(arquivo: string, marca: string): boolean {
  for (let tentativa = 0; tentativa < 2; tentativa++) {
    try {
      fs.writeFileSync(arquivo, marca, { flag: 'wx', mode: MODO_ARQUIVO });
      return true;
    } catch {
      try {
        const pid = pidDaTrava(fs.readFileSync(arquivo, 'utf8'));
        const recente = Date.now() - fs.statSync(arquivo).mtimeMs < TRAVA_ABANDONADA_MS;
        // Empty or unreadable (a write cut by a full disk) names no holder: taken over like a dead one's.
        if (pid !== null && pid !== process.pid && vivo(pid) && recente) return false;
        fs.rmSync(arquivo, { force: true }); // left by a process that died
      } catch {
        return false; // the folder is gone or unreadable: not ours to replicate
      }
    }
  }
  return false;
}

export interface CopiaContinuaIniciada {
  /** Null when another process on this DATA_DIR replicates (it holds DATA_DIR/copia-continua.trava). */
  replicador: CopiaContinua | null;
  aguardarCopia(limiteMs?: number): Promise<ResultadoDaEspera>;
  /** What is failing, in pt-BR, or null while the copy is being made (see CopiaContinua.falha). */
  falha(): string | null;
  parar(): Promise<void>;
}

/**
 * Starts the replicator of `arquivoBanco` in this process, unless another process of the machine already
 * does: then this one waits through the published state, and tries every 30 s to take over (the holder died).
 */
export function iniciarCopiaContinua(opcoes: OpcoesCopiaContinua): CopiaContinuaIniciada {
  const trava = path.join(path.dirname(opcoes.arquivoBanco), 'copia-continua.trava');
  const marca = `${process.pid} ${randomBytes(8).toString('hex')}`;
  let replicador: CopiaContinua | null = null;
  let tentativa: NodeJS.Timeout | null = null;
  const soltarTrava = () => {
    try {
      if (fs.readFileSync(trava, 'utf8') === marca) fs.rmSync(trava, { force: true });
    } catch {
      // already gone
    }
  };
  const comecar = () => {
    if (!tomarTrava(trava, marca)) return false;
    const bucket = new BucketDaCopia(opcoes.bucket, (partes) => opcoes.log.warn({ sdk: partes }, 'aviso do cliente S3 da cópia contínua'));
    replicador = new CopiaContinua(opcoes, bucket, trava);
    replicador.iniciar();
    // process.exit (the server's SIGTERM path) skips `parar`: the lock must not outlive the process.
    process.once('exit', soltarTrava);
    return true;
  };
  if (!comecar()) {
    // Its automatic checkpoints stay on: while the replicator's read transaction is open they cannot
    // restart the WAL, and if that process dies they keep the WAL from growing until one takes over.
    opcoes.log.info({ trava }, 'cópia contínua: outro processo deste DATA_DIR envia a cópia; este aguarda pelo estado que ele publica');
    tentativa = setInterval(() => {
      if (comecar() && tentativa) {
        clearInterval(tentativa);
        opcoes.log.info({ trava }, 'cópia contínua: este processo assumiu o envio (o anterior parou)');
      }
    }, 30_000);
    tentativa.unref();
  }
  return {
    get replicador() {
      return replicador;
    },
    aguardarCopia: (limiteMs = 5_000) => (replicador ? replicador.aguardarCopia(limiteMs) : aguardarPeloArquivo(opcoes.arquivoBanco, limiteMs)),
    falha: () => (replicador ? replicador.falha() : falhaPeloArquivo(opcoes.arquivoBanco)),
    async parar() {
      if (tentativa) clearInterval(tentativa);
      if (!replicador) return;
      try {
        const r = await replicador.parar();
        if (!r.copiado) opcoes.log.warn({ atrasoMs: r.atrasoMs }, 'cópia contínua: encerrada sem enviar as últimas escritas');
      } finally {
        soltarTrava();
        process.removeListener('exit', soltarTrava);
      }
    },
  };
}
