/**
 * The routes report as files: XLSX (exceljs) and PDF (pdfkit). Same columns as the screen's table,
 * the filters applied written at the top, BRL formatting and a totals row. The PDF then carries, per
 * route, what the details modal shows: cities visited and not, sales and expenses per city,
 * how the salary was calculated, the rent, the expenses and the final balance.
 * Both libraries are loaded on the first export: together they cost ~40 MB and 0.3 s at start-up
 * for a feature used a few times a month.
 */
import { gerarCsv } from '../../../shared/csv';
import { linhasDoAcerto, ROTULO_SENTIDO_ACERTO, situacaoDoAcerto, valorDaLinhaDoAcerto, type AcertoFeito, type LinhaDoAcerto } from '../../../shared/acerto';
import { dataNoFuso, formatarData, formatarDataHora } from '../../../shared/dates';
import { acertoDaApi } from '../../../shared/schemas/acerto';
import { formatarReais } from '../../../shared/money';
import { BONUS_BOLETO_CENTAVOS, mediaParaExibir } from '../../../shared/payroll/salario';
import { rotuloSalarioDaRota, totaisDoRelatorio } from '../../../shared/relatorios';
import { nomeDoTipo, ROTULO_STATUS_APROVACAO, type StatusAprovacao, type TipoDespesa } from '../../../shared/schemas/despesas';
import type { DetalhesRota, LinhaRelatorioRota } from '../../../shared/schemas/relatorios';
import { ROTULO_STATUS_ROTA } from '../../../shared/schemas/rotas';
import { contagem } from '../../../shared/texto';

export const COLUNAS_RELATORIO = ['Rota', 'Funcionário', 'Status', 'Vendas', 'Despesas', 'Créditos', 'A devolver', 'A receber', 'Saldo Atual'] as const;

/** A row of the table in COLUNAS_RELATORIO's order: names, then the money in reais (the route's open settlement, the employee's balance). */
function valoresDaLinha(l: LinhaRelatorioRota): [string, string, string, number, number, number, number, number, number] {
  return [l.rota_nome, l.funcionario_nome, ROTULO_STATUS_ROTA[l.status], l.total_vendas, l.total_despesas, l.total_creditos, l.a_devolver, l.a_receber, l.saldo_atual];
}
/** Where the money columns begin (1-based, as spreadsheets count). */
const PRIMEIRA_COLUNA_DE_VALOR = 4;

export interface ContextoExportacao {
  /** Human-readable filters, e.g. ['Status: Ativas', 'Período: 01/11/2026 a 30/11/2026']. */
  filtros: string[];
  geradoEm: Date;
  fuso: string;
  centro: string;
}

function textoFiltros(contexto: ContextoExportacao): string {
  return contexto.filtros.length ? `Filtros: ${contexto.filtros.join(' · ')}` : 'Filtros: todas as rotas';
}

const FORMATO_BRL = '"R$" #,##0.00;[Red]-"R$" #,##0.00';

export async function gerarXlsx(linhas: LinhaRelatorioRota[], contexto: ContextoExportacao): Promise<Buffer> {
  const { default: ExcelJS } = await import('exceljs');
  const livro = new ExcelJS.Workbook();
  livro.creator = 'Sistema de Gestão';
  livro.created = contexto.geradoEm;
  const aba = livro.addWorksheet('Relatório de Rotas', { views: [{ state: 'frozen', ySplit: 5 }] });
  aba.columns = [{ width: 32 }, { width: 26 }, { width: 13 }, ...COLUNAS_RELATORIO.slice(3).map(() => ({ width: 16 }))];

  aba.mergeCells('A1:I1');
  aba.getCell('A1').value = `Relatório de Rotas — ${contexto.centro}`;
  aba.getCell('A1').font = { bold: true, size: 14 };
  aba.mergeCells('A2:I2');
  aba.getCell('A2').value = `Gerado em ${formatarDataHora(contexto.geradoEm.toISOString(), contexto.fuso)}`;
  aba.mergeCells('A3:I3');
  aba.getCell('A3').value = textoFiltros(contexto);
  aba.getCell('A3').alignment = { wrapText: true };

  const cabecalho = aba.getRow(5);
  cabecalho.values = [...COLUNAS_RELATORIO];
  cabecalho.font = { bold: true, color: { argb: 'FFFFFFFF' } };
  cabecalho.eachCell((celula) => {
    celula.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FF1D4ED8' } };
  });

  for (const l of linhas) {
    const linha = aba.addRow(valoresDaLinha(l));
    for (let coluna = PRIMEIRA_COLUNA_DE_VALOR; coluna <= COLUNAS_RELATORIO.length; coluna++) linha.getCell(coluna).numFmt = FORMATO_BRL;
  }
  const t = totaisDoRelatorio(linhas);
  const total = aba.addRow([`Total (${linhas.length} ${linhas.length === 1 ? 'rota' : 'rotas'})`, '', '', t.vendas, t.despesas, t.creditos, null, null, null]);
  total.font = { bold: true };
  for (const coluna of [4, 5, 6]) total.getCell(coluna).numFmt = FORMATO_BRL;
  total.eachCell((celula) => {
    celula.border = { top: { style: 'thin' } };
  });

  return Buffer.from(await livro.xlsx.writeBuffer());
}

/**
 * The table only, one line per route: a CSV is read by a spreadsheet, where a title, the
 * filters or a total line would be rows to delete before summing a column.
 */
export function gerarCsvRelatorio(linhas: LinhaRelatorioRota[]): Buffer {
  const corpo = linhas.map(valoresDaLinha);
  return Buffer.from(gerarCsv(COLUNAS_RELATORIO, corpo), 'utf8');
}

/**
 * The summary table first (as on screen), then one section per route, each starting on a new page:
 * `detalhes` in the order of `linhas` (the details of the routes of the table).
 */
export async function gerarPdf(linhas: LinhaRelatorioRota[], contexto: ContextoExportacao, detalhes: DetalhesRota[] = []): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: 'A4',
      layout: 'landscape',
      margin: 36,
      bufferPages: true,
      info: { Title: 'Relatório de Rotas', Author: contexto.centro, Creator: 'Sistema de Gestão' },
    });
    const partes: Buffer[] = [];
    doc.on('data', (p: Buffer) => partes.push(p));
    doc.on('end', () => resolve(Buffer.concat(partes)));
    doc.on('error', reject);

    const esquerda = doc.page.margins.left;
    const largura = doc.page.width - doc.page.margins.left - doc.page.margins.right;
    // Column widths as fractions of the usable width; money columns right-aligned.
    const fracoes = [0.19, 0.16, 0.08, 0.095, 0.095, 0.095, 0.095, 0.095, 0.095];
    const larguras = fracoes.map((f) => f * largura);
    const alinhamento = ['left', 'left', 'left', 'right', 'right', 'right', 'right', 'right', 'right'] as const;
    const alturaLinha = 20;

    const desenharLinha = (valores: string[], y: number, opcoes: { negrito?: boolean; fundo?: string; corTexto?: string } = {}) => {
      if (opcoes.fundo) doc.rect(esquerda, y, largura, alturaLinha).fill(opcoes.fundo);
      doc.font(opcoes.negrito ? 'Helvetica-Bold' : 'Helvetica').fontSize(9).fillColor(opcoes.corTexto ?? '#0f172a');
      let x = esquerda;
      valores.forEach((valor, i) => {
        doc.text(valor, x + 5, y + 6, { width: larguras[i]! - 10, align: alinhamento[i], lineBreak: false, ellipsis: true });
        x += larguras[i]!;
      });
    };

    doc.font('Helvetica-Bold').fontSize(16).fillColor('#0f172a').text('Relatório de Rotas', esquerda, 36);
    doc.font('Helvetica').fontSize(10).fillColor('#475569').text(contexto.centro);
    doc.text(`Gerado em ${formatarDataHora(contexto.geradoEm.toISOString(), contexto.fuso)}`);
    doc.text(textoFiltros(contexto), { width: largura });
    doc.moveDown(0.8);

    let y = doc.y;
    const cabecalho = () => {
      desenharLinha([...COLUNAS_RELATORIO], y, { negrito: true, fundo: '#1d4ed8', corTexto: '#ffffff' });
      y += alturaLinha;
    };
    cabecalho();
    const limite = doc.page.height - doc.page.margins.bottom - alturaLinha * 2;
    linhas.forEach((l, i) => {
      if (y > limite) {
        doc.addPage();
        y = doc.page.margins.top;
        cabecalho();
      }
      desenharLinha(
        valoresDaLinha(l).map((v) => (typeof v === 'number' ? formatarReais(v) : v)),
        y,
        i % 2 === 1 ? { fundo: '#f1f5f9' } : {},
      );
      y += alturaLinha;
    });
    if (linhas.length === 0) {
      doc.font('Helvetica').fontSize(10).fillColor('#64748b').text('Nenhuma rota encontrada', esquerda + 5, y + 6);
      y += alturaLinha;
    }
    const t = totaisDoRelatorio(linhas);
    doc.moveTo(esquerda, y).lineTo(esquerda + largura, y).strokeColor('#0f172a').lineWidth(0.8).stroke();
    desenharLinha([`Total (${linhas.length} ${linhas.length === 1 ? 'rota' : 'rotas'})`, '', '', formatarReais(t.vendas), formatarReais(t.despesas), formatarReais(t.creditos), '', '', ''], y, { negrito: true });

    for (const d of detalhes) desenharDetalhes(doc, d, contexto.fuso);

    const paginas = doc.bufferedPageRange();
    for (let i = 0; i < paginas.count; i++) {
      doc.switchToPage(paginas.start + i);
      // The footer sits in the bottom margin: lift the margin while writing it, or pdfkit adds a page.
      const margemInferior = doc.page.margins.bottom;
      doc.page.margins.bottom = 0;
      const rodapeY = doc.page.height - margemInferior + 12;
      doc.font('Helvetica').fontSize(8).fillColor('#64748b');
      doc.text(`Página ${i + 1} de ${paginas.count}`, esquerda, rodapeY, { width: largura, align: 'right', lineBreak: false });
      doc.text('Sistema de Gestão', esquerda, rodapeY, { width: largura, align: 'left', lineBreak: false });
      doc.page.margins.bottom = margemInferior;
    }
    doc.end();
  });
}

export type Documento = PDFKit.PDFDocument;
export type Alinhamento = 'left' | 'right';
export interface Coluna {
  titulo: string;
  /** Fraction of the table's width. */
  fracao: number;
  alinhamento?: Alinhamento;
}

export const COR_TEXTO = '#0f172a';
export const COR_SUAVE = '#64748b';
export const COR_BORDA = '#cbd5e1';
export const COR_CABECALHO = '#1d4ed8';
export const COR_FAIXA = '#f1f5f9';
export const COR_POSITIVO = '#15803d';
export const COR_NEGATIVO = '#b91c1c';
export const ALTURA_LINHA = 17;

const decimal = new Intl.NumberFormat('pt-BR', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const plural = (n: number, um: string, varios: string) => `${n} ${n === 1 ? um : varios}`;
/** A settlement line's amount (shared/acerto.ts) as printed: pdfkit's standard fonts have no U+2212 minus, so an en dash. */
export const valorDoAcertoNoPdf = (l: LinhaDoAcerto) => valorDaLinhaDoAcerto(l).replace('−', '–');
/** The rent discount as a deduction; pdfkit's standard fonts have no U+2212 minus, so an en dash. */
const menos = (reais: number) => (reais > 0 ? `– ${formatarReais(reais)}` : formatarReais(0));

/** Text options of one line drawn by DesenhoPdf.texto. */
export interface OpcoesTexto {
  negrito?: boolean;
  tamanho?: number;
  cor?: string;
  alinhamento?: Alinhamento;
}

/**
 * The layout helpers of the sections drawn after the summary table (a route's details here; the
 * accountant's summary in server/src/exportacoes): a cursor `y` down the page, one-line texts cut with an
 * ellipsis, section titles and tables that continue on the next page with their header repeated and the
 * section's name marked '(continuação)'.
 */
export class DesenhoPdf {
  y = 0;
  constructor(
    readonly doc: Documento,
    /** The name written on top of a continued page. */
    private readonly secao: () => string,
  ) {}

  get esquerda(): number {
    return this.doc.page.margins.left;
  }

  get largura(): number {
    return this.doc.page.width - this.doc.page.margins.left - this.doc.page.margins.right;
  }

  limite(): number {
    return this.doc.page.height - this.doc.page.margins.bottom - 6;
  }

  novaPagina(continuacao: boolean): void {
    this.doc.addPage();
    this.y = this.doc.page.margins.top;
    if (continuacao) {
      this.doc.font('Helvetica-Bold').fontSize(10).fillColor(COR_SUAVE).text(`${this.secao()} (continuação)`, this.esquerda, this.y, { width: this.largura, lineBreak: false });
      this.y += 20;
    }
  }

  /** Room for `altura` more points, or a new page (then `depois` redraws what a table needs on top). */
  espaco(altura: number, depois?: () => void): void {
    if (this.y + altura <= this.limite()) return;
    this.novaPagina(true);
    depois?.();
  }

  /** One line, cut with an ellipsis when it does not fit (a height of one line: pdfkit wraps otherwise). */
  texto(valor: string, x: number, yTexto: number, w: number, opcoes: OpcoesTexto = {}): void {
    const tamanho = opcoes.tamanho ?? 9;
    this.doc
      .font(opcoes.negrito ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(tamanho)
      .fillColor(opcoes.cor ?? COR_TEXTO)
      .text(valor, x, yTexto, { width: w, height: tamanho * 1.3, align: opcoes.alinhamento ?? 'left', ellipsis: true });
  }

  tituloSecao(titulo: string, x = this.esquerda, w = this.largura): void {
    this.texto(titulo, x, this.y, w, { negrito: true, tamanho: 11 });
    this.y += 16;
  }

  linhaDeTabela(colunas: Coluna[], valores: string[], x: number, w: number, estilo: { cabecalho?: boolean; faixa?: boolean; negrito?: boolean; cores?: (string | undefined)[] } = {}): void {
    const doc = this.doc;
    if (estilo.cabecalho) doc.rect(x, this.y, w, ALTURA_LINHA).fill(COR_CABECALHO);
    else if (estilo.faixa) doc.rect(x, this.y, w, ALTURA_LINHA).fill(COR_FAIXA);
    let cx = x;
    colunas.forEach((c, i) => {
      const cw = c.fracao * w;
      this.texto(valores[i] ?? '', cx + 5, this.y + 5, cw - 10, {
        negrito: estilo.cabecalho || estilo.negrito,
        ...(estilo.cabecalho ? { cor: '#ffffff' } : estilo.cores?.[i] ? { cor: estilo.cores[i] } : {}),
        alinhamento: c.alinhamento ?? 'left',
      });
      cx += cw;
    });
    this.y += ALTURA_LINHA;
  }

  /** A table that flows over pages, its header repeated on each. */
  tabela(colunas: Coluna[], linhas: string[][]): void {
    const cabecalho = () => this.linhaDeTabela(colunas, colunas.map((c) => c.titulo), this.esquerda, this.largura, { cabecalho: true });
    this.espaco(ALTURA_LINHA * 2);
    cabecalho();
    linhas.forEach((valores, i) => {
      this.espaco(ALTURA_LINHA, cabecalho);
      this.linhaDeTabela(colunas, valores, this.esquerda, this.largura, { faixa: i % 2 === 1 });
    });
  }
}

/**
 * The acertos recorded on a route, as a table that flows over pages (the route's PDF and the accountant's
 * summary); `vazio`: what to say when there is none (nothing is drawn without it).
 */
export function desenharAcertos(p: DesenhoPdf, acertos: readonly AcertoFeito[], fuso: string, vazio?: string): void {
  if (acertos.length === 0 && !vazio) return;
  p.espaco(16 + ALTURA_LINHA * 2);
  p.tituloSecao(`Acertos registrados (${acertos.length})`);
  if (acertos.length === 0) {
    p.texto(vazio!, p.esquerda, p.y, p.largura, { cor: COR_SUAVE });
    p.y += ALTURA_LINHA;
    return;
  }
  p.tabela(
    [
      { titulo: 'Data', fracao: 0.16 },
      { titulo: 'Sentido', fracao: 0.24 },
      { titulo: 'Valor', fracao: 0.14, alinhamento: 'right' },
      { titulo: 'Administrador', fracao: 0.2 },
      { titulo: 'Observação', fracao: 0.26 },
    ],
    acertos.map((a) => [formatarDataHora(a.data, fuso), ROTULO_SENTIDO_ACERTO[a.sentido], formatarReais(a.valorCentavos / 100), a.adminNome ?? '—', a.observacao || '—']),
  );
}

/**
 * One route's section, from a new page: the details modal on paper. Tables continue on the next page
 * with their header repeated and the route's name marked '(continuação)'.
 */
function desenharDetalhes(doc: Documento, d: DetalhesRota, fuso: string): void {
  const p = new DesenhoPdf(doc, () => d.rota_nome);

  // Heading: the route, its employee, status, period, cities and average.
  p.novaPagina(false);
  p.texto('Detalhes da rota', p.esquerda, p.y, p.largura, { tamanho: 9, cor: COR_SUAVE });
  p.y += 12;
  p.texto(d.rota_nome, p.esquerda, p.y, p.largura, { negrito: true, tamanho: 15 });
  p.y += 20;
  p.texto(
    [
      d.funcionario_nome,
      ROTULO_STATUS_ROTA[d.status],
      `${d.data_inicio_formatada} a ${d.data_fim_formatada}`,
      `Cidades visitadas: ${d.cidades_visitadas} de ${d.total_cidades}`,
      `Desempenho médio: ${decimal.format(mediaParaExibir(d.media_bolsas_cidade))} bolsas por cidade`,
    ].join('  ·  '),
    p.esquerda,
    p.y,
    p.largura,
    { tamanho: 10, cor: '#475569' },
  );
  p.y += 20;

  // The totals, as boxes.
  const rotuloSalario = rotuloSalarioDaRota(d.status);
  const caixas: [string, string, string?][] = [
    ['Vendas', formatarReais(d.total_vendas)],
    ['Despesas', formatarReais(d.total_despesas)],
    ['Créditos', formatarReais(d.total_creditos)],
    [rotuloSalario, formatarReais(d.total_salario), d.total_salario < 0 ? COR_NEGATIVO : undefined],
    [d.saldo_final < 0 ? 'A receber' : 'A devolver', formatarReais(Math.abs(d.saldo_final)), d.saldo_final < 0 ? COR_NEGATIVO : COR_POSITIVO],
  ];
  const vao = 8;
  const larguraCaixa = (p.largura - vao * (caixas.length - 1)) / caixas.length;
  caixas.forEach(([rotulo, valor, cor], i) => {
    const x = p.esquerda + i * (larguraCaixa + vao);
    doc.roundedRect(x, p.y, larguraCaixa, 40, 4).lineWidth(0.7).strokeColor(COR_BORDA).stroke();
    p.texto(rotulo.toUpperCase(), x + 8, p.y + 7, larguraCaixa - 16, { tamanho: 7.5, cor: COR_SUAVE });
    p.texto(valor, x + 8, p.y + 20, larguraCaixa - 16, { negrito: true, tamanho: 12, ...(cor ? { cor } : {}) });
  });
  p.y += 54;

  // How the salary was calculated (left) and the rent (right), side by side.
  const c = d.calculo_salario;
  const larguraBloco = (p.largura - 24) / 2;
  const xAluguel = p.esquerda + larguraBloco + 24;
  const colunasSalario: Coluna[] = [
    { titulo: '', fracao: 0.34 },
    { titulo: '', fracao: 0.4 },
    { titulo: '', fracao: 0.26, alinhamento: 'right' },
  ];
  const colunasAluguel: Coluna[] = [
    { titulo: '', fracao: 0.6 },
    { titulo: '', fracao: 0.4, alinhamento: 'right' },
  ];
  const linhasSalario: string[][] = [
    ['Bolsas', `${decimal.format(c.total_bolsas)} × ${formatarReais(c.valor_por_bolsa)}`, formatarReais(c.valor_bolsas)],
    ['Bônus por cidade', `${plural(c.cidades_visitadas, 'cidade visitada', 'cidades visitadas')} × ${formatarReais(c.valor_fixo_por_cidade)}`, formatarReais(c.valor_cidades)],
    ['Boletos', `${c.boletos} × ${formatarReais(BONUS_BOLETO_CENTAVOS / 100)}`, formatarReais(c.valor_boletos)],
    ['Desconto do aluguel', `aluguel da rota: ${formatarReais(c.valor_aluguel)}`, menos(c.desconto_aluguel)],
  ];
  const linhasAluguel: string[][] = [
    ['Valor do aluguel', formatarReais(d.valor_aluguel)],
    ['Desconto do funcionário', formatarReais(d.desconto_aluguel_funcionario)],
    ['Pago pela escola', formatarReais(d.desconto_aluguel_escola)],
    ['Quem pagou o aluguel', d.valor_aluguel > 0 ? d.quem_pagou_aluguel : 'Sem aluguel'],
  ];
  p.espaco(16 + ALTURA_LINHA * (linhasSalario.length + 1) + 8);
  const topo = p.y;
  p.tituloSecao('Cálculo do salário', p.esquerda, larguraBloco);
  linhasSalario.forEach((l, i) => p.linhaDeTabela(colunasSalario, l, p.esquerda, larguraBloco, { faixa: i % 2 === 1 }));
  doc.moveTo(p.esquerda, p.y).lineTo(p.esquerda + larguraBloco, p.y).strokeColor(COR_TEXTO).lineWidth(0.8).stroke();
  // The total's label may be long ('Salário estimado (até agora)'): it takes the detail column too.
  p.linhaDeTabela([{ titulo: '', fracao: 0.74 }, { titulo: '', fracao: 0.26, alinhamento: 'right' }], [rotuloSalario, formatarReais(c.total_salario)], p.esquerda, larguraBloco, {
    negrito: true,
    cores: [undefined, c.total_salario < 0 ? COR_NEGATIVO : undefined],
  });
  const fimSalario = p.y;
  p.y = topo;
  p.tituloSecao('Aluguel', xAluguel, larguraBloco);
  linhasAluguel.forEach((l, i) => p.linhaDeTabela(colunasAluguel, l, xAluguel, larguraBloco, { faixa: i % 2 === 1 }));
  p.y = Math.max(fimSalario, p.y) + 16;

  // The settlement (shared/acerto.ts): the sum (left) beside what is paid apart (right), the rejected
  // expenses' note, then the acertos recorded.
  const acerto = acertoDaApi(d.acerto);
  const { conta, rejeitadas, aoLado } = linhasDoAcerto(acerto, 'admin');
  const colunasAcerto: Coluna[] = [
    { titulo: '', fracao: 0.7 },
    { titulo: '', fracao: 0.3, alinhamento: 'right' },
  ];
  p.espaco(16 + ALTURA_LINHA * Math.max(conta.length, aoLado.length + 1) + 30);
  const topoAcerto = p.y;
  p.tituloSecao(`Acerto da rota — ${situacaoDoAcerto(acerto, d.status, (instante) => dataNoFuso(new Date(instante), fuso))}`, p.esquerda, larguraBloco);
  conta.forEach((l, i) => {
    const total = i === conta.length - 1;
    if (total) doc.moveTo(p.esquerda, p.y).lineTo(p.esquerda + larguraBloco, p.y).strokeColor(COR_TEXTO).lineWidth(0.8).stroke();
    p.linhaDeTabela(colunasAcerto, [l.rotulo, valorDoAcertoNoPdf(l)], p.esquerda, larguraBloco, {
      faixa: !total && i % 2 === 1,
      ...(total ? { negrito: true, cores: [undefined, l.rotulo === 'A receber' ? COR_NEGATIVO : l.valorCentavos > 0 ? COR_POSITIVO : undefined] } : {}),
    });
  });
  const fimConta = p.y;
  p.y = topoAcerto;
  p.tituloSecao('Pagos à parte, fora do acerto', xAluguel, larguraBloco);
  aoLado.forEach((l, i) => p.linhaDeTabela(colunasAcerto, [l.rotulo, valorDoAcertoNoPdf(l)], xAluguel, larguraBloco, { faixa: i % 2 === 1 }));
  p.y = Math.max(fimConta, p.y) + 4;
  if (rejeitadas) {
    p.texto(rejeitadas, p.esquerda, p.y, p.largura, { cor: COR_SUAVE });
    p.y += 14;
  }
  if (acerto.acertos.length > 0) {
    p.y += 4;
    desenharAcertos(p, acerto.acertos, fuso);
  }
  p.y += 12;

  // Visited cities with their sales and expenses; then the ones not visited.
  const visitadas = d.cidades.filter((x) => x.visitada);
  const naoVisitadas = d.cidades.filter((x) => !x.visitada);
  p.espaco(16 + ALTURA_LINHA * 2);
  p.tituloSecao(`Cidades visitadas (${visitadas.length})`);
  if (visitadas.length === 0) {
    p.texto('Nenhuma cidade visitada.', p.esquerda, p.y, p.largura, { cor: COR_SUAVE });
    p.y += ALTURA_LINHA;
  } else {
    p.tabela(
      [
        { titulo: 'Cidade', fracao: 0.5 },
        { titulo: 'Vendas', fracao: 0.25, alinhamento: 'right' },
        { titulo: 'Despesas', fracao: 0.25, alinhamento: 'right' },
      ],
      visitadas.map((x) => [`${x.cidade_nome} (${x.uf})`, formatarReais(x.total_vendas), formatarReais(x.total_despesas)]),
    );
  }
  p.y += 12;
  p.espaco(16 + ALTURA_LINHA);
  p.tituloSecao(`Cidades não visitadas (${naoVisitadas.length})`);
  const textoNaoVisitadas = naoVisitadas.length ? naoVisitadas.map((x) => `${x.cidade_nome} (${x.uf})`).join(', ') : 'Todas as cidades da rota foram visitadas.';
  doc.font('Helvetica').fontSize(9);
  const alturaNaoVisitadas = doc.heightOfString(textoNaoVisitadas, { width: p.largura });
  p.espaco(alturaNaoVisitadas);
  doc.fillColor(naoVisitadas.length ? COR_TEXTO : COR_SUAVE).text(textoNaoVisitadas, p.esquerda, p.y, { width: p.largura });
  p.y += alturaNaoVisitadas + 14;

  // The route's expenses.
  p.espaco(16 + ALTURA_LINHA * 2);
  p.tituloSecao(`Despesas (${d.despesas.length})`);
  if (d.despesas.length === 0) {
    p.texto('Nenhuma despesa registrada nesta rota.', p.esquerda, p.y, p.largura, { cor: COR_SUAVE });
    p.y += ALTURA_LINHA;
  } else {
    p.tabela(
      [
        { titulo: 'Data', fracao: 0.1 },
        { titulo: 'Cidade', fracao: 0.18 },
        { titulo: 'Tipo', fracao: 0.15 },
        { titulo: 'Descrição', fracao: 0.3 },
        { titulo: 'Status', fracao: 0.12 },
        { titulo: 'Valor', fracao: 0.15, alinhamento: 'right' },
      ],
      d.despesas.map((x) => [
        formatarData(x.data_despesa),
        x.cidade_nome,
        nomeDoTipo(x.tipo as TipoDespesa, x.tipo_outro) ?? x.tipo,
        x.descricao || '—',
        ROTULO_STATUS_APROVACAO[x.status_aprovacao as StatusAprovacao] ?? x.status_aprovacao,
        formatarReais(x.valor),
      ]),
    );
    p.espaco(ALTURA_LINHA);
    doc.moveTo(p.esquerda, p.y).lineTo(p.esquerda + p.largura, p.y).strokeColor(COR_TEXTO).lineWidth(0.8).stroke();
    p.linhaDeTabela(
      [
        { titulo: '', fracao: 0.85 },
        { titulo: '', fracao: 0.15, alinhamento: 'right' },
      ],
      ['Total das despesas', formatarReais(d.total_despesas)],
      p.esquerda,
      p.largura,
      { negrito: true },
    );
  }
  p.y += 12;

}

/** The filters as people read them, for the top of the file. */
export function descreverFiltros(f: {
  status?: string;
  funcionarioNome?: string;
  dataInicio?: string;
  dataFim?: string;
  rotasSelecionadas?: number;
}): string[] {
  const filtros: string[] = [];
  if (f.status) filtros.push(`Status: ${ROTULO_STATUS_ROTA[f.status as keyof typeof ROTULO_STATUS_ROTA] ?? f.status}`);
  if (f.funcionarioNome) filtros.push(`Funcionário: ${f.funcionarioNome}`);
  if (f.dataInicio && f.dataFim) filtros.push(`Período: ${formatarData(f.dataInicio)} a ${formatarData(f.dataFim)}`);
  else if (f.dataInicio) filtros.push(`A partir de ${formatarData(f.dataInicio)}`);
  else if (f.dataFim) filtros.push(`Até ${formatarData(f.dataFim)}`);
  if (f.rotasSelecionadas) filtros.push(contagem(f.rotasSelecionadas, 'rota selecionada', 'rotas selecionadas'));
  return filtros;
}
