/** What a bar chart draws: the same data feeds the canvas and the table of numbers. */

export interface SerieGrafico {
  rotulo: string;
  /** A colour the canvas can paint (a CSS colour string, not a variable). */
  cor: string;
  /** One value per category; money in centavos, counts as they are. */
  valores: number[];
  /** 'direita': a second axis on the right, drawn as dots (e.g. boletos, a count beside money). */
  eixo?: 'esquerda' | 'direita';
  /** How the table writes it: money (R$, from centavos) or a count; by default the left axis's. */
  formato?: 'dinheiro' | 'contagem';
}

export interface DadosGrafico {
  /** The labels along the bottom (days as dd/mm, route or employee names). */
  categorias: string[];
  series: SerieGrafico[];
  /** 'empilhado': the left-axis series stacked in one bar per category; 'agrupado': side by side. */
  modo: 'empilhado' | 'agrupado';
  /** How the left axis writes its values (compact money, whole counts). */
  formatoEixo: 'dinheiro' | 'contagem';
}
