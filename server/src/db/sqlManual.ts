/**
 * The SQL no drizzle declaration holds, written by hand in a dialect's migrations. Each part is
 * listed here with what it becomes on the other engine, and db/esquemas.test.ts reads both migration
 * folders against this list: a trigger or data statement added by hand to one side only fails it.
 */

/** What the append-only audit triggers answer, the same text on both engines. */
export const MENSAGEM_AUDITORIA_SO_INSERCAO = 'A auditoria só aceita novos registros.';

export type Dialeto = 'sqlite' | 'postgres';

export interface GatilhoManual {
  nome: string;
  tabela: string;
  evento: 'UPDATE' | 'DELETE' | 'TRUNCATE';
  /** The engines whose migrations create it. */
  dialetos: readonly Dialeto[];
}

/**
 * The audit trail refuses UPDATE and DELETE (SQLite's 0007_auditoria; PostgreSQL's
 * 0001_auditoria_somente_insercao). PostgreSQL also has TRUNCATE, which skips row triggers: refused too.
 */
export const GATILHOS: readonly GatilhoManual[] = [
  { nome: 'auditoria_sem_alteracao', tabela: 'auditoria', evento: 'UPDATE', dialetos: ['sqlite', 'postgres'] },
  { nome: 'auditoria_sem_exclusao', tabela: 'auditoria', evento: 'DELETE', dialetos: ['sqlite', 'postgres'] },
  { nome: 'auditoria_sem_truncamento', tabela: 'auditoria', evento: 'TRUNCATE', dialetos: ['postgres'] },
];

/** PostgreSQL's triggers run a function: the one the audit triggers share. */
export const FUNCOES_POSTGRES = ['auditoria_somente_insercao'] as const;

export interface DadosSoNoSqlite {
  /** The migration's tag (file name without .sql). */
  migracao: string;
  /** How the statement begins, as written in the file. */
  comeco: string;
  /** Why PostgreSQL's migrations have no counterpart. */
  porque: string;
}

/**
 * Data moved by SQLite migrations while the schema changed under rows that already existed. A PostgreSQL
 * database starts from the current schema, empty, and receives rows already in their final shape
 * (`migrate-to-postgres` copies them so), so these have nothing to do there.
 */
export const DADOS_SO_NO_SQLITE: readonly DadosSoNoSqlite[] = [
  {
    migracao: '0005_endurecimento',
    comeco: 'UPDATE `usuarios` SET `bloqueado_em`',
    porque: 'dates the blocks that existed before bloqueado_em; copied rows bring their bloqueado_em',
  },
  {
    migracao: '0009_despesa_cupons',
    comeco: 'INSERT INTO `despesa_cupons`',
    porque: 'moved each single receipt into despesa_cupons; copied rows bring despesa_cupons itself',
  },
  {
    migracao: '0011_acerto_e_tardias',
    comeco: 'INSERT INTO `__new_movimentacoes_saldo`',
    porque:
      "the ledger's rows copied into the table rebuilt for the acerto's checks (drizzle-kit's copy named the new sentido column in the old table, so the copy lists the old columns by hand); PostgreSQL alters its checks in place",
  },
];
