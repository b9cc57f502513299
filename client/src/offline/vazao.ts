/**
 * How fast this phone's link carries receipts, measured on its own last requests:
 * bytes sent / time taken, over the last few requests that carried at least `AMOSTRA_MINIMA` bytes
 * (smaller ones measure the round trip, not the link). It sizes each receipt request so it lasts
 * about `DURACAO_ALVO_MS`, and each request's time limit scales with its bytes, instead of one
 * fixed limit that a 1 MB PDF on a 250 kbit/s link never fits in.
 * Kept in memory and in the meta table ('vazaoEnvio'), so a restarted app starts from the last link.
 */
import type { BancoLocal } from './db';

export const CHAVE_VAZAO = 'vazaoEnvio';

/** Before any measure: a harsh link (250 kbit/s up), so the first request is never too big. */
export const VAZAO_INICIAL = 250_000 / 8;
/** A receipt request should take about this long at the measured rate. */
export const DURACAO_ALVO_MS = 15_000;
/** The smallest and largest receipt request (a floor: even a bad link moves 64 KB; a ceiling: the batch's file budget). */
export const ORCAMENTO_MINIMO = 64 * 1024;
export const ORCAMENTO_MAXIMO = 8 * 1024 * 1024;
/** Requests lighter than this measure latency, not bandwidth: not taken as samples. */
export const AMOSTRA_MINIMA = 16 * 1024;
const AMOSTRAS = 5;
/** A time limit never shorter than this (the round trips of a slow link), nor longer than the ceiling. */
const TEMPO_MINIMO_MS = 30_000;
const TEMPO_MAXIMO_MS = 15 * 60_000;
/** A request may take this many times what the measured rate says before it is given up. */
const FOLGA = 4;

interface Amostra {
  bytes: number;
  ms: number;
}

export class Vazao {
  private amostras: Amostra[] = [];
  private carregada = false;

  constructor(private readonly banco: BancoLocal | null = null) {}

  /** Reads the samples kept by the last run of the app (once). */
  async carregar(): Promise<void> {
    if (this.carregada || !this.banco) return;
    this.carregada = true;
    const guardado = (await this.banco.meta.get(CHAVE_VAZAO))?.valor;
    if (Array.isArray(guardado)) {
      this.amostras = guardado
        .filter((a): a is Amostra => typeof a?.bytes === 'number' && typeof a?.ms === 'number' && a.bytes > 0 && a.ms > 0)
        .slice(-AMOSTRAS);
    }
  }

  /** Bytes per second over the last samples (VAZAO_INICIAL before any). */
  bytesPorSegundo(): number {
    const bytes = this.amostras.reduce((t, a) => t + a.bytes, 0);
    const ms = this.amostras.reduce((t, a) => t + a.ms, 0);
    return bytes > 0 && ms > 0 ? (bytes * 1000) / ms : VAZAO_INICIAL;
  }

  /** A request that carried `bytes` and was answered after `ms`. */
  async registrar(bytes: number, ms: number): Promise<void> {
    if (bytes < AMOSTRA_MINIMA || ms <= 0) return;
    this.amostras = [...this.amostras, { bytes, ms }].slice(-AMOSTRAS);
    await this.banco?.meta.put({ chave: CHAVE_VAZAO, valor: this.amostras }).catch(() => undefined);
  }

  /** A request of `bytes` ran out of time after `ms`: the link carries less than that. */
  async tempoEsgotado(bytes: number, ms: number): Promise<void> {
    // At most half the rate that would have made it: the next request is sized for that.
    await this.registrar(Math.max(AMOSTRA_MINIMA, Math.floor(bytes / 2)), ms);
  }

  /** Bytes of receipts for the next request: about DURACAO_ALVO_MS at the measured rate. */
  orcamento(): number {
    const bytes = Math.floor((this.bytesPorSegundo() * DURACAO_ALVO_MS) / 1000);
    return Math.min(ORCAMENTO_MAXIMO, Math.max(ORCAMENTO_MINIMO, bytes));
  }

  /** Time limit of a request carrying `bytes`: FOLGA times what the link needs for them, within bounds. */
  tempoLimiteMs(bytes: number): number {
    const previsto = (bytes * 1000) / this.bytesPorSegundo();
    return Math.min(TEMPO_MAXIMO_MS, Math.max(TEMPO_MINIMO_MS, Math.ceil(FOLGA * previsto)));
  }
}
