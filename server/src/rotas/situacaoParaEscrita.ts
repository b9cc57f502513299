/**
 * What a write on a route needs to know about it (situacaoParaEscrita), and the batch's fast path for
 * it, fenced off here with the measurement that justified it (docs/decisions/vazao-da-sincronizacao.md,
 * 'A rota uma vez por corrida'): every queued sale and visit asks, and a batch of 200 sales over 100 cities
 * asked 100 times, ~0.55 ms of a batch; inside a batch run (comSituacoesMemorizadas) the route and its
 * cities are read once, and each sale is answered from the set (~0.16 ms). Alone, one lookup.
 * Statements straight on the driver, at once on SQLite (db/index.ts, preparadaDireta; db/talvez.ts).
 */
import { eq, sql } from 'drizzle-orm';
import type { StatusRota } from '../../../shared/schemas/rotas';
import type { DatasDaRota } from '../../../shared/periodoRota';
import { preparadaDireta, type Db } from '../db';
import { aguardar, depois, rodarPassos, type Talvez } from '../db/talvez';
import { rotaCidades, rotas } from '../db/tabelas';

export interface SituacaoParaEscrita extends DatasDaRota {
  funcionarioId: number;
  temCidade: boolean;
}

/**
 * A route as a batch run knows it, read once (comSituacoesMemorizadas): its situation for a city on it
 * and for one off it, made once (not a spread per sale: adding a key to a spread copy is V8's slow path,
 * ~0.7 µs each), and its cities.
 */
interface RotaDaCorrida {
  naRota: SituacaoParaEscrita;
  foraDaRota: SituacaoParaEscrita;
  cidades: ReadonlySet<number>;
}

/** Routes remembered while a batch run is open (comSituacoesMemorizadas), per database. */
const rotasMemorizadas = new WeakMap<Db, Map<number, RotaDaCorrida | undefined>>();

/**
 * Runs `fn`, one run of a phone's batch inside one transaction (`tx`), remembering each route that
 * situacaoParaEscrita reads through `tx`, with its cities: two hundred sales of one route, over as many
 * cities and days, read it once. Nobody else changes the route meanwhile (SQLite: the transaction holds
 * the write lock; PostgreSQL: the batch holds its employee's lock, and every change to a route takes its
 * employee's lock or the one for everything, db/travas.ts), so only
 * the run's own writes could change an answer: `fn` gets `esquecer`, which the batch calls after every
 * write not known to leave routes alone.
 */
export function comSituacoesMemorizadas<T>(tx: Db, fn: (esquecer: () => void) => Talvez<T>): Talvez<T> {
  const memoria = new Map<number, RotaDaCorrida | undefined>();
  rotasMemorizadas.set(tx, memoria);
  // Steps (db/talvez.ts): forgotten when `fn` ends, at once if it answered at once.
  return rodarPassos(
    (function* () {
      try {
        return yield* aguardar(fn(() => memoria.clear()));
      } finally {
        rotasMemorizadas.delete(tx);
      }
    })(),
  );
}

/** The columns of colunasDaSituacao in order (the non-batch lookup adds temCidade after them). */
type LinhaSituacao = readonly [number, StatusRota, string, string, string | null, string | null, ...unknown[]];

const colunasDaSituacao = () => ({
  funcionarioId: rotas.funcionarioId,
  status: rotas.status,
  dataInicio: rotas.dataInicio,
  criadoEm: rotas.criadoEm,
  finalizadaEm: rotas.finalizadaEm,
  canceladaEm: rotas.canceladaEm,
});

function situacaoDaLinha(l: LinhaSituacao, temCidade: boolean): SituacaoParaEscrita {
  return { funcionarioId: l[0], status: l[1], dataInicio: l[2], criadoEm: l[3], finalizadaEm: l[4], canceladaEm: l[5], temCidade };
}

/**
 * What a write on a route needs to know: whose route it is, its status, the dates of its active period
 * (shared/periodoRota.ts) and whether the city is on it. Every queued sale and visit asks this, so it
 * reads those columns, not the row: alone, in one lookup; inside a batch run, the route and its cities
 * once for the run (statements straight on the driver, at once on SQLite: db/index.ts, preparadaDireta).
 */
export function situacaoParaEscrita(db: Db, rotaId: number, cidadeId: number): Talvez<SituacaoParaEscrita | undefined> {
  const memoria = rotasMemorizadas.get(db);
  if (memoria) {
    // Remembered (every write of the run after its first): answered as it is, no closure per write.
    if (memoria.has(rotaId)) return naCidade(memoria.get(rotaId), cidadeId);
    return depois(rotaDaCorrida(db, memoria, rotaId), (r) => naCidade(r, cidadeId));
  }
  const linha = preparadaDireta(db, 'rota.situacaoParaEscrita', () =>
    db
      .select({
        ...colunasDaSituacao(),
        // Not correlated by column: drizzle drops the table names of a one-table select, and a bare
        // "id" inside the subquery would be rota_cidades.id.
        // A number on both engines (PostgreSQL's exists is a boolean).
        temCidade: sql<number>`case when exists(select 1 from ${rotaCidades} where ${rotaCidades.rotaId} = ${sql.placeholder('rotaId')} and ${rotaCidades.cidadeId} = ${sql.placeholder('cidadeId')}) then 1 else 0 end`,
      })
      .from(rotas)
      .where(eq(rotas.id, sql.placeholder('rotaId'))),
  ).linha({ rotaId, cidadeId }) as Talvez<LinhaSituacao | undefined>;
  return depois(linha, (l) => l && situacaoDaLinha(l, l[6] === 1));
}

/** A remembered route's situation for the city (undefined: no such route). */
const naCidade = (r: RotaDaCorrida | undefined, cidadeId: number) => r && (r.cidades.has(cidadeId) ? r.naRota : r.foraDaRota);

/** The route and its cities for the open batch run (undefined: no such route): read at its first question, then remembered. */
function rotaDaCorrida(db: Db, memoria: Map<number, RotaDaCorrida | undefined>, rotaId: number): Talvez<RotaDaCorrida | undefined> {
  if (memoria.has(rotaId)) return memoria.get(rotaId);
  const linha = preparadaDireta(db, 'rota.situacaoDaCorrida', () =>
    db
      .select(colunasDaSituacao())
      .from(rotas)
      .where(eq(rotas.id, sql.placeholder('rotaId'))),
  ).linha({ rotaId }) as Talvez<LinhaSituacao | undefined>;
  return depois(linha, (l) => {
    if (!l) {
      memoria.set(rotaId, undefined);
      return undefined;
    }
    const ids = preparadaDireta(db, 'rota.cidadesDaCorrida', () =>
      db
        .select({ cidadeId: rotaCidades.cidadeId })
        .from(rotaCidades)
        .where(eq(rotaCidades.rotaId, sql.placeholder('rotaId'))),
    ).todas({ rotaId }) as Talvez<[number][]>;
    return depois(ids, (linhas) => {
      const rota: RotaDaCorrida = { naRota: situacaoDaLinha(l, true), foraDaRota: situacaoDaLinha(l, false), cidades: new Set(linhas.map((c) => c[0])) };
      memoria.set(rotaId, rota);
      return rota;
    });
  });
}
