/**
 * migrations-pg on a real PostgreSQL: applied to an empty database they yield what
 * schema.pg.ts declares (read back from pg_catalog), the audit trail refuses UPDATE, DELETE and TRUNCATE
 * with SQLite's message, and money read back through drizzle is the integer written.
 */
import { eq } from 'drizzle-orm';
import { getTableConfig } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recusaDe } from '../../test/bancoDeTeste';
import { descreverPg, porNome, tabelasPg, type TabelaNeutra } from '../../test/esquema';
import { iniciarPostgres, temPostgres, type PostgresDeTeste } from '../../test/postgres';
import { recursosDoProjeto } from '../recursos';
import { abrirBanco } from '.';
import { abrirBancoPostgres, type DbPostgres } from './postgres';
import { auditoria, movimentacoesSaldo, usuarios } from './schema.pg';
import { FUNCOES_POSTGRES, GATILHOS, MENSAGEM_AUDITORIA_SO_INSERCAO } from './sqlManual';

const TIPO_NO_BANCO: Record<string, string> = { texto: 'text', inteiro: 'bigint', inteiro32: 'integer', booleano: 'boolean' };
const ACAO_FK: Record<string, string> = { a: 'no action', r: 'restrict', c: 'cascade', n: 'set null', d: 'set default' };
const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** A predicate (partial index, check) as PostgreSQL prints it or as drizzle writes it, without quotes, qualifiers, casts, parentheses or case. */
const predicado = (texto: string, tabela: string) =>
  texto
    .toLowerCase()
    .replaceAll('"', '')
    .replaceAll(`${tabela}.`, '')
    .replace(/::text\b/g, '')
    .replace(/^check /, '')
    .replace(/[()]/g, '')
    // PostgreSQL stores `x in ('a', 'b')` as `x = ANY (ARRAY['a', 'b'])`.
    .replace(/= any array\[([^\]]*)\]/g, 'in $1')
    .replace(/\s+/g, ' ')
    .trim();


describe.skipIf(!temPostgres)('migrations-pg num PostgreSQL de verdade', () => {
  let servidor: PostgresDeTeste;
  let db: DbPostgres;
  const declaradas = porNome([...tabelasPg().values()].map(descreverPg));
  const consultar = async <T,>(texto: string, valores: unknown[] = []) => (await db.$client.query(texto, valores)).rows as T[];

  beforeAll(async () => {
    servidor = await iniciarPostgres();
    db = await abrirBancoPostgres({ url: servidor.url });
  }, 120_000);

  afterAll(async () => {
    await db?.$client.end();
    await servidor?.parar();
  }, 120_000);

  it('as tabelas do esquema público são as declaradas', async () => {
    const tabelas = await consultar<{ nome: string }>(
      "select table_name as nome from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1",
    );
    expect(tabelas.map((t) => t.nome)).toEqual(declaradas.map((t) => t.nome));
  });

  it('colunas: tipo, nulidade, identidade e o valor de cada padrão', async () => {
    const colunas = await consultar<{ tabela: string; nome: string; tipo: string; nula: string; padrao: string | null; identidade: string | null }>(
      `select table_name as tabela, column_name as nome, data_type as tipo, is_nullable as nula, column_default as padrao,
              identity_generation as identidade
         from information_schema.columns where table_schema = 'public' order by table_name, column_name`,
    );
    // Each default evaluated by PostgreSQL itself: the same value the declaration gives, or the clock as ISO text.
    const valores = await Promise.all(
      colunas.map(async (c) => (c.padrao === null ? null : (await consultar<{ v: string }>(`select (${c.padrao})::text as v`))[0]!.v)),
    );
    const noBanco = colunas.map((c, i) => ({
      tabela: c.tabela,
      nome: c.nome,
      tipo: c.tipo,
      naoNula: c.nula === 'NO',
      autoIncremento: c.identidade === 'BY DEFAULT',
      padrao: valores[i] !== null && ISO_UTC.test(valores[i]!) ? 'agora' : valores[i],
    }));
    const esperadas = declaradas.flatMap((t) =>
      t.colunas.map((c) => ({
        tabela: t.nome,
        nome: c.nome,
        tipo: TIPO_NO_BANCO[c.tipo],
        naoNula: c.naoNula,
        autoIncremento: c.autoIncremento,
        padrao: c.padrao === null ? null : String(c.padrao),
      })),
    );
    expect(noBanco).toEqual(esperadas);
  });

  it('chaves primárias, únicas, estrangeiras (com a ação ao excluir) e verificações (nome e condição)', async () => {
    const restricoes = await consultar<{ tabela: string; nome: string; tipo: string; colunas: string[]; alvo: string | null; colunas_alvo: string[] | null; ao_excluir: string; ao_atualizar: string; definicao: string }>(
      `select t.relname as tabela, c.conname as nome, c.contype as tipo,
              array(select a.attname from unnest(c.conkey) with ordinality k(n, o) join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.n order by k.o)::text[] as colunas,
              f.relname as alvo,
              array(select a.attname from unnest(c.confkey) with ordinality k(n, o) join pg_attribute a on a.attrelid = c.confrelid and a.attnum = k.n order by k.o)::text[] as colunas_alvo,
              c.confdeltype as ao_excluir, c.confupdtype as ao_atualizar, pg_get_constraintdef(c.oid) as definicao
         from pg_constraint c join pg_class t on t.oid = c.conrelid join pg_namespace s on s.oid = t.relnamespace
         left join pg_class f on f.oid = c.confrelid
        where s.nspname = 'public' order by t.relname, c.conname`,
    );
    const de = (tabela: TabelaNeutra, tipo: string) => restricoes.filter((r) => r.tabela === tabela.nome && r.tipo === tipo);
    for (const t of declaradas) {
      const primaria = t.chavePrimariaComposta[0]?.colunas ?? t.colunas.filter((c) => c.chavePrimaria).map((c) => c.nome);
      expect(de(t, 'p').map((r) => r.colunas), `${t.nome}: chave primária`).toEqual([primaria]);
      expect(
        de(t, 'u').map((r) => ({ nome: r.nome, colunas: r.colunas })),
        `${t.nome}: únicas`,
      ).toEqual(t.colunas.filter((c) => c.unica !== null).map((c) => ({ nome: c.unica, colunas: [c.nome] })));
      expect(
        de(t, 'f').map((r) => ({ nome: r.nome, colunas: r.colunas, tabela: r.alvo, colunasAlvo: r.colunas_alvo, aoExcluir: ACAO_FK[r.ao_excluir], aoAtualizar: ACAO_FK[r.ao_atualizar] })),
        `${t.nome}: estrangeiras`,
      ).toEqual(t.estrangeiras);
      expect(
        de(t, 'c').map((r) => ({ nome: r.nome, sql: predicado(r.definicao, t.nome) })),
        `${t.nome}: verificações`,
      ).toEqual(t.verificacoes.map((v) => ({ nome: v.nome, sql: predicado(v.sql, t.nome) })));
    }
  });

  it('índices: nome, colunas em ordem, únicos e parciais', async () => {
    const indices = await consultar<{ tabela: string; nome: string; unico: boolean; colunas: string[]; onde: string | null }>(
      `select t.relname as tabela, i.relname as nome, x.indisunique as unico,
              array(select a.attname from unnest(x.indkey) with ordinality k(n, o) join pg_attribute a on a.attrelid = x.indrelid and a.attnum = k.n order by k.o)::text[] as colunas,
              pg_get_expr(x.indpred, x.indrelid) as onde
         from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class t on t.oid = x.indrelid
         join pg_namespace s on s.oid = t.relnamespace
        where s.nspname = 'public' and not exists (select 1 from pg_constraint c where c.conindid = x.indexrelid)
        order by t.relname, i.relname`,
    );
    const noBanco = indices.map((i) => ({ ...i, onde: i.onde === null ? null : predicado(i.onde, i.tabela) }));
    const esperados = declaradas.flatMap((t) => t.indices.map((i) => ({ tabela: t.nome, nome: i.nome, unico: i.unico, colunas: i.colunas, onde: i.onde === null ? null : predicado(i.onde, t.nome) })));
    expect(noBanco).toEqual(esperados);
  });

  it('gatilhos e funções: os de sqlManual.ts, e nenhum outro', async () => {
    const gatilhos = await consultar<{ nome: string; tabela: string; tipo: number; funcao: string }>(
      `select g.tgname as nome, t.relname as tabela, g.tgtype::int as tipo, p.proname as funcao
         from pg_trigger g join pg_class t on t.oid = g.tgrelid join pg_proc p on p.oid = g.tgfoid
        where not g.tgisinternal order by g.tgname`,
    );
    // tgtype bits: 2 before; 8 delete, 16 update, 32 truncate.
    const evento = (tipo: number) => (tipo & 32 ? 'TRUNCATE' : tipo & 16 ? 'UPDATE' : tipo & 8 ? 'DELETE' : `tipo ${tipo}`);
    expect(gatilhos.map((g) => ({ nome: g.nome, tabela: g.tabela, evento: evento(g.tipo), antes: (g.tipo & 2) === 2 }))).toEqual(
      porNome(GATILHOS.filter((g) => g.dialetos.includes('postgres')).map((g) => ({ nome: g.nome, tabela: g.tabela, evento: g.evento, antes: true }))),
    );
    const funcoes = await consultar<{ nome: string }>(
      "select p.proname as nome from pg_proc p join pg_namespace s on s.oid = p.pronamespace where s.nspname = 'public' order by 1",
    );
    expect(funcoes.map((f) => f.nome)).toEqual([...FUNCOES_POSTGRES]);
  });

  it('a auditoria só aceita novos registros: UPDATE, DELETE e TRUNCATE recusados como no SQLite', async () => {
    const [admin] = await db.insert(usuarios).values({ nome: 'Admin', email: 'admin@pg.teste', senhaHash: 'x', tipo: 'admin' }).returning();
    const [registro] = await db
      .insert(auditoria)
      .values({ adminId: admin!.id, acao: 'usuario.criar', alvoTipo: 'usuario', alvoId: String(admin!.id), depois: '{}' })
      .returning();
    expect(registro!.criadoEm).toMatch(ISO_UTC);

    expect(await recusaDe(db.update(auditoria).set({ acao: 'outra' }).where(eq(auditoria.id, registro!.id)))).toBe(MENSAGEM_AUDITORIA_SO_INSERCAO);
    expect(await recusaDe(db.delete(auditoria).where(eq(auditoria.id, registro!.id)))).toBe(MENSAGEM_AUDITORIA_SO_INSERCAO);
    expect(await recusaDe(db.$client.query(`truncate ${getTableConfig(auditoria).name}`))).toBe(MENSAGEM_AUDITORIA_SO_INSERCAO);
    expect(await db.select().from(auditoria)).toEqual([registro]);

    // The same refusal, word for word, from SQLite's migrations.
    const sqlite = abrirBanco({ arquivo: ':memory:', pastaMigracoes: recursosDoProjeto().pastaMigracoes });
    try {
      sqlite.$client.prepare("insert into usuarios (nome, email, senha_hash, tipo) values ('Admin', 'admin@sqlite.teste', 'x', 'admin')").run();
      sqlite.$client.prepare("insert into auditoria (admin_id, acao, alvo_tipo, alvo_id) values (1, 'usuario.criar', 'usuario', '1')").run();
      expect(() => sqlite.$client.prepare("update auditoria set acao = 'outra'").run()).toThrow(MENSAGEM_AUDITORIA_SO_INSERCAO);
      expect(() => sqlite.$client.prepare('delete from auditoria').run()).toThrow(MENSAGEM_AUDITORIA_SO_INSERCAO);
    } finally {
      sqlite.$client.close();
    }
  });

  it('dinheiro além de 32 bits e booleanos voltam como foram gravados; ids explícitos são aceitos (cópia sem perda)', async () => {
    const [funcionario] = await db
      .insert(usuarios)
      .values({ id: 500, nome: 'Func', email: 'func@pg.teste', senhaHash: 'x', tipo: 'funcionario', ativo: false })
      .returning();
    expect(funcionario).toMatchObject({ id: 500, ativo: false, bloqueado: false });
    // R$ 30 bilhões: past int4, within what SQLite's 64-bit integers hold.
    const grande = 3_000_000_000_000;
    await db.insert(movimentacoesSaldo).values({ funcionarioId: 500, tipo: 'credito', valorCentavos: grande, saldoAnteriorCentavos: 0, saldoNovoCentavos: grande });
    const [lida] = await db.select().from(movimentacoesSaldo).where(eq(movimentacoesSaldo.funcionarioId, 500));
    expect(lida).toMatchObject({ valorCentavos: grande, saldoNovoCentavos: grande });
    expect(typeof lida!.valorCentavos).toBe('number');
  });
});
