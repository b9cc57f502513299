/** /rotas: the admin's route management or the employee's 'Minhas Rotas', by the user's tipo. */
import { useAuth } from '../auth/AuthProvider';
import { sobDemanda, avisoNoLugarDaTela } from '../components/sobDemanda';
import { Carregando } from '../components/Carregando';

// One chunk per role: the employee's phone never downloads the admin's screen.
const PaginaMinhasRotas = sobDemanda(() => import('./PaginaMinhasRotas').then((m) => m.PaginaMinhasRotas), { espera: <Carregando />, alternativa: avisoNoLugarDaTela });
const PaginaRotasAdmin = sobDemanda(() => import('./PaginaRotasAdmin').then((m) => m.PaginaRotasAdmin), { espera: <Carregando />, alternativa: avisoNoLugarDaTela });

/** Each role's part, for app/rotas.tsx to mark ready when it preloads the opening screen. */
export const partesPorPapel = { funcionario: PaginaMinhasRotas, admin: PaginaRotasAdmin };

export function PaginaRotas() {
  const { usuario } = useAuth();
  if (!usuario) return null;
  return usuario.tipo === 'admin' ? <PaginaRotasAdmin /> : <PaginaMinhasRotas usuarioId={usuario.id} />;
}
