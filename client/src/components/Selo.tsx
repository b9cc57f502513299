import type { ReactNode } from 'react';

export type CorSelo = 'verde' | 'cinza' | 'vermelho' | 'amarelo' | 'azul' | 'laranja';

export function Selo({ cor, children, title }: { cor: CorSelo; children: ReactNode; title?: string }) {
  return (
    <span className={`selo selo--${cor}`} title={title}>
      {children}
    </span>
  );
}
