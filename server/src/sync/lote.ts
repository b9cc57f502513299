/**
 * Replaying a phone's queue in one request (POST /api/sync/lote): hundreds of queued writes in a
 * few round trips instead of one each.
 *
 * - Order is the phone's: writes run one after the other, as they were queued.
 * - Each write is the same Escrita its single endpoint runs: same schemas, rules and answer.
 * - A refused write (4xx) changes nothing and is answered with its message; later writes on the
 *   same entity (same `chaves`) are not run but answered 'retido', as the phone would hold them.
 * - Consecutive writes that only touch SQLite share one transaction: one commit per run instead of
 *   one per write. The run first goes without savepoints (a savepoint per write makes SQLite copy
 *   every page it touches, tripling the cost of an insert); if any write in it throws, the whole run
 *   is rolled back and done again with a savepoint per write, so a refusal rolls back only itself.
 *   Refusals are rare, so almost every batch takes the first way, with the same results.
 * - Writes with files (receipts) run on their own, after committing what came before.
 * - An unexpected failure stops the batch: what ran is committed, the rest answered 'nao_processado'
 *   and sent again later. Every write is idempotent, so a batch cut short (a lost answer, a server
 *   killed mid-way) is simply replayed.
 */
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { CupomRecebido } from '../despesas/cupons';
import { escritaCriarDespesa, escritaEditarDespesa, escritaExcluirDespesa } from '../despesas/escritas';
import { ErroApp } from '../errors';
import { escritaFinalizarRota, escritaVisitar } from '../rotas/escritas';
import { comSituacoesMemorizadas } from '../rotas/repositorio';
import type { UsuarioSessao } from '../tipos';
import { validar } from '../validacao';
import { escritaEditarVenda, escritaSalvarVenda } from '../vendas/escritas';
import type { ContextoEscrita, Escrita, Metodo, RespostaEscrita } from './escritas';

/** Every write a phone may queue. */
export const ESCRITAS: readonly Escrita[] = [
  escritaSalvarVenda,
  escritaEditarVenda,
  escritaVisitar,
  escritaFinalizarRota,
  escritaCriarDespesa,
  escritaEditarDespesa,
  escritaExcluirDespesa,
] as Escrita[];

export const MAXIMO_OPERACOES_POR_LOTE = 500;

export const operacaoSchema = z.object({
  id: z.string({ error: 'Identificador da operação inválido.' }).min(1, 'Identificador da operação inválido.').max(100, 'Identificador da operação inválido.'),
  metodo: z.enum(['POST', 'PUT', 'PATCH', 'DELETE'], { error: 'Método da operação inválido.' }),
  caminho: z.string({ error: 'Caminho da operação inválido.' }).max(300, 'Caminho da operação inválido.'),
  corpo: z.unknown().optional(),
  chaves: z.array(z.string().max(200)).max(50).default([]),
});
export type Operacao = z.infer<typeof operacaoSchema>;

export const loteSchema = z.object({
  operacoes: z
    .array(operacaoSchema, { error: 'Envie a lista de operações.' })
    .min(1, 'Envie ao menos uma operação.')
    .max(MAXIMO_OPERACOES_POR_LOTE, `Envie no máximo ${MAXIMO_OPERACOES_POR_LOTE} operações por lote.`),
});

export type StatusOperacao = number | 'retido' | 'nao_processado';

/**
 * A write's outcome. Accepted: its status and when the server took it (`recebido_em`), not the
 * record: the phone already shows what it sent, and 200 records read back and joined would be most
 * of the batch's time and a hundred kilobytes over a field connection. Refused: `corpo` has the message.
 */
export interface ResultadoOperacao {
  id: string;
  status: StatusOperacao;
  recebido_em?: string | null;
  corpo?: unknown;
}

function aceita(id: string, r: RespostaEscrita): ResultadoOperacao {
  return { id, status: r.status, recebido_em: r.recebidoEm() };
}

interface Alvo {
  escrita: Escrita;
  params: Record<string, string>;
}

interface Padrao {
  escrita: Escrita;
  metodo: Metodo;
  regex: RegExp;
  nomes: string[];
}

const PADROES: Padrao[] = ESCRITAS.map((escrita) => {
  const nomes: string[] = [];
  const fonte = escrita.caminho.replace(/:(\w+)/g, (_, nome: string) => {
    nomes.push(nome);
    return '([^/]+)';
  });
  return { escrita, metodo: escrita.metodo, regex: new RegExp(`^${fonte}$`), nomes };
});

/** Which write a queued request is ('POST /vendas', 'PUT /despesas/<id>'...), or null. */
export function encontrarEscrita(metodo: Metodo, caminho: string): Alvo | null {
  const semConsulta = caminho.split('?')[0]!;
  for (const p of PADROES) {
    if (p.metodo !== metodo) continue;
    const m = p.regex.exec(semConsulta);
    if (m) return { escrita: p.escrita, params: Object.fromEntries(p.nomes.map((n, i) => [n, decodeURIComponent(m[i + 1]!)])) };
  }
  return null;
}

type Execucao = { tipo: 'resultado'; resultado: ResultadoOperacao } | { tipo: 'inesperado'; erro: unknown };

function recusa(id: string, erro: ErroApp): ResultadoOperacao {
  return { id, status: erro.statusCode, corpo: { error: erro.message, codigo: erro.codigo } };
}

function prepararExecucao(alvo: Alvo | null, op: Operacao) {
  if (!alvo) throw new ErroApp(404, 'nao_encontrado', 'Operação desconhecida: atualize o aplicativo e tente de novo.');
  const params = validar(alvo.escrita.params, alvo.params);
  const dados = validar(alvo.escrita.corpo, op.corpo);
  return { params, dados };
}

export async function processarLote(
  ctx: ContextoEscrita,
  usuario: UsuarioSessao,
  operacoes: Operacao[],
  arquivos: Map<string, CupomRecebido>,
  log: Pick<FastifyBaseLogger, 'error'>,
): Promise<ResultadoOperacao[]> {
  const resultados: ResultadoOperacao[] = [];
  const retidas = new Set<string>();
  const alvos = operacoes.map((op) => encontrarEscrita(op.metodo, op.caminho));
  let i = 0;
  let interrompido = false;

  const registrar = (op: Operacao, execucao: Execucao): boolean => {
    if (execucao.tipo === 'inesperado') {
      log.error({ err: execucao.erro, operacao: op.id, caminho: op.caminho }, 'lote interrompido por um erro inesperado');
      return false;
    }
    const r = execucao.resultado;
    if (typeof r.status === 'number' && r.status >= 400) op.chaves.forEach((c) => retidas.add(c));
    resultados.push(r);
    return true;
  };

  /** A write held behind an earlier refusal on the same entity. */
  const retida = (op: Operacao): boolean => {
    if (!op.chaves.some((c) => retidas.has(c))) return false;
    op.chaves.forEach((c) => retidas.add(c));
    resultados.push({ id: op.id, status: 'retido' });
    return true;
  };

  const executarSincrona = (op: Operacao, alvo: Alvo | null): Execucao => {
    try {
      const { params, dados } = prepararExecucao(alvo, op);
      // A nested better-sqlite3 transaction is a savepoint: a refusal rolls back only this write.
      const r = ctx.db.$client.transaction(() => aceita(op.id, alvo!.escrita.executar(ctx, usuario, params, dados) as RespostaEscrita))();
      return { tipo: 'resultado', resultado: r };
    } catch (erro) {
      if (erro instanceof ErroApp) return { tipo: 'resultado', resultado: recusa(op.id, erro) };
      return { tipo: 'inesperado', erro };
    }
  };

  const executarComArquivos = async (op: Operacao, alvo: Alvo): Promise<Execucao> => {
    try {
      const { params, dados } = prepararExecucao(alvo, op);
      const r = await alvo.escrita.executar(ctx, usuario, params, dados, arquivos.get(op.id));
      return { tipo: 'resultado', resultado: aceita(op.id, r) };
    } catch (erro) {
      if (erro instanceof ErroApp) return { tipo: 'resultado', resultado: recusa(op.id, erro) };
      return { tipo: 'inesperado', erro };
    }
  };

  /** Where the run of SQLite-only writes starting at `inicio` ends (the next write with files, or the end). */
  const fimDoTrecho = (inicio: number): number => {
    let j = inicio;
    while (j < operacoes.length && !alvos[j]?.escrita.gravaArquivos) j += 1;
    return j;
  };

  /** The run [inicio, fim) with no savepoints: false (and nothing written) if any write threw. */
  const trechoSemSavepoints = (inicio: number, fim: number): boolean => {
    const semRetidas = operacoes.slice(inicio, fim).every((op) => !op.chaves.some((c) => retidas.has(c)));
    if (!semRetidas) return false;
    const parciais: ResultadoOperacao[] = [];
    try {
      ctx.db.$client.transaction(() =>
        comSituacoesMemorizadas(ctx.db, (esquecer) => {
          for (let j = inicio; j < fim; j++) {
            const op = operacoes[j]!;
            const { params, dados } = prepararExecucao(alvos[j] ?? null, op);
            const escrita = alvos[j]!.escrita;
            const r = escrita.executar(ctx, usuario, params, dados) as RespostaEscrita;
            if (r.status >= 400) throw new Error('recusa');
            if (!escrita.preservaRotas) esquecer();
            parciais.push(aceita(op.id, r));
          }
        }),
      )();
    } catch {
      return false; // rolled back: done again below, one savepoint per write
    }
    resultados.push(...parciais);
    return true;
  };

  while (i < operacoes.length && !interrompido) {
    const fim = fimDoTrecho(i);
    if (fim > i && trechoSemSavepoints(i, fim)) {
      i = fim;
    } else {
      // A run of writes that only touch SQLite, in one transaction, a savepoint each.
      ctx.db.$client.transaction(() => {
        while (i < operacoes.length) {
          const op = operacoes[i]!;
          const alvo = alvos[i] ?? null;
          if (alvo?.escrita.gravaArquivos && !op.chaves.some((c) => retidas.has(c))) break;
          if (!retida(op) && !registrar(op, executarSincrona(op, alvo))) {
            interrompido = true;
            break;
          }
          i += 1;
        }
      })();
    }
    if (interrompido || i >= operacoes.length) break;
    const op = operacoes[i]!;
    if (!registrar(op, await executarComArquivos(op, alvos[i]!))) break;
    i += 1;
  }
  for (const op of operacoes.slice(resultados.length)) resultados.push({ id: op.id, status: 'nao_processado' });
  return resultados;
}
