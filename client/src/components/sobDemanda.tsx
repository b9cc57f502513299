/**
 * Code loaded on demand that survives a failed download. With no boundary, a failed import unmounts
 * the whole app, sync engine included, and the phone stops sending its queue. Seen in the field's
 * conditions: the signal drops before the service worker has kept a screen's chunk. Here a failed
 * chunk shows `alternativa` (a pt-BR message for screens, nothing for optional pieces) and is tried
 * again when the person asks, at the `online` event, and by itself every few seconds while the
 * browser says there is signal (ESPERAS_NOVA_TENTATIVA_MS).
 *
 * A screen that downloaded and fails while drawing (a defect) is caught by the same boundary, so the
 * rest of the app stays up; it says what happened instead ('defeito': not the download notice, whose
 * "connect to the internet" would send the person after the wrong fix), is logged, and is drawn again
 * only when the person asks.
 */
import { AlertTriangle, CloudOff, RefreshCw } from 'lucide-react';
import { Component, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { Botao } from './Botao';

/** Why a piece is not on screen: its code did not download, or it failed while drawing. */
export type CausaDaFalha = 'download' | 'defeito';

/** What shows in place of a piece that failed; receives the way to try again and why it failed. */
export type Alternativa = (tentarDeNovo: () => void, causa: CausaDaFalha) => ReactNode;

interface PropsLimite {
  /** Called at each render, so a retry renders the component loaded again. */
  conteudo: () => ReactNode;
  alternativa: Alternativa;
}

/**
 * Waits between the automatic tries of a failed load while its notice is shown, the last one repeated.
 * The signal can come back with no `online` event (a tunnel, a weak cell; Chromium's offline emulation
 * sends none either), and the event can come before the network works.
 */
export const ESPERAS_NOVA_TENTATIVA_MS = [2_000, 5_000, 15_000, 30_000];

/** The code of a screen could not be downloaded: the one failure worth trying again by itself. */
class ErroDeCarga extends Error {
  constructor(causa: unknown) {
    super(causa instanceof Error ? causa.message : String(causa), { cause: causa });
    this.name = 'ErroDeCarga';
  }
}

class LimiteDeCarga extends Component<PropsLimite, { falhou: CausaDaFalha | null }> {
  override state: { falhou: CausaDaFalha | null } = { falhou: null };
  /** How many automatic tries since the last `online` event (picks the wait). */
  private tentativas = 0;
  private temporizador: ReturnType<typeof setTimeout> | null = null;

  static getDerivedStateFromError(erro: unknown): { falhou: CausaDaFalha } {
    return { falhou: erro instanceof ErroDeCarga ? 'download' : 'defeito' };
  }

  override componentDidMount() {
    window.addEventListener('online', this.aoVoltarOSinal);
  }

  override componentDidCatch(erro: unknown) {
    // A screen that loaded and then failed while drawing would fail again: not tried over and over.
    if (erro instanceof ErroDeCarga) this.agendarNovaTentativa();
    else console.error('Erro ao mostrar a tela:', erro);
  }

  override componentWillUnmount() {
    window.removeEventListener('online', this.aoVoltarOSinal);
    this.cancelarNovaTentativa();
  }

  private agendarNovaTentativa() {
    this.cancelarNovaTentativa();
    const espera = ESPERAS_NOVA_TENTATIVA_MS[Math.min(this.tentativas, ESPERAS_NOVA_TENTATIVA_MS.length - 1)];
    this.tentativas += 1;
    this.temporizador = setTimeout(() => {
      this.temporizador = null;
      // Offline as far as the browser knows: no download, only a look again later.
      if (navigator.onLine === false) this.agendarNovaTentativa();
      else this.tentarDeNovo();
    }, espera);
  }

  private cancelarNovaTentativa() {
    if (this.temporizador) clearTimeout(this.temporizador);
    this.temporizador = null;
  }

  /** The signal is back: a download is tried again at once; a defect is not (the signal does not mend it). */
  private readonly aoVoltarOSinal = () => {
    if (this.state.falhou !== 'download') return;
    this.tentativas = 0;
    this.tentarDeNovo();
  };

  tentarDeNovo = () => {
    if (this.state.falhou === null) return;
    this.cancelarNovaTentativa();
    this.setState({ falhou: null });
  };

  override render() {
    return this.state.falhou === null ? this.props.conteudo() : this.props.alternativa(this.tentarDeNovo, this.state.falhou);
  }
}

export const MENSAGEM_TELA_NAO_GUARDADA = 'Esta tela ainda não foi guardada neste aparelho. Conecte-se à internet para abri-la; depois ela abre também sem sinal.';
export const MENSAGEM_TELA_COM_DEFEITO =
  'Não foi possível mostrar esta tela. O que você registrou continua guardado neste aparelho. Tente de novo; se continuar, feche e abra o aplicativo.';

/** For screens: says what happened and offers to try again (laid out as the 'Sem conexão' state, SemConexao.tsx). */
export function avisoNoLugarDaTela(tentarDeNovo: () => void, causa: CausaDaFalha): ReactNode {
  const Icone = causa === 'download' ? CloudOff : AlertTriangle;
  return (
    <div className="cartao sem-conexao" role="alert">
      <Icone size={32} className="sem-conexao__icone" aria-hidden="true" />
      <p className="sem-conexao__texto">{causa === 'download' ? MENSAGEM_TELA_NAO_GUARDADA : MENSAGEM_TELA_COM_DEFEITO}</p>
      <Botao variante="outline" icone={<RefreshCw size={17} />} onClick={tentarDeNovo}>
        Tentar de novo
      </Botao>
    </div>
  );
}

/** A component loaded on demand; `precarregar` starts its download ahead of its first render. */
export type ComponenteSobDemanda<P extends object> = ComponentType<P> & { precarregar: () => Promise<void> };

/**
 * A component whose code is loaded on first render. `espera`: what shows while it loads;
 * `alternativa`: what shows when it could not be loaded (nothing by default).
 *
 * Not React.lazy (docs/decisions/abertura-do-app.md, 'Sem `React.lazy`'): a lazy component that
 * suspends is shown by a Suspense retry, which React
 * renders in 5 ms slices between the other tasks of the start (the sync engine, IndexedDB, the queries'
 * answers): on a slow phone the list of Vendas came out of that in pieces. Here the code's arrival is an
 * ordinary update, drawn in one go; and code already here (`precarregar` done) draws on the first render.
 */
export function sobDemanda<P extends object>(
  carregar: () => Promise<ComponentType<P>>,
  { espera = null, alternativa = () => null }: { espera?: ReactNode; alternativa?: Alternativa } = {},
): ComponenteSobDemanda<P> {
  let pronto: ComponentType<P> | null = null;
  let carregando: Promise<ComponentType<P>> | null = null;
  // One download at a time; a failed one is forgotten, so trying again downloads again.
  const carregarUmaVez = () =>
    (carregando ??= carregar().then(
      (componente) => (pronto = componente),
      (erro: unknown) => {
        carregando = null;
        throw erro;
      },
    ));

  function Conteudo({ props }: { props: P }) {
    const [Componente, setComponente] = useState<ComponentType<P> | null>(() => pronto);
    const [, lancar] = useState<null>(null);
    useEffect(() => {
      if (Componente) return;
      let montado = true;
      carregarUmaVez().then(
        (componente) => montado && setComponente(() => componente),
        // Thrown from a render, where the boundary (LimiteDeCarga) sees it.
        (erro: unknown) =>
          montado &&
          lancar(() => {
            throw new ErroDeCarga(erro);
          }),
      );
      return () => {
        montado = false;
      };
    }, [Componente]);
    return Componente ? <Componente {...props} /> : espera;
  }

  function SobDemanda(props: P) {
    return <LimiteDeCarga alternativa={alternativa} conteudo={() => <Conteudo props={props} />} />;
  }
  return Object.assign(SobDemanda, { precarregar: () => carregarUmaVez().then(() => undefined) });
}
