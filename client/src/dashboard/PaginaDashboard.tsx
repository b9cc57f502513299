/** Dashboard: the starting screen after login. */
import { Link } from 'react-router-dom';
import { useAuth } from '../auth/AuthProvider';
import { ITENS_MENU } from '../layout/Layout';

export function PaginaDashboard() {
  const { usuario } = useAuth();
  if (!usuario) return null;
  const atalhos = ITENS_MENU.filter((i) => i.para !== '/dashboard' && (!i.tipos || i.tipos.includes(usuario.tipo)));
  return (
    <div>
      <div className="pagina__topo">
        <div>
          <h1>Dashboard</h1>
          <p className="pagina__descricao">Bem-vindo, {usuario.nome}.</p>
        </div>
      </div>
      <div className="grade-atalhos">
        {atalhos.map((a) => (
          <Link key={a.para} to={a.para} className="cartao atalho">
            {a.icone}
            <span>{a.rotulo}</span>
          </Link>
        ))}
      </div>
    </div>
  );
}
