/**
 * The one way the client talks to the server (spec section 7): base /api, cookies sent, a 10 s
 * timeout, JSON by default, the bearer token from localStorage. A 401 outside /login ends the
 * local session. Failures become `ErroApi` (the server answered) or `ErroOffline` (it did not).
 */
import { ehCorpoErro, type CodigoErro } from '../../../shared/api/errors';
import { lerToken, sessaoExpirou } from '../auth/sessaoLocal';
import { versaoApp } from '../versaoApp';

export const BASE_API = '/api';
export const TEMPO_LIMITE_MS = 10_000;

export class ErroApi extends Error {
  constructor(
    public readonly status: number,
    mensagem: string,
    public readonly codigo?: CodigoErro,
    /** Retry-After of a 429 or 503, in seconds: how long the server asked the client to wait. */
    public readonly esperarSegundos?: number,
  ) {
    super(mensagem);
    this.name = 'ErroApi';
  }
}

/** No answer: no network, the server down, or the 10 s timeout. The request may or may not have arrived. */
export class ErroOffline extends Error {
  constructor(
    mensagem = 'Sem conexão com o servidor.',
    /** The time limit ran out (the link is slow or the server busy), rather than no signal at all. */
    public readonly tempoEsgotado = false,
  ) {
    super(mensagem);
    this.name = 'ErroOffline';
  }
}

export type Parametros = Record<string, string | number | boolean | null | undefined>;

export interface OpcoesRequisicao {
  corpo?: unknown;
  params?: Parametros;
  sinal?: AbortSignal;
  tempoLimiteMs?: number;
  /** The caller deals with 401 itself (the login form, the sync engine's pause). */
  ignorarSessaoExpirada?: boolean;
  /** Overrides the stored token (the sync engine replays with the token of the item's owner). */
  token?: string | null;
}

/** The fetch in use; tests and the sync engine's tests swap it to simulate a dropped connection. */
let fetchAtual: typeof fetch = (...args) => fetch(...args);
export function definirFetch(f: typeof fetch): void {
  fetchAtual = f;
}

/** Headers added to every request: the phone's queue report (offline/dispositivo.ts); null removes them. */
let cabecalhosExtras: (() => Record<string, string>) | null = null;
export function definirCabecalhosExtras(f: (() => Record<string, string>) | null): void {
  cabecalhosExtras = f;
}

/** Where the API lives: same origin in the app; an absolute origin for tests that run outside a page. */
let origemApi = '';
export function definirOrigemApi(origem: string): void {
  origemApi = origem;
}

export function montarUrl(caminho: string, params?: Parametros): string {
  const url = `${origemApi}${BASE_API}${caminho}`;
  if (!params) return url;
  const busca = new URLSearchParams();
  for (const [chave, valor] of Object.entries(params)) {
    if (valor !== undefined && valor !== null && valor !== '') busca.set(chave, String(valor));
  }
  const qs = busca.toString();
  return qs ? `${url}?${qs}` : url;
}

/** Retry-After as seconds (a number, or an HTTP date); undefined when absent or unreadable. */
export function segundosDeEspera(cabecalho: string | null, agora = Date.now()): number | undefined {
  if (!cabecalho) return undefined;
  const texto = cabecalho.trim();
  if (/^\d+$/.test(texto)) return Number(texto);
  const quando = Date.parse(texto);
  return Number.isNaN(quando) ? undefined : Math.max(0, Math.ceil((quando - agora) / 1000));
}

export async function requisitar<T>(metodo: string, caminho: string, opcoes: OpcoesRequisicao = {}): Promise<T> {
  // The version on every request: the server refuses queued writes from an app too old for it (426).
  const cabecalhos: Record<string, string> = { ...cabecalhosExtras?.(), Accept: 'application/json', 'X-Versao-App': versaoApp() };
  const token = opcoes.token === undefined ? lerToken() : opcoes.token;
  if (token) cabecalhos.Authorization = `Bearer ${token}`;
  let corpo: BodyInit | undefined;
  if (opcoes.corpo instanceof FormData) {
    corpo = opcoes.corpo; // the browser sets the multipart boundary
  } else if (opcoes.corpo instanceof Blob) {
    // Raw bytes (a receipt's part, offline/envioEmPartes.ts).
    cabecalhos['Content-Type'] = 'application/octet-stream';
    corpo = opcoes.corpo;
  } else if (opcoes.corpo !== undefined) {
    cabecalhos['Content-Type'] = 'application/json';
    corpo = JSON.stringify(opcoes.corpo);
  }
  const limite = AbortSignal.timeout(opcoes.tempoLimiteMs ?? TEMPO_LIMITE_MS);
  const sinal = opcoes.sinal ? AbortSignal.any([opcoes.sinal, limite]) : limite;

  let resposta: Response;
  try {
    resposta = await fetchAtual(montarUrl(caminho, opcoes.params), {
      method: metodo,
      headers: cabecalhos,
      body: corpo,
      credentials: 'include',
      signal: sinal,
    });
  } catch (erro) {
    if (opcoes.sinal?.aborted) throw erro; // cancelled by the caller, not a network problem
    throw limite.aborted ? new ErroOffline('O servidor demorou demais para responder.', true) : new ErroOffline();
  }

  const tipo = resposta.headers.get('content-type') ?? '';
  const dados: unknown = tipo.includes('application/json') ? await resposta.json().catch(() => null) : null;
  if (!resposta.ok) throw erroDaResposta(resposta, dados, opcoes);
  return dados as T;
}

/** A refusal as ErroApi (the server's pt-BR message when it sent one); a 401 outside /login ends the local session. */
function erroDaResposta(resposta: Response, dados: unknown, opcoes: Pick<OpcoesRequisicao, 'ignorarSessaoExpirada'>): ErroApi {
  const naLogin = typeof location !== 'undefined' && location.pathname === '/login';
  if (resposta.status === 401 && !opcoes.ignorarSessaoExpirada && !naLogin) sessaoExpirou(ehCorpoErro(dados) ? dados.error : null);
  const mensagem = ehCorpoErro(dados) ? dados.error : `Erro ${resposta.status}`;
  return new ErroApi(resposta.status, mensagem, ehCorpoErro(dados) ? dados.codigo : undefined, segundosDeEspera(resposta.headers.get('retry-after')));
}

/**
 * A file from the API (an export), answered as soon as its headers arrive: the caller reads the body at
 * the network's pace, with no time limit on the whole (a year of receipts takes minutes). Same headers,
 * token and cookies as every request; a refusal is ErroApi with the server's message, no answer ErroOffline.
 */
export async function pedirArquivo(caminho: string, opcoes: { params?: Parametros; sinal?: AbortSignal; tempoLimiteMs?: number } = {}): Promise<Response> {
  const cabecalhos: Record<string, string> = { ...cabecalhosExtras?.(), 'X-Versao-App': versaoApp() };
  const token = lerToken();
  if (token) cabecalhos.Authorization = `Bearer ${token}`;
  // The limit covers the wait for the answer to start, not the download: disarmed when the headers arrive.
  const controle = new AbortController();
  const relogio = setTimeout(() => controle.abort(), opcoes.tempoLimiteMs ?? TEMPO_LIMITE_MS * 6);
  const sinal = opcoes.sinal ? AbortSignal.any([opcoes.sinal, controle.signal]) : controle.signal;
  let resposta: Response;
  try {
    resposta = await fetchAtual(montarUrl(caminho, opcoes.params), { method: 'GET', headers: cabecalhos, credentials: 'include', signal: sinal });
  } catch (erro) {
    if (opcoes.sinal?.aborted) throw erro;
    throw controle.signal.aborted ? new ErroOffline('O servidor demorou demais para responder.', true) : new ErroOffline();
  } finally {
    clearTimeout(relogio);
  }
  if (!resposta.ok) {
    const tipo = resposta.headers.get('content-type') ?? '';
    throw erroDaResposta(resposta, tipo.includes('application/json') ? await resposta.json().catch(() => null) : null, {});
  }
  return resposta;
}

export const api = {
  get: <T>(caminho: string, opcoes?: OpcoesRequisicao) => requisitar<T>('GET', caminho, opcoes),
  post: <T>(caminho: string, corpo?: unknown, opcoes?: OpcoesRequisicao) => requisitar<T>('POST', caminho, { ...opcoes, corpo }),
  put: <T>(caminho: string, corpo?: unknown, opcoes?: OpcoesRequisicao) => requisitar<T>('PUT', caminho, { ...opcoes, corpo }),
  patch: <T>(caminho: string, corpo?: unknown, opcoes?: OpcoesRequisicao) => requisitar<T>('PATCH', caminho, { ...opcoes, corpo }),
  delete: <T>(caminho: string, opcoes?: OpcoesRequisicao) => requisitar<T>('DELETE', caminho, opcoes),
};

/** The text to show for a failure: the server's message, or `padrao` (the spec's fallback per action). */
export function mensagemDeErro(erro: unknown, padrao: string): string {
  if (erro instanceof ErroApi && erro.message && !/^Erro \d+$/.test(erro.message)) return erro.message;
  if (erro instanceof ErroOffline) return `${erro.message} Verifique sua internet e tente novamente.`;
  return padrao;
}
