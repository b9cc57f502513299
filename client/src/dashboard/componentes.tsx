/** Pieces both dashboards use: the stat card (the Saldo page's look) and the action card. */
import { ChevronRight } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { Link } from 'react-router-dom';

interface PropsEstatistica {
  rotulo: string;
  icone: ReactNode;
  children: ReactNode;
  /** Extra class: 'cartao-resumo--destaque' spans the phone's row. */
  className?: string;
  /** While loading, what stands for the value. */
  carregando?: boolean;
  /** While loading, draw the children (placeholders of the final size) instead of '...'. */
  manterConteudo?: boolean;
}

/**
 * A labelled number, the product's summary-card look (label and icon on top, the value below, as on
 * the Vendas and Saldo pages). The card is a group named by its label, for screen readers and tests.
 */
export function CartaoEstatistica({ rotulo, icone, children, className, carregando, manterConteudo }: PropsEstatistica) {
  const id = useId();
  return (
    <div className={['cartao', 'cartao-resumo', 'estatistica', className].filter(Boolean).join(' ')} role="group" aria-labelledby={id} aria-busy={carregando || undefined}>
      <div className="estatistica__topo">
        <span className="cartao-resumo__rotulo" id={id}>
          {rotulo}
        </span>
        <span className="estatistica__icone" aria-hidden="true">
          {icone}
        </span>
      </div>
      <div className="cartao-resumo__valor">{carregando && !manterConteudo ? '...' : children}</div>
    </div>
  );
}

interface PropsAcao {
  titulo: string;
  descricao: string;
  icone: ReactNode;
  cor: 'azul' | 'verde' | 'laranja';
  /** A link (another screen) or a button (a modal on this one). */
  para?: string;
  aoClicar?: () => void;
}

/** Its accessible name is all it shows (title, then description): what is read is what is seen. */
export function CartaoAcao({ titulo, descricao, icone, cor, para, aoClicar }: PropsAcao) {
  const conteudo = (
    <>
      <span className={`cartao-acao__icone cartao-acao__icone--${cor}`} aria-hidden="true">
        {icone}
      </span>
      <span className="cartao-acao__textos">
        <span className="cartao-acao__titulo">{titulo}</span>
        <span className="cartao-acao__descricao">{descricao}</span>
      </span>
      <ChevronRight size={18} className="cartao-acao__seta" aria-hidden="true" />
    </>
  );
  if (para) {
    return (
      <Link to={para} className="cartao cartao-acao">
        {conteudo}
      </Link>
    );
  }
  return (
    <button type="button" className="cartao cartao-acao" onClick={aoClicar}>
      {conteudo}
    </button>
  );
}
