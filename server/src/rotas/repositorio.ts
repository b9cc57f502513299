/** Table access for routes, their cities, and the per-date status of each city. */
import { and, asc, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { CidadeResumo, CidadeStatus, Rota, StatusRota } from '../../../shared/schemas/rotas';
import { centavosParaReais } from '../../../shared/money';
import { linhas as linhasSql, preparada, type Db } from '../db';
import { cidades, despesas, movimentacoesSaldo, rotaCidades, rotas, usuarios, vendas, visitas } from '../db/tabelas';
import { prepararComNome } from '../usuarios/repositorio';

export type LinhaRota = typeof rotas.$inferSelect;

export async function buscarRota(db: Db, id: number): Promise<LinhaRota | undefined> {
  // Every write on a route checks it first: prepared once.
  const consulta = preparada(db, 'rota.porId', () => prepararComNome(db.select().from(rotas).where(eq(rotas.id, sql.placeholder('id'))), 'rota.porId'));
  return (await consulta.execute({ id }))[0];
}

/** Whose route it is (null: none with that id): the user whose lock a change to it takes (db/travas.ts). */
export async function donoDaRota(db: Db, id: number): Promise<number | null> {
  const [linha] = await db.select({ funcionarioId: rotas.funcionarioId }).from(rotas).where(eq(rotas.id, id)).limit(1);
  return linha?.funcionarioId ?? null;
}

export interface FiltroRotas {
  status?: StatusRota;
  funcionarioId?: number;
}

export async function listarLinhasRotas(db: Db, filtro: FiltroRotas): Promise<LinhaRota[]> {
  const condicoes: SQL[] = [];
  if (filtro.status) condicoes.push(eq(rotas.status, filtro.status));
  if (filtro.funcionarioId !== undefined) condicoes.push(eq(rotas.funcionarioId, filtro.funcionarioId));
  return db
    .select()
    .from(rotas)
    .where(condicoes.length ? and(...condicoes) : undefined)
    .orderBy(sql`case ${rotas.status} when 'ativa' then 0 else 1 end`, desc(rotas.dataInicio), desc(rotas.id));
}

export async function cidadesDasRotas(db: Db, ids: number[]): Promise<Map<number, (CidadeResumo & { rotaCidadeId: number })[]>> {
  const mapa = new Map<number, (CidadeResumo & { rotaCidadeId: number })[]>();
  if (ids.length === 0) return mapa;
  const linhas = await db
    .select({ rotaId: rotaCidades.rotaId, rotaCidadeId: rotaCidades.id, id: cidades.id, nome: cidades.nome, uf: cidades.uf })
    .from(rotaCidades)
    .innerJoin(cidades, eq(cidades.id, rotaCidades.cidadeId))
    .where(inArray(rotaCidades.rotaId, ids))
    .orderBy(asc(rotaCidades.rotaId), asc(rotaCidades.ordem), asc(rotaCidades.id));
  for (const l of linhas) {
    const lista = mapa.get(l.rotaId) ?? [];
    lista.push({ id: l.id, nome: l.nome, uf: l.uf, rotaCidadeId: l.rotaCidadeId });
    mapa.set(l.rotaId, lista);
  }
  return mapa;
}

/** Sums per route of the sales and expenses of one date, in centavos. */
async function totaisDoDia(db: Db, ids: number[], data: string): Promise<{ vendas: Map<number, number>; despesas: Map<number, number> }> {
  const resultado = { vendas: new Map<number, number>(), despesas: new Map<number, number>() };
  if (ids.length === 0) return resultado;
  const v = await db
    .select({
      rotaId: vendas.rotaId,
      total: sql<number>`sum(${vendas.dinheiroCentavos} + ${vendas.pixCentavos} + ${vendas.cartaoCentavos} + ${vendas.linkCentavos})`,
    })
    .from(vendas)
    .where(and(inArray(vendas.rotaId, ids), eq(vendas.dataVenda, data)))
    .groupBy(vendas.rotaId);
  for (const l of v) resultado.vendas.set(l.rotaId, l.total);
  const d = await db
    .select({ rotaId: despesas.rotaId, total: sql<number>`sum(${despesas.valorCentavos})` })
    .from(despesas)
    .where(and(inArray(despesas.rotaId, ids), eq(despesas.dataDespesa, data), isNull(despesas.excluidaEm)))
    .groupBy(despesas.rotaId);
  for (const l of d) resultado.despesas.set(l.rotaId, l.total);
  return resultado;
}

/** Routes as the API shows them: employee name, cities in order, today's sales and expenses. */
export async function apresentarRotas(db: Db, linhas: LinhaRota[], hoje: string): Promise<Rota[]> {
  if (linhas.length === 0) return [];
  const ids = linhas.map((r) => r.id);
  const cidadesPorRota = await cidadesDasRotas(db, ids);
  const totais = await totaisDoDia(db, ids, hoje);
  const nomes = new Map(
    (
      await db
        .select({ id: usuarios.id, nome: usuarios.nome })
        .from(usuarios)
        .where(inArray(usuarios.id, [...new Set(linhas.map((r) => r.funcionarioId))]))
    ).map((u) => [u.id, u.nome]),
  );
  return linhas.map((r) => ({
    id: r.id,
    nome: r.nome,
    funcionario_id: r.funcionarioId,
    funcionario_nome: nomes.get(r.funcionarioId) ?? '',
    tem_secretario: r.temSecretario,
    secretario_nome: r.secretarioNome,
    valor_aluguel: centavosParaReais(r.valorAluguelCentavos),
    data_inicio: r.dataInicio,
    data_fim: r.dataFim,
    observacoes: r.observacoes,
    status: r.status,
    cidades: (cidadesPorRota.get(r.id) ?? []).map(({ id, nome, uf }) => ({ id, nome, uf })),
    vendasHoje: centavosParaReais(totais.vendas.get(r.id) ?? 0),
    despesasHoje: centavosParaReais(totais.despesas.get(r.id) ?? 0),
    criado_em: r.criadoEm,
    finalizada_em: r.finalizadaEm,
  }));
}

/** Each city of the route on `data`: closed (has a sale that day), visited, and the sale's id. */
export async function statusDasCidades(db: Db, rotaId: number, data: string): Promise<CidadeStatus[]> {
  const linhas = await db
    .select({
      cidadeId: cidades.id,
      cidadeNome: cidades.nome,
      uf: cidades.uf,
      rotaCidadeId: rotaCidades.id,
      vendaId: vendas.id,
      visitaId: visitas.id,
    })
    .from(rotaCidades)
    .innerJoin(cidades, eq(cidades.id, rotaCidades.cidadeId))
    .leftJoin(vendas, and(eq(vendas.rotaId, rotaCidades.rotaId), eq(vendas.cidadeId, rotaCidades.cidadeId), eq(vendas.dataVenda, data)))
    .leftJoin(visitas, and(eq(visitas.rotaId, rotaCidades.rotaId), eq(visitas.cidadeId, rotaCidades.cidadeId), eq(visitas.data, data)))
    .where(eq(rotaCidades.rotaId, rotaId))
    .orderBy(asc(rotaCidades.ordem), asc(rotaCidades.id));
  return linhas.map((l) => ({
    cidade_id: l.cidadeId,
    cidade_nome: l.cidadeNome,
    uf: l.uf,
    rota_id: rotaId,
    rota_cidade_id: l.rotaCidadeId,
    fechada: l.vendaId ? 1 : 0,
    visitada: l.visitaId !== null || l.vendaId !== null,
    venda_id: l.vendaId,
  }));
}

/** What keeps a route from being deleted: recorded money. */
export async function movimentoDaRota(db: Db, rotaId: number): Promise<{ vendas: number; despesas: number; movimentacoes: number }> {
  const contar = async (tabela: typeof vendas | typeof despesas | typeof movimentacoesSaldo, coluna: typeof vendas.rotaId | typeof despesas.rotaId | typeof movimentacoesSaldo.rotaId) =>
    (await db.select({ n: sql<number>`count(*)` }).from(tabela).where(eq(coluna, rotaId)))[0]!.n;
  return {
    vendas: await contar(vendas, vendas.rotaId),
    despesas: await contar(despesas, despesas.rotaId),
    movimentacoes: await contar(movimentacoesSaldo, movimentacoesSaldo.rotaId),
  };
}

/** Cities of the route that carry recorded activity (they cannot leave the route). */
export async function cidadesComMovimento(db: Db, rotaId: number): Promise<number[]> {
  const linhas = await linhasSql<{ cidade_id: number }>(db, sql`
    select cidade_id from vendas where rota_id = ${rotaId}
    union select cidade_id from visitas where rota_id = ${rotaId}
    union select cidade_id from despesas where rota_id = ${rotaId}`);
  return linhas.map((l) => l.cidade_id);
}

export async function substituirCidades(db: Db, rotaId: number, ids: number[]): Promise<void> {
  await db.delete(rotaCidades).where(eq(rotaCidades.rotaId, rotaId));
  if (ids.length > 0) await db.insert(rotaCidades).values(ids.map((cidadeId, ordem) => ({ rotaId, cidadeId, ordem })));
}

export type LinhaVisitaRota = typeof visitas.$inferSelect;

// Saving every queued sale ensures its visit: these run once per replayed closing, prepared once.

export async function buscarVisitaPorId(db: Db, id: string): Promise<LinhaVisitaRota | undefined> {
  const consulta = preparada(db, 'visita.porId', () => prepararComNome(db.select().from(visitas).where(eq(visitas.id, sql.placeholder('id'))), 'visita.porId'));
  return (await consulta.execute({ id }))[0];
}

export async function buscarVisitaDoDia(db: Db, rotaId: number, cidadeId: number, data: string): Promise<LinhaVisitaRota | undefined> {
  const consulta = preparada(db, 'visita.doDia', () =>
    prepararComNome(
      db
        .select()
        .from(visitas)
        .where(and(eq(visitas.rotaId, sql.placeholder('rotaId')), eq(visitas.cidadeId, sql.placeholder('cidadeId')), eq(visitas.data, sql.placeholder('data')))),
      'visita.doDia',
    ),
  );
  return (await consulta.execute({ rotaId, cidadeId, data }))[0];
}

/** A visit without a sale (the employee's 'Visitada' on a city). */
export async function inserirVisita(db: Db, v: Omit<typeof visitas.$inferInsert, 'recebidoEm'>): Promise<LinhaVisitaRota> {
  const comando = preparada(db, 'visita.inserir', () =>
    prepararComNome(
      db
        .insert(visitas)
        .values({
          id: sql.placeholder('id'),
          rotaId: sql.placeholder('rotaId'),
          cidadeId: sql.placeholder('cidadeId'),
          funcionarioId: sql.placeholder('funcionarioId'),
          data: sql.placeholder('data'),
          registradoEm: sql.placeholder('registradoEm'),
        })
        .returning(),
      'visita.inserir',
    ),
  );
  return (await comando.execute(v))[0]!;
}

/** Removes the employee's visit of a (route, city, date); true when there was one. */
export async function apagarVisitaDoDia(db: Db, funcionarioId: number, rotaId: number, cidadeId: number, data: string): Promise<boolean> {
  const apagadas = await db
    .delete(visitas)
    .where(and(eq(visitas.funcionarioId, funcionarioId), eq(visitas.rotaId, rotaId), eq(visitas.cidadeId, cidadeId), eq(visitas.data, data)))
    .returning({ id: visitas.id });
  return apagadas.length > 0;
}
