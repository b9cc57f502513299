/**
 * Operations in the format of app versions before the sync protocol ({ id, metodo, caminho, corpo,
 * chaves }: an HTTP method and path matched back to its write). Read only so that queues and rescue
 * files written by those versions still replay (docs/decisions/sincronizacao.md, 'Versões anteriores do formato'); the current app sends
 * { id, tipo, seq, dados }. They run the single endpoints' schemas (amounts in reais) and rules, and
 * are recorded in the operation log like any other operation.
 */
import { z } from 'zod';
import { escritaCriarDespesa, escritaEditarDespesa, escritaExcluirDespesa } from '../despesas/escritas';
import { ErroApp } from '../errors';
import { escritaFinalizarRota, escritaVisitar } from '../rotas/escritas';
import { validar } from '../validacao';
import { escritaEditarVenda, escritaSalvarVenda } from '../vendas/escritas';
import { salvarVenda } from '../vendas/servico';
import { RespostaVenda } from '../vendas/escritas';
import type { Escrita, Metodo } from './escritas';
import type { Preparada } from './lote';

/** Every write a phone may queue, as its single endpoint (also the routes the version gate covers). */
export const ESCRITAS: readonly Escrita[] = [
  escritaSalvarVenda,
  escritaEditarVenda,
  escritaVisitar,
  escritaFinalizarRota,
  escritaCriarDespesa,
  escritaEditarDespesa,
  escritaExcluirDespesa,
] as Escrita[];

/** The kind each single endpoint's write is recorded as. */
const TIPO_DA_ESCRITA = new Map<Escrita, string>([
  [escritaSalvarVenda, 'venda.salvar'],
  [escritaEditarVenda, 'venda.editar'],
  [escritaVisitar, 'visita.registrar'],
  [escritaFinalizarRota, 'rota.finalizar'],
  [escritaCriarDespesa, 'despesa.criar'],
  [escritaEditarDespesa, 'despesa.editar'],
  [escritaExcluirDespesa, 'despesa.excluir'],
] as [Escrita, string][]);

export const operacaoLegadaSchema = z.object({
  id: z.string({ error: 'Identificador da operação inválido.' }).min(1, 'Identificador da operação inválido.').max(100, 'Identificador da operação inválido.'),
  metodo: z.enum(['POST', 'PUT', 'PATCH', 'DELETE'], { error: 'Método da operação inválido.' }),
  caminho: z.string({ error: 'Caminho da operação inválido.' }).max(300, 'Caminho da operação inválido.'),
  corpo: z.unknown().optional(),
  // No small cap: an old finishing carried the keys of every write of its route.
  chaves: z.array(z.string().max(200)).max(20_000).default([]),
});
export type OperacaoLegada = z.infer<typeof operacaoLegadaSchema>;

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

/** Which write an old queued request is ('POST /vendas', 'PUT /despesas/<id>'...), or null. */
export function encontrarEscrita(metodo: Metodo, caminho: string): { escrita: Escrita; params: Record<string, string> } | null {
  const semConsulta = caminho.split('?')[0]!;
  for (const p of PADROES) {
    if (p.metodo !== metodo) continue;
    const m = p.regex.exec(semConsulta);
    if (!m) continue;
    const valores = m.slice(1).map(decodificar);
    // A lone '%' or a bad '%XX' in the path is no write of ours (refused alone, never a 500).
    if (valores.some((v) => v === null)) return null;
    return { escrita: p.escrita, params: Object.fromEntries(p.nomes.map((n, i) => [n, valores[i]!])) };
  }
  return null;
}

function decodificar(trecho: string | undefined): string | null {
  try {
    return decodeURIComponent(trecho ?? '');
  } catch {
    return null;
  }
}

/** An old-format operation ready for the batch: its write bound to its checked data, or its refusal. */
export function prepararLegada(op: OperacaoLegada, seq: number): Preparada {
  const base = { id: op.id, seq, retencao: { espera: op.chaves, retem: op.chaves }, gravaArquivos: false, preservaRotas: false };
  const alvo = encontrarEscrita(op.metodo, op.caminho);
  if (!alvo) return { ...base, tipo: 'desconhecida', rodar: null, erro: new ErroApp(404, 'nao_encontrado', 'Operação desconhecida: atualize o aplicativo e tente de novo.') };
  const { escrita } = alvo;
  const tipo = TIPO_DA_ESCRITA.get(escrita) ?? 'desconhecida';
  const preparada = { ...base, tipo, gravaArquivos: escrita.gravaArquivos === true, preservaRotas: escrita.preservaRotas === true };
  try {
    const params = validar(escrita.params, alvo.params);
    const dados = validar(escrita.corpo, op.corpo);
    if (escrita === escritaSalvarVenda) {
      // An old sale carries only the phone's clock: it may not overwrite what a device changed since.
      const venda = dados as Parameters<typeof salvarVenda>[2];
      return {
        ...preparada,
        erro: null,
        rodar: async (ctx, usuario) => {
          const r = await salvarVenda(ctx.db, usuario, venda, ctx.fuso, { clienteId: null, legado: true });
          return new RespostaVenda(ctx, r.criada ? 201 : 200, r.id, r.recebidaEm);
        },
      };
    }
    return { ...preparada, erro: null, rodar: (ctx, usuario, cupom) => escrita.executar(ctx, usuario, params, dados, cupom) };
  } catch (erro) {
    if (erro instanceof ErroApp) return { ...preparada, rodar: null, erro };
    throw erro;
  }
}
