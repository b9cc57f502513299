/**
 * The employee dashboard's heading and frame, small enough to live in the app's first file:
 * the route shows it while the dashboard's own chunk is on its way, so the page's heading is on screen in
 * the first frame React draws instead of one download later. The skeleton (esqueletoDoPainel.tsx) and the
 * real panel draw the same heading in the same place, and their cards come in below it: nothing moves.
 */
import type { ReactNode } from 'react';
import { useAuth } from '../auth/AuthProvider';
import { Carregando } from '../components/Carregando';

/** The page's heading and what it is for. */
export const cabecalho = (
  <div className="pagina__topo">
    <div>
      <h1>Dashboard</h1>
      <p className="pagina__descricao">Sua rota, seu saldo e o salário estimado até agora.</p>
    </div>
  </div>
);

/**
 * The employee's panel: the heading and `children` below; while `carregando`, also what a screen reader
 * hears. The real panel draws the same frame, so its cards are filled in place.
 */
export function QuadroDoPainel({ children, carregando = true }: { children?: ReactNode; carregando?: boolean }) {
  return (
    <div className="dashboard painel-funcionario" aria-busy={carregando || undefined}>
      {cabecalho}
      {carregando && (
        <p className="sr-only" role="status">
          Carregando o dashboard...
        </p>
      )}
      {children}
    </div>
  );
}

/** The dashboard while its code loads: the employee's heading; the admin's screen keeps the spinner. */
export function MolduraDoPainel() {
  const { usuario } = useAuth();
  return usuario?.tipo === 'funcionario' ? <QuadroDoPainel /> : <Carregando />;
}
