/**
 * How queued operations reach the server: in batches to POST /api/sync/lote, as
 * `{ cliente_id, operacoes: [{ id, tipo, seq, dados }] }` (shared/sync/operacoes.ts), or multipart
 * with that JSON in the field `operacoes` and each receipt in a part `arquivo:<id da operação>`
 * (an operation with several receipts: one part each, in order).
 * The server answers each operation on its own (docs/decisions/sincronizacao.md, 'Recusas e retenções').
 */
import { campoArquivoDaOperacao, type OperacaoSync, type ReferenciaEnvio } from '../../../shared/sync/operacoes';
import { requisitar, type OpcoesRequisicao } from '../api/client';
import type { ArquivoLocal, ItemOutbox } from './db';

/** One queued write ready to go: the item, the operation as it travels, its files. */
export interface Envio {
  item: ItemOutbox;
  operacao: OperacaoSync;
  arquivos: ArquivoLocal[];
  /** Its receipts already uploaded in parts (envioEmPartes.ts): the batch names them instead of carrying them. */
  envio?: ReferenciaEnvio | ReferenciaEnvio[];
}

/** What the server said of one operation: an HTTP status, or that it held it / did not get to it. */
export type StatusEnvio = number | 'retido' | 'nao_processado';

export interface ResultadoEnvio {
  id: string;
  status: StatusEnvio;
  /** When the server took it (accepted operations). */
  recebido_em?: string | null;
  /** Answered from the server's operation log: it had been applied before. */
  repetida?: boolean;
  /** 'chegou_depois_da_finalizacao' (status 202): kept for the admin, not applied (its route was finished meanwhile). */
  situacao?: string;
  /** A refusal's `{ error, codigo, conflito? }`. */
  corpo?: unknown;
}

/** Sends operations in order; throws ErroOffline/ErroApi when the request as a whole fails. */
export type Transporte = (envios: Envio[], token: string | null, clienteId: string, opcoes?: { tempoLimiteMs?: number }) => Promise<ResultadoEnvio[]>;

export type Enviar = (metodo: string, caminho: string, opcoes: Pick<OpcoesRequisicao, 'corpo' | 'token' | 'tempoLimiteMs'>) => Promise<unknown>;

/** Limits of one batch, under the server's (500 operations, 10 files of at most 20 MB). */
export const LIMITES_LOTE = { escritas: 200, arquivos: 10, bytes: 8 * 1024 * 1024 };

/**
 * A batch of text is quick; receipts on a phone link take far longer than the API's default 10 s:
 * the engine gives a batch with receipts a limit that scales with its bytes and the measured link
 * (vazao.ts); this one is for callers that do not say.
 */
const TEMPO_LIMITE_TEXTO_MS = 30_000;
const TEMPO_LIMITE_COM_ARQUIVOS_MS = 120_000;

/** Statuses that mean "try again later", not "the server refuses this". */
export function ehStatusTransitorio(status: number): boolean {
  return status >= 500 || status === 408 || status === 429;
}

export function transporteEmLote(enviar: Enviar = (metodo, caminho, opcoes) => requisitar(metodo, caminho, opcoes)): Transporte {
  return async (envios, token, clienteId, opcoes = {}) => {
    const referencias = envios.filter((e) => e.envio);
    const lote = {
      cliente_id: clienteId,
      operacoes: envios.map((e) => e.operacao),
      ...(referencias.length > 0 ? { envios: Object.fromEntries(referencias.map((e) => [e.item.id, e.envio])) } : {}),
    };
    const comArquivos = envios.filter((e) => e.arquivos.length > 0 && !e.envio);
    let corpo: unknown = lote;
    if (comArquivos.length > 0) {
      const form = new FormData();
      form.append('operacoes', JSON.stringify(lote));
      for (const { item, arquivos } of comArquivos) {
        for (const arquivo of arquivos) form.append(campoArquivoDaOperacao(item.id), new Blob([arquivo.conteudo], { type: arquivo.tipo || 'application/octet-stream' }), arquivo.nome);
      }
      corpo = form;
    }
    const tempoLimiteMs = opcoes.tempoLimiteMs ?? (comArquivos.length > 0 ? TEMPO_LIMITE_COM_ARQUIVOS_MS : TEMPO_LIMITE_TEXTO_MS);
    const resposta = (await enviar('POST', '/sync/lote', { corpo, token, tempoLimiteMs })) as { resultados: ResultadoEnvio[] };
    return resposta.resultados;
  };
}
