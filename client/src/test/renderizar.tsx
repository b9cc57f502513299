/**
 * Renders a screen inside the app's providers and routes, with the API answered by `rotasApi`
 * (a table of 'METHOD /path' -> handler) instead of the network.
 */
import { definirNavegacao } from '../app/navegacao';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import type { Usuario } from '../../../shared/schemas/usuarios';
import { retencaoDe, Retencoes, type OperacaoSync } from '../../../shared/sync/operacoes';
import { definirFetch } from '../api/client';
import { AuthProvider } from '../auth/AuthProvider';
import { Avisos } from '../components/avisos';
import { salvarSessao } from '../auth/sessaoLocal';

/** A handler's answer: a JSON body (and status), no answer at all, or a Response as it is (a file, a stream). */
export type RespostaFalsa = { status?: number; corpo?: unknown } | 'offline' | Response;
export type ManipuladorApi = (corpo: unknown, url: URL) => RespostaFalsa | Promise<RespostaFalsa>;

export interface ApiFalsa {
  chamadas: { metodo: string; caminho: string; corpo: unknown }[];
  /** The operations the batch carried, as they travelled (amounts in centavos). */
  operacoes: OperacaoSync[];
}

const reais = (centavos: number) => centavos / 100;

/** The receipt time the real batch answers with: the server's time in the single endpoint's record. */
function recebidoDe(op: OperacaoSync, corpo: unknown): string | null {
  const c = (corpo ?? {}) as Record<string, Record<string, string | null | undefined> | undefined>;
  switch (op.tipo) {
    case 'venda.salvar':
      return c.venda?.atualizado_em ?? null;
    case 'visita.registrar':
      return c.visita?.recebido_em ?? null;
    case 'visita.desfazer':
      return new Date().toISOString();
    case 'rota.finalizar':
      return c.rota?.finalizada_em ?? null;
    case 'despesa.criar':
      return c.despesa?.recebido_em ?? null;
    default:
      return c.despesa?.atualizado_em ?? null;
  }
}

/**
 * A queued operation as the call to its single endpoint (the table's handlers answer those): the
 * amounts back in reais, an expense as the multipart form its endpoint takes.
 */
function comoEndpoint(op: OperacaoSync, arquivo: FormDataEntryValue | null | undefined): { metodo: string; caminho: string; corpo: unknown } {
  switch (op.tipo) {
    case 'venda.salvar': {
      const { versao_base, ...d } = op.dados;
      const corpo = { ...d, valor_dinheiro: reais(d.valor_dinheiro), valor_pix: reais(d.valor_pix), valor_cartao: reais(d.valor_cartao), valor_link: reais(d.valor_link) };
      return { metodo: 'POST', caminho: '/vendas', corpo: versao_base == null ? corpo : { ...corpo, versao_base } };
    }
    case 'visita.registrar': {
      const { id, data, registrado_em, rota_id, cidade_id } = op.dados;
      return { metodo: 'POST', caminho: `/rotas/${rota_id}/cidades/${cidade_id}/visitar`, corpo: { id, data, registrado_em } };
    }
    case 'visita.desfazer': {
      const { data, rota_id, cidade_id } = op.dados;
      return { metodo: 'POST', caminho: `/rotas/${rota_id}/cidades/${cidade_id}/desfazer-visita`, corpo: { data } };
    }
    case 'rota.finalizar':
      return { metodo: 'PATCH', caminho: `/rotas/${op.dados.rota_id}/finalizar`, corpo: undefined };
    case 'despesa.excluir':
      return { metodo: 'DELETE', caminho: `/despesas/${op.dados.id}`, corpo: undefined };
    case 'despesa.criar':
    case 'despesa.editar':
    case 'despesa.corrigir': {
      const fd = new FormData();
      const d = op.dados;
      if (op.tipo === 'despesa.criar') fd.append('id', d.id);
      for (const [k, v] of Object.entries({ rota_id: d.rota_id, cidade_id: d.cidade_id, data_despesa: d.data_despesa, tipo: d.tipo, tipo_outro: d.tipo_outro, descricao: d.descricao })) fd.append(k, String(v));
      fd.append('valor', reais(d.valor).toFixed(2));
      if (op.tipo === 'despesa.criar' && op.dados.registrado_em) fd.append('registrado_em', op.dados.registrado_em);
      if (op.tipo !== 'despesa.criar' && op.dados.excluir_cupom && !(arquivo instanceof File)) fd.append('excluir_cupom', 'true');
      if (arquivo instanceof File) fd.append('cupom', arquivo, arquivo.name);
      const caminho = op.tipo === 'despesa.criar' ? '/despesas' : op.tipo === 'despesa.corrigir' ? `/despesas/${d.id}/corrigir` : `/despesas/${d.id}`;
      return { metodo: op.tipo === 'despesa.criar' ? 'POST' : 'PUT', caminho, corpo: fd };
    }
  }
}

/**
 * Answers fetch from a table; unknown calls fail the test loudly. The sync engine's batches
 * (POST /sync/lote) are answered by running each operation through the same table, as the call to
 * its single endpoint (the real batch runs each kind through the same service code); each is
 * recorded in `operacoes` as it travelled and in `chamadas` as if it had been sent alone.
 */
export function simularApi(rotasApi: Record<string, ManipuladorApi>): ApiFalsa {
  const api: ApiFalsa = { chamadas: [], operacoes: [] };

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
    const { operacoes } = (form ? JSON.parse(String(form.get('operacoes'))) : corpo) as { operacoes: OperacaoSync[] };
    const resultados: { id: string; status: number | 'retido'; corpo?: unknown; recebido_em?: string | null }[] = [];
    const retencoes = new Retencoes();
    for (const op of operacoes) {
      api.operacoes.push(op);
      const retencao = retencaoDe(op);
      if (retencoes.retida(retencao)) {
        retencoes.reter(retencao);
        resultados.push({ id: op.id, status: 'retido' });
        continue;
      }
      const { metodo, caminho, corpo: corpoOp } = comoEndpoint(op, form?.get(`arquivo:${op.id}`));
      const r = await responder(metodo, caminho, corpoOp, new URL(`/api${caminho}`, 'http://localhost'));
      if (r === 'offline') return 'offline';
      if (r instanceof Response) throw new Error('API falsa: um lote não responde um arquivo');
      const status = r.status ?? 200;
      if (status >= 400) retencoes.reter(retencao);
      resultados.push({ id: op.id, status, corpo: r.corpo, ...(status < 300 ? { recebido_em: recebidoDe(op, r.corpo) } : {}) });
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
    if (resposta instanceof Response) return resposta;
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

export function renderizarApp(
  rotas: RouteObject[],
  { em = '/', extra, queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } }) }: { em?: string; extra?: ReactNode; queryClient?: QueryClient } = {},
) {
  const roteador = createMemoryRouter(rotas, { initialEntries: [em] });
  definirNavegacao((endereco) => void roteador.navigate(endereco));
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
