/**
 * The whole filtered set of an admin list as a CSV stream (Vendas, Despesas, Auditoria): the list's own
 * filter and order, read page after page (docs/decisions/paineis-e-relatorios.md, 'O ZIP do contador'). Each route
 * (vendas/rotas.ts, despesas/rotas.ts, auditoria/exportar.ts) validates the filter with the list's
 * schema and hands it here; `responderCsv` sends the stream.
 */
import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { cursorDaDespesa, paginaDeDespesasParaExportar, type FiltroDespesas } from '../despesas/repositorio';
import type { Db } from '../db';
import { diasDasVendas, listarVendas, totalDosDias, type FiltroVendas } from '../vendas/repositorio';
import { COLUNAS_DESPESAS, COLUNAS_VENDAS, colunasAuditoria } from './colunas';
import { csvEmFluxo, porCursor } from './fluxo';
import { ocuparVaga } from './limite';
import { LINHAS_POR_LEITURA, paginaDaAuditoria, type CursorAuditoria, type FiltroAuditoria } from './repositorio';
import type { App } from '../tipos';

/** Every expense of the filter, newest first as the screen lists them. */
export function csvDeDespesas(db: Db, filtro: FiltroDespesas): Readable {
  return csvEmFluxo(
    COLUNAS_DESPESAS,
    porCursor((cursor) => paginaDeDespesasParaExportar(db, filtro, 'recentes', cursor, LINHAS_POR_LEITURA), cursorDaDespesa, LINHAS_POR_LEITURA),
  );
}

/**
 * Every sale of the filter in the screen's order (newest day first, then names): the days and their
 * counts are read once (one row a day), and each page reads only the days it spans (listarVendas).
 */
export function csvDeVendas(db: Db, filtro: FiltroVendas): Readable {
  async function* paginas() {
    const dias = await diasDasVendas(db, filtro);
    const total = totalDosDias(dias);
    for (let deslocamento = 0; deslocamento < total; deslocamento += LINHAS_POR_LEITURA) {
      yield await listarVendas(db, filtro, { limite: LINHAS_POR_LEITURA, deslocamento }, dias);
    }
  }
  return csvEmFluxo(COLUNAS_VENDAS, paginas());
}

/** Every audit row of the filter, newest first, with the names its changes cite. */
export function csvDeAuditoria(db: Db, filtro: FiltroAuditoria, fuso: string): Readable {
  async function* paginas() {
    for await (const pagina of porCursor(
      async (cursor: CursorAuditoria | null) => {
        const { registros, nomes } = await paginaDaAuditoria(db, filtro, fuso, cursor);
        return registros.map((registro) => ({ registro, nomes }));
      },
      (l) => ({ criadoEm: l.registro.criado_em, id: l.registro.id }),
      LINHAS_POR_LEITURA,
    ))
      yield pagina;
  }
  return csvEmFluxo(colunasAuditoria(fuso), paginas());
}

/**
 * Sends a CSV export: one of the server's export slots (503 when taken), no cache, the file's name.
 * `gerar` builds the stream only once the slot is held; it is read as the client takes it.
 */
export function responderCsv(app: App, request: FastifyRequest, reply: FastifyReply, arquivo: string, gerar: () => Readable) {
  ocuparVaga(app, reply);
  const fluxo = gerar();
  fluxo.once('error', (erro) => request.log.error({ err: erro, arquivo }, 'exportação em CSV interrompida'));
  return reply
    .type('text/csv; charset=utf-8')
    .header('Content-Disposition', `attachment; filename="${arquivo}"`)
    .header('Cache-Control', 'no-store')
    .send(fluxo);
}
