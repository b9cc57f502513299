/** /rotas: the admin's route management or the employee's 'Minhas Rotas', by the user's tipo. */
import { lazy } from 'react';
import { useAuth } from '../auth/AuthProvider';

// One chunk per role: the employee's phone never downloads the admin's screen.
const PaginaMinhasRotas = lazy(() => import('./PaginaMinhasRotas').then((m) => ({ default: m.PaginaMinhasRotas })));
const PaginaRotasAdmin = lazy(() => import('./PaginaRotasAdmin').then((m) => ({ default: m.PaginaRotasAdmin })));

export function PaginaRotas() {
  const { usuario } = useAuth();
  if (!usuario) return null;
  return usuario.tipo === 'admin' ? <PaginaRotasAdmin /> : <PaginaMinhasRotas usuarioId={usuario.id} />;
}
