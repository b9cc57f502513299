/** One fact of a route's card (icon, label, value), the same on the admin's and the employee's cards. */
import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

export function DadoDoCartao({ icone: Icone, rotulo, children }: { icone: LucideIcon; rotulo: string; children: ReactNode }) {
  return (
    <div>
      <dt>
        <Icone size={15} aria-hidden="true" /> {rotulo}
      </dt>
      <dd>{children}</dd>
    </div>
  );
}
