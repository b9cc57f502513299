/**
 * The employee's queued route write: finishing a route ('rota.finalizar', PATCH /rotas/:id/finalizar).
 * It goes through the outbox like every employee write, so it works offline and reaches the server
 * after the sales and expenses of that route queued before it.
 */
import { registrarOperacao } from '../offline';
import type { BancoLocal, ItemOutbox } from '../offline/db';
import { ehInteiroPositivo, ehObjeto, ehTextoOpcional, leitor, opcional } from '../offline/leitor';
import { enfileirar } from '../offline/outbox';
import type { FinalizacaoNaFila } from './minhasRotas';

export const OPERACAO_FINALIZAR_ROTA = 'rota.finalizar';

/** What the item stores; read back through this reader (an older app version may have written it). */
export interface DadosFinalizarRota {
  rota_id: number;
  rota_nome?: string | undefined;
}

// Hand-written readers, not zod: the sync engine registers this on the first screen, which loads
// no schema library (offline/leitor.ts).
const dadosFinalizarSchema = leitor<DadosFinalizarRota>((v) => {
  if (!ehObjeto(v) || !ehInteiroPositivo(v.rota_id) || !ehTextoOpcional(v.rota_nome)) return null;
  return { rota_id: v.rota_id, ...opcional('rota_nome', v.rota_nome) };
});

registrarOperacao(OPERACAO_FINALIZAR_ROTA, {
  paraEnvio(dados) {
    const r = dadosFinalizarSchema.safeParse(dados);
    if (!r.success) throw new Error('Registro de finalização ilegível. Descarte-o e finalize a rota de novo.');
    return { rota_id: r.data.rota_id };
  },
});

export const chaveDaRota = (rotaId: number) => `rota:${rotaId}`;

/** The route an outbox item writes to, when its data says (sales and expenses carry `rota_id`). */
export function rotaDoItem(item: Pick<ItemOutbox, 'dados'>): number | null {
  const dados = item.dados as { rota_id?: unknown } | null;
  const id = Number(dados?.rota_id);
  return Number.isInteger(id) && id > 0 ? id : null;
}

/**
 * Queues the finishing. It waits for every earlier write of its route that the server refused (the
 * registry says so: shared/sync/operacoes.ts, retencaoDe), so a refused sale or expense of this route
 * holds the finishing back until the person fixes or discards it.
 */
export async function enfileirarFinalizacao(banco: BancoLocal, rota: { id: number; nome: string }, usuarioId: number): Promise<ItemOutbox> {
  const dados: DadosFinalizarRota = { rota_id: rota.id, rota_nome: rota.nome };
  return enfileirar(banco, {
    tipo: OPERACAO_FINALIZAR_ROTA,
    usuarioId,
    dados,
    chaves: [chaveDaRota(rota.id)],
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
