/**
 * How a route's salary is reached (decisions.md, 'Salary'), from the server's calculation: the sum
 * line by line — bags × value per bag, city bonus, boletos, rent discount — and the total. Used by the
 * employee's route result (Minhas Rotas) and the admin's route details; same look as the dashboard's
 * estimate (`salario__*` classes).
 */
import { formatarCentavos, formatarReais } from '../../../shared/money';
import { BONUS_BOLETO_CENTAVOS } from '../../../shared/payroll/salario';
import type { CalculoSalarioApi } from '../../../shared/schemas/relatorios';

const decimal = new Intl.NumberFormat('pt-BR', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const plural = (n: number, um: string, varios: string) => `${n} ${n === 1 ? um : varios}`;

export function DetalhamentoSalario({ calculo: c, rotuloTotal }: { calculo: CalculoSalarioApi; rotuloTotal: string }) {
  const negativo = c.total_salario < 0;
  return (
    <dl className="salario__linhas">
      <Linha rotulo="Bolsas" detalhe={`${decimal.format(c.total_bolsas)} × ${formatarReais(c.valor_por_bolsa)}`} valor={formatarReais(c.valor_bolsas)} />
      <Linha
        rotulo="Bônus por cidade"
        detalhe={`${plural(c.cidades_visitadas, 'cidade visitada', 'cidades visitadas')} × ${formatarReais(c.valor_fixo_por_cidade)}`}
        valor={formatarReais(c.valor_cidades)}
      />
      <Linha rotulo="Boletos" detalhe={`${c.boletos} × ${formatarCentavos(BONUS_BOLETO_CENTAVOS)}`} valor={formatarReais(c.valor_boletos)} />
      <Linha
        rotulo="Desconto do aluguel"
        detalhe={`aluguel da rota: ${formatarReais(c.valor_aluguel)}`}
        valor={c.desconto_aluguel > 0 ? `− ${formatarReais(c.desconto_aluguel)}` : formatarReais(0)}
      />
      <Linha rotulo={rotuloTotal} valor={formatarReais(c.total_salario)} classe={`salario__linha--total${negativo ? ' valor-negativo' : ''}`} />
    </dl>
  );
}

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
