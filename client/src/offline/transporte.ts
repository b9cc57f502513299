/**
 * How queued writes reach the server. The app sends them in batches to POST /api/sync/lote, where
 * each runs through the same code as its own endpoint; one request per write remains available
 * (the engine's tests, a server without the batch endpoint).
 */
import { ErroApi, requisitar, type OpcoesRequisicao } from '../api/client';
import type { ArquivoLocal, ItemOutbox } from './db';
import type { RequisicaoOperacao } from './outbox';

/** One queued write ready to go: the item, the request its operation builds, its files. */
export interface Envio {
  item: ItemOutbox;
  requisicao: RequisicaoOperacao;
  arquivos: ArquivoLocal[];
}

/** What the server said of one write: an HTTP status, or that it held it / did not get to it. */
export type StatusEnvio = number | 'retido' | 'nao_processado';

export interface ResultadoEnvio {
  id: string;
  status: StatusEnvio;
  /** The batch's receipt: when the server took the write (accepted writes only). */
  recebido_em?: string | null;
  /** The single endpoint's answer, or a refusal's `{ error }`. */
  corpo?: unknown;
}

/** Sends writes in order; throws ErroOffline/ErroApi when the request as a whole fails. */
export type Transporte = (envios: Envio[], token: string | null) => Promise<ResultadoEnvio[]>;

export type Enviar = (metodo: string, caminho: string, opcoes: Pick<OpcoesRequisicao, 'corpo' | 'token' | 'tempoLimiteMs'>) => Promise<unknown>;

/** Limits of one batch, under the server's (500 writes, 10 files of at most 20 MB). */
export const LIMITES_LOTE = { escritas: 200, arquivos: 10, bytes: 8 * 1024 * 1024 };

/** Statuses that mean "try again later", not "the server refuses this". */
export function ehStatusTransitorio(status: number): boolean {
  return status >= 500 || status === 408 || status === 429;
}

function corpoDeRecusa(erro: ErroApi) {
  return { error: erro.message, ...(erro.codigo ? { codigo: erro.codigo } : {}) };
}

/** A FormData body (expenses) as the batch carries it: its text fields, and its one file apart. */
function separarFormulario(corpo: FormData): { campos: Record<string, string>; arquivo: File | null } {
  const campos: Record<string, string> = {};
  let arquivo: File | null = null;
  corpo.forEach((valor, chave) => {
    if (typeof valor === 'string') campos[chave] = valor;
    else arquivo = valor;
  });
  return { campos, arquivo };
}

export function transporteEmLote(enviar: Enviar = (metodo, caminho, opcoes) => requisitar(metodo, caminho, opcoes)): Transporte {
  return async (envios, token) => {
    const arquivos: { id: string; arquivo: File }[] = [];
    const operacoes = envios.map(({ item, requisicao }) => {
      let corpo = requisicao.corpo;
      if (corpo instanceof FormData) {
        const { campos, arquivo } = separarFormulario(corpo);
        if (arquivo) arquivos.push({ id: item.id, arquivo });
        corpo = campos;
      }
      return { id: item.id, metodo: requisicao.metodo, caminho: requisicao.caminho, corpo, chaves: item.chaves };
    });
    let corpo: unknown = { operacoes };
    if (arquivos.length > 0) {
      const form = new FormData();
      form.append('operacoes', JSON.stringify({ operacoes }));
      for (const { id, arquivo } of arquivos) form.append(`arquivo:${id}`, arquivo, arquivo.name);
      corpo = form;
    }
    // Receipts on a phone link take time; a batch of text is quick.
    const tempoLimiteMs = Math.max(30_000, ...envios.map((e) => e.requisicao.tempoLimiteMs ?? 0));
    const resposta = (await enviar('POST', '/sync/lote', { corpo, token, tempoLimiteMs })) as { resultados: ResultadoEnvio[] };
    return resposta.resultados;
  };
}

/** One request per write, holding later writes on a refused entity as the batch endpoint does. */
export function transporteIndividual(enviar: Enviar): Transporte {
  return async (envios, token) => {
    const resultados: ResultadoEnvio[] = [];
    const retidas = new Set<string>();
    for (const [i, { item, requisicao }] of envios.entries()) {
      if (item.chaves.some((c) => retidas.has(c))) {
        item.chaves.forEach((c) => retidas.add(c));
        resultados.push({ id: item.id, status: 'retido' });
        continue;
      }
      try {
        const corpo = await enviar(requisicao.metodo, requisicao.caminho, {
          corpo: requisicao.corpo,
          token,
          ...(requisicao.tempoLimiteMs ? { tempoLimiteMs: requisicao.tempoLimiteMs } : {}),
        });
        resultados.push({ id: item.id, status: 200, corpo });
      } catch (erro) {
        const recusa = erro instanceof ErroApi && erro.status !== 401 && !ehStatusTransitorio(erro.status);
        if (recusa) {
          item.chaves.forEach((c) => retidas.add(c));
          resultados.push({ id: item.id, status: erro.status, corpo: corpoDeRecusa(erro) });
          continue;
        }
        if (i === 0) throw erro;
        // What went stands; the rest waits for the next pass.
        for (const e of envios.slice(i)) resultados.push({ id: e.item.id, status: 'nao_processado' });
        return resultados;
      }
    }
    return resultados;
  };
}
