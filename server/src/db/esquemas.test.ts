/**
 * One source of truth for two engines: schema.ts (SQLite) and schema.pg.ts (PostgreSQL) must
 * declare the same tables, columns, types (under the mapping in test/esquema.ts), defaults, keys, foreign
 * keys, indexes and checks; and the SQL written by hand in either migration folder (triggers, data moves)
 * must be the list in sqlManual.ts. A column, index or trigger added to one side only fails here.
 */
import fs from 'node:fs';
import path from 'node:path';
import { generateDrizzleJson, generateMigration } from 'drizzle-kit/api';
import { describe, expect, it } from 'vitest';
import { descreverPg, descreverSqlite, tabelasPg, tabelasSqlite } from '../../test/esquema';
import { recursosDoProjeto } from '../recursos';
import { abrirBanco } from '.';
import { PASTA_MIGRACOES_PG } from './postgres';
import * as esquemaPg from './schema.pg';
import { DADOS_SO_NO_SQLITE, FUNCOES_POSTGRES, GATILHOS, MENSAGEM_AUDITORIA_SO_INSERCAO } from './sqlManual';

interface Instrucao {
  migracao: string;
  sql: string;
}

/** Every statement of a drizzle-kit migration folder, in order, without comment lines. */
function instrucoesDe(pasta: string): Instrucao[] {
  return fs
    .readdirSync(pasta)
    .filter((nome) => nome.endsWith('.sql'))
    .sort()
    .flatMap((nome) =>
      fs
        .readFileSync(path.join(pasta, nome), 'utf8')
        .split('--> statement-breakpoint')
        .map((trecho) =>
          trecho
            .split('\n')
            .filter((linha) => !linha.trim().startsWith('--'))
            .join('\n')
            .trim(),
        )
        .filter((sql) => sql !== '')
        .map((sql) => ({ migracao: nome.replace(/\.sql$/, ''), sql })),
    );
}

/** What drizzle-kit writes from a declaration; anything else in a migration was written by hand. */
// drizzle-kit's SQLite table rebuild (a changed check) adds the PRAGMA pair and the DROP TABLE; its row copy is listed in sqlManual.ts.
const DDL_GERADO = /^(CREATE TABLE|CREATE (UNIQUE )?INDEX|DROP INDEX|ALTER TABLE|DROP TABLE|PRAGMA foreign_keys=(OFF|ON))\b/i;

describe('as declarações SQLite e PostgreSQL concordam', () => {
  const sqlite = tabelasSqlite();
  const pg = tabelasPg();

  it('as mesmas tabelas, exportadas com os mesmos nomes', () => {
    expect([...pg.keys()].sort()).toEqual([...sqlite.keys()].sort());
    expect(sqlite.size).toBeGreaterThan(10);
  });

  for (const [exportada, tabela] of tabelasSqlite()) {
    it(`${exportada}: colunas, tipos, padrões, chaves, estrangeiras, índices e verificações`, () => {
      const doPg = pg.get(exportada);
      expect(doPg, `${exportada} só existe em schema.ts`).toBeDefined();
      expect(descreverPg(doPg!)).toEqual(descreverSqlite(tabela));
    });
  }

  it('todo inteiro é bigint no PostgreSQL (64 bits, como no SQLite) e toda coluna tem um tipo conhecido', () => {
    const colunas = [...pg.values()].flatMap((t) => descreverPg(t).colunas.map((c) => ({ tabela: descreverPg(t).nome, ...c })));
    expect(colunas.filter((c) => c.tipo !== 'texto' && c.tipo !== 'inteiro' && c.tipo !== 'booleano')).toEqual([]);
    expect(colunas.filter((c) => c.nome.endsWith('_centavos')).length).toBeGreaterThan(5);
  });
});

describe('migrations-pg está em dia com schema.pg.ts', () => {
  it('o que o drizzle-kit geraria agora a partir da última foto é nada (senão: npm run db:generate:pg)', async () => {
    const diario = JSON.parse(fs.readFileSync(path.join(PASTA_MIGRACOES_PG, 'meta', '_journal.json'), 'utf8')) as { entries: { idx: number }[] };
    const ultima = String(diario.entries.at(-1)!.idx).padStart(4, '0');
    const foto = JSON.parse(fs.readFileSync(path.join(PASTA_MIGRACOES_PG, 'meta', `${ultima}_snapshot.json`), 'utf8'));
    expect(await generateMigration(foto, generateDrizzleJson(esquemaPg as Record<string, unknown>))).toEqual([]);
  });
});

describe('o SQL escrito à mão nas migrações é o listado em sqlManual.ts', () => {
  const doSqlite = instrucoesDe(recursosDoProjeto().pastaMigracoes);
  const doPg = instrucoesDe(PASTA_MIGRACOES_PG);

  it('SQLite: os gatilhos da lista, e nenhum outro, existem depois das migrações', () => {
    const db = abrirBanco({ arquivo: ':memory:', pastaMigracoes: recursosDoProjeto().pastaMigracoes });
    try {
      const gatilhos = db.$client.prepare("select name, tbl_name as tabela, sql from sqlite_master where type = 'trigger' order by name").all() as {
        name: string;
        tabela: string;
        sql: string;
      }[];
      const esperados = GATILHOS.filter((g) => g.dialetos.includes('sqlite'));
      expect(gatilhos.map((g) => g.name)).toEqual(esperados.map((g) => g.nome).sort());
      for (const g of esperados) {
        const achado = gatilhos.find((x) => x.name === g.nome)!;
        expect(achado.tabela).toBe(g.tabela);
        expect(achado.sql).toContain(`BEFORE ${g.evento} ON \`${g.tabela}\``);
        expect(achado.sql).toContain(MENSAGEM_AUDITORIA_SO_INSERCAO);
      }
    } finally {
      db.$client.close();
    }
  });

  it('SQLite: fora o DDL do drizzle-kit e os gatilhos, só as movimentações de dados listadas', () => {
    const manuais = doSqlite.filter((i) => !DDL_GERADO.test(i.sql) && !/^CREATE TRIGGER\b/i.test(i.sql));
    // Each statement by the listed beginning it matches, or its own first 80 characters (an unlisted one shows in the diff).
    const comecoDe = (i: Instrucao) => DADOS_SO_NO_SQLITE.find((d) => d.migracao === i.migracao && i.sql.startsWith(d.comeco))?.comeco ?? i.sql.slice(0, 80);
    expect(manuais.map((i) => ({ migracao: i.migracao, comeco: comecoDe(i) }))).toEqual(DADOS_SO_NO_SQLITE.map(({ migracao, comeco }) => ({ migracao, comeco })));
  });

  it('PostgreSQL: os gatilhos da lista e a função deles, e nenhum outro SQL à mão', () => {
    const gatilhos = doPg
      .map((i) => /^CREATE TRIGGER "(\w+)" BEFORE (\w+) ON "(\w+)" FOR EACH (ROW|STATEMENT) EXECUTE FUNCTION "(\w+)"\(\);?$/i.exec(i.sql))
      .filter((m) => m !== null)
      .map((m) => ({ nome: m[1], evento: m[2]!.toUpperCase(), tabela: m[3], funcao: m[5] }));
    const esperados = GATILHOS.filter((g) => g.dialetos.includes('postgres'));
    expect(gatilhos.map(({ nome, evento, tabela }) => ({ nome, evento, tabela }))).toEqual(esperados.map(({ nome, evento, tabela }) => ({ nome, evento, tabela })));
    expect(new Set(gatilhos.map((g) => g.funcao))).toEqual(new Set(FUNCOES_POSTGRES));

    const funcoes = doPg.filter((i) => /^CREATE FUNCTION\b/i.test(i.sql));
    expect(funcoes.map((i) => /^CREATE FUNCTION "(\w+)"/i.exec(i.sql)?.[1])).toEqual([...FUNCOES_POSTGRES]);
    expect(funcoes[0]!.sql).toContain(MENSAGEM_AUDITORIA_SO_INSERCAO);

    // Everything else came from schema.pg.ts through drizzle-kit (a hand-written index, check or data move would need listing).
    const outros = doPg.filter((i) => !DDL_GERADO.test(i.sql) && !/^CREATE (TRIGGER|FUNCTION)\b/i.test(i.sql));
    expect(outros).toEqual([]);
  });

  it('cada gatilho do SQLite tem o seu no PostgreSQL, com o mesmo nome, tabela e evento', () => {
    const noPg = new Set(GATILHOS.filter((g) => g.dialetos.includes('postgres')).map((g) => `${g.nome}:${g.tabela}:${g.evento}`));
    for (const g of GATILHOS.filter((x) => x.dialetos.includes('sqlite'))) expect(noPg.has(`${g.nome}:${g.tabela}:${g.evento}`), g.nome).toBe(true);
  });
});
