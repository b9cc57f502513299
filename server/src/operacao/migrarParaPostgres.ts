/**
 * `migrate-to-postgres SQLITE_FILE`: copies an existing SQLite database, its ledger
 * and its receipts into the PostgreSQL of DATABASE_URL (and the S3 bucket of S3_*, when set), then
 * checks the result.
 *
 * - Every table, parents before children (read from the foreign keys), in batches in rowid order; each
 *   row keeps its id. Idempotent: a row already there (same primary key) is left as it is
 *   (`on conflict do nothing`), so a copy cut half-way is simply run again.
 * - The identity sequences then continue after the largest id copied.
 * - Receipts: every file a row names, from the uploads folder beside the SQLite file to where the
 *   server will read it (the bucket, or DATA_DIR/uploads), skipped when the same bytes are there.
 * - Refused while a server runs on the SQLite file's folder (its pid file, the one `restore` looks for):
 *   a server still writing leaves rows behind the copy, or children whose parents were copied before them.
 * - Copied from one read snapshot of the SQLite file, so parents and children are of the same moment.
 * - Verified at the end against a fresh snapshot (whatever was written during the copy shows up as a
 *   difference): every table, the operation log included, with the same number of rows and the same
 *   content checksum on both sides (conferencia.ts), every employee's ledger chain unbroken on PostgreSQL
 *   (each movement starts from the previous one's balance and adds or subtracts its value), and every
 *   named receipt present. Any difference fails the command, in pt-BR.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { getTableConfig as configPg, type PgTable } from 'drizzle-orm/pg-core';
import { getTableConfig as configSqlite, type SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { ArmazenamentoCupons } from '../arquivos/armazenamento';
import { nomeCupomValido, pastaUploads } from '../despesas/cupons';
import type { DbPostgres } from '../db/postgres';
import * as esquemaPg from '../db/schema.pg';
import * as esquemaSqlite from '../db/schema';
import { lotesDoSqlite, resumoNoPostgres, resumoNoSqlite, type ResumoDaTabela } from './conferencia';
import { servidorRodando } from './processo';

export class ErroDeMigracao extends Error {}

type Nome = keyof typeof esquemaSqlite & keyof typeof esquemaPg;

interface Par {
  nome: string;
  sqlite: SQLiteTable;
  pg: PgTable;
}

/** The tables of both declarations, parents before children (a child's rows name their parents' ids). */
export function tabelasEmOrdem(): Par[] {
  const pares = new Map<string, Par>();
  for (const chave of Object.keys(esquemaSqlite) as Nome[]) {
    const s = esquemaSqlite[chave] as unknown;
    const p = (esquemaPg as Record<string, unknown>)[chave];
    if (!p || typeof s !== 'object' || s === null || !(Symbol.for('drizzle:IsDrizzleTable') in s)) continue;
    const nome = configSqlite(s as SQLiteTable).name;
    pares.set(nome, { nome, sqlite: s as SQLiteTable, pg: p as PgTable });
  }
  const ordem: Par[] = [];
  const visitados = new Set<string>();
  const visitar = (par: Par) => {
    if (visitados.has(par.nome)) return;
    visitados.add(par.nome);
    for (const fk of configPg(par.pg).foreignKeys) {
      const pai = configPg(fk.reference().foreignTable).name;
      if (pai !== par.nome) visitar(pares.get(pai)!);
    }
    ordem.push(par);
  };
  for (const par of [...pares.values()].sort((a, b) => a.nome.localeCompare(b.nome))) visitar(par);
  return ordem;
}

export interface ResultadoMigracao {
  /** Per table: rows on each side at the final check (and their content checksums), rows copied by this run. */
  tabelas: { nome: string; sqlite: number; postgres: number; copiadas: number; somaSqlite: string; somaPostgres: string }[];
  comprovantes: { nomeados: number; copiados: number };
  funcionariosComSaldo: number;
}

export interface OpcoesMigracao {
  arquivoSqlite: string;
  pg: DbPostgres;
  /** Where the server on PostgreSQL reads receipts: the bucket, or its DATA_DIR/uploads. */
  armazenamento: ArmazenamentoCupons;
  /** The destination folder when `armazenamento` is local (DATA_DIR/uploads of the new server). */
  pastaUploadsDestino: string | null;
  nativeBinding?: unknown;
  progresso?: (mensagem: string) => void;
}

/**
 * Refuses while a server runs on the folder of `arquivoSqlite` (DATA_DIR: its pid file, as `restore`
 * reads it). Called before anything is opened, by the command and by the copy itself.
 */
export function recusarComServidorRodando(arquivoSqlite: string): void {
  const pasta = path.dirname(path.resolve(arquivoSqlite));
  const pid = servidorRodando(pasta);
  if (pid) {
    throw new ErroDeMigracao(
      `O servidor está rodando (processo ${pid}) com ${pasta} e continua gravando no banco SQLite: a cópia sairia incompleta. ` +
        'Pare o servidor antes de migrar para o PostgreSQL.',
    );
  }
}

export async function migrarParaPostgres(opcoes: OpcoesMigracao): Promise<ResultadoMigracao> {
  const { arquivoSqlite, pg, progresso = () => {} } = opcoes;
  if (!fs.existsSync(arquivoSqlite)) throw new ErroDeMigracao(`Banco SQLite não encontrado em ${arquivoSqlite}.`);
  recusarComServidorRodando(arquivoSqlite);
  const conexao = new Database(arquivoSqlite, {
    readonly: true,
    fileMustExist: true,
    ...(opcoes.nativeBinding ? { nativeBinding: opcoes.nativeBinding as string } : {}),
  });
  try {
    conexao.pragma('busy_timeout = 10000');
    const copiadasPorTabela = new Map<string, number>();
    // One read snapshot for the whole copy: every child row's parents are in it.
    conexao.prepare('begin').run();
    try {
      for (const par of tabelasEmOrdem()) {
        let copiadas = 0;
        for (const lote of lotesDoSqlite(conexao, par.sqlite)) {
          const inseridas = await pg.insert(par.pg).values(lote).onConflictDoNothing();
          copiadas += inseridas.rowCount ?? 0;
        }
        await acertarSequencia(pg, par.pg);
        copiadasPorTabela.set(par.nome, copiadas);
        progresso(`${par.nome}: ${copiadas} linhas copiadas`);
      }
    } finally {
      conexao.prepare('commit').run();
    }

    const tabelas = await conferirTabelas(conexao, pg, copiadasPorTabela, progresso);
    const funcionariosComSaldo = await conferirCorrente(pg);
    const comprovantes = await copiarComprovantes(conexao, opcoes);
    return { tabelas, comprovantes, funcionariosComSaldo };
  } finally {
    conexao.close();
  }
}

/**
 * Every table on both sides, from a new SQLite snapshot (taken after the copy, so a row written during it
 * counts as missing): the row count and the content checksum must be equal.
 */
async function conferirTabelas(
  conexao: Database.Database,
  pg: DbPostgres,
  copiadasPorTabela: Map<string, number>,
  progresso: (mensagem: string) => void,
): Promise<ResultadoMigracao['tabelas']> {
  const tabelas: ResultadoMigracao['tabelas'] = [];
  const diferentes: { nome: string; sqlite: ResumoDaTabela; postgres: ResumoDaTabela }[] = [];
  conexao.prepare('begin').run();
  try {
    for (const par of tabelasEmOrdem()) {
      const noSqlite = resumoNoSqlite(conexao, par.sqlite);
      const noPostgres = await resumoNoPostgres(pg, par.pg);
      tabelas.push({
        nome: par.nome,
        sqlite: noSqlite.linhas,
        postgres: noPostgres.linhas,
        copiadas: copiadasPorTabela.get(par.nome) ?? 0,
        somaSqlite: noSqlite.soma,
        somaPostgres: noPostgres.soma,
      });
      const confere = noSqlite.linhas === noPostgres.linhas && noSqlite.soma === noPostgres.soma;
      if (!confere) diferentes.push({ nome: par.nome, sqlite: noSqlite, postgres: noPostgres });
      progresso(`${par.nome}: ${noPostgres.linhas} linhas no PostgreSQL, ${noSqlite.linhas} no SQLite, ${confere ? 'conteúdo igual' : 'DIFERENTE'}`);
    }
  } finally {
    conexao.prepare('commit').run();
  }
  if (diferentes.length > 0) {
    const descricao = diferentes
      .map(({ nome, sqlite, postgres }) =>
        sqlite.linhas !== postgres.linhas ? `${nome} (SQLite ${sqlite.linhas} linhas, PostgreSQL ${postgres.linhas})` : `${nome} (mesmas ${sqlite.linhas} linhas, conteúdo diferente)`,
      )
      .join('; ');
    throw new ErroDeMigracao(
      `A migração não confere: ${descricao}. ` +
        'O banco SQLite mudou durante a cópia (um servidor gravando nele) ou o PostgreSQL já tinha outros dados. ' +
        'Pare o servidor e rode de novo, num PostgreSQL vazio.',
    );
  }
  return tabelas;
}

/** An identity column continues after the largest id copied (the copy wrote the ids itself). */
async function acertarSequencia(pg: DbPostgres, tabela: PgTable): Promise<void> {
  const { name, columns } = configPg(tabela);
  for (const coluna of columns) {
    if (!coluna.generatedIdentity) continue;
    await pg.$client.query(
      `select setval(pg_get_serial_sequence($1, $2), coalesce((select max("${coluna.name}") from "${name}"), 0) + 1, false)`,
      [`"${name}"`, coluna.name],
    );
  }
}

/**
 * Every employee's ledger on PostgreSQL, movement by movement in id order: each starts from the balance
 * the previous one left (0 for the first) and adds (credit, refund) or subtracts (debit) its value.
 * Answers how many employees have movements.
 */
async function conferirCorrente(pg: DbPostgres): Promise<number> {
  const quebras = (
    await pg.$client.query<{ id: number; funcionario_id: number }>(`
      select id, funcionario_id from (
        select id, funcionario_id, tipo, valor_centavos, saldo_anterior_centavos, saldo_novo_centavos,
          coalesce(lag(saldo_novo_centavos) over (partition by funcionario_id order by id), 0) as esperado
        from movimentacoes_saldo
      ) m
      where saldo_anterior_centavos <> esperado
         or saldo_novo_centavos <> saldo_anterior_centavos + case when tipo = 'debito' then -valor_centavos else valor_centavos end
      order by id
      limit 10`)
  ).rows;
  if (quebras.length > 0) {
    throw new ErroDeMigracao(
      `A corrente de saldos está quebrada no PostgreSQL nas movimentações ${quebras.map((q) => `${q.id} (funcionário ${q.funcionario_id})`).join(', ')}.`,
    );
  }
  return Number((await pg.$client.query('select count(distinct funcionario_id) as n from movimentacoes_saldo')).rows[0].n);
}

/** The receipts rows name, from the uploads folder beside the SQLite file to the new server's storage. */
async function copiarComprovantes(conexao: Database.Database, opcoes: OpcoesMigracao): Promise<ResultadoMigracao['comprovantes']> {
  const nomeados = (
    conexao
      .prepare(
        `select arquivo, mime from despesa_cupons
         union select arquivo_cupom, coalesce(cupom_mime, 'application/octet-stream') from despesas where arquivo_cupom is not null
         order by 1`,
      )
      .all() as { arquivo: string; mime: string }[]
  ).filter((l) => nomeCupomValido(l.arquivo));
  const mimes = new Map(nomeados.map((l) => [l.arquivo, l.mime]));
  const nomes = [...mimes.keys()];
  const pastaOrigem = pastaUploads(path.dirname(path.resolve(opcoes.arquivoSqlite)));
  const destinoLocal = opcoes.armazenamento.tipo === 'local' ? path.resolve(opcoes.pastaUploadsDestino ?? pastaOrigem) : null;
  const faltando: string[] = [];
  let copiados = 0;
  for (const nome of nomes) {
    const origem = path.join(pastaOrigem, nome);
    const existe = fs.existsSync(origem);
    if (destinoLocal) {
      const destino = path.join(destinoLocal, nome);
      if (path.resolve(origem) === destino) {
        if (!existe) faltando.push(nome);
        continue;
      }
      if (fs.existsSync(destino) && (!existe || fs.statSync(destino).size === fs.statSync(origem).size)) continue;
      if (!existe) {
        faltando.push(nome);
        continue;
      }
      fs.mkdirSync(destinoLocal, { recursive: true });
      fs.copyFileSync(origem, destino);
      copiados += 1;
      continue;
    }
    if (!existe) {
      // Already in the bucket (an earlier run) counts as present.
      const noBucket = await opcoes.armazenamento.abrir(nome);
      if (noBucket) noBucket.descartar();
      else faltando.push(nome);
      continue;
    }
    const cupom = { caminhoTemporario: origem, tamanho: fs.statSync(origem).size, mime: mimes.get(nome)!, extensao: path.extname(nome).slice(1), nomeOriginal: nome };
    if (await opcoes.armazenamento.mesmoConteudo(nome, cupom)) continue;
    await opcoes.armazenamento.preparar([cupom], [nome]);
    copiados += 1;
  }
  if (faltando.length > 0) {
    throw new ErroDeMigracao(
      `${faltando.length} comprovante(s) nomeados no banco não estão em ${pastaOrigem} nem no destino: ${faltando.slice(0, 5).join(', ')}${faltando.length > 5 ? ', ...' : ''}.`,
    );
  }
  return { nomeados: nomes.length, copiados };
}
