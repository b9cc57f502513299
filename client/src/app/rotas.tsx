/** The screens and who may open them (spec section 2). Pages load on demand to keep the first screen light. */
import type { ReactNode } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router-dom';
import { RotaProtegida } from '../auth/RotaProtegida';
import { Carregando } from '../components/Carregando';
import { MolduraDoPainel } from '../dashboard/molduraDoPainel';
import { Layout } from '../layout/Layout';
import { sobDemanda, avisoNoLugarDaTela, type ComponenteSobDemanda } from '../components/sobDemanda';

// The pages the app most often opens on, and their role parts (each page picks its role's chunk).
export const carregar = {
  login: () => import('../auth/PaginaLogin'),
  dashboard: () => import('../dashboard/PaginaDashboard'),
  dashboardFuncionario: () => import('../dashboard/DashboardFuncionario'),
  dashboardAdmin: () => import('../dashboard/DashboardAdmin'),
  rotas: () => import('../rotas/PaginaRotas'),
  rotasFuncionario: () => import('../rotas/PaginaMinhasRotas'),
  rotasAdmin: () => import('../rotas/PaginaRotasAdmin'),
  vendas: () => import('../vendas/PaginaVendas'),
  vendasFuncionario: () => import('../vendas/VendasFuncionario'),
  vendasAdmin: () => import('../vendas/VendasAdmin'),
  despesas: () => import('../despesas/PaginaDespesas'),
};

// The login screen too: an employee opens the app already signed in, almost every day.
const PaginaLogin = sobDemanda(() => carregar.login().then((m) => m.PaginaLogin), { espera: <Carregando />, alternativa: avisoNoLugarDaTela });
// An employee's dashboard heading in the first frame, while the page's chunk loads (dashboard/molduraDoPainel.tsx).
const PaginaDashboard = sobDemanda(() => carregar.dashboard().then((m) => m.PaginaDashboard), { espera: <MolduraDoPainel />, alternativa: avisoNoLugarDaTela });
const PaginaRotas = sobDemanda(() => carregar.rotas().then((m) => m.PaginaRotas), { espera: <Carregando />, alternativa: avisoNoLugarDaTela });
const PaginaVendas = sobDemanda(() => carregar.vendas().then((m) => m.PaginaVendas), { espera: <Carregando />, alternativa: avisoNoLugarDaTela });
const PaginaUsuarios = sobDemanda(() => import('../usuarios/PaginaUsuarios').then((m) => m.PaginaUsuarios), { espera: <Carregando />, alternativa: avisoNoLugarDaTela });
const PaginaRelatorios = sobDemanda(() => import('../relatorios/PaginaRelatorios').then((m) => m.PaginaRelatorios), { espera: <Carregando />, alternativa: avisoNoLugarDaTela });
const PaginaDespesas = sobDemanda(() => carregar.despesas().then((m) => m.PaginaDespesas), { espera: <Carregando />, alternativa: avisoNoLugarDaTela });
const PaginaMinhaSenha = sobDemanda(() => import('../auth/PaginaMinhaSenha').then((m) => m.PaginaMinhaSenha), { espera: <Carregando />, alternativa: avisoNoLugarDaTela });
const PaginaAuditoria = sobDemanda(() => import('../auditoria/PaginaAuditoria').then((m) => m.PaginaAuditoria), { espera: <Carregando />, alternativa: avisoNoLugarDaTela });
const PaginaSaldo = sobDemanda(() => import('../saldo/PaginaSaldo').then((m) => m.PaginaSaldo), { espera: <Carregando />, alternativa: avisoNoLugarDaTela });

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
      { path: '/auditoria', element: pagina(<PaginaAuditoria />, ['admin']) },
      { path: '/senha', element: pagina(<PaginaMinhaSenha />) },
    ],
  },
  { path: '*', element: <Navigate to="/dashboard" replace /> },
];

type Pedaco = keyof typeof carregar;
type Papel = 'admin' | 'funcionario';

/** The screens the app opens on, with the chunk of each role's part. */
const TELAS_DE_ABERTURA: Record<string, { pagina: ComponenteSobDemanda<object>; modulo: Pedaco } & Partial<Record<Papel, Pedaco>>> = {
  '/dashboard': { pagina: PaginaDashboard, modulo: 'dashboard', funcionario: 'dashboardFuncionario', admin: 'dashboardAdmin' },
  '/rotas': { pagina: PaginaRotas, modulo: 'rotas', funcionario: 'rotasFuncionario', admin: 'rotasAdmin' },
  '/vendas': { pagina: PaginaVendas, modulo: 'vendas', funcionario: 'vendasFuncionario', admin: 'vendasAdmin' },
  '/despesas': { pagina: PaginaDespesas, modulo: 'despesas' },
};

/** A page module's role parts (`partesPorPapel`), when it has them. */
function partesDoModulo(modulo: object): Partial<Record<Papel, ComponenteSobDemanda<never>>> {
  return 'partesPorPapel' in modulo ? (modulo.partesPorPapel as Partial<Record<Papel, ComponenteSobDemanda<never>>>) : {};
}

/**
 * Starts loading the screen at `caminho` (and, for a signed-in person, the part of it for
 * their role) right away, while React draws the shell: the page's chunk used to be asked for only once
 * the shell was drawn, and its role part only once the page ran, two waits in a row (from the service
 * worker on a repeat visit; over the network, on a signed-in first load, two round trips). Both come
 * at once, and each is marked ready in its `sobDemanda`, so the page draws its part in the same pass
 * when the part is already here. Without a session every protected address shows the login. A chunk
 * that cannot be fetched (no signal, not kept yet) is left to the screen, which shows its own message
 * and tries again.
 */
export async function precarregarTelaInicial(caminho: string, tipo: Papel | null): Promise<void> {
  const destino = caminho === '/' ? '/dashboard' : caminho;
  const conhecido = destino === '/login' || definicaoDasRotas.some((r) => r.path === destino || r.children?.some((f) => f.path === destino));
  if (!conhecido) return;
  if (tipo === null) return PaginaLogin.precarregar().catch(() => undefined);
  const tela = TELAS_DE_ABERTURA[destino];
  if (!tela) return;
  const parte = tela[tipo];
  try {
    const [modulo] = await Promise.all([carregar[tela.modulo](), tela.pagina.precarregar(), parte ? carregar[parte]() : undefined]);
    await partesDoModulo(modulo)[tipo]?.precarregar();
  } catch {
    // the screen says so itself
  }
}

export function criarRoteador() {
  return createBrowserRouter(definicaoDasRotas);
}
