/**
 * How a route's salary is reached (decisions.md, 'Salary'): the sum line by line — bags × value per
 * bag, city bonus, boletos, rent discount — and the total. One look for the three places that show
 * it: the employee's estimate on the dashboard (computed on the phone), the route result (Minhas
 * Rotas) and the admin's route details (both from the server's calculation, in reais: converted once,
 * here at the edge, by `linhasDaApi`).
 */
import { formatarCentavos, formatarReais, reaisParaCentavos } from '../../../shared/money';
import { BONUS_BOLETO_CENTAVOS, type CalculoSalario } from '../../../shared/payroll/salario';
import type { CalculoSalarioApi } from '../../../shared/schemas/relatorios';
import { formatarDecimal } from '../dashboard/apresentacao';
import { contagem } from '../../../shared/texto';

/** The figures of the sum. Rates (per bag, per city) stay in reais: they are prices, not amounts. */
export interface LinhasDoSalario {
  totalBolsas: number;
  valorPorBolsa: number;
  valorBolsasCentavos: number;
  cidadesVisitadas: number;
  valorFixoPorCidade: number;
  valorCidadesCentavos: number;
  boletos: number;
  valorBoletosCentavos: number;
  valorAluguelCentavos: number;
  descontoAluguelCentavos: number;
  totalCentavos: number;
}

export function linhasDaApi(c: CalculoSalarioApi): LinhasDoSalario {
  return {
    totalBolsas: c.total_bolsas,
    valorPorBolsa: c.valor_por_bolsa,
    valorBolsasCentavos: reaisParaCentavos(c.valor_bolsas),
    cidadesVisitadas: c.cidades_visitadas,
    valorFixoPorCidade: c.valor_fixo_por_cidade,
    valorCidadesCentavos: reaisParaCentavos(c.valor_cidades),
    boletos: c.boletos,
    valorBoletosCentavos: reaisParaCentavos(c.valor_boletos),
    valorAluguelCentavos: reaisParaCentavos(c.valor_aluguel),
    descontoAluguelCentavos: reaisParaCentavos(c.desconto_aluguel),
    totalCentavos: reaisParaCentavos(c.total_salario),
  };
}

export function linhasDoCalculo(c: CalculoSalario, valorAluguelCentavos: number): LinhasDoSalario {
  return {
    totalBolsas: c.totalBolsas,
    valorPorBolsa: c.valorPorBolsa,
    valorBolsasCentavos: c.valorBolsasCentavos,
    cidadesVisitadas: c.cidadesVisitadas,
    valorFixoPorCidade: c.valorFixoPorCidade,
    valorCidadesCentavos: c.valorCidadesCentavos,
    boletos: c.boletos,
    valorBoletosCentavos: c.valorBoletosCentavos,
    valorAluguelCentavos,
    descontoAluguelCentavos: c.descontoAluguelFuncionarioCentavos,
    totalCentavos: c.totalSalarioCentavos,
  };
}

export function DetalhamentoSalario({ linhas: l, rotuloTotal }: { linhas: LinhasDoSalario; rotuloTotal: string }) {
  const negativo = l.totalCentavos < 0;
  return (
    <dl className="salario__linhas">
      <Linha rotulo="Bolsas" detalhe={`${formatarDecimal(l.totalBolsas)} × ${formatarReais(l.valorPorBolsa)}`} valor={formatarCentavos(l.valorBolsasCentavos)} />
      <Linha
        rotulo="Bônus por cidade"
        detalhe={`${contagem(l.cidadesVisitadas, 'cidade visitada', 'cidades visitadas')} × ${formatarReais(l.valorFixoPorCidade)}`}
        valor={formatarCentavos(l.valorCidadesCentavos)}
      />
      <Linha rotulo="Boletos" detalhe={`${l.boletos} × ${formatarCentavos(BONUS_BOLETO_CENTAVOS)}`} valor={formatarCentavos(l.valorBoletosCentavos)} />
      <Linha
        rotulo="Desconto do aluguel"
        detalhe={`aluguel da rota: ${formatarCentavos(l.valorAluguelCentavos)}`}
        valor={l.descontoAluguelCentavos > 0 ? `− ${formatarCentavos(l.descontoAluguelCentavos)}` : formatarCentavos(0)}
      />
      <Linha rotulo={rotuloTotal} valor={formatarCentavos(l.totalCentavos)} classe={`salario__linha--total${negativo ? ' valor-negativo' : ''}`} />
    </dl>
  );
}

/** One line of the sum: what it is, how it was reached, and the amount. */
function Linha({ rotulo, detalhe, valor, classe }: { rotulo: string; detalhe?: string; valor: string; classe?: string }) {
  return (
    <div className={['salario__linha', classe].filter(Boolean).join(' ')}>
      <dt>
        {rotulo}
        {detalhe && <span className="salario__detalhe">{detalhe}</span>}
      </dt>
      <dd>{valor}</dd>
    </div>
  );
}
