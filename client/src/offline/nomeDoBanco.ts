/** The device database's name and its copies' table (offline/db.ts declares them with Dexie; copiasSemDexie.ts reads the table raw). */
export const NOME_DO_BANCO = 'sistema-de-gestao';
export const TABELA_COPIAS = 'cache';
