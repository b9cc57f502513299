/**
 * The employee's queued route write: finishing a route ('rota.finalizar', PATCH /rotas/:id/finalizar).
 * It goes through the outbox like every employee write, so it works offline and reaches the server
 * after the sales and expenses of that route queued before it.
 */
import { z } from '../../../shared/zod';
import { registrarOperacao } from '../offline';
import type { BancoLocal, ItemOutbox } from '../offline/db';
import { enfileirar, itensDoUsuario } from '../offline/outbox';
import type { FinalizacaoNaFila } from './minhasRotas';

export const OPERACAO_FINALIZAR_ROTA = 'rota.finalizar';

/** What the item stores; read back through this schema (an older app version may have written it). */
const dadosFinalizarSchema = z.object({
  rota_id: z.number().int().positive(),
  rota_nome: z.string().optional(),
});
export type DadosFinalizarRota = z.infer<typeof dadosFinalizarSchema>;

const respostaFinalizarSchema = z.object({ rota: z.object({ finalizada_em: z.string().nullable() }) });

registrarOperacao(OPERACAO_FINALIZAR_ROTA, {
  requisicao(dados) {
    const r = dadosFinalizarSchema.safeParse(dados);
    if (!r.success) throw new Error('Registro de finalização ilegível. Descarte-o e finalize a rota de novo.');
    return { metodo: 'PATCH', caminho: `/rotas/${r.data.rota_id}/finalizar` };
  },
  // The server's own time of finishing (also on a replay: it keeps the first one).
  recebidoEm: (resposta) => respostaFinalizarSchema.safeParse(resposta).data?.rota.finalizada_em ?? undefined,
});

export const chaveDaRota = (rotaId: number) => `rota:${rotaId}`;

/** The route an outbox item writes to, when its data says (sales and expenses carry `rota_id`). */
export function rotaDoItem(item: Pick<ItemOutbox, 'dados'>): number | null {
  const dados = item.dados as { rota_id?: unknown } | null;
  const id = Number(dados?.rota_id);
  return Number.isInteger(id) && id > 0 ? id : null;
}

/**
 * Queues the finishing. Its keys also include those of the route's items already queued, so a
 * refused sale or expense of this route holds the finishing back until the person fixes or
 * discards it: otherwise the finished route would refuse the fixed sale.
 */
export async function enfileirarFinalizacao(banco: BancoLocal, rota: { id: number; nome: string }, usuarioId: number): Promise<ItemOutbox> {
  const anteriores = await itensDoUsuario(banco, usuarioId);
  const chaves = new Set([chaveDaRota(rota.id)]);
  for (const item of anteriores) {
    if (item.tipo !== OPERACAO_FINALIZAR_ROTA && rotaDoItem(item) === rota.id) item.chaves.forEach((c) => chaves.add(c));
  }
  const dados: DadosFinalizarRota = { rota_id: rota.id, rota_nome: rota.nome };
  return enfileirar(banco, {
    tipo: OPERACAO_FINALIZAR_ROTA,
    usuarioId,
    dados,
    chaves: [...chaves],
    descricao: `Finalizar rota ${rota.nome}`,
  });
}

/** The finishings still in the outbox, for the screen's overlay. */
export function finalizacoesNaFila(itens: ItemOutbox[]): FinalizacaoNaFila[] {
  const resultado: FinalizacaoNaFila[] = [];
  for (const item of itens) {
    if (item.tipo !== OPERACAO_FINALIZAR_ROTA) continue;
    const dados = dadosFinalizarSchema.safeParse(item.dados);
    if (dados.success) resultado.push({ rotaId: dados.data.rota_id, estado: item.estado, erro: item.erro, criadoEm: item.criadoEm });
  }
  return resultado;
}

/** Routes whose finishing the server confirmed to this device (from the sync history). */
export function finalizacoesConfirmadas(historico: { tipo: string; chaves: string[] }[]): Set<number> {
  const ids = new Set<number>();
  for (const item of historico) {
    if (item.tipo !== OPERACAO_FINALIZAR_ROTA) continue;
    const chave = /^rota:(\d+)$/.exec(item.chaves[0] ?? '');
    if (chave) ids.add(Number(chave[1]));
  }
  return ids;
}
