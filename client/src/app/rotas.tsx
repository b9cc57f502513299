/** The screens and who may open them (spec section 2). Pages load on demand to keep the first screen light. */
import type { ReactNode } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router-dom';
import { RotaProtegida } from '../auth/RotaProtegida';
import { Carregando } from '../components/Carregando';
import { Layout } from '../layout/Layout';
import { sobDemanda, telaNaoGuardada } from '../components/sobDemanda';

// The login screen too: an employee opens the app already signed in, almost every day.
const PaginaLogin = sobDemanda(() => import('../auth/PaginaLogin').then((m) => m.PaginaLogin), { espera: <Carregando />, alternativa: telaNaoGuardada });
const PaginaDashboard = sobDemanda(() => import('../dashboard/PaginaDashboard').then((m) => m.PaginaDashboard), { espera: <Carregando />, alternativa: telaNaoGuardada });
const PaginaRotas = sobDemanda(() => import('../rotas/PaginaRotas').then((m) => m.PaginaRotas), { espera: <Carregando />, alternativa: telaNaoGuardada });
const PaginaVendas = sobDemanda(() => import('../vendas/PaginaVendas').then((m) => m.PaginaVendas), { espera: <Carregando />, alternativa: telaNaoGuardada });
const PaginaUsuarios = sobDemanda(() => import('../usuarios/PaginaUsuarios').then((m) => m.PaginaUsuarios), { espera: <Carregando />, alternativa: telaNaoGuardada });
const PaginaRelatorios = sobDemanda(() => import('../relatorios/PaginaRelatorios').then((m) => m.PaginaRelatorios), { espera: <Carregando />, alternativa: telaNaoGuardada });
const PaginaDespesas = sobDemanda(() => import('../despesas/PaginaDespesas').then((m) => m.PaginaDespesas), { espera: <Carregando />, alternativa: telaNaoGuardada });
const PaginaMinhaSenha = sobDemanda(() => import('../auth/PaginaMinhaSenha').then((m) => m.PaginaMinhaSenha), { espera: <Carregando />, alternativa: telaNaoGuardada });
const PaginaSaldo = sobDemanda(() => import('../saldo/PaginaSaldo').then((m) => m.PaginaSaldo), { espera: <Carregando />, alternativa: telaNaoGuardada });

function pagina(elemento: ReactNode, tipos?: readonly ('admin' | 'funcionario')[]) {
  return tipos ? <RotaProtegida tipos={tipos}>{elemento}</RotaProtegida> : elemento;
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
      { path: '/senha', element: pagina(<PaginaMinhaSenha />) },
    ],
  },
  { path: '*', element: <Navigate to="/dashboard" replace /> },
];

export function criarRoteador() {
  return createBrowserRouter(definicaoDasRotas);
}
