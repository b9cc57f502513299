/**
 * Table access for sales. Sums are done by the database over integer centavos, so totals are exact
 * (0.10 + 0.20 is 30 centavos, never 0.30000000000000004).
 */
import { and, asc, desc, eq, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import { centavosParaReais } from '../../../shared/money';
import type { ResumoVendas, TotaisVendas, VendaCriarDados, VendaHistorico, VendaListada } from '../../../shared/schemas/vendas';
import { insercaoPosicional, linhas as linhasSql, preparada, preparadaDireta, type Db } from '../db';
import { depois, type Talvez } from '../db/talvez';
import { cidades, rotas, usuarios, vendas } from '../db/tabelas';
import type { Janela } from '../paginacao';
import type { LinhaRota } from '../rotas/repositorio';
import { prepararComNome } from '../usuarios/repositorio';

export type LinhaVenda = typeof vendas.$inferSelect;

// The write path of a sale runs these for every queued closing a phone replays: prepared once.

export async function buscarVenda(db: Db, id: string): Promise<LinhaVenda | undefined> {
  const consulta = preparada(db, 'venda.porId', () => prepararComNome(db.select().from(vendas).where(eq(vendas.id, sql.placeholder('id'))), 'venda.porId'));
  return (await consulta.execute({ id }))[0];
}

export async function buscarVendaDoDia(db: Db, rotaId: number, cidadeId: number, dataVenda: string): Promise<LinhaVenda | undefined> {
  const consulta = preparada(db, 'venda.doDia', () =>
    prepararComNome(
      db
        .select()
        .from(vendas)
        .where(and(eq(vendas.rotaId, sql.placeholder('rotaId')), eq(vendas.cidadeId, sql.placeholder('cidadeId')), eq(vendas.dataVenda, sql.placeholder('dataVenda')))),
      'venda.doDia',
    ),
  );
  return (await consulta.execute({ rotaId, cidadeId, dataVenda }))[0];
}

export type NovaVenda = Omit<typeof vendas.$inferInsert, 'recebidoEm' | 'atualizadoEm'>;

/**
 * Inserts the sale unless its id is taken or its (route, city, date) already has one: answers when
 * the server took it (its recebido_em and atualizado_em), or null when nothing was inserted.
 */
export function inserirVendaSeLivre(db: Db, v: NovaVenda): Talvez<string | null> {
  const agora = new Date().toISOString();
  // Run straight on the driver, at once on SQLite: every queued sale comes through here (db/index.ts, preparadaDireta).
  const inseridas = preparadaDireta(db, 'venda.inserirSeLivre', () => insercaoSeLivre(db)).run({
    dinheiroCentavos: 0,
    pixCentavos: 0,
    cartaoCentavos: 0,
    linkCentavos: 0,
    boletos: 0,
    observacoes: '',
    alteradaPorCliente: null,
    ...v,
    recebidoEm: agora,
    atualizadoEm: agora,
    versao: PRIMEIRA_VERSAO,
  });
  return depois(inseridas, (n) => (n > 0 ? agora : null));
}

/** A new sale's version (the column's default), given so that every value of the insert is a placeholder. */
const PRIMEIRA_VERSAO = 1;

/** The columns of a new sale, in the table's order (the statement's): inserirVendaNovaSqlite's values go to the driver as they are. */
const COLUNAS_VENDA_NOVA = [
  'id',
  'rotaId',
  'cidadeId',
  'funcionarioId',
  'dataVenda',
  'dinheiroCentavos',
  'pixCentavos',
  'cartaoCentavos',
  'linkCentavos',
  'boletos',
  'observacoes',
  'registradoEm',
  'recebidoEm',
  'atualizadoEm',
  'versao',
  'alteradaPorCliente',
] as const satisfies readonly (keyof typeof vendas.$inferInsert)[];

/** The sale, unless its id is taken or its (route, city, date) already has one. */
function insercaoSeLivre(db: Db) {
  const valores = Object.fromEntries(COLUNAS_VENDA_NOVA.map((coluna) => [coluna, sql.placeholder(coluna)])) as unknown as typeof vendas.$inferInsert;
  // No target: any taken key (the id, or the unique route, city and date) skips the row.
  return db.insert(vendas).values(valores).onConflictDoNothing();
}

/**
 * inserirVendaSeLivre for the batch's direct path on SQLite (vendasNovasDoLote.ts): the same statement, its
 * values straight from the phone's checked data. Answers whether the row went in.
 */
export function inserirVendaNovaSqlite(db: Db, v: VendaCriarDados, funcionarioId: number, registradoEm: string, recebidoEm: string, alteradaPorCliente: string | null): boolean {
  const inserir = insercaoPosicional(db, 'venda.inserirSeLivre', COLUNAS_VENDA_NOVA, () => insercaoSeLivre(db));
  const inseridas = inserir(
    v.id,
    v.rota_id,
    v.cidade_id,
    funcionarioId,
    v.data_venda,
    v.valor_dinheiro,
    v.valor_pix,
    v.valor_cartao,
    v.valor_link,
    v.valor_boletos,
    v.observacoes,
    registradoEm,
    recebidoEm,
    recebidoEm,
    PRIMEIRA_VERSAO,
    alteradaPorCliente,
  );
  return inseridas > 0;
}

export interface ValoresVendaColunas {
  dinheiroCentavos: number;
  pixCentavos: number;
  cartaoCentavos: number;
  linkCentavos: number;
  boletos: number;
  observacoes: string;
}

/** Stores new values: the version goes up and the writing device is remembered. */
export async function atualizarValoresDaVenda(db: Db, id: string, valores: ValoresVendaColunas, registradoEm: string, clienteId: string | null): Promise<void> {
  const comando = preparada(db, 'venda.atualizarValores', () =>
    prepararComNome(
      db
        .update(vendas)
        .set({
          dinheiroCentavos: sql`${sql.placeholder('dinheiroCentavos')}`,
          pixCentavos: sql`${sql.placeholder('pixCentavos')}`,
          cartaoCentavos: sql`${sql.placeholder('cartaoCentavos')}`,
          linkCentavos: sql`${sql.placeholder('linkCentavos')}`,
          boletos: sql`${sql.placeholder('boletos')}`,
          observacoes: sql`${sql.placeholder('observacoes')}`,
          registradoEm: sql`${sql.placeholder('registradoEm')}`,
          atualizadoEm: sql`${sql.placeholder('atualizadoEm')}`,
          versao: sql`${vendas.versao} + 1`,
          alteradaPorCliente: sql`${sql.placeholder('clienteId')}`,
        })
        .where(eq(vendas.id, sql.placeholder('id'))),
      'venda.atualizarValores',
    ),
  );
  await comando.execute({ id, ...valores, registradoEm, clienteId, atualizadoEm: new Date().toISOString() });
}

/** Filters already resolved by the service (an employee's funcionarioId is forced to their own). */
export interface FiltroVendas {
  id?: string;
  funcionarioId?: number;
  rotaId?: number;
  cidadeIds?: number[];
  data?: string;
  dataInicio?: string;
  dataFim?: string;
  statusRota?: 'ativa' | 'finalizada' | 'cancelada';
}

function condicoes(filtro: FiltroVendas): SQL | undefined {
  const c: SQL[] = [];
  if (filtro.id !== undefined) c.push(eq(vendas.id, filtro.id));
  if (filtro.funcionarioId !== undefined) c.push(eq(vendas.funcionarioId, filtro.funcionarioId));
  if (filtro.rotaId !== undefined) c.push(eq(vendas.rotaId, filtro.rotaId));
  if (filtro.cidadeIds && filtro.cidadeIds.length > 0) c.push(inArray(vendas.cidadeId, filtro.cidadeIds));
  if (filtro.data !== undefined) c.push(eq(vendas.dataVenda, filtro.data));
  if (filtro.dataInicio !== undefined) c.push(gte(vendas.dataVenda, filtro.dataInicio));
  if (filtro.dataFim !== undefined) c.push(lte(vendas.dataVenda, filtro.dataFim));
  if (filtro.statusRota !== undefined) c.push(eq(rotas.status, filtro.statusRota));
  return c.length ? and(...c) : undefined;
}

const totalCentavos = sql<number>`${vendas.dinheiroCentavos} + ${vendas.pixCentavos} + ${vendas.cartaoCentavos} + ${vendas.linkCentavos}`;

const colunasListadas = {
  venda: vendas,
  funcionarioNome: usuarios.nome,
  rotaNome: rotas.nome,
  rotaStatus: rotas.status,
  cidadeNome: cidades.nome,
  cidadeUf: cidades.uf,
};

type LinhaListada = { venda: LinhaVenda; funcionarioNome: string; rotaNome: string; rotaStatus: LinhaRota['status']; cidadeNome: string; cidadeUf: string };

function apresentarLinha({ venda: v, ...l }: LinhaListada): VendaListada {
  return {
    id: v.id,
    rota_id: v.rotaId,
    cidade_id: v.cidadeId,
    funcionario_id: v.funcionarioId,
    data_venda: v.dataVenda,
    valor_dinheiro: centavosParaReais(v.dinheiroCentavos),
    valor_pix: centavosParaReais(v.pixCentavos),
    valor_cartao: centavosParaReais(v.cartaoCentavos),
    valor_link: centavosParaReais(v.linkCentavos),
    valor_boletos: v.boletos,
    observacoes: v.observacoes,
    funcionario_nome: l.funcionarioNome,
    rota_nome: l.rotaNome,
    rota_status: l.rotaStatus,
    cidade_nome: l.cidadeNome,
    cidade_uf: l.cidadeUf,
    total_vendas: centavosParaReais(v.dinheiroCentavos + v.pixCentavos + v.cartaoCentavos + v.linkCentavos),
    registrado_em: v.registradoEm,
    recebido_em: v.recebidoEm,
    atualizado_em: v.atualizadoEm,
    versao: v.versao,
  };
}

/** One day of the filtered set and how many sales it has. */
export interface DiaDasVendas {
  dia: string;
  linhas: number;
}

/**
 * How many sales the filter selects on each day, newest first: a scan of a date index (covering:
 * about 10 ms for a year of sales), no join with names. It gives the total and says which few days
 * hold a given page.
 */
export async function diasDasVendas(db: Db, filtro: FiltroVendas): Promise<DiaDasVendas[]> {
  const q = db.select({ dia: vendas.dataVenda, linhas: sql<number>`count(*)` }).from(vendas);
  // The route's status is the only filter that needs another table.
  return (filtro.statusRota !== undefined ? q.innerJoin(rotas, eq(rotas.id, vendas.rotaId)) : q)
    .where(condicoes(filtro))
    .groupBy(vendas.dataVenda)
    .orderBy(desc(vendas.dataVenda));
}

export const totalDosDias = (dias: DiaDasVendas[]) => dias.reduce((n, d) => n + d.linhas, 0);

/**
 * One page of the sales as the screens list them: newest day first, then employee, route and city
 * by name, the id last (pages never repeat nor skip a row). Sorting the whole set by names to take
 * one page cost 150-250 ms on a year of data; the days (`diasDasVendas`) say which few
 * days hold the page, and only those are read and sorted.
 */
export async function listarVendas(db: Db, filtro: FiltroVendas, janela: Janela, diasConhecidos?: DiaDasVendas[]): Promise<VendaListada[]> {
  const dias = diasConhecidos ?? (await diasDasVendas(db, filtro));
  let antes = 0;
  let ultimoDia: string | null = null;
  let primeiroDia: string | null = null;
  let pular = 0;
  for (const d of dias) {
    if (ultimoDia === null && antes + d.linhas > janela.deslocamento) {
      ultimoDia = d.dia;
      pular = janela.deslocamento - antes;
    }
    antes += d.linhas;
    if (ultimoDia !== null) {
      primeiroDia = d.dia;
      if (antes >= janela.deslocamento + janela.limite) break;
    }
  }
  if (ultimoDia === null || primeiroDia === null) return [];
  const linhas = await db
    .select(colunasListadas)
    .from(vendas)
    .innerJoin(rotas, eq(rotas.id, vendas.rotaId))
    .innerJoin(usuarios, eq(usuarios.id, vendas.funcionarioId))
    .innerJoin(cidades, eq(cidades.id, vendas.cidadeId))
    .where(and(condicoes(filtro), gte(vendas.dataVenda, primeiroDia), lte(vendas.dataVenda, ultimoDia)))
    .orderBy(desc(vendas.dataVenda), asc(usuarios.nome), asc(rotas.nome), asc(cidades.nome), asc(vendas.id))
    .limit(janela.limite)
    .offset(pular);
  return linhas.map(apresentarLinha);
}

/** One sale as listed (the answer to every write): prepared, it runs for every replayed closing. */
export async function buscarVendaApresentada(db: Db, id: string): Promise<VendaListada | undefined> {
  const consulta = preparada(db, 'venda.apresentada', () =>
    prepararComNome(
      db
        .select(colunasListadas)
        .from(vendas)
        .innerJoin(rotas, eq(rotas.id, vendas.rotaId))
        .innerJoin(usuarios, eq(usuarios.id, vendas.funcionarioId))
        .innerJoin(cidades, eq(cidades.id, vendas.cidadeId))
        .where(eq(vendas.id, sql.placeholder('id'))),
      'venda.apresentada',
    ),
  );
  const [linha] = await consulta.execute({ id });
  return linha ? apresentarLinha(linha) : undefined;
}

/** The daily-closing totals of the whole filtered set (every page), summed in centavos by the database, and its row count. */
export async function totaisDasVendas(db: Db, filtro: FiltroVendas): Promise<TotaisVendas & { linhas: number }> {
  const q = db
    .select({
      linhas: sql<number>`count(*)`,
      dinheiro: sql<number>`coalesce(sum(${vendas.dinheiroCentavos}), 0)`,
      pix: sql<number>`coalesce(sum(${vendas.pixCentavos}), 0)`,
      cartao: sql<number>`coalesce(sum(${vendas.cartaoCentavos}), 0)`,
      link: sql<number>`coalesce(sum(${vendas.linkCentavos}), 0)`,
      boletos: sql<number>`coalesce(sum(${vendas.boletos}), 0)`,
      total: sql<number>`coalesce(sum(${totalCentavos}), 0)`,
    })
    .from(vendas);
  // The route's status is the only filter that needs the routes table: without it, one pass over the sales.
  const [t] = await (filtro.statusRota !== undefined ? q.innerJoin(rotas, eq(rotas.id, vendas.rotaId)) : q).where(condicoes(filtro));
  return {
    dinheiro: centavosParaReais(t!.dinheiro),
    pix: centavosParaReais(t!.pix),
    cartao: centavosParaReais(t!.cartao),
    link: centavosParaReais(t!.link),
    boletos: t!.boletos,
    total_geral: centavosParaReais(t!.total),
    linhas: t!.linhas,
  };
}

export async function resumoDaRota(db: Db, rotaId: number): Promise<ResumoVendas> {
  const t = await totaisDasVendas(db, { rotaId });
  return {
    total_vendas: t.total_geral,
    total_boletos: t.boletos,
    total_dinheiro: t.dinheiro,
    total_pix: t.pix,
    total_cartao: t.cartao,
    total_link: t.link,
  };
}

/** The last `porCidade` sales of each city of the route, newest first (one query, a window function). */
export async function historicoDaRota(db: Db, rotaId: number, porCidade: number): Promise<VendaHistorico[]> {
  const linhas = await linhasSql<{ id: string; cidade_id: number; data_venda: string; total: number; boletos: number; registrado_em: string }>(db, sql`
    select id, cidade_id, data_venda, total, boletos, registrado_em from (
      select id, cidade_id, data_venda, boletos, registrado_em,
             dinheiro_centavos + pix_centavos + cartao_centavos + link_centavos as total,
             row_number() over (partition by cidade_id order by data_venda desc) as posicao
      from vendas where rota_id = ${rotaId}
    ) as ultimas where posicao <= ${porCidade}
    order by cidade_id, data_venda desc`);
  return linhas.map((l) => ({
    id: l.id,
    cidade_id: l.cidade_id,
    data_venda: l.data_venda,
    total_vendas: centavosParaReais(l.total),
    valor_boletos: l.boletos,
    registrado_em: l.registrado_em,
  }));
}
