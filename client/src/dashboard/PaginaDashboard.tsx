/**
 * /dashboard: the admin's overview of the day or the employee's route, by the signed-in user's tipo.
 * Each role's screen is its own chunk: an employee's phone never downloads the admin's dashboard.
 */
import { useAuth } from '../auth/AuthProvider';
import { sobDemanda, telaNaoGuardada } from '../components/sobDemanda';
import { Carregando } from '../components/Carregando';

const DashboardAdmin = sobDemanda(() => import('./DashboardAdmin').then((m) => m.DashboardAdmin), { espera: <Carregando />, alternativa: telaNaoGuardada });
const DashboardFuncionario = sobDemanda(() => import('./DashboardFuncionario').then((m) => m.DashboardFuncionario), { espera: <Carregando />, alternativa: telaNaoGuardada });

export function PaginaDashboard() {
  const { usuario } = useAuth();
  if (!usuario) return null;
  return usuario.tipo === 'admin' ? <DashboardAdmin usuario={usuario} /> : <DashboardFuncionario usuario={usuario} />;
}
