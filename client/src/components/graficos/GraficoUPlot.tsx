/**
 * The canvas of a bar chart, drawn by uPlot. Loaded on demand by Grafico.tsx: this
 * module, uPlot and its stylesheet are one chunk of their own, asked for only by the admin's screens,
 * never by the login's or the employee's. Draws only with a width to draw in (a hidden container, or
 * an environment without layout, draws nothing) and follows the container's width.
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatarCentavos } from '../../../../shared/money';
import type { DadosGrafico } from './tipos';

const FONTE = '12px system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif';
const COR_EIXO = '#556476';
const COR_GRADE = '#e2e8f0';

const dinheiroCompacto = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL', notation: 'compact', maximumFractionDigits: 1 });

function valorDoEixo(formato: DadosGrafico['formatoEixo'], v: number): string {
  if (formato === 'contagem') return Number.isInteger(v) ? String(v) : '';
  return Math.abs(v) < 100_000 ? formatarCentavos(Math.round(v)).replace(/,00$/, '') : dinheiroCompacto.format(v / 100);
}

/** The labels along the bottom: one every few categories, so they never overlap; long names cut short. */
function rotuloCurto(texto: string, maximo: number): string {
  return texto.length <= maximo ? texto : `${texto.slice(0, maximo - 1).trimEnd()}…`;
}

function alturaPara(largura: number): number {
  return largura < 500 ? 220 : 260;
}

/** The values as uPlot draws them: stacked series as running sums (tallest first), zero counts as gaps. */
function prepararValores(dados: DadosGrafico) {
  const indices = dados.categorias.map((_, i) => i);
  const esquerda = dados.series.filter((s) => s.eixo !== 'direita');
  const direita = dados.series.filter((s) => s.eixo === 'direita');
  const acumulado = esquerda.map((_, k) => indices.map((i) => esquerda.slice(0, k + 1).reduce((soma, s) => soma + (s.valores[i] ?? 0), 0)));
  const valoresEsquerda = dados.modo === 'empilhado' ? [...acumulado].reverse() : esquerda.map((s) => s.valores);
  // A zero count is no dot (a row of dots on the floor says nothing).
  const valoresDireita = direita.map((s) => s.valores.map((v) => (v > 0 ? v : null)));
  return { indices, esquerda, direita, valoresEsquerda, valoresDireita };
}

function opcoes(dados: DadosGrafico, largura: number): uPlot.Options {
  const n = dados.categorias.length;
  const { indices, esquerda, direita, valoresEsquerda, valoresDireita } = prepararValores(dados);
  const curtas = dados.categorias.every((c) => c.length <= 5);
  // Width each label needs: dd/mm fits in 44 px; names are cut to what fits, 14 characters at least (the table has them whole).
  const larguraRotulo = curtas ? 44 : 104;
  const maximoRotulo = 14;

  // Stacked: each bar is painted from zero to the sum up to its series, the tallest first, so the
  // visible band of each series is its own value. Grouped (two series): one on each side of the category.
  const barrasEsquerda: uPlot.Series[] = (dados.modo === 'empilhado' ? [...esquerda].reverse() : esquerda).map((s, i) => ({
    label: s.rotulo,
    fill: s.cor,
    stroke: s.cor,
    width: 0,
    points: { show: false },
    paths: uPlot.paths.bars!(
      dados.modo === 'empilhado' || esquerda.length === 1
        ? { size: [0.7, 56], align: 0 }
        : { size: [0.8 / esquerda.length, 40], align: i === 0 ? -1 : 1 },
    ),
  }));
  const pontosDireita: uPlot.Series[] = direita.map((s) => ({
    label: s.rotulo,
    scale: 'direita',
    stroke: s.cor,
    width: 0,
    paths: () => null,
    points: { show: true, size: 9, fill: s.cor, stroke: '#ffffff', width: 1.5 },
  }));
  const maximoEsquerda = Math.max(0, ...valoresEsquerda.flat());
  const maximoDireita = Math.max(0, ...valoresDireita.flat().map((v) => v ?? 0));

  const eixos: uPlot.Axis[] = [
    {
      stroke: COR_EIXO,
      font: FONTE,
      grid: { show: false },
      ticks: { show: false },
      gap: 4,
      size: 30,
      splits: (u) => {
        const cabem = Math.max(1, Math.floor(u.bbox.width / uPlot.pxRatio / larguraRotulo));
        const passo = Math.ceil(n / cabem);
        return indices.filter((i) => i % passo === 0);
      },
      values: (u, splits) => {
        // As many characters as the space of one category holds (about 7 px each), at least maximoRotulo.
        const espaco = u.bbox.width / uPlot.pxRatio / Math.max(1, n);
        const caracteres = Math.max(maximoRotulo, Math.floor(espaco / 7.5));
        return splits.map((i) => rotuloCurto(dados.categorias[i] ?? '', caracteres));
      },
    },
    {
      stroke: COR_EIXO,
      font: FONTE,
      // 'R$ 2,5 mil' or 'R$ 500' fit in 68 px; wide screens keep some air.
      size: dados.formatoEixo === 'dinheiro' ? (largura < 500 ? 68 : 84) : 40,
      grid: { stroke: COR_GRADE, width: 1 },
      ticks: { show: false },
      values: (_u, splits) => splits.map((v) => valorDoEixo(dados.formatoEixo, v)),
    },
  ];
  if (direita.length) {
    eixos.push({
      scale: 'direita',
      side: 1,
      stroke: direita[0]!.cor,
      font: FONTE,
      size: 34,
      grid: { show: false },
      ticks: { show: false },
      values: (_u, splits) => splits.map((v) => (Number.isInteger(v) ? String(v) : '')),
    });
  }

  return {
    width: largura,
    height: alturaPara(largura),
    // The legend is the figure's own (HTML, beside the chart), and the numbers are in its table.
    legend: { show: false },
    cursor: { show: false },
    padding: [12, direita.length ? 4 : 12, 0, 0],
    scales: {
      x: { time: false, range: () => [-0.5, Math.max(0, n - 0.5)] },
      y: { range: () => [0, maximoEsquerda > 0 ? maximoEsquerda * 1.1 : 1] },
      ...(direita.length ? { direita: { range: () => [0, Math.max(2, Math.ceil(maximoDireita * 1.2))] } } : {}),
    },
    axes: eixos,
    series: [{}, ...barrasEsquerda, ...pontosDireita],
  };
}

function dadosDoUPlot(dados: DadosGrafico): uPlot.AlignedData {
  const { indices, valoresEsquerda, valoresDireita } = prepararValores(dados);
  return [indices, ...valoresEsquerda, ...valoresDireita];
}

export function GraficoUPlot({ dados }: { dados: DadosGrafico }) {
  const recipiente = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = recipiente.current;
    if (!el) return;
    let grafico: uPlot | null = null;
    const desenhar = (largura: number) => {
      if (largura <= 0) return;
      if (grafico) {
        grafico.setSize({ width: largura, height: alturaPara(largura) });
        return;
      }
      grafico = new uPlot(opcoes(dados, largura), dadosDoUPlot(dados), el);
    };
    desenhar(Math.floor(el.clientWidth));
    const observador = typeof ResizeObserver === 'function' ? new ResizeObserver((e) => desenhar(Math.floor(e[0]?.contentRect.width ?? 0))) : null;
    observador?.observe(el);
    return () => {
      observador?.disconnect();
      grafico?.destroy();
    };
  }, [dados]);

  return <div ref={recipiente} className="grafico__tela" />;
}
