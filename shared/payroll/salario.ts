/**
 * The estimated salary of a route (decisions.md, 'Salary'): one pure function used by the server's
 * reports and by the employee's dashboard (which adds what is still queued on the phone).
 *
 *   vendas  = dinheiro + pix + cartão + link          (boletos are a count, never money)
 *   bolsas  = vendas × 1,5 / 666,66
 *   média   = bolsas / cidades visitadas               (0 without visited cities)
 *   valor por bolsa: média < 1 → 50, < 1,7 → 60, < 2 → 80, < 2,5 → 100, < 3 → 110, senão 120
 *   valor fixo por cidade: 25 se média < 1,5, senão 50;  boleto: R$ 5,50 cada
 *   aluguel: média < 1,5 o funcionário paga tudo; < 2 metade; senão a escola paga
 *   salário = bolsas × valor por bolsa + cidades × valor fixo + 5,50 × boletos − desconto do aluguel
 *
 * Bolsas are rounded to two decimals once (half up), and everything after is computed from that rounded
 * count, so each printed line multiplies out: 42,32 × R$ 120,00 is R$ 5.078,40, never R$ 5.078,23.
 * The thresholds are compared exactly on the rounded count: the average is kept as the fraction
 * (bolsas em centésimos) / (100 × cidades), so 1,5 is 1,5 and never 1,4999999.
 */

/** Centavos of sales that make one bag: R$ 666,66. */
export const CENTAVOS_POR_BOLSA_BASE = 66_666;
export const BONUS_BOLETO_CENTAVOS = 550;

/** [upper bound of the average (exclusive) as numerator/denominator, value per bag in reais]. */
const FAIXAS_VALOR_POR_BOLSA: readonly [number, number, number][] = [
  [1, 1, 50],
  [17, 10, 60],
  [2, 1, 80],
  [5, 2, 100],
  [3, 1, 110],
];
export const VALOR_POR_BOLSA_MAXIMO = 120;

export type QuemPagaAluguel = 'funcionario' | 'metade' | 'escola';

export const ROTULO_QUEM_PAGA_ALUGUEL: Record<QuemPagaAluguel, string> = {
  funcionario: 'Funcionário',
  metade: 'Dividido (metade cada)',
  escola: 'Escola',
};

export interface EntradaSalario {
  /** dinheiro + pix + cartão + link over the route, in centavos. */
  vendasCentavos: number;
  boletos: number;
  /** Cities of the route visited at least once (with or without sale). */
  cidadesVisitadas: number;
  valorAluguelCentavos: number;
}

export interface CalculoSalario {
  totalVendasCentavos: number;
  /** Rounded to two decimals: the count every later line is computed from. */
  totalBolsas: number;
  mediaBolsasCidade: number;
  valorPorBolsa: number;
  valorFixoPorCidade: number;
  cidadesVisitadas: number;
  boletos: number;
  valorBolsasCentavos: number;
  valorCidadesCentavos: number;
  valorBoletosCentavos: number;
  quemPagaAluguel: QuemPagaAluguel;
  /** What the employee pays of the rent (discounted from the salary). */
  descontoAluguelFuncionarioCentavos: number;
  /** What the company ('escola') pays of the rent. */
  descontoAluguelEscolaCentavos: number;
  /** May be negative: the rent discount can exceed the earnings. */
  totalSalarioCentavos: number;
}

/** The average as an exact fraction. */
interface Fracao {
  num: number;
  den: number;
}

/**
 * Bolsas in hundredths, rounded half up once: (vendas/100) × 1,5 / 666,66 × 100 = vendas × 150 / 66 666,
 * in integers (vendas ≤ R$ 10 milhões keeps every product far below 2^53).
 */
export function bolsasEmCentesimos(vendasCentavos: number): number {
  const numerador = vendasCentavos * 150;
  return Math.floor((2 * numerador + CENTAVOS_POR_BOLSA_BASE) / (2 * CENTAVOS_POR_BOLSA_BASE));
}

function media(bolsasCentesimos: number, cidadesVisitadas: number): Fracao {
  if (cidadesVisitadas <= 0 || bolsasCentesimos <= 0) return { num: 0, den: 1 };
  return { num: bolsasCentesimos, den: 100 * cidadesVisitadas };
}

/** a/b < p/q, exactly, with positive denominators. */
function menorQue(f: Fracao, p: number, q: number): boolean {
  return f.num * q < p * f.den;
}

/** Value per bag (reais) for an average given as a plain number: for tables and tests. */
export function valorPorBolsaParaMedia(mediaBolsas: number): number {
  return valorPorBolsa(fracaoDeNumero(mediaBolsas));
}

function fracaoDeNumero(valor: number): Fracao {
  // Averages written by people have few decimals: scale to an integer fraction.
  return { num: Math.round(valor * 1_000_000), den: 1_000_000 };
}

function valorPorBolsa(f: Fracao): number {
  for (const [p, q, valor] of FAIXAS_VALOR_POR_BOLSA) if (menorQue(f, p, q)) return valor;
  return VALOR_POR_BOLSA_MAXIMO;
}

function valorFixoPorCidade(f: Fracao): number {
  return menorQue(f, 3, 2) ? 25 : 50;
}

function quemPagaAluguel(f: Fracao): QuemPagaAluguel {
  if (menorQue(f, 3, 2)) return 'funcionario';
  if (menorQue(f, 2, 1)) return 'metade';
  return 'escola';
}

export function valorFixoPorCidadeParaMedia(mediaBolsas: number): number {
  return valorFixoPorCidade(fracaoDeNumero(mediaBolsas));
}

export function quemPagaAluguelParaMedia(mediaBolsas: number): QuemPagaAluguel {
  return quemPagaAluguel(fracaoDeNumero(mediaBolsas));
}

export function calcularSalario(entrada: EntradaSalario): CalculoSalario {
  const vendas = Math.max(0, Math.round(entrada.vendasCentavos));
  const cidades = Math.max(0, Math.floor(entrada.cidadesVisitadas));
  const boletos = Math.max(0, Math.floor(entrada.boletos));
  const aluguel = Math.max(0, Math.round(entrada.valorAluguelCentavos));
  const centesimos = bolsasEmCentesimos(vendas);
  const f = media(centesimos, cidades);

  const porBolsa = valorPorBolsa(f);
  const fixo = valorFixoPorCidade(f);
  const quem = quemPagaAluguel(f);
  // The rounded bolsas × the value per bag (reais): hundredths of a bag × reais are centavos, exact.
  const valorBolsasCentavos = centesimos * porBolsa;
  const valorCidadesCentavos = cidades * fixo * 100;
  const valorBoletosCentavos = boletos * BONUS_BOLETO_CENTAVOS;
  const descontoFuncionario = quem === 'funcionario' ? aluguel : quem === 'metade' ? Math.round(aluguel / 2) : 0;

  return {
    totalVendasCentavos: vendas,
    totalBolsas: centesimos / 100,
    mediaBolsasCidade: f.num / f.den,
    valorPorBolsa: porBolsa,
    valorFixoPorCidade: fixo,
    cidadesVisitadas: cidades,
    boletos,
    valorBolsasCentavos,
    valorCidadesCentavos,
    valorBoletosCentavos,
    quemPagaAluguel: quem,
    descontoAluguelFuncionarioCentavos: descontoFuncionario,
    descontoAluguelEscolaCentavos: aluguel - descontoFuncionario,
    totalSalarioCentavos: valorBolsasCentavos + valorCidadesCentavos + valorBoletosCentavos - descontoFuncionario,
  };
}

/**
 * The spec's display guard: an average of 10 or more came from a server that sent it ×1000,
 * so it is divided back. The server here always sends the true average.
 */
export function mediaParaExibir(mediaBolsas: number | null | undefined): number {
  const m = typeof mediaBolsas === 'number' && Number.isFinite(mediaBolsas) ? mediaBolsas : 0;
  return m >= 10 ? m / 1000 : m;
}
