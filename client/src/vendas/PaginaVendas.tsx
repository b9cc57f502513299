/** /vendas: the employee's daily registration, the admin's sales view; any other role sees it is not ready. */
import { useLocation } from 'react-router-dom';
import { ehDataValida } from '../../../shared/dates';
import { useAuth } from '../auth/AuthProvider';
import { sobDemanda, avisoNoLugarDaTela } from '../components/sobDemanda';
import { Carregando } from '../components/Carregando';

// One chunk per role: the employee's phone never downloads the admin's screen.
const VendasAdmin = sobDemanda(() => import('./VendasAdmin').then((m) => m.VendasAdmin), { espera: <Carregando />, alternativa: avisoNoLugarDaTela });
const VendasFuncionario = sobDemanda(() => import('./VendasFuncionario').then((m) => m.VendasFuncionario), { espera: <Carregando />, alternativa: avisoNoLugarDaTela });

/** ?data=&cidade= (the sync panel's 'Editar' of a refused closing): open that day and that city. */
function pedidoDaUrl(busca: string): { data: string; cidadeId: number | null } | null {
  const p = new URLSearchParams(busca);
  const data = p.get('data');
  if (!data || !ehDataValida(data)) return null;
  const cidadeId = Number(p.get('cidade'));
  return { data, cidadeId: Number.isInteger(cidadeId) && cidadeId > 0 ? cidadeId : null };
}

/** Each role's part, for app/rotas.tsx to mark ready when it preloads the opening screen. */
export const partesPorPapel = { funcionario: VendasFuncionario, admin: VendasAdmin };

export function PaginaVendas() {
  const { usuario } = useAuth();
  const local = useLocation();
  if (!usuario) return null;
  if (usuario.tipo === 'admin') return <VendasAdmin />;
  if (usuario.tipo === 'funcionario') {
    // Each navigation here starts the screen afresh, so a request in the URL is honoured.
    return <VendasFuncionario key={`${usuario.id}:${local.key}`} usuario={usuario} pedido={pedidoDaUrl(local.search)} />;
  }
  return <div className="cartao vazio-vendas">Funcionalidade em desenvolvimento...</div>;
}
