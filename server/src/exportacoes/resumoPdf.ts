/**
 * resumo.pdf of the accountant's ZIP: the period's totals, then per employee and per route that had
 * something in the period, the route's credits, expenses by type and by status, salary, 'A devolver' /
 * 'A receber' and its acertos. The settlement figures are shared/acerto.ts's, read through
 * figurasDoAcerto (never summed again here), and they are the whole route's: a route may start before
 * the period or end after it, and each section says so.
 *
 * Drawn with the reports' layout helpers (relatorios/exportacao.ts, DesenhoPdf) into a stream, one
 * employee at a time, waiting for the ZIP to take the bytes when more than a little is waiting; the
 * pages are not kept (no 'Página x de y': that total needs every page in memory until the end).
 */
import type { Readable } from 'node:stream';
import { formatarData, formatarDataHora } from '../../../shared/dates';
import { linhasDoAcerto, type FigurasAcerto } from '../../../shared/acerto';
import { formatarCentavos, formatarReais } from '../../../shared/money';
import { ROTULO_TIPO_DESPESA, STATUS_APROVACAO, TIPOS_DESPESA, type StatusAprovacao, type TipoDespesa } from '../../../shared/schemas/despesas';
import { ROTULO_STATUS_ROTA } from '../../../shared/schemas/rotas';
import { contagem, ordenarPorNome } from '../../../shared/texto';
import type { Db } from '../db';
import { totaisDespesas } from '../despesas/repositorio';
import { ALTURA_LINHA, COR_SUAVE, COR_TEXTO, DesenhoPdf, desenharAcertos, valorDoAcertoNoPdf, type Coluna, type Documento } from '../relatorios/exportacao';
import { despesasPorTipo } from '../relatorios/repositorio';
import { figurasDoAcerto } from '../relatorios/servico';
import { totaisDasVendas } from '../vendas/repositorio';
import { rotasComMovimento, type Periodo, type RotaDoPeriodo } from './repositorio';

export interface PedidoResumo extends Periodo {
  funcionarioNome?: string;
  fuso: string;
  centro: string;
  geradoEm: Date;
}

/** Bytes waiting in the PDF stream before the drawing waits for the ZIP to take them. */
const ESPERA_A_PARTIR_DE = 512 * 1024;

const ROTULO_STATUS_PLURAL: Record<StatusAprovacao, string> = { pendente: 'Pendentes', aprovada: 'Aprovadas', rejeitada: 'Rejeitadas' };

/** Resolves once the consumer has taken the bytes waiting (or at once when few wait); rejects if the stream closed. */
function esperarConsumo(doc: Documento): Promise<void> {
  if (doc.readableLength <= ESPERA_A_PARTIR_DE) return Promise.resolve();
  return new Promise((ok, falha) => {
    const ver = () => {
      if (doc.readableLength > ESPERA_A_PARTIR_DE / 2) return;
      sair();
      ok();
    };
    const fechou = () => {
      sair();
      falha(new Error('o resumo deixou de ser lido'));
    };
    const sair = () => {
      doc.off('data', ver);
      doc.off('close', fechou);
    };
    doc.on('data', ver);
    doc.once('close', fechou);
  });
}

/** The PDF as a stream; it is drawn once the stream is being read (the ZIP's turn for it). */
export async function resumoEmPdf(db: Db, pedido: PedidoResumo): Promise<Readable> {
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margin: 36,
    info: { Title: 'Resumo para o contador', Author: pedido.centro, Creator: 'Sistema de Gestão' },
  });
  let pagina = 0;
  const rodape = () => {
    pagina += 1;
    // In the bottom margin: lifted while writing, or pdfkit adds a page.
    const margem = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const y = doc.page.height - margem + 12;
    const largura = doc.page.width - doc.page.margins.left - doc.page.margins.right;
    doc.font('Helvetica').fontSize(8).fillColor(COR_SUAVE);
    doc.text(`Página ${pagina}`, doc.page.margins.left, y, { width: largura, align: 'right', lineBreak: false });
    doc.text(`Resumo para o contador · ${formatarData(pedido.inicio)} a ${formatarData(pedido.fim)}`, doc.page.margins.left, y, { width: largura, align: 'left', lineBreak: false });
    doc.page.margins.bottom = margem;
    doc.x = doc.page.margins.left;
    doc.y = doc.page.margins.top;
  };
  doc.on('pageAdded', rodape);
  rodape();
  // After the caller has piped the stream: nothing drawn is pushed before someone reads it.
  setImmediate(() => {
    desenhar(db, doc, pedido).then(
      () => doc.end(),
      (erro: unknown) => doc.destroy(erro instanceof Error ? erro : new Error(String(erro))),
    );
  });
  return doc as unknown as Readable;
}

async function desenhar(db: Db, doc: Documento, pedido: PedidoResumo): Promise<void> {
  let secao = 'Resumo do período';
  const p = new DesenhoPdf(doc, () => secao);
  p.y = doc.page.margins.top;
  const reais = formatarCentavos;

  // Cover: who, when, the period's own totals and how to read the rest.
  p.texto('Resumo para o contador', p.esquerda, p.y, p.largura, { negrito: true, tamanho: 16 });
  p.y += 22;
  const linhasTopo = [
    pedido.centro,
    `Período: ${formatarData(pedido.inicio)} a ${formatarData(pedido.fim)}`,
    `Funcionário: ${pedido.funcionarioNome ?? 'todos'}`,
    `Gerado em ${formatarDataHora(pedido.geradoEm.toISOString(), pedido.fuso)}`,
  ];
  for (const l of linhasTopo) {
    p.texto(l, p.esquerda, p.y, p.largura, { tamanho: 10, cor: '#475569' });
    p.y += 14;
  }
  p.y += 10;

  const filtro = { dataInicio: pedido.inicio, dataFim: pedido.fim, ...(pedido.funcionarioId !== undefined ? { funcionarioId: pedido.funcionarioId } : {}) };
  p.tituloSecao('No período (despesas.csv e vendas.csv têm cada linha)');
  const colunasPeriodo: Coluna[] = [
    { titulo: '', fracao: 0.5 },
    { titulo: 'Quantidade', fracao: 0.2, alinhamento: 'right' },
    { titulo: 'Total', fracao: 0.3, alinhamento: 'right' },
  ];
  const linhasPeriodo: string[][] = [];
  for (const status of STATUS_APROVACAO) {
    const t = await totaisDespesas(db, { ...filtro, statusAprovacao: status });
    linhasPeriodo.push([`Despesas ${ROTULO_STATUS_PLURAL[status].toLowerCase()}`, String(t.total), formatarReais(t.totais.geral)]);
  }
  const vendas = await totaisDasVendas(db, filtro);
  linhasPeriodo.push(['Vendas (dinheiro, pix, cartão e link)', String(vendas.linhas), formatarReais(vendas.total_geral)]);
  linhasPeriodo.push(['Boletos das vendas', String(vendas.boletos), '']);
  p.tabela(
    colunasPeriodo.map((c, i) => (i === 0 ? { ...c, titulo: 'Lançamentos do período' } : c)),
    linhasPeriodo,
  );
  p.y += 14;

  const aviso =
    'Os números de cada rota nas páginas seguintes são da rota inteira, do início ao fim dela, e não só do período: ' +
    'uma rota pode começar antes ou terminar depois dele. O acerto (a devolver, a receber) é sempre o da rota inteira.';
  doc.font('Helvetica').fontSize(9.5);
  const alturaAviso = doc.heightOfString(aviso, { width: p.largura - 16 });
  doc.rect(p.esquerda, p.y, p.largura, alturaAviso + 14).fill('#fef3c7');
  doc.fillColor(COR_TEXTO).text(aviso, p.esquerda + 8, p.y + 7, { width: p.largura - 16 });
  p.y += alturaAviso + 24;

  const rotas = await rotasComMovimento(db, pedido, pedido.fuso);
  if (rotas.length === 0) {
    p.texto('Nenhuma movimentação no período: nenhuma rota teve venda, visita, despesa ou crédito nestas datas.', p.esquerda, p.y, p.largura, { cor: COR_SUAVE });
    return;
  }
  p.texto(`${contagem(rotas.length, 'rota', 'rotas')} com movimento no período, de ${contagem(new Set(rotas.map((r) => r.funcionarioId)).size, 'funcionário', 'funcionários')}.`, p.esquerda, p.y, p.largura);

  // One employee at a time: their routes' figures, then each route's section.
  const porFuncionario = new Map<number, RotaDoPeriodo[]>();
  for (const r of ordenarPorNome(rotas, (x) => x.funcionarioNome)) porFuncionario.set(r.funcionarioId, [...(porFuncionario.get(r.funcionarioId) ?? []), r]);
  for (const rotasDoFuncionario of porFuncionario.values()) {
    rotasDoFuncionario.sort((a, b) => (a.dataInicio === b.dataInicio ? a.rotaId - b.rotaId : a.dataInicio < b.dataInicio ? -1 : 1));
    const figuras: FigurasAcerto[] = [];
    for (const r of rotasDoFuncionario) figuras.push(await figurasDoAcerto(db, r.rotaId));
    const nome = rotasDoFuncionario[0]!.funcionarioNome;
    secao = nome;
    p.novaPagina(false);
    p.texto('Funcionário', p.esquerda, p.y, p.largura, { tamanho: 9, cor: COR_SUAVE });
    p.y += 12;
    p.texto(nome, p.esquerda, p.y, p.largura, { negrito: true, tamanho: 15 });
    p.y += 22;
    p.tabela(
      [
        { titulo: 'Rota (números da rota inteira)', fracao: 0.22 },
        { titulo: 'Período da rota', fracao: 0.15 },
        { titulo: 'Status', fracao: 0.09 },
        { titulo: 'Créditos', fracao: 0.11, alinhamento: 'right' },
        { titulo: 'Despesas', fracao: 0.11, alinhamento: 'right' },
        { titulo: 'Salário', fracao: 0.11, alinhamento: 'right' },
        { titulo: 'A devolver', fracao: 0.105, alinhamento: 'right' },
        { titulo: 'A receber', fracao: 0.105, alinhamento: 'right' },
      ],
      rotasDoFuncionario.map((r, i) => {
        const f = figuras[i]!;
        return [
          r.rotaNome,
          `${formatarData(r.dataInicio)} a ${formatarData(r.dataFim)}`,
          ROTULO_STATUS_ROTA[r.status],
          reais(f.creditosCentavos),
          reais(f.despesasAprovadasCentavos + f.despesasPendentesCentavos + f.despesasRejeitadasCentavos),
          reais(f.salarioCentavos),
          reais(f.aDevolverCentavos),
          reais(f.aReceberCentavos),
        ];
      }),
    );
    p.y += 8;
    // The same for every route of the employee (shared/acerto.ts): theirs, outside every settlement.
    p.texto(`Créditos sem rota do funcionário (fora do acerto das rotas): ${reais(figuras[0]!.creditosSemRotaCentavos)}`, p.esquerda, p.y, p.largura, { cor: COR_SUAVE });
    p.y += 20;

    for (const [i, r] of rotasDoFuncionario.entries()) {
      secao = `${nome} · ${r.rotaNome}`;
      await desenharRota(db, p, r, figuras[i]!, pedido.fuso);
      await esperarConsumo(doc);
    }
  }
}

async function desenharRota(db: Db, p: DesenhoPdf, r: RotaDoPeriodo, f: FigurasAcerto, fuso: string): Promise<void> {
  const reais = formatarCentavos;
  p.espaco(16 + 14 + ALTURA_LINHA * 6);
  p.texto(`${r.rotaNome} · ${ROTULO_STATUS_ROTA[r.status]}`, p.esquerda, p.y, p.largura, { negrito: true, tamanho: 12 });
  p.y += 16;
  const acertada = f.acertadaEm ? ` Acertada em ${formatarDataHora(f.acertadaEm, fuso)}: nada em aberto.` : '';
  p.texto(`Números da rota inteira (${formatarData(r.dataInicio)} a ${formatarData(r.dataFim)}), não só do período.${acertada}`, p.esquerda, p.y, p.largura, { tamanho: 9, cor: COR_SUAVE });
  p.y += 16;

  // The settlement (left) and the expenses by type (right), side by side.
  const vao = 24;
  const larguraBloco = (p.largura - vao) / 2;
  const xDireita = p.esquerda + larguraBloco + vao;
  const duas: Coluna[] = [
    { titulo: '', fracao: 0.62 },
    { titulo: '', fracao: 0.38, alinhamento: 'right' },
  ];
  // The settlement in the same lines as the route's PDF and the screens (shared/acerto.ts), then what is paid apart.
  const { conta, rejeitadas, aoLado } = linhasDoAcerto(f, 'admin');
  const linhasAcerto = [...conta, ...aoLado];
  const acerto: string[][] = linhasAcerto.map((l) => [l.rotulo, valorDoAcertoNoPdf(l)]);
  if (rejeitadas) acerto.splice(conta.length, 0, ['Despesas rejeitadas (a devolver)', reais(f.despesasRejeitadasCentavos)]);
  const porTipo = new Map((await despesasPorTipo(db, r.rotaId)).map((t) => [t.tipo, { quantidade: Number(t.quantidade), total: Number(t.totalCentavos) }]));
  const tipos: string[][] = TIPOS_DESPESA.filter((t) => porTipo.has(t)).map((t: TipoDespesa) => [
    `${ROTULO_TIPO_DESPESA[t]} (${porTipo.get(t)!.quantidade})`,
    reais(porTipo.get(t)!.total),
  ]);
  if (tipos.length === 0) tipos.push(['Nenhuma despesa', reais(0)]);
  p.espaco(16 + ALTURA_LINHA * (acerto.length + 1));
  const topo = p.y;
  p.tituloSecao('Acerto da rota', p.esquerda, larguraBloco);
  acerto.forEach((l, i) => p.linhaDeTabela(duas, l, p.esquerda, larguraBloco, { faixa: i % 2 === 1, negrito: i === conta.length - 1 }));
  const fimEsquerda = p.y;
  p.y = topo;
  p.tituloSecao('Despesas por tipo (todas as situações)', xDireita, larguraBloco);
  tipos.forEach((l, i) => p.linhaDeTabela(duas, l, xDireita, larguraBloco, { faixa: i % 2 === 1 }));
  p.y = Math.max(fimEsquerda, p.y) + 12;

  desenharAcertos(p, f.acertos, fuso, 'Nenhum acerto registrado nesta rota.');
  p.y += 18;
}

