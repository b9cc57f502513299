/**
 * /dashboard: the admin's overview of the day or the employee's route, by the signed-in user's tipo.
 * Each role's screen is its own chunk: an employee's phone never downloads the admin's dashboard.
 */
import { useAuth } from '../auth/AuthProvider';
import { sobDemanda, avisoNoLugarDaTela } from '../components/sobDemanda';
import { Carregando } from '../components/Carregando';
import { EsqueletoDoPainel } from './esqueletoDoPainel';

const DashboardAdmin = sobDemanda(() => import('./DashboardAdmin').then((m) => m.DashboardAdmin), { espera: <Carregando />, alternativa: avisoNoLugarDaTela });
// The employee's panel frame (heading, empty cards) while its code loads, not a spinner: the
// page is on screen at once and the real panel fills the same cards (no layout shift).
const DashboardFuncionario = sobDemanda(() => import('./DashboardFuncionario').then((m) => m.DashboardFuncionario), {
  espera: <EsqueletoDoPainel />,
  alternativa: avisoNoLugarDaTela,
});

/** Each role's part, for app/rotas.tsx to mark ready when it preloads the opening screen. */
export const partesPorPapel = { funcionario: DashboardFuncionario, admin: DashboardAdmin };

export function PaginaDashboard() {
  const { usuario } = useAuth();
  if (!usuario) return null;
  return usuario.tipo === 'admin' ? <DashboardAdmin usuario={usuario} /> : <DashboardFuncionario usuario={usuario} />;
}
