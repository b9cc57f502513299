/**
 * One export from start to end: the routes of the filter, their details (PDF), the file. Runs in the
 * export worker (relatorios/trabalhador.ts) on its own read-only connection, so neither the queries
 * nor the drawing hold the thread that answers the phones; and in the request's thread only when the
 * database has no SQLite file a worker could open (':memory:', or PostgreSQL).
 */
import type { FormatoExportacao } from '../../../shared/schemas/relatorios';
import type { Db } from '../db';
import { buscarUsuarioPorId } from '../usuarios/repositorio';
import { descreverFiltros, gerarCsvRelatorio, gerarPdf, gerarXlsx } from './exportacao';
import type { FiltroTotais } from './repositorio';
import { detalhesDaRota, relatorioDeRotas } from './servico';

export interface PedidoExportacao {
  formato: FormatoExportacao;
  filtro: FiltroTotais;
  geradoEm: string;
  fuso: string;
  centro: string;
}

export async function gerarExportacao(db: Db, pedido: PedidoExportacao): Promise<{ bytes: Buffer; rotas: number }> {
  const { filtro } = pedido;
  const linhas = await relatorioDeRotas(db, filtro);
  const contexto = {
    filtros: descreverFiltros({
      ...(filtro.status ? { status: filtro.status } : {}),
      ...(filtro.funcionarioId !== undefined ? { funcionarioNome: (await buscarUsuarioPorId(db, filtro.funcionarioId))?.nome ?? `#${filtro.funcionarioId}` } : {}),
      ...(filtro.dataInicio ? { dataInicio: filtro.dataInicio } : {}),
      ...(filtro.dataFim ? { dataFim: filtro.dataFim } : {}),
      ...(filtro.ids ? { rotasSelecionadas: filtro.ids.length } : {}),
    }),
    geradoEm: new Date(pedido.geradoEm),
    fuso: pedido.fuso,
    centro: pedido.centro,
  };
  if (pedido.formato === 'csv') return { bytes: gerarCsvRelatorio(linhas), rotas: linhas.length };
  let bytes: Buffer;
  if (pedido.formato === 'pdf') {
    const detalhes = [];
    for (const l of linhas) detalhes.push(await detalhesDaRota(db, l.rota_id));
    bytes = await gerarPdf(linhas, contexto, detalhes);
  } else bytes = await gerarXlsx(linhas, contexto);
  return { bytes, rotas: linhas.length };
}
