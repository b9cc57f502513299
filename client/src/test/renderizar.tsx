/**
 * Renders a screen inside the app's providers and routes, with the API answered by `rotasApi`
 * (a table of 'METHOD /path' -> handler) instead of the network.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { ToastContainer } from 'react-toastify';
import type { Usuario } from '../../../shared/schemas/usuarios';
import { definirFetch } from '../api/client';
import { AuthProvider } from '../auth/AuthProvider';
import { salvarSessao } from '../auth/sessaoLocal';

export type RespostaFalsa = { status?: number; corpo?: unknown } | 'offline';
export type ManipuladorApi = (corpo: unknown, url: URL) => RespostaFalsa | Promise<RespostaFalsa>;

export interface ApiFalsa {
  chamadas: { metodo: string; caminho: string; corpo: unknown }[];
}

/** Answers fetch from a table; unknown calls fail the test loudly. */
export function simularApi(rotasApi: Record<string, ManipuladorApi>): ApiFalsa {
  const api: ApiFalsa = { chamadas: [] };
  definirFetch(async (entrada, init) => {
    const url = new URL(String(entrada), 'http://localhost');
    const metodo = (init?.method ?? 'GET').toUpperCase();
    const caminho = url.pathname.replace(/^\/api/, '');
    const corpo = typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body;
    api.chamadas.push({ metodo, caminho, corpo });
    const chave = Object.keys(rotasApi).find((k) => {
      const [m, padrao] = k.split(' ');
      return m === metodo && new RegExp(`^${padrao!.replace(/:\w+/g, '[^/]+')}$`).test(caminho);
    });
    if (!chave) throw new Error(`API falsa: chamada inesperada ${metodo} ${caminho}`);
    const resposta = await rotasApi[chave]!(corpo, url);
    if (resposta === 'offline') throw new TypeError('Failed to fetch');
    return new Response(resposta.corpo === undefined ? null : JSON.stringify(resposta.corpo), {
      status: resposta.status ?? 200,
      headers: { 'content-type': 'application/json' },
    });
  });
  return api;
}

export const ADMIN_TESTE: Usuario = {
  id: 1,
  nome: 'Ana Admin',
  email: 'ana@escola.com.br',
  tipo: 'admin',
  ativo: true,
  bloqueado: false,
  tentativas_login: 0,
  data_criacao: '2026-01-10T12:00:00.000Z',
};

export const FUNCIONARIO_TESTE: Usuario = { ...ADMIN_TESTE, id: 2, nome: 'Bruno Campo', email: 'bruno@escola.com.br', tipo: 'funcionario' };

export function entrarComo(usuario: Usuario) {
  salvarSessao('token-de-teste', usuario);
}

export function renderizarApp(rotas: RouteObject[], { em = '/', extra }: { em?: string; extra?: ReactNode } = {}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const roteador = createMemoryRouter(rotas, { initialEntries: [em] });
  const resultado = render(
    <QueryClientProvider client={queryClient}>
      <AuthProvider>
        <RouterProvider router={roteador} />
        {extra}
      </AuthProvider>
      <ToastContainer position="top-right" autoClose={5000} />
    </QueryClientProvider>,
  );
  return { ...resultado, roteador, queryClient };
}
