/**
 * Dashboard, employee view (spec section 2): the active route, cities served, the balance (confirmed
 * and projected: decisions.md 'two balances, never one lie'), finished routes, the estimated salary
 * with its whole breakdown, and the shortcuts to Nova Venda and Nova Despesa.
 *
 * Opens offline from the device's copies; each copy counts, over it, this person's writes still on
 * the phone and those the server confirmed after the copy was read (offline/escritas.ts), so the
 * same day gives the same numbers online and offline.
 */
import { CheckCircle2, Info, MapPin, Receipt, Route, ShoppingCart, Wallet, WifiOff } from 'lucide-react';
import { useMemo, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { formatarData, formatarDataHora } from '../../../shared/dates';
import { formatarCentavos, formatarReais } from '../../../shared/money';
import { mediaParaExibir } from '../../../shared/payroll/salario';
import { contagem } from '../../../shared/texto';
import { DetalhamentoSalario, linhasDoCalculo } from '../relatorios/DetalhamentoSalario';
import type { Rota } from '../../../shared/schemas/rotas';
import type { Usuario } from '../../../shared/schemas/usuarios';
import { useQuandoOcioso } from '../components/useQuandoOcioso';
import { fusoDoApp } from '../config/configApp';
import { contarNaFila, saldoProjetado } from '../despesas/fila';
import { dadosDaCarga, type Carga } from '../offline/cache';
import { escritasSobreCopia, useEscritasDoAparelho } from '../offline/escritas';
import { chavesCacheRotas, chavesRotas, rotaAtivaDaLista, useRotaAtivaDoFuncionario, useRotasFinalizadasDoFuncionario } from '../rotas/consultas';
import { useSaldoProprio } from '../saldo/consultas';
import { formatarDecimal, mensagemAluguel } from './apresentacao';
import { CartaoAcao, CartaoEstatistica } from './componentes';
import { useBaseDoSalario } from './consultas';
import { estimarSalario, type Estimativa } from './estimativa';
import { sobDemanda } from '../components/sobDemanda';
import { ehPrevia, useCopiaDoAparelhoPrimeiro } from '../app/copiaPrimeiro';
import { classeDoSaldo } from '../components/saldo';

export const SEM_ROTA_ATIVA = 'Você não tem nenhuma rota ativa no momento.';

// Below the numbers the person opens the app for: its code loads once they have been on screen a
// moment (half a second, then the next idle time), so it never competes with drawing them.
const ESPERA_CARTAO_VIAGEM_MS = 500;
const CartaoProntoParaViajarTardio = sobDemanda(() => import('./CartaoProntoParaViajar').then((m) => m.CartaoProntoParaViajar));

function CartaoProntoParaViajar(props: { usuarioId: number; semServidor: boolean }) {
  const numerosNaTela = useQuandoOcioso(ESPERA_CARTAO_VIAGEM_MS);
  if (!numerosNaTela) return null;
  return (
    <CartaoProntoParaViajarTardio {...props} />
  );
}

/** Green above zero, red otherwise (spec: Saldo Atual). */
const classeSaldo = classeDoSaldo;

const cabecalho = (
  <div className="pagina__topo">
    <div>
      <h1>Dashboard</h1>
      <p className="pagina__descricao">Sua rota, seu saldo e o salário estimado até agora.</p>
    </div>
  </div>
);

/** The active route kept on the device is the list the server answered (rotas/consultas.ts). */

export function DashboardFuncionario({ usuario }: { usuario: Usuario }) {
  const rotaQ = useRotaAtivaDoFuncionario(usuario.id);
  const rota = dadosDaCarga(rotaQ.data) ?? null;
  // Issue 19: the device's copy of the route at once on a repeat visit, the server's answer behind it.
  useCopiaDoAparelhoPrimeiro(chavesRotas.ativaDoFuncionario(usuario.id), chavesCacheRotas.ativas(usuario.id), usuario.id, rotaAtivaDaLista);

  // Issue 19: the panel's frame, with every card at its final size, while the route is read (the
  // device's copy, then the server): what arrives fills the cards instead of pushing them down.
  if (rotaQ.isPending) return <EsqueletoDoPainel />;

  if (rotaQ.data && 'semDados' in rotaQ.data) {
    return (
      <div>
        {cabecalho}
        <div className="alerta alerta--aviso" role="status">
          <WifiOff size={16} aria-hidden="true" /> Sem conexão. Abra o dashboard uma vez com internet para poder usá-lo offline neste aparelho.
        </div>
        <CartaoProntoParaViajar usuarioId={usuario.id} semServidor />
      </div>
    );
  }

  if (!rota) {
    return (
      <div>
        {cabecalho}
        <section className="cartao sem-rota" aria-label="Sem rota ativa">
          <span className="sem-rota__icone" aria-hidden="true">
            <MapPin size={28} />
          </span>
          <h2>{SEM_ROTA_ATIVA}</h2>
          <p>
            Quando o administrador criar uma rota para você, ela aparece aqui com as cidades, o saldo e o salário estimado. Enquanto isso, suas rotas
            concluídas estão em Minhas Rotas.
          </p>
          <Link to="/rotas" className="botao botao--outline">
            Ver Minhas Rotas
          </Link>
        </section>
      </div>
    );
  }

  return <PainelDaRota usuario={usuario} rota={rota} cargaRota={rotaQ.data!} cabecalho={cabecalho} />;
}

interface PropsPainel {
  usuario: Usuario;
  rota: Rota;
  cargaRota: Carga<Rota | null>;
  cabecalho: ReactNode;
}

function PainelDaRota({ usuario, rota, cargaRota, cabecalho }: PropsPainel) {
  const fuso = fusoDoApp();
  const finalizadasQ = useRotasFinalizadasDoFuncionario(usuario.id);
  const saldoQ = useSaldoProprio(usuario.id);
  const baseQ = useBaseDoSalario(usuario.id, rota);
  const escritas = useEscritasDoAparelho(usuario.id);

  // Each figure from its copy plus the writes that copy may miss (the salary's base and the balance
  // are read at different times, so each has its own overlay).
  const cargaBase = baseQ.data && 'dados' in baseQ.data ? baseQ.data : undefined;
  const cidadesDaRota = useMemo(() => rota.cidades.map((c) => c.id), [rota.cidades]);
  const estimativa = useMemo(
    () => (cargaBase && escritas ? estimarSalario(rota.id, cargaBase.dados, escritasSobreCopia(escritas, cargaBase.confirmacoesAte), cidadesDaRota) : null),
    [cargaBase, escritas, rota.id, cidadesDaRota],
  );

  const saldo = saldoQ.data;
  const confirmado = saldo?.dados.saldo_atual;
  const projetado = saldo === undefined || !escritas ? undefined : saldoProjetado(saldo.dados.saldo_atual, escritasSobreCopia(escritas, saldo.confirmacoesAte));
  const despesasNaFila = escritas ? contarNaFila(escritas.naFila) : 0;
  const finalizadas = dadosDaCarga(finalizadasQ.data);

  // Offline: say how old the device's copies are (the oldest one shown).
  // A preview (issue 19: shown while the server's answer is on its way) is no sign of being offline.
  const guardadosEm = [cargaRota, finalizadasQ.data, saldoQ.data, baseQ.data]
    .flatMap((c) => (c && 'origem' in c && c.origem === 'cache' && !ehPrevia(c) ? [c.atualizadoEm] : []))
    .sort()[0];

  const total = rota.cidades.length;
  return (
    <div className="dashboard painel-funcionario">
      {cabecalho}
      {guardadosEm && (
        <p className="dashboard-offline" role="status">
          <WifiOff size={15} aria-hidden="true" /> Sem conexão: dados guardados neste aparelho em {formatarDataHora(guardadosEm, fuso)}.
        </p>
      )}

      <section className="grade-resumo painel-funcionario__numeros" aria-label="Resumo da rota">
        <CartaoEstatistica rotulo="Rota Ativa" icone={<Route size={22} />} className="estatistica--rota">
          <span className="estatistica__texto">{rota.nome}</span>
          <span className="estatistica__nota">
            {formatarData(rota.data_inicio)} a {formatarData(rota.data_fim)}
          </span>
        </CartaoEstatistica>
        <CidadesAtendidas atendidas={estimativa?.cidadesAtendidas ?? null} total={total} />
        <CartaoEstatistica rotulo="Saldo Disponível" icone={<Wallet size={22} />} className="estatistica--saldo">
          <span className="saldo-duplo">
            <span className="saldo-duplo__linha">
              <span className="saldo-duplo__rotulo">Saldo confirmado</span>
              <strong className={confirmado === undefined ? undefined : classeSaldo(confirmado)} data-testid="saldo-confirmado">
                {confirmado === undefined ? '...' : formatarReais(confirmado)}
              </strong>
            </span>
            <span className="saldo-duplo__linha">
              <span className="saldo-duplo__rotulo">Saldo projetado</span>
              <strong className={projetado === undefined ? undefined : classeSaldo(projetado)} data-testid="saldo-projetado">
                {projetado === undefined ? '...' : formatarReais(projetado)}
              </strong>
            </span>
          </span>
          {despesasNaFila > 0 && (
            <span className="estatistica__nota">
              O projetado desconta {despesasNaFila === 1 ? 'a despesa' : `as ${despesasNaFila} despesas`} ainda neste aparelho.
            </span>
          )}
        </CartaoEstatistica>
        <CartaoEstatistica rotulo="Rotas Concluídas" icone={<CheckCircle2 size={22} />} carregando={finalizadas === undefined}>
          {finalizadas?.length}
        </CartaoEstatistica>
      </section>

      <div className="painel-funcionario__corpo">
        {estimativa ? (
          <CartaoSalario estimativa={estimativa} />
        ) : baseQ.isPending ? (
          <EsqueletoSalario valorAluguel={rota.valor_aluguel} />
        ) : (
          <section className="cartao salario" aria-label="Salário Estimado">
            <h2 className="salario__titulo">Salário Estimado</h2>
            <p className="salario__aviso">Sem conexão: o salário estimado aparece depois que o dashboard for aberto uma vez com internet neste aparelho.</p>
          </section>
        )}

        <AcoesRapidas />
      </div>

      {/* Issue 19: last on the page. It loads after the numbers and grows or shrinks with its checklist; above
          the salary it pushed the salary and the shortcuts down as it arrived (most of the dashboard's CLS). */}
      <CartaoProntoParaViajar usuarioId={usuario.id} semServidor={guardadosEm !== undefined} />
    </div>
  );
}

function AcoesRapidas() {
  return (
    <nav className="grade-acoes painel-funcionario__acoes" aria-label="Ações rápidas">
      <CartaoAcao titulo="Nova Venda" descricao="Feche o dia de uma cidade." icone={<ShoppingCart size={22} />} cor="azul" para="/vendas" />
      <CartaoAcao titulo="Nova Despesa" descricao="Lance um gasto com o comprovante." icone={<Receipt size={22} />} cor="laranja" para="/despesas" />
    </nav>
  );
}

/** 'Cidades Atendidas': the count and its bar, the bar already there (empty) while the count is computed. */
function CidadesAtendidas({ atendidas, total }: { atendidas: number | null; total: number | null }) {
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

/**
 * The salary card while its base is read: the real card drawn from an empty route (same rows, same
 * lines), its figures hidden behind placeholders, so the real figures replace them in place.
 */
function EsqueletoSalario({ valorAluguel }: { valorAluguel: number }) {
  const vazio = useMemo(() => estimarSalario(0, { valor_aluguel: valorAluguel, cidades_visitadas_ids: [], vendas: [] }, []), [valorAluguel]);
  return <CartaoSalario estimativa={vazio} esqueleto />;
}

/** The whole panel before the route is known: the cards of a route's dashboard, empty. */
export function EsqueletoDoPainel() {
  return (
    <div className="dashboard painel-funcionario" aria-busy="true">
      {cabecalho}
      <p className="sr-only" role="status">
        Carregando o dashboard...
      </p>
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
    </div>
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
function CartaoSalario({ estimativa, esqueleto = false }: { estimativa: Estimativa; esqueleto?: boolean }) {
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
