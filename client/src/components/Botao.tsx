/** Buttons in the sizes and variants of spec section 9. */
import type { ButtonHTMLAttributes, ReactNode } from 'react';

export type VarianteBotao = 'primary' | 'secondary' | 'orange' | 'outline' | 'danger' | 'default';
export type TamanhoBotao = 'sm' | 'md' | 'lg';

interface PropsBotao extends ButtonHTMLAttributes<HTMLButtonElement> {
  variante?: VarianteBotao;
  tamanho?: TamanhoBotao;
  bloco?: boolean;
  icone?: ReactNode;
  carregando?: boolean;
}

export function Botao({ variante = 'primary', tamanho = 'md', bloco, icone, carregando, className, children, disabled, type, title, ...resto }: PropsBotao) {
  const classes = ['botao', `botao--${variante}`, tamanho !== 'md' && `botao--${tamanho}`, bloco && 'botao--bloco', className]
    .filter(Boolean)
    .join(' ');
  return (
    <button
      type={type ?? 'button'}
      className={classes}
      disabled={disabled || carregando}
      title={title ?? (icone && typeof children === 'string' ? children : undefined)}
      {...resto}
    >
      {carregando ? <span className="girando girando--pequeno" aria-hidden="true" /> : icone}
      {children !== undefined && children !== null && <span className="botao__texto">{children}</span>}
    </button>
  );
}
