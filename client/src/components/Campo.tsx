/** A labelled form field with its error text; the control gets the id and aria attributes. */
import { useId, type ReactNode } from 'react';

export interface PropsControle {
  id: string;
  'aria-invalid': boolean;
  'aria-describedby'?: string;
}

interface PropsCampo {
  rotulo: ReactNode;
  erro?: string | null;
  ajuda?: ReactNode;
  obrigatorio?: boolean;
  children: (props: PropsControle) => ReactNode;
}

export function Campo({ rotulo, erro, ajuda, obrigatorio, children }: PropsCampo) {
  const id = useId();
  const idDescricao = erro ? `${id}-erro` : ajuda ? `${id}-ajuda` : undefined;
  return (
    <div className="campo">
      <label className="campo__rotulo" htmlFor={id}>
        {rotulo}
        {obrigatorio && <span className="campo__obrigatorio"> *</span>}
      </label>
      {children({ id, 'aria-invalid': !!erro, ...(idDescricao ? { 'aria-describedby': idDescricao } : {}) })}
      {erro ? (
        <span id={`${id}-erro`} className="campo__erro" role="alert">
          {erro}
        </span>
      ) : (
        ajuda && (
          <span id={`${id}-ajuda`} className="campo__ajuda">
            {ajuda}
          </span>
        )
      )}
    </div>
  );
}
