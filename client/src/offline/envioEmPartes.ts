/**
 * A large receipt goes in parts, resumable (the server's half is
 * server/src/sync/envioEmPartes.ts): PUT /api/sync/envios/<id>/partes?inicio=&total=&sha256= with
 * the bytes from `inicio`, each part sized for the link (vazao.ts). After a cut (no signal, a time
 * limit, the app closed) the next try asks the server how many bytes it has (GET
 * /api/sync/envios/<id>) and goes on from there instead of starting over. The upload id is the
 * local file's id (a uuid), so nothing else is stored but a mark that it was started (meta
 * 'envio:<id>'), which says a GET is worth its round trip.
 */
import { ErroApi } from '../api/client';
import type { ArquivoLocal, BancoLocal } from './db';
import type { Enviar } from './transporte';
import type { Vazao } from './vazao';

/** Receipts larger than this go in parts; smaller ones ride in the multipart batch. */
export const PARTES_A_PARTIR_DE = 256 * 1024;

export const chaveDoEnvio = (arquivoId: string) => `envio:${arquivoId}`;

export interface SituacaoEnvio {
  recebidos: number;
  total: number;
  completo: boolean;
}

export interface OpcoesEnvioEmPartes {
  banco: BancoLocal;
  enviar: Enviar;
  vazao: Vazao;
  token: string | null;
  agora?: () => number;
  /** Asked between parts: true when writes without files arrived and should go first (the upload resumes after them). */
  ceder?: () => Promise<boolean>;
  /** Told after each part the server took (the sync panel's progress, tests). */
  aoProgredir?: (recebidos: number, total: number) => void;
}

export type ResultadoEnvioEmPartes = 'completo' | 'cedeu';

/** The SHA-256 the server checks the whole file against; null where the browser has no Web Crypto (plain http). */
async function resumo(conteudo: ArrayBuffer): Promise<string | null> {
  const sutil = typeof crypto !== 'undefined' ? crypto.subtle : undefined;
  if (!sutil) return null;
  const hash = new Uint8Array(await sutil.digest('SHA-256', conteudo));
  return Array.from(hash, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** How many bytes of this upload the server has (0 when it has none: never started, or cleaned). */
async function situacaoNoServidor(o: OpcoesEnvioEmPartes, arquivo: ArquivoLocal): Promise<SituacaoEnvio | null> {
  try {
    return (await o.enviar('GET', `/sync/envios/${arquivo.id}`, { token: o.token, tempoLimiteMs: 30_000 })) as SituacaoEnvio;
  } catch (erro) {
    if (erro instanceof ErroApi && erro.status === 404) return null;
    throw erro;
  }
}

/**
 * Uploads the receipt until the server has all of it ('completo'), or until `ceder` asks to let
 * other writes go first ('cedeu'). Throws ErroOffline/ErroApi as a request does.
 */
export async function enviarEmPartes(o: OpcoesEnvioEmPartes, arquivo: ArquivoLocal): Promise<ResultadoEnvioEmPartes> {
  const agora = o.agora ?? Date.now;
  const total = arquivo.conteudo.byteLength;
  const sha256 = await resumo(arquivo.conteudo);
  const chave = chaveDoEnvio(arquivo.id);
  let recebidos = 0;
  if ((await o.banco.meta.get(chave)) !== undefined) {
    const situacao = await situacaoNoServidor(o, arquivo);
    if (situacao?.total === total) {
      if (situacao.completo) return 'completo';
      // All bytes there but not checked (the server stopped at the last part): the last byte again completes it.
      recebidos = Math.min(situacao.recebidos, total - 1);
    }
  } else {
    await o.banco.meta.put({ chave, valor: { iniciadoEm: new Date(agora()).toISOString() } });
  }
  await o.vazao.carregar();
  // Bounded: each turn moves at least one byte forward or ends; a server that keeps refusing ends it.
  for (let voltas = 0; voltas < 10_000; voltas++) {
    const tamanho = Math.min(o.vazao.orcamento(), total - recebidos);
    const parte = new Blob([arquivo.conteudo.slice(recebidos, recebidos + tamanho)]);
    const tempoLimiteMs = o.vazao.tempoLimiteMs(tamanho);
    const inicio = agora();
    let situacao: SituacaoEnvio;
    try {
      situacao = (await o.enviar('PUT', `/sync/envios/${arquivo.id}/partes?${new URLSearchParams({ inicio: String(recebidos), total: String(total), ...(sha256 ? { sha256 } : {}) })}`, {
        corpo: parte,
        token: o.token,
        tempoLimiteMs,
      })) as SituacaoEnvio;
    } catch (erro) {
      if (erro instanceof ErroApi && erro.status === 409) {
        // The server has another offset (a part was lost, or it kept less of a cut one): go on from its count.
        const noServidor = await situacaoNoServidor(o, arquivo);
        if (noServidor && noServidor.total === total && noServidor.recebidos !== recebidos) {
          recebidos = Math.min(noServidor.recebidos, total - 1);
          continue;
        }
      }
      if (erro instanceof Error && erro.name === 'ErroOffline' && (erro as { tempoEsgotado?: boolean }).tempoEsgotado) {
        await o.vazao.tempoEsgotado(tamanho, agora() - inicio);
      }
      throw erro;
    }
    await o.vazao.registrar(situacao.recebidos - recebidos, agora() - inicio);
    recebidos = Math.min(situacao.recebidos, total - 1);
    o.aoProgredir?.(situacao.recebidos, total);
    if (situacao.completo) return 'completo';
    if (o.ceder && (await o.ceder())) return 'cedeu';
  }
  return 'cedeu';
}
