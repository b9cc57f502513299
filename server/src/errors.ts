/**
 * Errors a handler or service throws on purpose. The error handler (plugins/erros.ts) turns them
 * into `{ error, codigo }` with their status; anything else becomes a 500 whose details stay in
 * the log.
 */
import type { CodigoErro, ConflitoDeVersao } from '../../shared/api/errors';

export class ErroApp extends Error {
  constructor(
    public readonly statusCode: number,
    public readonly codigo: CodigoErro,
    mensagem: string,
    /** Sent in the body beside the message (a version conflict's two values). */
    public readonly conflito?: ConflitoDeVersao,
  ) {
    super(mensagem);
    this.name = 'ErroApp';
  }

  /** The body the API answers with. */
  corpo(): { error: string; codigo: CodigoErro; conflito?: ConflitoDeVersao } {
    return { error: this.message, codigo: this.codigo, ...(this.conflito ? { conflito: this.conflito } : {}) };
  }
}

export const conflitoDeVersao = (mensagem: string, conflito: ConflitoDeVersao) => new ErroApp(409, 'conflito_de_versao', mensagem, conflito);

export const dadosInvalidos = (mensagem: string) => new ErroApp(400, 'dados_invalidos', mensagem);
export const naoAutenticado = (mensagem = 'Não autenticado. Faça login para continuar.') =>
  new ErroApp(401, 'nao_autenticado', mensagem);
export const sessaoInvalida = (mensagem = 'Sessão inválida. Faça login novamente.') =>
  new ErroApp(401, 'sessao_invalida', mensagem);
export const semPermissao = (mensagem = 'Você não tem permissão para esta ação.') =>
  new ErroApp(403, 'sem_permissao', mensagem);
export const naoEncontrado = (mensagem: string) => new ErroApp(404, 'nao_encontrado', mensagem);
export const conflito = (mensagem: string) => new ErroApp(409, 'conflito', mensagem);

/** A write on a route its employee finished: refused alone, held for the admin when it came queued (sync/lote.ts). */
export class ErroRotaFinalizada extends ErroApp {
  constructor(
    readonly rotaId: number,
    mensagem: string,
  ) {
    super(409, 'rota_finalizada', mensagem);
  }
}
/** What a 503 asks the client to wait before trying again (Retry-After), unless the error says otherwise. */
export const SEGUNDOS_PARA_TENTAR_DE_NOVO = 5;

/**
 * Not now, for a reason that passes (storage not answering, another import running): 503 with
 * Retry-After, so the phone keeps its queue and the person tries again.
 */
export class ErroIndisponivel extends ErroApp {
  constructor(
    mensagem: string,
    readonly tentarDeNovoEmSegundos = SEGUNDOS_PARA_TENTAR_DE_NOVO,
  ) {
    super(503, 'indisponivel', mensagem);
  }
}
export const indisponivel = (mensagem: string, tentarDeNovoEmSegundos?: number) => new ErroIndisponivel(mensagem, tentarDeNovoEmSegundos);
export const arquivoGrande = (mensagem: string) => new ErroApp(413, 'arquivo_grande', mensagem);
export const tipoNaoSuportado = (mensagem: string) => new ErroApp(415, 'tipo_nao_suportado', mensagem);
export const regraDeNegocio = (mensagem: string) => new ErroApp(422, 'regra_de_negocio', mensagem);
export const muitasTentativas = (mensagem: string) => new ErroApp(429, 'muitas_tentativas', mensagem);
export const versaoAntigaDoApp = (mensagem: string) => new ErroApp(426, 'versao_antiga', mensagem);
