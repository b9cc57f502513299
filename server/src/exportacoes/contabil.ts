/**
 * The accountant's ZIP of a period (docs/decisions/paineis-e-relatorios.md, 'O ZIP do contador'), written as it is
 * sent, never whole in memory:
 *   despesas.csv   every expense of the period (every status, never the deleted), oldest first, with the
 *                  names of its receipts inside the ZIP;
 *   vendas.csv     every sale of the period, oldest first;
 *   resumo.pdf     per employee and route (resumoPdf.ts);
 *   comprovantes/  every receipt of those expenses, byte for byte as stored, named
 *                  'aaaa-mm-dd_funcionario_tipo_valor.ext' (shared/exportacoes.ts).
 *
 * yazl writes the entries in order into its output stream, which the reply pipes to the client: each
 * entry's source is read only as fast as the client takes the bytes. The CSVs and the PDF read the
 * database page by page as they are read; the receipts are added one at a time, each opened from the
 * storage (the folder or the bucket) only once the one before was wholly read, with its size known.
 * despesas.csv and the receipts walk the same expenses in the same order with the same naming, so the
 * names in the CSV are the files' names (a receipt added to that same day, type and value while the
 * file is being written could shift a suffix: the export reads pages, not one frozen instant).
 *
 * A failure after the first byte (the bucket, the database) cannot become an error answer any more: the
 * stream is destroyed (the client sees a cut download), the failure is logged, the process goes on.
 */
import type { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import { NomesDeComprovantes } from '../../../shared/exportacoes';
import { nomeDoTipo } from '../../../shared/schemas/despesas';
import type { ArmazenamentoCupons, Log } from '../arquivos/armazenamento';
import type { Db } from '../db';
import { cursorDaDespesa, paginaDeDespesasParaExportar, type DespesaComCupons, type LinhaCupom } from '../despesas/repositorio';
import { COLUNAS_DESPESAS_CONTABIL, COLUNAS_VENDAS_CONTABIL } from './colunas';
import { csvEmFluxo, porCursor } from './fluxo';
import { LINHAS_POR_LEITURA, vendasDoPeriodo, type CursorVendas, type Periodo } from './repositorio';
import { resumoEmPdf, type PedidoResumo } from './resumoPdf';

export interface ContextoContabil {
  db: Db;
  armazenamento: ArmazenamentoCupons;
  log: Log;
}

export type PedidoContabil = PedidoResumo;

interface ComprovanteNomeado {
  cupom: LinhaCupom;
  /** Its name inside the ZIP, under comprovantes/. */
  nome: string;
}

/**
 * The period's expenses oldest first, page after page, each with its receipts named. Every call starts a
 * naming of its own: the CSV's walk and the receipts' walk give the same names.
 */
async function* despesasNomeadas(db: Db, p: Periodo): AsyncGenerator<{ despesa: DespesaComCupons; comprovantes: ComprovanteNomeado[] }[]> {
  const nomes = new NomesDeComprovantes();
  const filtro = { dataInicio: p.inicio, dataFim: p.fim, ...(p.funcionarioId !== undefined ? { funcionarioId: p.funcionarioId } : {}) };
  for await (const pagina of porCursor((cursor) => paginaDeDespesasParaExportar(db, filtro, 'antigas', cursor, LINHAS_POR_LEITURA), cursorDaDespesa, LINHAS_POR_LEITURA)) {
    yield pagina.map((despesa) => ({
      despesa,
      comprovantes: despesa.linhasCupons.map((cupom) => ({
        cupom,
        nome: nomes.nome({
          data: despesa.data_despesa,
          funcionario: despesa.funcionario_nome,
          tipo: nomeDoTipo(despesa.tipo, despesa.tipo_outro),
          valorCentavos: Math.round(despesa.valor * 100),
          mime: cupom.mime,
          nomeOriginal: cupom.nomeOriginal,
        }),
      })),
    }));
  }
}

async function* linhasDeDespesas(db: Db, p: Periodo) {
  for await (const pagina of despesasNomeadas(db, p)) yield pagina.map((d) => ({ despesa: d.despesa, arquivos: d.comprovantes.map((c) => `comprovantes/${c.nome}`) }));
}

/** The ZIP as a stream for the reply. */
export function zipContabil(ctx: ContextoContabil, pedido: PedidoContabil): Readable {
  const zip = new ZipFile();
  const saida = zip.outputStream as Readable;
  const mtime = pedido.geradoEm;
  let fonteAtual: Readable | null = null;
  let encerrado = false;

  const falhar = (erro: unknown) => {
    if (encerrado) return;
    encerrado = true;
    ctx.log.error({ err: erro, inicio: pedido.inicio, fim: pedido.fim }, 'exportação para o contador interrompida');
    fonteAtual?.destroy();
    saida.destroy(erro instanceof Error ? erro : new Error(String(erro)));
  };
  zip.on('error', falhar);
  // The client went away (or the reply failed): stop reading the database and the storage.
  saida.once('close', () => {
    if (!saida.readableEnded && !encerrado) {
      encerrado = true;
      fonteAtual?.destroy();
    }
  });

  /**
   * Adds an entry whose source `criar` makes when the ZIP reaches it; resolves once that source was read
   * to its end (so the next one is opened only then), rejects if it failed or was cut.
   */
  const adicionar = (nome: string, criar: () => Readable | Promise<Readable>, opcoes: { size?: number; compress?: boolean } = {}) =>
    new Promise<void>((ok, falha) => {
      zip.addReadStreamLazy(nome, { mtime, ...opcoes }, (pronto) => {
        Promise.resolve()
          .then(criar)
          .then((fonte) => {
            fonteAtual = fonte;
            fonte.once('error', falha);
            fonte.once('end', () => ok());
            fonte.once('close', () => {
              if (!fonte.readableEnded) falha(new Error(`a leitura de ${nome} foi interrompida`));
            });
            if (encerrado) fonte.destroy();
            else pronto(null, fonte);
          })
          .catch(falha);
      });
    });

  async function escrever(): Promise<void> {
    const periodo: Periodo = { inicio: pedido.inicio, fim: pedido.fim, ...(pedido.funcionarioId !== undefined ? { funcionarioId: pedido.funcionarioId } : {}) };
    await Promise.all([
      adicionar('despesas.csv', () => csvEmFluxo(COLUNAS_DESPESAS_CONTABIL, linhasDeDespesas(ctx.db, periodo))),
      adicionar('vendas.csv', () =>
        csvEmFluxo(
          COLUNAS_VENDAS_CONTABIL,
          porCursor((cursor: CursorVendas | null) => vendasDoPeriodo(ctx.db, periodo, cursor), (v) => ({ dataVenda: v.data_venda, id: v.id }), LINHAS_POR_LEITURA),
        ),
      ),
      adicionar('resumo.pdf', () => resumoEmPdf(ctx.db, pedido)),
    ]);
    const ausentes: string[] = [];
    for await (const pagina of despesasNomeadas(ctx.db, periodo)) {
      for (const { comprovantes } of pagina) {
        for (const { cupom, nome } of comprovantes) {
          if (encerrado) return;
          const aberto = await ctx.armazenamento.abrir(cupom.arquivo);
          if (!aberto) {
            ctx.log.error({ arquivo: cupom.arquivo, despesaId: cupom.despesaId }, 'comprovante ausente no armazenamento na exportação para o contador');
            ausentes.push(`comprovantes/${nome}`);
            continue;
          }
          // Stored as is (level 0): photos and PDFs are compressed already; the size is checked by yazl.
          await adicionar(`comprovantes/${nome}`, () => aberto.fluxo(), { size: aberto.tamanho, compress: false });
        }
      }
    }
    if (ausentes.length > 0) {
      const texto = `Estes comprovantes constam em despesas.csv mas não foram encontrados no armazenamento quando o arquivo foi gerado:\r\n${ausentes.join('\r\n')}\r\n`;
      zip.addBuffer(Buffer.from(texto, 'utf8'), 'comprovantes_ausentes.txt', { mtime });
    }
    zip.end();
  }

  escrever().catch(falhar);
  return saida;
}
