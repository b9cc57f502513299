/**
 * The employee dashboard as drawn: its heading, the cards at their final size, the salary
 * card and the shortcuts (ResumoDoPainel), from figures it is given. The page draws it empty
 * (EsqueletoDoPainel) while the dashboard's code (IndexedDB, the sync engine, the queries) is on its
 * way; the panel draws the same component while the route is read and once it is there, so the cards
 * are filled in place. Nothing here reads data or loads IndexedDB.
 */
import { CheckCircle2, Info, MapPin, Receipt, Route, ShoppingCart, Wallet } from 'lucide-react';
import { useMemo, type ReactNode } from 'react';
import { formatarData } from '../../../shared/dates';
import { formatarCentavos, formatarReais, reaisParaCentavos } from '../../../shared/money';
import { calcularSalario, mediaParaExibir } from '../../../shared/payroll/salario';
import { contagem } from '../../../shared/texto';
import { classeDoSaldo } from '../components/saldo';
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

/** What the panel's four cards show; each figure null or undefined while it is read. */
export interface FigurasDoResumo {
  /** null while the route is read: every card keeps its final size, its figures behind placeholders. */
  rota: { nome: string; data_inicio: string; data_fim: string; cidades: number } | null;
  atendidas: number | null;
  saldoConfirmado: number | undefined;
  saldoProjetado: number | undefined;
  /** Expenses still on this device (the projected balance already discounts them). */
  despesasNaFila: number;
  finalizadas: number | undefined;
}

const SEM_FIGURAS: FigurasDoResumo = { rota: null, atendidas: null, saldoConfirmado: undefined, saldoProjetado: undefined, despesasNaFila: 0, finalizadas: undefined };

/**
 * The employee panel as drawn: the frame, the four cards, the salary card (`salario`) and the shortcuts,
 * with `aviso` above the cards and `depois` last. The same elements before and after the route is
 * known: React fills the cards in place instead of replacing a skeleton.
 */
export function ResumoDoPainel({ figuras, salario, aviso, depois }: { figuras: FigurasDoResumo; salario: ReactNode; aviso?: ReactNode; depois?: ReactNode }) {
  const { rota, saldoConfirmado, saldoProjetado, despesasNaFila, finalizadas } = figuras;
  const carregando = rota === null;
  return (
    <QuadroDoPainel carregando={carregando}>
      {aviso}
      <section className="grade-resumo painel-funcionario__numeros" aria-label="Resumo da rota" data-testid={carregando ? 'esqueleto-painel' : undefined}>
        <CartaoEstatistica rotulo="Rota Ativa" icone={<Route size={22} />} className="estatistica--rota" carregando={carregando} manterConteudo>
          <span className={carregando ? 'estatistica__texto esqueleto-texto' : 'estatistica__texto'}>{rota ? rota.nome : 'Rota'}</span>
          <span className={carregando ? 'estatistica__nota esqueleto-texto' : 'estatistica__nota'}>
            {rota ? `${formatarData(rota.data_inicio)} a ${formatarData(rota.data_fim)}` : '00/00/0000 a 00/00/0000'}
          </span>
        </CartaoEstatistica>
        <CidadesAtendidas atendidas={figuras.atendidas} total={rota ? rota.cidades : null} />
        {/* Busy only while the balance itself is unknown: read before the route, it is already shown. */}
        <CartaoEstatistica rotulo="Saldo Disponível" icone={<Wallet size={22} />} className="estatistica--saldo" carregando={saldoConfirmado === undefined} manterConteudo>
          <span className="saldo-duplo">
            <span className="saldo-duplo__linha">
              <span className="saldo-duplo__rotulo">Saldo confirmado</span>
              <strong className={classeDoValor(saldoConfirmado, carregando)} data-testid="saldo-confirmado">
                {textoDoValor(saldoConfirmado, carregando)}
              </strong>
            </span>
            <span className="saldo-duplo__linha">
              <span className="saldo-duplo__rotulo">Saldo projetado</span>
              <strong className={classeDoValor(saldoProjetado, carregando)} data-testid="saldo-projetado">
                {textoDoValor(saldoProjetado, carregando)}
              </strong>
            </span>
          </span>
          {despesasNaFila > 0 && (
            <span className="estatistica__nota">
              O projetado desconta {despesasNaFila === 1 ? 'a despesa' : `as ${despesasNaFila} despesas`} ainda neste aparelho.
            </span>
          )}
        </CartaoEstatistica>
        <CartaoEstatistica rotulo="Rotas Concluídas" icone={<CheckCircle2 size={22} />} carregando={carregando || finalizadas === undefined} manterConteudo={carregando}>
          {carregando ? <span className="esqueleto-texto">00</span> : finalizadas}
        </CartaoEstatistica>
      </section>

      <div className="painel-funcionario__corpo">
        {salario}
        <AcoesRapidas />
      </div>
      {depois}
    </QuadroDoPainel>
  );
}

/** A balance figure: a placeholder of its final size while the route is read, '...' while the balance is. */
function textoDoValor(valor: number | undefined, carregandoRota: boolean): string {
  if (valor === undefined) return carregandoRota ? 'R$ 0,00' : '...';
  return formatarReais(valor);
}

function classeDoValor(valor: number | undefined, carregandoRota: boolean): string | undefined {
  if (valor === undefined) return carregandoRota ? 'esqueleto-texto' : undefined;
  return classeDoSaldo(valor);
}

/** The whole panel before its code has arrived: the cards of a route's dashboard, empty. */
export function EsqueletoDoPainel() {
  return <ResumoDoPainel figuras={SEM_FIGURAS} salario={<EsqueletoSalario valorAluguel={0} />} />;
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
