/**
 * Code loaded on demand that survives a failed download. React.lazy remembers a failed import and
 * throws it on every render; with no boundary, that error unmounts the whole app, sync engine
 * included, and the phone stops sending its queue. Seen in the field's conditions: the signal drops
 * before the service worker has kept a screen's chunk. Here a failed chunk shows `alternativa` (a
 * pt-BR message for screens, nothing for optional pieces) and is tried again when the signal comes
 * back or the person asks.
 */
import { Component, lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { Botao } from './Botao';

interface PropsLimite {
  /** Called at each render, so a retry renders the component loaded again. */
  conteudo: () => ReactNode;
  /** What shows while the code cannot be loaded; receives the way to try again. */
  alternativa: (tentarDeNovo: () => void) => ReactNode;
  aoTentarDeNovo: () => void;
}

class LimiteDeCarga extends Component<PropsLimite, { falhou: boolean }> {
  override state = { falhou: false };

  static getDerivedStateFromError(): { falhou: boolean } {
    return { falhou: true };
  }

  override componentDidMount() {
    window.addEventListener('online', this.tentarDeNovo);
  }

  override componentWillUnmount() {
    window.removeEventListener('online', this.tentarDeNovo);
  }

  tentarDeNovo = () => {
    if (!this.state.falhou) return;
    this.props.aoTentarDeNovo();
    this.setState({ falhou: false });
  };

  override render() {
    return this.state.falhou ? this.props.alternativa(this.tentarDeNovo) : this.props.conteudo();
  }
}

export const MENSAGEM_TELA_NAO_GUARDADA = 'Esta tela ainda não foi guardada neste aparelho. Conecte-se à internet para abri-la; depois ela abre também sem sinal.';

/** For screens: says what happened and offers to try again. */
export function telaNaoGuardada(tentarDeNovo: () => void): ReactNode {
  return (
    <div className="cartao" role="alert" style={{ margin: '1rem 0' }}>
      <p style={{ marginTop: 0 }}>{MENSAGEM_TELA_NAO_GUARDADA}</p>
      <Botao variante="outline" onClick={tentarDeNovo}>
        Tentar de novo
      </Botao>
    </div>
  );
}

/**
 * A component whose code is loaded on first render. `espera`: what shows while it loads;
 * `alternativa`: what shows when it could not be loaded (nothing by default).
 */
export function sobDemanda<P extends object>(
  carregar: () => Promise<ComponentType<P>>,
  { espera = null, alternativa = () => null }: { espera?: ReactNode; alternativa?: (tentarDeNovo: () => void) => ReactNode } = {},
): ComponentType<P> {
  const criar = () => lazy(() => carregar().then((c) => ({ default: c })));
  let Carregado = criar();
  function SobDemanda(props: P) {
    return (
      <LimiteDeCarga
        alternativa={alternativa}
        aoTentarDeNovo={() => (Carregado = criar())}
        conteudo={() => (
          <Suspense fallback={espera}>
            <Carregado {...props} />
          </Suspense>
        )}
      />
    );
  }
  return SobDemanda;
}
