/**
 * The permission matrix: every route the server registers, asked by an anonymous caller, by
 * employee A (who owns the data each request is about), by employee B (another employee, who must
 * never read or change A's data) and by an admin, with the status each one gets.
 *
 * The table is the single source: the cases are generated from it, and a route the app registers
 * without a row in it fails the suite, so no endpoint can be added without deciding who may call it.
 * Every refusal must be the `{ error, codigo }` body and must leave the database and the uploads
 * folder exactly as they were; nothing may be a 500.
 */
import { eq } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoje, somarDias } from '../../../shared/dates';
import { despesaCupons } from '../../src/db/tabelas';
import { ANAPOLIS, ARQUIVOS, CALDAS_NOVAS, GOIANIA, formulario } from '../despesas';
import { ADMIN, criarAppDeTeste, type AppDeTeste } from '../helper';
import { arquivoPendencias, formularioPendencias, operacaoPendencia } from '../pendencias';
import { criarPastaClienteFalsa, esperarCorpoDeErro, fotografia } from './suporte';

type Ator = 'anonimo' | 'funcionarioA' | 'funcionarioB' | 'admin';
const ATORES: Ator[] = ['anonimo', 'funcionarioA', 'funcionarioB', 'admin'];
type Esperado = Record<Ator, number>;

interface Pessoa {
  id: number;
  email: string;
  senha: string;
  token: string;
}

/** What the requests are about. A owns everything here except C (the admin's target for user changes). */
interface Fixture {
  a: Pessoa;
  b: Pessoa;
  c: Pessoa;
  rotaA: number;
  /** A's cancelled route, no history: the admin may delete it. */
  rotaAExcluir: number;
  /** A's cancelled route: cancelling again is answered (idempotent). */
  rotaACancelada: number;
  /** A's finished route: finishing again is answered (idempotent). */
  rotaAFinalizada: number;
  /** Two visits A's other phone sent after that finish, held for the admin (accepted, then refused). */
  tardioA1: string;
  tardioA2: string;
  /** D's cancelled route (D has no other active route): the admin may reopen it. */
  rotaDCancelada: number;
  rotaB: number;
  vendaA: string;
  despesaA: string;
  despesaAExcluir: string;
  despesaAAvaliar: string;
  /** Rejected by the admin: its owner may correct it and send it again. */
  despesaARejeitada: string;
  /** A receipt A uploaded in parts, not yet named by a batch. */
  envioA: string;
}

interface Linha {
  /** `METHOD /url` exactly as the route is registered; null for what is not a route (the SPA fallback). */
  rota: string | null;
  /** What is asked, when it differs from the route itself (query, a concrete id). */
  descricao?: string;
  pedido: (f: Fixture) => InjectOptions | Promise<InjectOptions>;
  esperado: Esperado;
  /** Sent without the actor's token: logout would end the session every other row uses. */
  semSessao?: true;
}

// The usual shapes of a row's expectations.
const todos = (s: number): Esperado => ({ anonimo: s, funcionarioA: s, funcionarioB: s, admin: s });
const autenticado = (s = 200): Esperado => ({ anonimo: 401, funcionarioA: s, funcionarioB: s, admin: s });
const soAdmin = (s = 200): Esperado => ({ anonimo: 401, funcionarioA: 403, funcionarioB: 403, admin: s });
const soFuncionario = (s = 200): Esperado => ({ anonimo: 401, funcionarioA: s, funcionarioB: s, admin: 403 });
/** A's resource: A and the admin; B is told it does not exist. */
const donoOuAdmin = (s = 200): Esperado => ({ anonimo: 401, funcionarioA: s, funcionarioB: 404, admin: s });
/** A's resource, written by its owner only: B is told it does not exist, the admin may not write it. */
const soDono = (s = 200): Esperado => ({ anonimo: 401, funcionarioA: s, funcionarioB: 404, admin: 403 });

const HOJE = () => hoje('America/Sao_Paulo');
const ONTEM = () => somarDias(HOJE(), -1);
let sequencia = 0;
const json = (method: InjectOptions['method'], url: string, payload?: object): InjectOptions => ({ method, url, ...(payload ? { payload } : {}) });

/** A whole receipt sent as the one part of an upload in parts. */
const parteDeEnvio = (id: string): InjectOptions => {
  const conteudo = ARQUIVOS.jpeg().conteudo;
  return { method: 'PUT', url: `/api/sync/envios/${id}/partes?inicio=0&total=${conteudo.length}`, headers: { 'content-type': 'application/octet-stream' }, payload: conteudo };
};

const dadosRota = (nome: string, funcionarioId: number, cidades: number[]) => ({
  nome,
  funcionario_id: funcionarioId,
  tem_secretario: false,
  valor_aluguel: 0,
  data_inicio: '2026-01-01',
  data_fim: '2026-12-31',
  observacoes: '',
  cidades,
});
const valoresVenda = { valor_dinheiro: 100, valor_pix: 50, valor_cartao: 0, valor_link: 0, valor_boletos: 1, observacoes: 'Fechamento da Ana' };
const camposDespesaA = () => ({ cidade_id: GOIANIA, data_despesa: ONTEM(), tipo: 'alimentacao', valor: '45,90', descricao: 'Almoço secreto da Ana' });

const TABELA: Linha[] = [
  // Public
  { rota: 'GET /api/health', pedido: () => json('GET', '/api/health'), esperado: todos(200) },
  { rota: 'GET /api/config', pedido: () => json('GET', '/api/config'), esperado: todos(200) },
  { rota: 'POST /api/auth/login', pedido: () => json('POST', '/api/auth/login', ADMIN), esperado: todos(200) },
  { rota: 'POST /api/auth/logout', pedido: () => json('POST', '/api/auth/logout'), esperado: todos(200), semSessao: true },
  { rota: 'GET /api/auth/me', pedido: () => json('GET', '/api/auth/me'), esperado: autenticado() },
  // One's own password: any signed-in user (a too-short new one, so nothing changes here).
  { rota: 'PUT /api/auth/senha', pedido: () => json('PUT', '/api/auth/senha', { senhaAtual: 'qualquer', novaSenha: '123' }), esperado: autenticado(400) },

  // Users: admin only. The target is C, so A's and B's sessions survive the admin's changes.
  { rota: 'GET /api/usuarios', pedido: () => json('GET', '/api/usuarios'), esperado: soAdmin() },
  { rota: 'GET /api/usuarios/funcionarios', pedido: () => json('GET', '/api/usuarios/funcionarios'), esperado: soAdmin() },
  {
    rota: 'POST /api/usuarios',
    pedido: () => json('POST', '/api/usuarios', { nome: 'Pessoa Nova', email: `nova${++sequencia}@teste.com.br`, senha: 'senha123', tipo: 'funcionario' }),
    esperado: soAdmin(201),
  },
  { rota: 'PATCH /api/usuarios/:id', pedido: (f) => json('PATCH', `/api/usuarios/${f.c.id}`, { nome: 'Caio Reserva', tipo: 'funcionario' }), esperado: soAdmin() },
  { rota: 'PATCH /api/usuarios/:id/senha', pedido: (f) => json('PATCH', `/api/usuarios/${f.c.id}/senha`, { novaSenha: 'outra-senha' }), esperado: soAdmin() },
  // desativar before ativar: C ends active.
  { rota: 'PATCH /api/usuarios/:id/desativar', pedido: (f) => json('PATCH', `/api/usuarios/${f.c.id}/desativar`), esperado: soAdmin() },
  { rota: 'PATCH /api/usuarios/:id/ativar', pedido: (f) => json('PATCH', `/api/usuarios/${f.c.id}/ativar`), esperado: soAdmin() },
  { rota: 'POST /api/usuarios/:id/encerrar-sessoes', pedido: (f) => json('POST', `/api/usuarios/${f.c.id}/encerrar-sessoes`), esperado: soAdmin() },
  // A's route, balance and phones before a deactivation: only an admin reads them (B is refused, never told).
  { rota: 'GET /api/usuarios/:id/desativacao', pedido: (f) => json('GET', `/api/usuarios/${f.a.id}/desativacao`), esperado: soAdmin() },
  { rota: 'GET /api/usuarios/:id/sessoes', pedido: (f) => json('GET', `/api/usuarios/${f.c.id}/sessoes`), esperado: soAdmin() },
  // A ref no session has: nothing ends, the admin hears 404.
  { rota: 'DELETE /api/usuarios/:id/sessoes/:ref', pedido: (f) => json('DELETE', `/api/usuarios/${f.c.id}/sessoes/0123456789abcdef`), esperado: soAdmin(404) },
  { rota: 'PATCH /api/usuarios/:id/desbloquear', pedido: (f) => json('PATCH', `/api/usuarios/${f.c.id}/desbloquear`), esperado: soAdmin() },

  // States and cities: anyone signed in.
  { rota: 'GET /api/estados', pedido: () => json('GET', '/api/estados'), esperado: autenticado() },
  { rota: 'GET /api/cidades', pedido: () => json('GET', '/api/cidades?uf=GO'), esperado: autenticado() },
  { rota: 'GET /api/cidades/search', pedido: () => json('GET', '/api/cidades/search?q=goi'), esperado: autenticado() },

  // Routes
  { rota: 'GET /api/rotas', pedido: (f) => json('GET', `/api/rotas?funcionario_id=${f.a.id}`), esperado: autenticado() },
  { rota: 'GET /api/rotas/ativas', pedido: () => json('GET', '/api/rotas/ativas'), esperado: autenticado() },
  { rota: 'GET /api/rotas/funcionario', pedido: () => json('GET', '/api/rotas/funcionario'), esperado: soFuncionario() },
  { rota: 'GET /api/rotas/ativas/funcionario', pedido: () => json('GET', '/api/rotas/ativas/funcionario'), esperado: soFuncionario() },
  { rota: 'GET /api/rotas/finalizadas/funcionario', pedido: () => json('GET', '/api/rotas/finalizadas/funcionario'), esperado: soFuncionario() },
  { rota: 'GET /api/rotas/:id', pedido: (f) => json('GET', `/api/rotas/${f.rotaA}`), esperado: donoOuAdmin() },
  { rota: 'GET /api/rotas/:id/cidades', pedido: (f) => json('GET', `/api/rotas/${f.rotaA}/cidades`), esperado: donoOuAdmin() },
  { rota: 'GET /api/rotas/:id/cidades-status', pedido: (f) => json('GET', `/api/rotas/${f.rotaA}/cidades-status?data=${HOJE()}`), esperado: donoOuAdmin() },
  { rota: 'POST /api/rotas', pedido: (f) => json('POST', '/api/rotas', dadosRota('Rota do Caio', f.c.id, [GOIANIA])), esperado: soAdmin(201) },
  { rota: 'PUT /api/rotas/:id', pedido: (f) => json('PUT', `/api/rotas/${f.rotaA}`, dadosRota('Rota da Ana', f.a.id, [GOIANIA, ANAPOLIS])), esperado: soAdmin() },
  // Spec section 8: an employee who tries to delete gets 403 (not 404), whoever owns the route.
  { rota: 'DELETE /api/rotas/:id', pedido: (f) => json('DELETE', `/api/rotas/${f.rotaAExcluir}`), esperado: soAdmin() },
  { rota: 'PATCH /api/rotas/:id/finalizar', pedido: (f) => json('PATCH', `/api/rotas/${f.rotaAFinalizada}/finalizar`), esperado: soDono() },
  { rota: 'PATCH /api/rotas/:id/cancelar', pedido: (f) => json('PATCH', `/api/rotas/${f.rotaACancelada}/cancelar`), esperado: soAdmin() },
  { rota: 'PATCH /api/rotas/:id/reabrir', pedido: (f) => json('PATCH', `/api/rotas/${f.rotaDCancelada}/reabrir`), esperado: soAdmin() },
  // Writes held after A's finish: A reads what became of them; only the admin decides (before the acerto, which waits for them).
  { rota: 'GET /api/rotas/:id/tardios', pedido: (f) => json('GET', `/api/rotas/${f.rotaAFinalizada}/tardios`), esperado: donoOuAdmin() },
  { rota: 'PATCH /api/rotas/:id/tardios/:operacaoId/aceitar', pedido: (f) => json('PATCH', `/api/rotas/${f.rotaAFinalizada}/tardios/${f.tardioA1}/aceitar`), esperado: soAdmin() },
  {
    rota: 'PATCH /api/rotas/:id/tardios/:operacaoId/recusar',
    pedido: (f) => json('PATCH', `/api/rotas/${f.rotaAFinalizada}/tardios/${f.tardioA2}/recusar`, { motivo: 'Visita repetida' }),
    esperado: soAdmin(),
  },
  { rota: 'POST /api/rotas/:id/acerto', pedido: (f) => json('POST', `/api/rotas/${f.rotaAFinalizada}/acerto`, { valor: 0, sentido: 'devolvido' }), esperado: soAdmin(201) },
  {
    rota: 'POST /api/rotas/:rotaId/cidades/:cidadeId/visitar',
    pedido: (f) => json('POST', `/api/rotas/${f.rotaA}/cidades/${ANAPOLIS}/visitar`, { data: ONTEM() }),
    esperado: soDono(),
  },
  // The toast's 'Desfazer' of a visit the server already has: the route's employee only.
  {
    rota: 'POST /api/rotas/:rotaId/cidades/:cidadeId/desfazer-visita',
    pedido: (f) => json('POST', `/api/rotas/${f.rotaA}/cidades/${ANAPOLIS}/desfazer-visita`, { data: ONTEM() }),
    esperado: soDono(),
  },

  // Reports
  { rota: 'GET /api/relatorios/dashboard-admin', pedido: () => json('GET', '/api/relatorios/dashboard-admin'), esperado: soAdmin() },
  // The employee's dashboard shows the salary of their own route.
  { rota: 'GET /api/relatorios/rota/:id', pedido: (f) => json('GET', `/api/relatorios/rota/${f.rotaA}`), esperado: donoOuAdmin() },
  { rota: 'GET /api/relatorios/rotas', pedido: () => json('GET', '/api/relatorios/rotas'), esperado: soAdmin() },
  { rota: 'GET /api/relatorios/rota/:id/detalhes', pedido: (f) => json('GET', `/api/relatorios/rota/${f.rotaA}/detalhes`), esperado: soAdmin() },
  { rota: 'GET /api/relatorios/rotas/exportar', pedido: () => json('GET', '/api/relatorios/rotas/exportar?formato=excel'), esperado: soAdmin() },
  // The admin's trend charts.
  { rota: 'GET /api/relatorios/tendencias', pedido: () => json('GET', '/api/relatorios/tendencias'), esperado: soAdmin() },
  // The accountant's ZIP of a period (A's expenses, sales and receipts among everyone's).
  {
    rota: 'GET /api/exportacoes/contabil',
    descricao: 'o mês de hoje, todos os funcionários',
    pedido: () => json('GET', `/api/exportacoes/contabil?data_inicio=${hoje().slice(0, 8)}01&data_fim=${hoje()}`),
    esperado: soAdmin(),
  },

  // Sales
  { rota: 'GET /api/vendas', pedido: (f) => json('GET', `/api/vendas?rota_id=${f.rotaA}`), esperado: autenticado() },
  { rota: 'GET /api/vendas/fechamento-diario', pedido: (f) => json('GET', `/api/vendas/fechamento-diario?funcionario_id=${f.a.id}`), esperado: autenticado() },
  // The whole filtered set as CSV: admin only (an employee's own sales stay on the screen).
  { rota: 'GET /api/vendas/exportar', pedido: (f) => json('GET', `/api/vendas/exportar?formato=csv&funcionario_id=${f.a.id}`), esperado: soAdmin() },
  { rota: 'GET /api/vendas/rota/:id/resumo', pedido: (f) => json('GET', `/api/vendas/rota/${f.rotaA}/resumo`), esperado: donoOuAdmin() },
  { rota: 'GET /api/vendas/rota/:id/historico', pedido: (f) => json('GET', `/api/vendas/rota/${f.rotaA}/historico`), esperado: donoOuAdmin() },
  {
    rota: 'POST /api/vendas',
    descricao: "numa cidade da rota de A (B: 'Rota não encontrada.'; admin não registra vendas)",
    pedido: (f) => json('POST', '/api/vendas', { id: uuidv7(), rota_id: f.rotaA, cidade_id: ANAPOLIS, data_venda: ONTEM(), ...valoresVenda }),
    esperado: { anonimo: 401, funcionarioA: 201, funcionarioB: 404, admin: 403 },
  },
  { rota: 'PUT /api/vendas/:id', pedido: (f) => json('PUT', `/api/vendas/${f.vendaA}`, valoresVenda), esperado: soDono() },

  // Batch sync: the request is the employee's own queue; each write inside is checked as if sent
  // alone (B's write on A's route comes back 404 inside a 200, see server/src/sync/lote.test.ts).
  {
    rota: 'POST /api/sync/lote',
    descricao: 'um fechamento na rota de A',
    pedido: (f) =>
      json('POST', '/api/sync/lote', {
        operacoes: [
          {
            id: uuidv7(),
            metodo: 'POST',
            caminho: '/vendas',
            corpo: { id: uuidv7(), rota_id: f.rotaA, cidade_id: ANAPOLIS, data_venda: somarDias(HOJE(), -2 - ++sequencia), ...valoresVenda },
          },
        ],
      }),
    esperado: soFuncionario(),
  },
  // Receipts in resumable parts: each employee's uploads live in their own folder.
  {
    rota: 'PUT /api/sync/envios/:id/partes',
    descricao: 'um envio novo, de quem pede',
    pedido: () => parteDeEnvio(uuidv7()),
    esperado: soFuncionario(),
  },
  { rota: 'GET /api/sync/envios/:id', descricao: 'o envio de A', pedido: (f) => json('GET', `/api/sync/envios/${f.envioA}`), esperado: soDono() },
  // A phone's queue report (the headers are the report; each row is the sender's own, see dispositivos.test.ts).
  { rota: 'POST /api/dispositivos/relato', pedido: () => json('POST', '/api/dispositivos/relato'), esperado: soFuncionario(204) },
  // Rescue import of an employee's exported queue: admin only; each write inside runs as that employee.
  {
    rota: 'POST /api/sync/importar',
    descricao: 'arquivo de pendências de A, uma venda na rota de A',
    pedido: async (f) => ({
      method: 'POST',
      url: '/api/sync/importar',
      ...(await formularioPendencias(
        arquivoPendencias({ id: f.a.id, nome: 'Ana Proprietária', email: f.a.email }, [
          operacaoPendencia({
            metodo: 'POST',
            caminho: '/vendas',
            corpo: { id: uuidv7(), rota_id: f.rotaA, cidade_id: ANAPOLIS, data_venda: somarDias(HOJE(), -40 - ++sequencia), ...valoresVenda },
            chaves: [],
            descricao: 'Fechamento de Anápolis',
          }),
        ]),
      )),
    }),
    esperado: soAdmin(),
  },

  // Expenses
  { rota: 'GET /api/despesas', pedido: (f) => json('GET', `/api/despesas?rota_id=${f.rotaA}`), esperado: autenticado() },
  { rota: 'GET /api/despesas/exportar', pedido: (f) => json('GET', `/api/despesas/exportar?formato=csv&funcionario_id=${f.a.id}`), esperado: soAdmin() },
  {
    rota: 'POST /api/despesas',
    descricao: 'multipart com cupom JPEG, na rota de A',
    pedido: async (f) => ({
      method: 'POST',
      url: '/api/despesas',
      ...(await formulario({ id: uuidv7(), rota_id: f.rotaA, ...camposDespesaA() }, ARQUIVOS.jpeg())),
    }),
    esperado: { anonimo: 401, funcionarioA: 201, funcionarioB: 404, admin: 403 },
  },
  {
    rota: 'PUT /api/despesas/:id',
    descricao: 'multipart com os mesmos campos e um cupom novo',
    pedido: async (f) => ({ method: 'PUT', url: `/api/despesas/${f.despesaA}`, ...(await formulario({ rota_id: f.rotaA, ...camposDespesaA() }, ARQUIVOS.png())) }),
    esperado: soDono(),
  },
  {
    rota: 'PUT /api/despesas/:id/corrigir',
    descricao: 'multipart com a despesa rejeitada corrigida e um cupom',
    pedido: async (f) => ({ method: 'PUT', url: `/api/despesas/${f.despesaARejeitada}/corrigir`, ...(await formulario({ rota_id: f.rotaA, ...camposDespesaA() }, ARQUIVOS.png())) }),
    esperado: soDono(),
  },
  { rota: 'DELETE /api/despesas/:id', pedido: (f) => json('DELETE', `/api/despesas/${f.despesaAExcluir}`), esperado: soDono() },
  { rota: 'PATCH /api/despesas/:id/aprovar', pedido: (f) => json('PATCH', `/api/despesas/${f.despesaAAvaliar}/aprovar`), esperado: soAdmin() },
  {
    rota: 'PATCH /api/despesas/:id/rejeitar',
    pedido: (f) => json('PATCH', `/api/despesas/${f.despesaAAvaliar}/rejeitar`, { motivo: 'Sem nota fiscal.' }),
    esperado: soAdmin(),
  },
  { rota: 'PATCH /api/despesas/aprovar', pedido: (f) => json('PATCH', '/api/despesas/aprovar', { ids: [f.despesaAAvaliar] }), esperado: soAdmin() },
  {
    rota: 'PATCH /api/despesas/rejeitar',
    pedido: (f) => json('PATCH', '/api/despesas/rejeitar', { ids: [f.despesaAAvaliar], motivo: 'Sem nota fiscal.' }),
    esperado: soAdmin(),
  },
  { rota: 'GET /api/despesas/:id/cupom', pedido: (f) => json('GET', `/api/despesas/${f.despesaA}/cupom`), esperado: donoOuAdmin() },
  // The list of receipts and each by its id (read when asked: an edit above may have replaced them).
  // One expense (the screen opened at its address): A and the admin; B is told it does not exist.
  { rota: 'GET /api/despesas/:id', pedido: (f) => json('GET', `/api/despesas/${f.despesaA}`), esperado: donoOuAdmin() },
  { rota: 'GET /api/despesas/:id/cupons', pedido: (f) => json('GET', `/api/despesas/${f.despesaA}/cupons`), esperado: donoOuAdmin() },
  {
    rota: 'GET /api/despesas/:id/cupons/:cupomId',
    pedido: async (f) => {
      const [cupom] = await t.db.select({ id: despesaCupons.id }).from(despesaCupons).where(eq(despesaCupons.despesaId, f.despesaA)).orderBy(despesaCupons.ordem).limit(1);
      return json('GET', `/api/despesas/${f.despesaA}/cupons/${cupom!.id}`);
    },
    esperado: donoOuAdmin(),
  },

  // Audit trail
  { rota: 'GET /api/auditoria', pedido: () => json('GET', '/api/auditoria'), esperado: soAdmin() },
  { rota: 'GET /api/auditoria/exportar', pedido: () => json('GET', '/api/auditoria/exportar?formato=csv'), esperado: soAdmin() },

  // Balance
  { rota: 'GET /api/saldo', pedido: () => json('GET', '/api/saldo'), esperado: soAdmin() },
  // One path, two readers: each employee gets their own balance.
  { rota: 'GET /api/saldo/resumo', pedido: () => json('GET', '/api/saldo/resumo'), esperado: autenticado() },
  { rota: 'GET /api/saldo/movimentacoes', pedido: (f) => json('GET', `/api/saldo/movimentacoes?funcionario_id=${f.a.id}`), esperado: soAdmin() },
  { rota: 'GET /api/saldo/funcionarios', pedido: () => json('GET', '/api/saldo/funcionarios'), esperado: soAdmin() },
  { rota: 'GET /api/saldo/relatorio', pedido: () => json('GET', '/api/saldo/relatorio'), esperado: soAdmin() },
  { rota: 'GET /api/saldo/funcionario/:id', pedido: (f) => json('GET', `/api/saldo/funcionario/${f.a.id}`), esperado: donoOuAdmin() },
  {
    rota: 'POST /api/saldo/adicionar',
    pedido: (f) => json('POST', '/api/saldo/adicionar', { funcionario_id: f.a.id, valor: 10, descricao: 'Crédito', rota_id: f.rotaA }),
    esperado: soAdmin(201),
  },

  // Not routes: the app shell for client-side paths, and an unknown API path.
  { rota: null, descricao: 'GET /dashboard (fallback do app)', pedido: () => json('GET', '/dashboard'), esperado: todos(200) },
  { rota: null, descricao: 'GET /despesas/123 (fallback do app)', pedido: () => json('GET', '/despesas/123'), esperado: todos(200) },
  { rota: null, descricao: 'GET /api/nao-existe', pedido: () => json('GET', '/api/nao-existe'), esperado: todos(404) },
  { rota: null, descricao: 'POST /dashboard', pedido: () => json('POST', '/dashboard', {}), esperado: todos(404) },
];

/** The code each refusal status carries in this matrix. */
const CODIGO_DA_RECUSA: Record<number, string> = { 401: 'nao_autenticado', 403: 'sem_permissao', 404: 'nao_encontrado' };

const cliente = criarPastaClienteFalsa();
// The static plugin registers one route per file of the build: each gets a row, open to everyone.
for (const arquivo of cliente.arquivos) {
  TABELA.push({ rota: `GET ${arquivo}`, pedido: () => json('GET', arquivo), esperado: todos(200) });
}

const registradas = new Set<string>();
let t: AppDeTeste;
let f: Fixture;
/** Text that only A's data contains: B (and a stranger) must never receive any of it. */
let marcasDeA: string[];

async function ok(r: LightMyRequestResponse, status = 200) {
  expect(r.statusCode, r.body).toBe(status);
  return r.json();
}

beforeAll(async () => {
  t = await criarAppDeTeste({
    pastaCliente: cliente.pasta,
    aoRegistrarRota: ({ method, url }) => {
      for (const m of [method].flat()) registradas.add(`${m} ${url.length > 1 ? url.replace(/\/$/, '') : url}`);
    },
  });
  const admin = await t.tokenAdmin();
  const a = await t.criarFuncionario({ nome: 'Ana Proprietária', email: 'ana.proprietaria@teste.com.br' });
  const b = await t.criarFuncionario({ nome: 'Bruno Vizinho', email: 'bruno.vizinho@teste.com.br' });
  const c = await t.criarFuncionario({ nome: 'Caio Reserva', email: 'caio.reserva@teste.com.br' });
  const comoAdmin = (o: InjectOptions) => t.chamar({ ...o, token: admin });
  const comoA = (o: InjectOptions) => t.chamar({ ...o, token: a.token });

  // A's history: two cancelled routes and a finished one, then the active route everything is about.
  const novaRota = async (nome: string, dono: number, cidades: number[]) =>
    (await ok(await comoAdmin(json('POST', '/api/rotas', dadosRota(nome, dono, cidades))), 201)).rota.id as number;
  const rotaAExcluir = await novaRota('Rota antiga da Ana', a.id, [GOIANIA]);
  await ok(await comoAdmin(json('PATCH', `/api/rotas/${rotaAExcluir}/cancelar`)));
  const rotaACancelada = await novaRota('Rota cancelada da Ana', a.id, [GOIANIA]);
  await ok(await comoAdmin(json('PATCH', `/api/rotas/${rotaACancelada}/cancelar`)));
  const rotaAFinalizada = await novaRota('Rota finalizada da Ana', a.id, [GOIANIA]);
  await ok(await comoA(json('PATCH', `/api/rotas/${rotaAFinalizada}/finalizar`)));
  const visitaTardia = () => ({ id: uuidv7(), tipo: 'visita.registrar', seq: 1, dados: { id: uuidv7(), rota_id: rotaAFinalizada, cidade_id: GOIANIA, data: HOJE() } });
  const [tardioA1, tardioA2] = [visitaTardia(), visitaTardia()];
  const tardios = await ok(await comoA(json('POST', '/api/sync/lote', { cliente_id: 'outro-celular-da-ana', operacoes: [tardioA1, tardioA2] })));
  expect(tardios.resultados.map((r: { status: number }) => r.status)).toEqual([202, 202]);
  const rotaA = await novaRota('Rota da Ana', a.id, [GOIANIA, ANAPOLIS]);
  const rotaB = await novaRota('Rota do Bruno', b.id, [CALDAS_NOVAS]);
  const d = await t.criarFuncionario({ nome: 'Dora Reabertura', email: 'dora.reabertura@teste.com.br' });
  const rotaDCancelada = await novaRota('Rota cancelada da Dora', d.id, [GOIANIA]);
  await ok(await comoAdmin(json('PATCH', `/api/rotas/${rotaDCancelada}/cancelar`)));

  await ok(await comoAdmin(json('POST', '/api/saldo/adicionar', { funcionario_id: a.id, valor: 500, descricao: 'Adiantamento da Ana', rota_id: rotaA })), 201);
  const vendaA = (await ok(await comoA(json('POST', '/api/vendas', { id: uuidv7(), rota_id: rotaA, cidade_id: GOIANIA, data_venda: HOJE(), ...valoresVenda })), 201)).venda
    .id as string;
  const novaDespesa = async (descricao: string) => {
    const corpo = await formulario({ id: uuidv7(), rota_id: rotaA, cidade_id: GOIANIA, data_despesa: ONTEM(), tipo: 'alimentacao', valor: '45,90', descricao }, ARQUIVOS.jpeg());
    return (await ok(await comoA({ method: 'POST', url: '/api/despesas', ...corpo }), 201)).despesa.id as string;
  };
  const despesaA = await novaDespesa('Almoço secreto da Ana');
  const despesaAExcluir = await novaDespesa('Jantar da Ana');
  const despesaAAvaliar = await novaDespesa('Hotel da Ana');
  const despesaARejeitada = await novaDespesa('Táxi da Ana');
  await ok(await comoAdmin(json('PATCH', `/api/despesas/${despesaARejeitada}/rejeitar`, { motivo: 'Reenvie com a nota fiscal' })));

  const envioA = uuidv7();
  await ok(await comoA(parteDeEnvio(envioA)));

  f = { a, b, c, rotaA, rotaAExcluir, rotaACancelada, rotaAFinalizada, tardioA1: tardioA1.id, tardioA2: tardioA2.id, rotaDCancelada, rotaB, vendaA, despesaA, despesaAExcluir, despesaAAvaliar, despesaARejeitada, envioA };
  marcasDeA = ['Ana Proprietária', a.email, 'Rota da Ana', 'Rota antiga da Ana', 'Fechamento da Ana', 'Almoço secreto da Ana', 'Adiantamento da Ana', vendaA, despesaA];
});
afterAll(async () => {
  await t?.fechar();
  cliente.remover();
});

const tokenDe = (ator: Ator): Promise<string | undefined> | string | undefined =>
  ator === 'anonimo' ? undefined : ator === 'admin' ? t.tokenAdmin() : ator === 'funcionarioA' ? f.a.token : f.b.token;

const nomeDaLinha = (l: Linha) => (l.rota ?? '') + (l.descricao ? `${l.rota ? ' — ' : ''}${l.descricao}` : '');

const casos = TABELA.flatMap((linha) => ATORES.map((ator) => ({ nome: nomeDaLinha(linha), ator, linha, status: linha.esperado[ator] })));

describe('a tabela cobre o servidor', () => {
  it('toda rota registrada tem sua linha (HEAD vai junto com o GET), e toda linha é uma rota que existe', () => {
    const naTabela = new Set(TABELA.flatMap((l) => (l.rota ? [l.rota] : [])));
    const faltando = [...registradas].filter((r) => {
      if (naTabela.has(r)) return false;
      // Fastify answers HEAD for every GET; its permission is the GET's (checked below).
      return !(r.startsWith('HEAD ') && naTabela.has(r.replace(/^HEAD /, 'GET ')));
    });
    expect(faltando, 'rotas sem linha na tabela de permissões').toEqual([]);
    expect([...naTabela].filter((r) => !registradas.has(r)), 'linhas que não são rotas').toEqual([]);
    // Sanity: the hook saw the whole app (domains and the built client).
    expect(registradas.size).toBeGreaterThan(60);
  });

  it('cada linha aparece uma vez', () => {
    const nomes = TABELA.map(nomeDaLinha);
    expect(nomes.filter((n, i) => nomes.indexOf(n) !== i)).toEqual([]);
  });
});

describe('matriz de permissões', () => {
  it.each(casos)('$nome — $ator: $status', async ({ linha, ator, status }) => {
    const pedido = await linha.pedido(f);
    const antes = status >= 400 ? await fotografia(t) : null;
    const r = await t.chamar({ ...pedido, token: linha.semSessao ? undefined : await tokenDe(ator) });

    expect(r.statusCode, r.body).toBe(status);
    if (status >= 400) {
      esperarCorpoDeErro(r, CODIGO_DA_RECUSA[status]);
      // A refused request (even a GET) leaves every table and the uploads folder untouched.
      expect(await fotografia(t)).toEqual(antes);
    }
    if (ator === 'funcionarioB' || ator === 'anonimo') {
      const vazou = marcasDeA.filter((m) => r.body.includes(m));
      expect(vazou, `dados de A na resposta para ${ator}`).toEqual([]);
    }
  });

  // HEAD runs the GET's hooks: the same person gets the same status, and never a body.
  const casosHead = casos.filter(({ linha }) => linha.rota?.startsWith('GET '));
  it.each(casosHead)('HEAD de $nome — $ator: $status', async ({ linha, ator, status }) => {
    const pedido = await linha.pedido(f);
    const r = await t.chamar({ ...pedido, method: 'HEAD', token: await tokenDe(ator) });
    expect(r.statusCode).toBe(status);
    expect(r.body).toBe('');
  });
});
