/**
 * Dashboard, employee view (spec section 2): the active route, cities served, the balance (confirmed
 * and projected: decisions.md 'two balances, never one lie'), finished routes, the estimated salary
 * with its whole breakdown, and the shortcuts to Nova Venda and Nova Despesa.
 *
 * Opens offline from the device's copies; each copy counts, over it, this person's writes still on
 * the phone and those the server confirmed after the copy was read (offline/escritas.ts), so the
 * same day gives the same numbers online and offline. On a slow link every piece is drawn from its
 * device copy at once ('Atualizando…'), and the server's answers replace them as they arrive.
 */
import { MapPin, RefreshCw, WifiOff } from 'lucide-react';
import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import { formatarDataHora } from '../../../shared/dates';
import type { Rota } from '../../../shared/schemas/rotas';
import type { Usuario } from '../../../shared/schemas/usuarios';
import { useQuandoOcioso } from '../components/useQuandoOcioso';
import { fusoDoApp } from '../config/configApp';
import { contarNaFila, saldoProjetado } from '../despesas/fila';
import { dadosDaCarga, type Carga } from '../offline/cache';
import { escritasSobreCopia, useEscritasDoAparelho } from '../offline/escritas';
import { chavesCacheRotas, chavesRotas, rotaAtivaDaLista, useRotaAtivaDoFuncionario, useRotasFinalizadasDoFuncionario } from '../rotas/consultas';
import { CHAVE_CACHE_SALDO, chavesSaldo, useSaldoProprio } from '../saldo/consultas';
import { chaveCacheSalario, chavesDashboard, useBaseDoSalario } from './consultas';
import { estimarSalario } from './estimativa';
import { sobDemanda } from '../components/sobDemanda';
import { ehPrevia, useCopiaDoAparelhoPrimeiro } from '../app/copiaPrimeiro';
import { CartaoSalario, estimativaVazia, ResumoDoPainel, type FigurasDoResumo } from './esqueletoDoPainel';
import { cabecalho } from './molduraDoPainel';

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

/** The active route kept on the device is the list the server answered (rotas/consultas.ts). */

/** The finished routes are kept as the list the server answered, filtered as the query does. */
const soFinalizadas = (lista: Rota[]) => lista.filter((r) => r.status === 'finalizada');

export function DashboardFuncionario({ usuario }: { usuario: Usuario }) {
  const rotaQ = useRotaAtivaDoFuncionario(usuario.id);
  const rota = dadosDaCarga(rotaQ.data) ?? null;
  // The device's copy of the route at once on a repeat visit, the server's answer behind it.
  useCopiaDoAparelhoPrimeiro(chavesRotas.ativaDoFuncionario(usuario.id), chavesCacheRotas.ativas(usuario.id), usuario.id, rotaAtivaDaLista);

  // The panel's frame, with every card at its final size, while the route is read (the
  // device's copy, then the server): what arrives fills the same cards in place, nothing is pushed
  // down or drawn twice (replacing the whole frame cost a long task on a slow phone).
  if (rotaQ.isPending) return <PainelDaRota usuario={usuario} rota={null} cargaRota={undefined} />;

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

  return <PainelDaRota usuario={usuario} rota={rota} cargaRota={rotaQ.data!} />;
}

interface PropsPainel {
  usuario: Usuario;
  /** null while the route is read: the same cards, their figures hidden behind placeholders. */
  rota: Rota | null;
  cargaRota: Carga<Rota | null> | undefined;
}

function PainelDaRota({ usuario, rota, cargaRota }: PropsPainel) {
  const fuso = fusoDoApp();
  const finalizadasQ = useRotasFinalizadasDoFuncionario(usuario.id);
  const saldoQ = useSaldoProprio(usuario.id);
  const baseQ = useBaseDoSalario(usuario.id, rota);
  const escritas = useEscritasDoAparelho(usuario.id);
  // The device's copy of each piece at once (a weak cell takes many seconds to answer), as the route's.
  useCopiaDoAparelhoPrimeiro(chavesRotas.finalizadasDoFuncionario(usuario.id), chavesCacheRotas.finalizadas(usuario.id), usuario.id, soFinalizadas);
  useCopiaDoAparelhoPrimeiro(chavesSaldo.resumoProprio(usuario.id), CHAVE_CACHE_SALDO, usuario.id);
  useCopiaDoAparelhoPrimeiro(chavesDashboard.salario(usuario.id, rota?.id ?? 0), rota ? chaveCacheSalario(rota.id) : null, usuario.id);

  // Each figure from its copy plus the writes that copy may miss (the salary's base and the balance
  // are read at different times, so each has its own overlay).
  const cargaBase = baseQ.data && 'dados' in baseQ.data ? baseQ.data : undefined;
  const cidadesDaRota = useMemo(() => rota?.cidades.map((c) => c.id) ?? [], [rota?.cidades]);
  const estimativa = useMemo(
    () => (rota && cargaBase && escritas ? estimarSalario(rota.id, cargaBase.dados, escritasSobreCopia(escritas, cargaBase.confirmacoesAte), cidadesDaRota) : null),
    [cargaBase, escritas, rota, cidadesDaRota],
  );
  const valorAluguel = rota?.valor_aluguel ?? 0;
  const semEstimativa = useMemo(() => estimativaVazia(valorAluguel), [valorAluguel]);
  const carregando = rota === null;

  const saldo = saldoQ.data;
  const finalizadas = dadosDaCarga(finalizadasQ.data);

  // Offline: say how old the device's copies are (the oldest one shown).
  // A preview (shown while the server's answer is on its way) is no sign of being offline.
  const cargas = [cargaRota, finalizadasQ.data, saldoQ.data, baseQ.data];
  const guardadosEm = cargas.flatMap((c) => (c && 'origem' in c && c.origem === 'cache' && !ehPrevia(c) ? [c.atualizadoEm] : [])).sort()[0];
  // Some piece is still the device's copy, its server answer on the way.
  const previaDe = cargas.flatMap((c) => (c && ehPrevia(c) && 'atualizadoEm' in c ? [c.atualizadoEm] : [])).sort()[0];

  const figuras: FigurasDoResumo = {
    rota: rota && { nome: rota.nome, data_inicio: rota.data_inicio, data_fim: rota.data_fim, cidades: rota.cidades.length },
    atendidas: estimativa?.cidadesAtendidas ?? null,
    saldoConfirmado: saldo?.dados.saldo_atual,
    saldoProjetado: saldo === undefined || !escritas ? undefined : saldoProjetado(saldo.dados.saldo_atual, escritasSobreCopia(escritas, saldo.confirmacoesAte)),
    despesasNaFila: escritas ? contarNaFila(escritas.naFila) : 0,
    finalizadas: finalizadas?.length,
  };

  return (
    <ResumoDoPainel
      figuras={figuras}
      aviso={
        guardadosEm ? (
          <p className="dashboard-offline" role="status">
            <WifiOff size={15} aria-hidden="true" /> Sem conexão: dados guardados neste aparelho em {formatarDataHora(guardadosEm, fuso)}.
          </p>
        ) : (
          previaDe && (
            <p className="dashboard-atualizando" role="status">
              <RefreshCw size={15} aria-hidden="true" /> Atualizando… Dados guardados neste aparelho em {formatarDataHora(previaDe, fuso)}.
            </p>
          )
        )
      }
      salario={
        // One card, its figures hidden until the estimate is there: filled in place, not replaced.
        estimativa || carregando || baseQ.isPending ? (
          <CartaoSalario estimativa={estimativa ?? semEstimativa} esqueleto={!estimativa} />
        ) : (
          <section className="cartao salario" aria-label="Salário Estimado">
            <h2 className="salario__titulo">Salário Estimado</h2>
            <p className="salario__aviso">Sem conexão: o salário estimado aparece depois que o dashboard for aberto uma vez com internet neste aparelho.</p>
          </section>
        )
      }
      // Last on the page. It loads after the numbers and grows or shrinks with its checklist; above
      // the salary it pushed the salary and the shortcuts down as it arrived (most of the dashboard's CLS).
      depois={!carregando && <CartaoProntoParaViajar usuarioId={usuario.id} semServidor={guardadosEm !== undefined} />}
    />
  );
}
