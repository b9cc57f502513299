/**
 * The routes report as files: XLSX (exceljs) and PDF (pdfkit). Same columns as the screen's table,
 * the filters applied written at the top, BRL formatting and a totals row.
 * Both libraries are loaded on the first export: together they cost ~40 MB and 0.3 s at start-up
 * for a feature used a few times a month.
 */
import { formatarData, formatarDataHora } from '../../../shared/dates';
import { formatarReais } from '../../../shared/money';
import { totaisDoRelatorio } from '../../../shared/relatorios';
import type { LinhaRelatorioRota } from '../../../shared/schemas/relatorios';
import { ROTULO_STATUS_ROTA } from '../../../shared/schemas/rotas';

export const COLUNAS_RELATORIO = ['Rota', 'Funcionário', 'Status', 'Vendas', 'Despesas', 'Créditos', 'Saldo Atual'] as const;

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
  aba.columns = [{ width: 32 }, { width: 26 }, { width: 13 }, { width: 16 }, { width: 16 }, { width: 16 }, { width: 16 }];

  aba.mergeCells('A1:G1');
  aba.getCell('A1').value = `Relatório de Rotas — ${contexto.centro}`;
  aba.getCell('A1').font = { bold: true, size: 14 };
  aba.mergeCells('A2:G2');
  aba.getCell('A2').value = `Gerado em ${formatarDataHora(contexto.geradoEm.toISOString(), contexto.fuso)}`;
  aba.mergeCells('A3:G3');
  aba.getCell('A3').value = textoFiltros(contexto);
  aba.getCell('A3').alignment = { wrapText: true };

  const cabecalho = aba.getRow(5);
  cabecalho.values = [...COLUNAS_RELATORIO];
  cabecalho.font = { bold: true, color: { argb: 'FFFFFFFF' } };
  cabecalho.eachCell((celula) => {
    celula.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FF1D4ED8' } };
  });

  for (const l of linhas) {
    const linha = aba.addRow([l.rota_nome, l.funcionario_nome, ROTULO_STATUS_ROTA[l.status], l.total_vendas, l.total_despesas, l.total_creditos, l.saldo_atual]);
    for (const coluna of [4, 5, 6, 7]) linha.getCell(coluna).numFmt = FORMATO_BRL;
  }
  const t = totaisDoRelatorio(linhas);
  const total = aba.addRow([`Total (${linhas.length} ${linhas.length === 1 ? 'rota' : 'rotas'})`, '', '', t.vendas, t.despesas, t.creditos, null]);
  total.font = { bold: true };
  for (const coluna of [4, 5, 6]) total.getCell(coluna).numFmt = FORMATO_BRL;
  total.eachCell((celula) => {
    celula.border = { top: { style: 'thin' } };
  });

  return Buffer.from(await livro.xlsx.writeBuffer());
}

export async function gerarPdf(linhas: LinhaRelatorioRota[], contexto: ContextoExportacao): Promise<Buffer> {
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
    const fracoes = [0.24, 0.2, 0.1, 0.115, 0.115, 0.115, 0.115];
    const larguras = fracoes.map((f) => f * largura);
    const alinhamento = ['left', 'left', 'left', 'right', 'right', 'right', 'right'] as const;
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
        [l.rota_nome, l.funcionario_nome, ROTULO_STATUS_ROTA[l.status], formatarReais(l.total_vendas), formatarReais(l.total_despesas), formatarReais(l.total_creditos), formatarReais(l.saldo_atual)],
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
    desenharLinha([`Total (${linhas.length} ${linhas.length === 1 ? 'rota' : 'rotas'})`, '', '', formatarReais(t.vendas), formatarReais(t.despesas), formatarReais(t.creditos), ''], y, { negrito: true });

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
  if (f.rotasSelecionadas) filtros.push(`${f.rotasSelecionadas} rota${f.rotasSelecionadas > 1 ? 's' : ''} selecionada${f.rotasSelecionadas > 1 ? 's' : ''}`);
  return filtros;
}
