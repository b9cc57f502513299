/**
 * /dashboard: the admin's overview of the day or the employee's route, by the signed-in user's tipo.
 * Each role's screen is its own chunk: an employee's phone never downloads the admin's dashboard.
 */
import { lazy } from 'react';
import { useAuth } from '../auth/AuthProvider';

const DashboardAdmin = lazy(() => import('./DashboardAdmin').then((m) => ({ default: m.DashboardAdmin })));
const DashboardFuncionario = lazy(() => import('./DashboardFuncionario').then((m) => ({ default: m.DashboardFuncionario })));

export function PaginaDashboard() {
  const { usuario } = useAuth();
  if (!usuario) return null;
  return usuario.tipo === 'admin' ? <DashboardAdmin usuario={usuario} /> : <DashboardFuncionario usuario={usuario} />;
}
