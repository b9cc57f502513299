/**
 * Failures of what the server stands on, not of the request: the database out of reach (PostgreSQL down,
 * SQLite busy past its wait, an I/O error, a file that cannot be opened) and the disk full. The phone
 * should keep its queue and try again, so every endpoint answers them alike (plugins/erros.ts): 503, a
 * pt-BR message saying which, and Retry-After. Anything else stays a 500. The receipt storage's failures
 * already arrive as its own 503 (arquivos/armazenamentoS3.ts), which the handler gives a Retry-After too.
 */
import { ErroApp } from '../errors';

export type Indisponivel = 'banco' | 'disco';

/** Seconds a client should wait before trying again, per kind: a full disk needs someone to act. */
export const ESPERA_SEGUNDOS: Record<Indisponivel, number> = { banco: 5, disco: 60 };
/** Any other 503 (the receipt storage, a busy export) without a Retry-After of its own. */
export const ESPERA_PADRAO_SEGUNDOS = 5;

export const MENSAGENS_INDISPONIVEL: Record<Indisponivel, string> = {
  banco: 'O banco de dados está indisponível no momento. Nada foi gravado; tente de novo em alguns instantes.',
  disco: 'O servidor está sem espaço em disco. Nada foi gravado; tente de novo mais tarde.',
};

/** SQLite's result codes (better-sqlite3's SqliteError.code) that are the database's state, not the statement's fault. */
const SQLITE_BANCO = /^SQLITE_(BUSY|LOCKED|IOERR|CANTOPEN|NOTADB|CORRUPT|PROTOCOL|READONLY)(_|$)/;
/** Node's system error codes: a full disk, or a connection to the database that could not be made or was cut. */
const SISTEMA_DISCO = new Set(['ENOSPC', 'EDQUOT']);
const SISTEMA_REDE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);
/**
 * PostgreSQL's SQLSTATEs: class 08 (connection), 57P01-57P03 (shutting down, cannot connect now), 53300
 * (too many connections), 53000/53200 (insufficient resources, out of memory), 58030 (I/O error);
 * 53100 is its disk full.
 */
const PG_BANCO = /^(08...|57P0[123]|53000|53200|53300|58030)$/;
/** node-postgres's own messages for a connection it could not make or lost (they carry no code). */
const PG_CONEXAO = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Cannot use a pool after calling end)/;
/** better-sqlite3 on a closed handle. */
const SQLITE_FECHADO = 'The database connection is not open';

/** Which kind of unavailability `erro` (or any error in its `cause` chain) is; null: none of them. */
export function classificarIndisponibilidade(erro: unknown): Indisponivel | null {
  for (let e: unknown = erro, profundidade = 0; e && profundidade < 10; e = (e as { cause?: unknown }).cause, profundidade++) {
    // A refusal made on purpose carries its own status and message.
    if (e instanceof ErroApp) return null;
    const codigo = (e as { code?: unknown }).code;
    const mensagem = typeof (e as { message?: unknown }).message === 'string' ? (e as { message: string }).message : '';
    if (typeof codigo === 'string') {
      if (codigo === 'SQLITE_FULL' || codigo === '53100' || SISTEMA_DISCO.has(codigo)) return 'disco';
      if (SQLITE_BANCO.test(codigo) || PG_BANCO.test(codigo) || SISTEMA_REDE.has(codigo)) return 'banco';
    }
    if (mensagem === SQLITE_FECHADO || PG_CONEXAO.test(mensagem)) return 'banco';
  }
  return null;
}

/** The refusal the client gets for that kind. */
export const erroDeIndisponibilidade = (tipo: Indisponivel) => new ErroApp(503, 'indisponivel', MENSAGENS_INDISPONIVEL[tipo]);
