/** /dashboard: the admin's overview of the day or the employee's route, by the signed-in user's tipo. */
import { useAuth } from '../auth/AuthProvider';
import { DashboardAdmin } from './DashboardAdmin';
import { DashboardFuncionario } from './DashboardFuncionario';

export function PaginaDashboard() {
  const { usuario } = useAuth();
  if (!usuario) return null;
  return usuario.tipo === 'admin' ? <DashboardAdmin usuario={usuario} /> : <DashboardFuncionario usuario={usuario} />;
}
