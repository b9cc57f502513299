/**
 * What /api/health checks, each on its own and each bounded in time (a check that hangs is a failing
 * check, not a hanging health probe): the database answers a query, DATA_DIR's disk keeps at least
 * DISCO_MINIMO_MB free, the receipt storage answers, and, when the server has one, the continuous copy
 * says it is keeping up. The summary (resumirSaude) is what a proxy or a monitor reads.
 */
import fs from 'node:fs';
import { sql } from 'drizzle-orm';
import type { ArmazenamentoCupons } from '../arquivos/armazenamento';
import { linha, type Db } from '../db';
import { MENSAGENS_INDISPONIVEL } from './indisponibilidade';

export interface EstadoDaVerificacao {
  ok: boolean;
  /** What is failing, in pt-BR, when not ok. */
  erro?: string;
  /** Figures that explain it (free space and the threshold, the copy's delay...). */
  [detalhe: string]: unknown;
}

/**
 * The continuous copy's state as /api/health reports it: given by whoever runs the copy (main.ts, with
 * operacao/copiaContinuaComandos.ts); absent when the server has no copy.
 */
export type EstadoDaCopiaContinua = () => EstadoDaVerificacao | Promise<EstadoDaVerificacao>;

export const NOMES_DAS_VERIFICACOES = {
  banco: 'banco de dados',
  disco: 'espaço em disco',
  armazenamento: 'armazenamento de comprovantes',
  copia_continua: 'cópia contínua',
} as const;

export type NomeDaVerificacao = keyof typeof NOMES_DAS_VERIFICACOES;

/** Each check's bound: above it the check fails, whatever it would have said later. */
export const LIMITE_DA_VERIFICACAO_MS = 3_000;

/** A name no receipt has (cupons.ts: 32 hex digits from a random uuid, never all zeros), valid for `abrir`. */
const NOME_DE_SONDA = `${'0'.repeat(32)}.jpg`;

export async function comLimite(verificacao: () => EstadoDaVerificacao | Promise<EstadoDaVerificacao>, limiteMs = LIMITE_DA_VERIFICACAO_MS): Promise<EstadoDaVerificacao> {
  let relogio: NodeJS.Timeout | undefined;
  const estourou = new Promise<EstadoDaVerificacao>((resolver) => {
    relogio = setTimeout(() => resolver({ ok: false, erro: `não respondeu em ${limiteMs / 1000} s` }), limiteMs);
  });
  try {
    return await Promise.race([Promise.resolve().then(verificacao), estourou]);
  } catch (erro) {
    return { ok: false, erro: (erro as Error).message ?? String(erro) };
  } finally {
    clearTimeout(relogio);
  }
}

export async function verificarBanco(db: Db): Promise<EstadoDaVerificacao> {
  try {
    await linha(db, sql`select 1`);
    return { ok: true };
  } catch {
    return { ok: false, erro: MENSAGENS_INDISPONIVEL.banco };
  }
}

/** Bytes free for this process on the disk holding `pasta` (statfs: blocks available to unprivileged users). */
export async function espacoLivre(pasta: string): Promise<number> {
  const s = await fs.promises.statfs(pasta);
  return s.bavail * s.bsize;
}

const MB = 1024 * 1024;

/** The free-space verdict, pure: failing below the threshold (a threshold of 0 never fails). */
export function avaliarDisco(livreBytes: number, minimoBytes: number): EstadoDaVerificacao {
  const figuras = { livre_mb: Math.floor(livreBytes / MB), minimo_mb: Math.floor(minimoBytes / MB) };
  if (livreBytes < minimoBytes) {
    return { ok: false, erro: `${figuras.livre_mb} MB livres em disco, abaixo do mínimo de ${figuras.minimo_mb} MB (DISCO_MINIMO_MB).`, ...figuras };
  }
  return { ok: true, ...figuras };
}

export async function verificarDisco(pasta: string, minimoBytes: number): Promise<EstadoDaVerificacao> {
  return avaliarDisco(await espacoLivre(pasta), minimoBytes);
}

/**
 * The storage answers a lookup (a name no receipt has: absent is the answer expected); on disk, the
 * uploads folder also takes writes (its free space is the disk check's).
 */
export async function verificarArmazenamento(armazenamento: ArmazenamentoCupons, pastaLocal: string): Promise<EstadoDaVerificacao> {
  try {
    if (armazenamento.tipo === 'local') {
      await fs.promises.mkdir(pastaLocal, { recursive: true, mode: 0o700 });
      await fs.promises.access(pastaLocal, fs.constants.W_OK);
    }
    (await armazenamento.abrir(NOME_DE_SONDA))?.descartar();
    return { ok: true, tipo: armazenamento.tipo };
  } catch (erro) {
    return { ok: false, tipo: armazenamento.tipo, erro: (erro as Error).message };
  }
}

export interface Saude {
  status: 'ok' | 'falha';
  verificacoes: Partial<Record<NomeDaVerificacao, EstadoDaVerificacao>>;
  /** pt-BR, when failing: which checks fail. */
  error?: string;
}

/** The answer of /api/health, pure: failing when any check fails, naming them. */
export function resumirSaude(verificacoes: Partial<Record<NomeDaVerificacao, EstadoDaVerificacao>>): Saude {
  const falhando = (Object.keys(verificacoes) as NomeDaVerificacao[]).filter((nome) => !verificacoes[nome]!.ok);
  if (falhando.length === 0) return { status: 'ok', verificacoes };
  return { status: 'falha', verificacoes, error: `Servidor com falha: ${falhando.map((n) => NOMES_DAS_VERIFICACOES[n]).join(', ')}.` };
}
