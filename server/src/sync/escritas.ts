/**
 * The writes a phone queues while offline, each defined once: its method and path, the schemas of
 * its params and body, and what it does. The single endpoints (POST /api/vendas...) and the batch
 * endpoint (POST /api/sync/lote) both run these, so a write replayed in a batch goes through exactly
 * the same validation, rules and answer as the same write sent alone.
 */
import type { z } from 'zod';
import type { ArmazenamentoCupons } from '../arquivos/armazenamento';
import type { Db } from '../db';
import type { Talvez } from '../db/talvez';
import type { CupomRecebido } from '../despesas/cupons';
import type { UsuarioSessao } from '../tipos';

export interface ContextoEscrita {
  db: Db;
  /** APP_TZ: "today" for the date rules. */
  fuso: string;
  /** Where receipts are stored (DATA_DIR/uploads or the S3 bucket). */
  armazenamento: ArmazenamentoCupons;
  /** COTA_COMPROVANTES_MB in bytes: the receipts each employee may keep. */
  cotaComprovantesBytes: number;
  /**
   * Called inside the transaction of a change that commits on its own (writes with files), with that
   * transaction's handle: the batch records the operation through it, so effect and record commit together.
   */
  aoAplicar?: (tx: Db, status: number, recebidoEm: string) => Promise<void>;
}

export interface RespostaEscrita {
  status: number;
  /**
   * The single endpoint's answer (the record as the screens show it). Built only when asked: a batch
   * answers each write with its receipt time alone, so hundreds of records are not read back,
   * joined and sent to a phone that only needs to know they arrived.
   */
  corpo(): Promise<unknown>;
  /** When the server took the write, shown on the phone as 'Recebido pelo servidor às ...' (at once when known: db/talvez.ts). */
  recebidoEm(): Talvez<string | null>;
}

export type Metodo = 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Escrita<P extends z.ZodType = z.ZodType, C extends z.ZodType = z.ZodType> {
  metodo: Metodo;
  /** Path under /api with :params, e.g. '/vendas/:id'. */
  caminho: string;
  params: P;
  corpo: C;
  /**
   * Also writes files (a receipt): its files are written outside its transaction (before it, or after
   * the commit), since nothing but the database may be awaited inside one. So it cannot share the
   * batch's transaction: the batch commits before it and runs it on its own.
   */
  gravaArquivos?: boolean;
  /**
   * Changes no route (status, employee, cities): a batch keeps remembering the routes it looked up
   * across this write. Left out, the batch forgets them after it (the safe default).
   */
  preservaRotas?: boolean;
  executar(ctx: ContextoEscrita, usuario: UsuarioSessao, params: z.output<P>, dados: z.output<C>, cupons?: readonly CupomRecebido[]): Promise<RespostaEscrita>;
}

/** Keeps the params/body types of each write while it goes into a list of writes. */
export function definirEscrita<P extends z.ZodType, C extends z.ZodType>(escrita: Escrita<P, C>): Escrita<P, C> {
  return escrita;
}
