/**
 * Renders a screen inside the app's providers and routes, with the API answered by `rotasApi`
 * (a table of 'METHOD /path' -> handler) instead of the network.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import type { Usuario } from '../../../shared/schemas/usuarios';
import { definirFetch } from '../api/client';
import { AuthProvider } from '../auth/AuthProvider';
import { Avisos } from '../components/avisos';
import { salvarSessao } from '../auth/sessaoLocal';

export type RespostaFalsa = { status?: number; corpo?: unknown } | 'offline';
export type ManipuladorApi = (corpo: unknown, url: URL) => RespostaFalsa | Promise<RespostaFalsa>;

export interface ApiFalsa {
  chamadas: { metodo: string; caminho: string; corpo: unknown }[];
}

/**
 * Answers fetch from a table; unknown calls fail the test loudly. The sync engine's batches
 * (POST /sync/lote) are answered by running each write through the same table, as the real
 * endpoint runs each write through its single endpoint's code; each write is recorded in
 * `chamadas` as if it had been sent alone.
 */
export function simularApi(rotasApi: Record<string, ManipuladorApi>): ApiFalsa {
  const api: ApiFalsa = { chamadas: [] };

  async function responder(metodo: string, caminho: string, corpo: unknown, url: URL): Promise<RespostaFalsa> {
    api.chamadas.push({ metodo, caminho, corpo });
    const chave = Object.keys(rotasApi).find((k) => {
      const [m, padrao] = k.split(' ');
      return m === metodo && new RegExp(`^${padrao!.replace(/:\w+/g, '[^/]+')}$`).test(caminho);
    });
    if (!chave) throw new Error(`API falsa: chamada inesperada ${metodo} ${caminho}`);
    return rotasApi[chave]!(corpo, url);
  }

  async function responderLote(corpo: unknown): Promise<RespostaFalsa> {
    const form = corpo instanceof FormData ? corpo : null;
    const { operacoes } = (form ? JSON.parse(String(form.get('operacoes'))) : corpo) as {
      operacoes: { id: string; metodo: string; caminho: string; corpo?: unknown; chaves: string[] }[];
    };
    const resultados: { id: string; status: number | 'retido'; corpo?: unknown }[] = [];
    const retidas = new Set<string>();
    for (const op of operacoes) {
      if (op.chaves.some((c) => retidas.has(c))) {
        op.chaves.forEach((c) => retidas.add(c));
        resultados.push({ id: op.id, status: 'retido' });
        continue;
      }
      // Expenses are multipart on their own endpoint: the fake handlers read a FormData.
      let corpoOp = op.corpo;
      if (op.caminho.startsWith('/despesas') && (op.metodo === 'POST' || op.metodo === 'PUT')) {
        const fd = new FormData();
        for (const [k, v] of Object.entries((op.corpo ?? {}) as Record<string, string>)) fd.append(k, v);
        const arquivo = form?.get(`arquivo:${op.id}`);
        if (arquivo instanceof File) fd.append('cupom', arquivo, arquivo.name);
        corpoOp = fd;
      }
      const r = await responder(op.metodo, op.caminho, corpoOp, new URL(`/api${op.caminho}`, 'http://localhost'));
      if (r === 'offline') return 'offline';
      const status = r.status ?? 200;
      if (status >= 400) op.chaves.forEach((c) => retidas.add(c));
      resultados.push({ id: op.id, status, corpo: r.corpo });
    }
    return { corpo: { resultados } };
  }

  definirFetch(async (entrada, init) => {
    const url = new URL(String(entrada), 'http://localhost');
    const metodo = (init?.method ?? 'GET').toUpperCase();
    const caminho = url.pathname.replace(/^\/api/, '');
    const corpo = typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body;
    const resposta =
      metodo === 'POST' && caminho === '/sync/lote' && !rotasApi['POST /sync/lote'] ? await responderLote(corpo) : await responder(metodo, caminho, corpo, url);
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
      <Avisos />
    </QueryClientProvider>,
  );
  return { ...resultado, roteador, queryClient };
}
