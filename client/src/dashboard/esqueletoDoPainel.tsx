/**
 * The employee dashboard's frame (issue 19): its heading, the cards at their final size and the
 * shortcuts, without any data. The page draws it while the dashboard's code (IndexedDB, the sync
 * engine, the queries) is still on its way, so the heading and the cards are on screen at once and the
 * real panel fills them in place; the panel draws it too while the route is read. Nothing here reads
 * data or loads IndexedDB: it stays in the page's small chunk.
 */
import { CheckCircle2, Info, MapPin, Receipt, Route, ShoppingCart, Wallet } from 'lucide-react';
import { useMemo } from 'react';
import { formatarCentavos, formatarReais, reaisParaCentavos } from '../../../shared/money';
import { calcularSalario, mediaParaExibir } from '../../../shared/payroll/salario';
import { contagem } from '../../../shared/texto';
import { DetalhamentoSalario, linhasDoCalculo } from '../relatorios/DetalhamentoSalario';
import { formatarDecimal, mensagemAluguel } from './apresentacao';
import { CartaoAcao, CartaoEstatistica } from './componentes';
import { QuadroDoPainel } from './molduraDoPainel';
import type { Estimativa } from './estimativa';

export function AcoesRapidas() {
  return (
    <nav className="grade-acoes painel-funcionario__acoes" aria-label="Ações rápidas">
      <CartaoAcao titulo="Nova Venda" descricao="Feche o dia de uma cidade." icone={<ShoppingCart size={22} />} cor="azul" para="/vendas" />
      <CartaoAcao titulo="Nova Despesa" descricao="Lance um gasto com o comprovante." icone={<Receipt size={22} />} cor="laranja" para="/despesas" />
    </nav>
  );
}

/** 'Cidades Atendidas': the count and its bar, the bar already there (empty) while the count is computed. */
export function CidadesAtendidas({ atendidas, total }: { atendidas: number | null; total: number | null }) {
  const carregando = atendidas === null || total === null;
  return (
    <CartaoEstatistica rotulo="Cidades Atendidas" icone={<MapPin size={22} />} carregando={carregando} manterConteudo>
      <span className={carregando ? 'esqueleto-texto' : undefined}>{carregando ? '0 / 0' : `${atendidas} / ${total}`}</span>
      <span
        className="progresso"
        role="progressbar"
        aria-label="Cidades atendidas"
        aria-valuemin={0}
        aria-valuemax={total ?? 0}
        aria-valuenow={atendidas ?? 0}
        aria-busy={carregando || undefined}
      >
        <span className="progresso__barra" style={{ width: `${!carregando && total ? Math.min(100, (atendidas / total) * 100) : 0}%` }} />
      </span>
    </CartaoEstatistica>
  );
}

/** The estimate of a route with nothing done yet (what estimarSalario gives with no sales, visits or writes). */
export function estimativaVazia(valorAluguel: number): Estimativa {
  const valorAluguelCentavos = reaisParaCentavos(valorAluguel);
  const calculo = calcularSalario({ vendasCentavos: 0, boletos: 0, cidadesVisitadas: 0, valorAluguelCentavos });
  return { calculo, valorAluguelCentavos, cidadesAtendidas: 0, naFila: 0, recusados: 0 };
}

/**
 * The salary card while its base is read: the real card drawn from an empty route (same rows, same
 * lines), its figures hidden behind placeholders, so the real figures replace them in place.
 */
export function EsqueletoSalario({ valorAluguel }: { valorAluguel: number }) {
  const vazio = useMemo(() => estimativaVazia(valorAluguel), [valorAluguel]);
  return <CartaoSalario estimativa={vazio} esqueleto />;
}

/** The whole panel before the route is known: the cards of a route's dashboard, empty. */
export function EsqueletoDoPainel() {
  return (
    <QuadroDoPainel>
      <section className="grade-resumo painel-funcionario__numeros" aria-label="Resumo da rota" data-testid="esqueleto-painel">
        <CartaoEstatistica rotulo="Rota Ativa" icone={<Route size={22} />} className="estatistica--rota" carregando manterConteudo>
          <span className="estatistica__texto esqueleto-texto">Rota</span>
          <span className="estatistica__nota esqueleto-texto">00/00/0000 a 00/00/0000</span>
        </CartaoEstatistica>
        <CidadesAtendidas atendidas={null} total={null} />
        <CartaoEstatistica rotulo="Saldo Disponível" icone={<Wallet size={22} />} className="estatistica--saldo" carregando manterConteudo>
          <span className="saldo-duplo">
            <span className="saldo-duplo__linha">
              <span className="saldo-duplo__rotulo">Saldo confirmado</span>
              <strong className="esqueleto-texto">R$ 0,00</strong>
            </span>
            <span className="saldo-duplo__linha">
              <span className="saldo-duplo__rotulo">Saldo projetado</span>
              <strong className="esqueleto-texto">R$ 0,00</strong>
            </span>
          </span>
        </CartaoEstatistica>
        <CartaoEstatistica rotulo="Rotas Concluídas" icone={<CheckCircle2 size={22} />} carregando manterConteudo>
          <span className="esqueleto-texto">00</span>
        </CartaoEstatistica>
      </section>
      <div className="painel-funcionario__corpo">
        <EsqueletoSalario valorAluguel={0} />
        <AcoesRapidas />
      </div>
    </QuadroDoPainel>
  );
}

function Indicador({ rotulo, valor, nota }: { rotulo: string; valor: string; nota: string }) {
  return (
    <div className="salario__indicador">
      <dt>{rotulo}</dt>
      <dd>
        <strong>{valor}</strong>
        <span className="salario__detalhe">{nota}</span>
      </dd>
    </div>
  );
}

/** The estimate and how it is reached: the three figures that set the rates, then the sum, then who pays the rent. */
export function CartaoSalario({ estimativa, esqueleto = false }: { estimativa: Estimativa; esqueleto?: boolean }) {
  const c = estimativa.calculo;
  const negativo = c.totalSalarioCentavos < 0;
  return (
    <section
      className={`cartao salario${esqueleto ? ' salario--esqueleto' : ''}`}
      aria-label={esqueleto ? 'Salário Estimado (calculando...)' : 'Salário Estimado'}
      aria-busy={esqueleto || undefined}
      data-testid={esqueleto ? 'esqueleto-salario' : undefined}
    >
      <div className="salario__topo">
        <h2 className="salario__titulo">Salário Estimado</h2>
        <strong className={`salario__total${negativo ? ' valor-negativo' : ''}`} data-testid={esqueleto ? undefined : 'salario-total'}>
          {formatarCentavos(c.totalSalarioCentavos)}
        </strong>
      </div>
      {estimativa.naFila > 0 && (
        <p className="salario__fila" role="status">
          Inclui {contagem(estimativa.naFila, 'registro', 'registros')} deste aparelho que ainda não {estimativa.naFila === 1 ? 'chegou' : 'chegaram'} ao servidor
          {estimativa.recusados > 0 ? ` (${estimativa.recusados} ${estimativa.recusados === 1 ? 'precisa' : 'precisam'} de atenção)` : ''}.
        </p>
      )}
      <dl className="salario__indicadores">
        <Indicador rotulo="Média de desempenho" valor={formatarDecimal(mediaParaExibir(c.mediaBolsasCidade))} nota="bolsas por cidade" />
        <Indicador rotulo="Bolsas" valor={formatarDecimal(c.totalBolsas)} nota={`vendas de ${formatarCentavos(c.totalVendasCentavos)}`} />
        <Indicador rotulo="Valor por bolsa" valor={formatarReais(c.valorPorBolsa)} nota="pela média" />
      </dl>
      <DetalhamentoSalario linhas={linhasDoCalculo(c, estimativa.valorAluguelCentavos)} rotuloTotal="Total estimado" />
      <p className="salario__aluguel" data-testid={esqueleto ? undefined : 'mensagem-aluguel'}>
        <Info size={16} aria-hidden="true" /> {mensagemAluguel(c.quemPagaAluguel, estimativa.valorAluguelCentavos)}
      </p>
    </section>
  );
}
