/** /rotas: the admin's route management or the employee's 'Minhas Rotas', by the user's tipo. */
import { useAuth } from '../auth/AuthProvider';
import { PaginaMinhasRotas } from './PaginaMinhasRotas';
import { PaginaRotasAdmin } from './PaginaRotasAdmin';

export function PaginaRotas() {
  const { usuario } = useAuth();
  if (!usuario) return null;
  return usuario.tipo === 'admin' ? <PaginaRotasAdmin /> : <PaginaMinhasRotas usuarioId={usuario.id} />;
}
