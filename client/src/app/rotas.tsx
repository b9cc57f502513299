/** The screens and who may open them (spec section 2). Pages load on demand to keep the first screen light. */
import { lazy, Suspense, type ReactNode } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router-dom';
import { RotaProtegida } from '../auth/RotaProtegida';
import { Carregando } from '../components/Carregando';
import { Layout } from '../layout/Layout';

// The login screen too: an employee opens the app already signed in, almost every day.
const PaginaLogin = lazy(() => import('../auth/PaginaLogin').then((m) => ({ default: m.PaginaLogin })));
const PaginaDashboard = lazy(() => import('../dashboard/PaginaDashboard').then((m) => ({ default: m.PaginaDashboard })));
const PaginaRotas = lazy(() => import('../rotas/PaginaRotas').then((m) => ({ default: m.PaginaRotas })));
const PaginaVendas = lazy(() => import('../vendas/PaginaVendas').then((m) => ({ default: m.PaginaVendas })));
const PaginaUsuarios = lazy(() => import('../usuarios/PaginaUsuarios').then((m) => ({ default: m.PaginaUsuarios })));
const PaginaRelatorios = lazy(() => import('../relatorios/PaginaRelatorios').then((m) => ({ default: m.PaginaRelatorios })));
const PaginaDespesas = lazy(() => import('../despesas/PaginaDespesas').then((m) => ({ default: m.PaginaDespesas })));
const PaginaSaldo = lazy(() => import('../saldo/PaginaSaldo').then((m) => ({ default: m.PaginaSaldo })));

function pagina(elemento: ReactNode, tipos?: readonly ('admin' | 'funcionario')[]) {
  const conteudo = <Suspense fallback={<Carregando />}>{elemento}</Suspense>;
  return tipos ? <RotaProtegida tipos={tipos}>{conteudo}</RotaProtegida> : conteudo;
}

export const definicaoDasRotas: RouteObject[] = [
  { path: '/login', element: pagina(<PaginaLogin />) },
  {
    element: (
      <RotaProtegida>
        <Layout />
      </RotaProtegida>
    ),
    children: [
      { path: '/dashboard', element: pagina(<PaginaDashboard />) },
      { path: '/rotas', element: pagina(<PaginaRotas />) },
      { path: '/usuarios', element: pagina(<PaginaUsuarios />, ['admin']) },
      { path: '/relatorios', element: pagina(<PaginaRelatorios />, ['admin']) },
      { path: '/vendas', element: pagina(<PaginaVendas />) },
      { path: '/despesas', element: pagina(<PaginaDespesas />) },
      { path: '/saldo', element: pagina(<PaginaSaldo />, ['admin']) },
    ],
  },
  { path: '*', element: <Navigate to="/dashboard" replace /> },
];

export function criarRoteador() {
  return createBrowserRouter(definicaoDasRotas);
}
