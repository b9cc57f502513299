/** Route guard (spec section 2): spinner while loading, /login remembering the origin, role check. */
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import type { TipoUsuario } from '../../../shared/schemas/usuarios';
import { Carregando } from '../components/Carregando';
import { useAuth } from './AuthProvider';

export function RotaProtegida({ children, tipos }: { children: ReactNode; tipos?: readonly TipoUsuario[] }) {
  const { estado } = useAuth();
  const local = useLocation();
  if (estado.status === 'carregando') return <Carregando tela texto="Carregando..." />;
  if (estado.status === 'anonimo') return <Navigate to="/login" replace state={{ de: local }} />;
  if (tipos && !tipos.includes(estado.usuario.tipo)) return <Navigate to="/dashboard" replace />;
  return <>{children}</>;
}
