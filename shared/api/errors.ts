/**
 * The one error body the API answers with: `{ "error": "mensagem em pt-BR", "codigo": "..." }`.
 * `error` is for people; `codigo` is stable so the client can react (e.g. pause the outbox on
 * 'sessao_invalida') without parsing text.
 */
export const CODIGOS_ERRO = [
  'dados_invalidos', // 400: the request does not match the schema
  'nao_autenticado', // 401: no token / no cookie
  'sessao_invalida', // 401: expired, tampered or revoked token, or an inactive user
  'credenciais_invalidas', // 401: wrong e-mail or password
  'usuario_bloqueado', // 403
  'usuario_inativo', // 403
  'sem_permissao', // 403
  'nao_encontrado', // 404
  'conflito', // 409
  'conflito_de_versao', // 409: an offline edit based on a version someone else changed since (both values in `conflito`)
  'rota_finalizada', // 409: a write on a route its employee finished (a queued one is held for the admin: 202)
  'arquivo_grande', // 413
  'tipo_nao_suportado', // 415
  'regra_de_negocio', // 422: well-formed but not allowed by a business rule
  'versao_antiga', // 426: the client app is older than the server accepts writes from (update it)
  'muitas_tentativas', // 429
  'erro_interno', // 500: details never leave the server
  'indisponivel', // 503
] as const;

export type CodigoErro = (typeof CODIGOS_ERRO)[number];

export interface CorpoErro {
  error: string;
  codigo?: CodigoErro;
  /** With 'conflito_de_versao': the server's current version and values, and the ones sent. */
  conflito?: ConflitoDeVersao;
}

/** Amounts in centavos, boletos a count. */
export interface ValoresEmConflito {
  valor_dinheiro: number;
  valor_pix: number;
  valor_cartao: number;
  valor_link: number;
  valor_boletos: number;
  observacoes: string;
}

export interface ConflitoDeVersao {
  versao_atual: number;
  /** When the server's version was last changed (ISO); absent in answers of older servers. */
  alterado_em?: string;
  servidor: ValoresEmConflito;
  enviado: ValoresEmConflito;
}

export function ehCorpoErro(valor: unknown): valor is CorpoErro {
  return typeof valor === 'object' && valor !== null && typeof (valor as CorpoErro).error === 'string';
}
