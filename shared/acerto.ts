/**
 * A route's settlement (acerto): the one definition of what the employee owes back, or is owed, for the
 * money advanced on a route (docs/decisions/salario-e-acerto.md, 'O acerto'). The phone's result screen, the admin's
 * route details, Relatórios, the PDF/Excel, Saldo and the accountant's summary all read these figures.
 *
 *   a devolver − a receber = créditos − despesas aprovadas − despesas pendentes − acertos
 *
 * - Créditos: the balance the admin sent to this route. Credits without a route are the employee's, not the
 *   route's: shown beside (creditosSemRota), never in the sum.
 * - A pending expense counts as spent until it is decided; an approved one is the company's cost; a
 *   rejected one is not, so its amount stays to be handed back (shown as its own line).
 * - Acertos: cash that changed hands when the admin settled ('devolvido' by the employee lowers what is
 *   to be returned; 'pago' to the employee lowers what is to be received).
 * - The salary and the employee's share of the rent are shown beside the balance, paid apart, never netted.
 * One of aDevolver and aReceber is always zero.
 *
 * Pure: integers in centavos, no database, no clock.
 */
import { formatarCentavos } from './money';

export const SENTIDOS_ACERTO = ['devolvido', 'pago'] as const;
export type SentidoAcerto = (typeof SENTIDOS_ACERTO)[number];

export const ROTULO_SENTIDO_ACERTO: Record<SentidoAcerto, string> = {
  devolvido: 'Devolvido pelo funcionário',
  pago: 'Pago ao funcionário',
};

/** An acerto already recorded (a ledger movement of type 'acerto'). */
export interface AcertoFeito {
  valorCentavos: number;
  sentido: SentidoAcerto;
  /** When it was recorded (ISO instant). */
  data: string;
  adminNome: string | null;
  observacao: string;
}

export interface EntradaAcerto {
  creditosCentavos: number;
  creditosSemRotaCentavos: number;
  despesasAprovadasCentavos: number;
  despesasPendentesCentavos: number;
  despesasRejeitadasCentavos: number;
  salarioCentavos: number;
  descontoAluguelCentavos: number;
  /** Oldest first. */
  acertos: readonly AcertoFeito[];
}

export interface FigurasAcerto extends EntradaAcerto {
  /** Net cash of the acertos: devolvido − pago. */
  acertadoCentavos: number;
  aDevolverCentavos: number;
  aReceberCentavos: number;
  /** The last acerto's instant when nothing is open after it ('Acertada em'); null otherwise. */
  acertadaEm: string | null;
}

/** devolvido counts for the company, pago against it. */
export function valorLiquidoDoAcerto(a: Pick<AcertoFeito, 'valorCentavos' | 'sentido'>): number {
  return a.sentido === 'devolvido' ? a.valorCentavos : -a.valorCentavos;
}

export function calcularAcerto(e: EntradaAcerto): FigurasAcerto {
  const acertado = e.acertos.reduce((soma, a) => soma + valorLiquidoDoAcerto(a), 0);
  const aberto = e.creditosCentavos - e.despesasAprovadasCentavos - e.despesasPendentesCentavos - acertado;
  const ultimo = e.acertos.at(-1);
  return {
    ...e,
    acertadoCentavos: acertado,
    aDevolverCentavos: Math.max(0, aberto),
    aReceberCentavos: Math.max(0, -aberto),
    acertadaEm: aberto === 0 && ultimo ? ultimo.data : null,
  };
}

/** What is still open: positive to be returned by the employee, negative to be paid to them. */
export function saldoEmAberto(f: Pick<FigurasAcerto, 'aDevolverCentavos' | 'aReceberCentavos'>): number {
  return f.aDevolverCentavos - f.aReceberCentavos;
}

/**
 * Why a new acerto of `valorCentavos` in `sentido` does not fit what is open; null when it does. The
 * amount is the cash that changes hands: up to what is open, in its direction (a partial acerto leaves
 * the rest open). Zero is a settlement with no cash, taken only when nothing is open and the route was
 * not settled yet (it still closes the route: its rejected expenses are charged to the employee).
 */
export function recusaDoAcerto(f: FigurasAcerto, valorCentavos: number, sentido: SentidoAcerto): string | null {
  const aberto = saldoEmAberto(f);
  if (aberto === 0) {
    if (f.acertadaEm !== null) return 'Esta rota já está acertada: não há nada em aberto.';
    return valorCentavos === 0 ? null : `Não há nada em aberto nesta rota: o acerto de ${formatarCentavos(valorCentavos)} não cabe. Registre o acerto com valor zero para fechá-la.`;
  }
  const esperado: SentidoAcerto = aberto > 0 ? 'devolvido' : 'pago';
  const emAberto = Math.abs(aberto);
  if (sentido !== esperado) {
    return aberto > 0
      ? `Esta rota tem ${formatarCentavos(emAberto)} a devolver pelo funcionário: registre o que ele devolveu.`
      : `Esta rota tem ${formatarCentavos(emAberto)} a receber pelo funcionário: registre o que foi pago a ele.`;
  }
  if (valorCentavos <= 0) return 'Informe o valor do acerto.';
  if (valorCentavos > emAberto) return `O acerto de ${formatarCentavos(valorCentavos)} passa do que está em aberto nesta rota (${formatarCentavos(emAberto)}).`;
  return null;
}

/** Who reads the settlement: the texts speak to the employee ('você') or about them. */
export type LeitorDoAcerto = 'funcionario' | 'admin';

/** One line of the settlement as every screen and file prints it; `sinal` is how it enters the sum. */
export interface LinhaDoAcerto {
  rotulo: string;
  detalhe: string;
  /** Never negative: `sinal` carries the direction. */
  valorCentavos: number;
  sinal: '' | '−' | '+' | '=';
}

/**
 * The settlement in lines, the same words on the phone, in the route details and in the PDFs: the sum
 * (créditos − aprovadas − pendentes − acertos = em aberto), the rejected expenses' note, and what is paid
 * apart (salary, rent share, credits without a route).
 */
export function linhasDoAcerto(f: FigurasAcerto, leitor: LeitorDoAcerto): { conta: LinhaDoAcerto[]; rejeitadas: string | null; aoLado: LinhaDoAcerto[] } {
  const voce = leitor === 'funcionario';
  const aberto = saldoEmAberto(f);
  const conta: LinhaDoAcerto[] = [
    { rotulo: 'Créditos desta rota', detalhe: 'adiantamento enviado pelo administrador', valorCentavos: f.creditosCentavos, sinal: '' },
    { rotulo: 'Despesas aprovadas', detalhe: '', valorCentavos: f.despesasAprovadasCentavos, sinal: '−' },
    { rotulo: 'Despesas pendentes', detalhe: 'contam como gastas até a decisão do administrador', valorCentavos: f.despesasPendentesCentavos, sinal: '−' },
  ];
  if (f.acertos.length > 0) {
    conta.push({ rotulo: 'Acertos registrados', detalhe: 'dinheiro que já mudou de mãos', valorCentavos: Math.abs(f.acertadoCentavos), sinal: f.acertadoCentavos >= 0 ? '−' : '+' });
  }
  conta.push({
    rotulo: aberto > 0 ? 'A devolver' : aberto < 0 ? 'A receber' : 'Em aberto',
    detalhe:
      aberto > 0
        ? voce
          ? 'você devolve ao administrador'
          : 'o funcionário devolve à empresa'
        : aberto < 0
          ? voce
            ? 'a empresa paga a você'
            : 'a empresa paga ao funcionário'
          : 'nada a devolver nem a receber',
    valorCentavos: Math.abs(aberto),
    sinal: '=',
  });
  const rejeitadas =
    f.despesasRejeitadasCentavos > 0
      ? `Despesas rejeitadas: ${formatarCentavos(f.despesasRejeitadasCentavos)}. Não são custo da empresa: não descontam do adiantamento e ficam para ${voce ? 'você devolver' : 'o funcionário devolver'}.`
      : null;
  const aoLado: LinhaDoAcerto[] = [
    { rotulo: voce ? 'Seu salário' : 'Salário', detalhe: 'pago à parte, fora deste acerto', valorCentavos: f.salarioCentavos, sinal: '' },
    { rotulo: 'Desconto do aluguel', detalhe: 'descontado do salário, fora deste acerto', valorCentavos: f.descontoAluguelCentavos, sinal: '' },
  ];
  if (f.creditosSemRotaCentavos > 0) {
    aoLado.push({
      rotulo: 'Créditos sem rota',
      detalhe: voce ? 'enviados a você sem uma rota: ficam no seu saldo, fora deste acerto' : 'enviados ao funcionário sem uma rota: ficam no saldo dele, fora deste acerto',
      valorCentavos: f.creditosSemRotaCentavos,
      sinal: '',
    });
  }
  return { conta, rejeitadas, aoLado };
}

/** The amount as printed: '− R$ 300,00' and '+ R$ 20,00' carry their sign; the total and plain lines do not. */
export function valorDaLinhaDoAcerto(l: LinhaDoAcerto): string {
  const valor = formatarCentavos(l.valorCentavos);
  return (l.sinal === '−' || l.sinal === '+') && l.valorCentavos > 0 ? `${l.sinal} ${valor}` : valor;
}

/** 'Acertada em 05/12/2026', 'Aguardando acerto', or the route still running. `dia`: the APP_TZ day of an instant. */
export function situacaoDoAcerto(f: Pick<FigurasAcerto, 'acertadaEm'>, status: 'ativa' | 'finalizada' | 'cancelada', dia: (instante: string) => string): string {
  if (f.acertadaEm) return `Acertada em ${dia(f.acertadaEm).split('-').reverse().join('/')}`;
  return status === 'ativa' ? 'Acerto depois da finalização' : 'Aguardando acerto';
}
