/** /vendas: the employee's daily registration, the admin's sales view; any other role sees it is not ready. */
import { useAuth } from '../auth/AuthProvider';
import { VendasAdmin } from './VendasAdmin';
import { VendasFuncionario } from './VendasFuncionario';

export function PaginaVendas() {
  const { usuario } = useAuth();
  if (!usuario) return null;
  if (usuario.tipo === 'admin') return <VendasAdmin />;
  if (usuario.tipo === 'funcionario') return <VendasFuncionario key={usuario.id} usuario={usuario} />;
  return <div className="cartao vazio-vendas">Funcionalidade em desenvolvimento...</div>;
}
