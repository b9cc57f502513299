/**
 * The single error handler: every refusal leaves as `{ error: 'mensagem em pt-BR', codigo }` with
 * its HTTP status. Schema failures are 400 with the field's own message; framework errors
 * (bad JSON, body too large, wrong content type) get a pt-BR text; the database or the disk failing
 * underneath is a 503 with Retry-After (saude/indisponibilidade.ts), on every endpoint alike, and so is
 * every other 503; anything unexpected is a 500 whose details stay in the log (without the query's
 * parameters: saude/erroNoLog.ts is the logger's `err` serializer).
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { CodigoErro, CorpoErro } from '../../../shared/api/errors';
import { ErroApp, ErroIndisponivel } from '../errors';
import { classificarIndisponibilidade, erroDeIndisponibilidade, ESPERA_PADRAO_SEGUNDOS, ESPERA_SEGUNDOS } from '../saude/indisponibilidade';
// pt-BR for zod issues without a message of their own (set server-wide when validacao.ts loads).
import '../validacao';

/** Framework error codes -> what the person sees. */
const MENSAGENS_FRAMEWORK: Record<string, { status: number; codigo: CodigoErro; error: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, codigo: 'dados_invalidos', error: 'O corpo da requisição não é um JSON válido.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, codigo: 'dados_invalidos', error: 'O corpo da requisição está vazio.' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, codigo: 'dados_invalidos', error: 'Tamanho da requisição inválido.' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, codigo: 'arquivo_grande', error: 'A requisição é grande demais.' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, codigo: 'tipo_nao_suportado', error: 'Tipo de conteúdo não suportado.' },
  FST_ERR_CTP_INVALID_TYPE: { status: 415, codigo: 'tipo_nao_suportado', error: 'Tipo de conteúdo não suportado.' },
  FST_REQ_FILE_TOO_LARGE: { status: 413, codigo: 'arquivo_grande', error: 'O arquivo é grande demais. O limite é 20 MB.' },
  FST_FILES_LIMIT: { status: 413, codigo: 'arquivo_grande', error: 'Envie apenas um arquivo por vez.' },
  FST_FIELDS_LIMIT: { status: 413, codigo: 'arquivo_grande', error: 'Campos demais na requisição.' },
  FST_PARTS_LIMIT: { status: 413, codigo: 'arquivo_grande', error: 'Partes demais na requisição.' },
  FST_INVALID_MULTIPART_CONTENT_TYPE: { status: 415, codigo: 'tipo_nao_suportado', error: 'Envie o formulário como multipart/form-data.' },
  FST_PROTO_VIOLATION: { status: 400, codigo: 'dados_invalidos', error: 'O formulário tem um campo com nome não permitido.' },
  FST_INVALID_JSON_FIELD_ERROR: { status: 400, codigo: 'dados_invalidos', error: 'Um campo do formulário declarado como JSON não é um JSON válido.' },
  FST_MP_PREMATURE_CLOSE: { status: 400, codigo: 'dados_invalidos', error: 'O envio foi interrompido antes do fim. Tente enviar de novo.' },
  FST_ERR_VALIDATION: { status: 400, codigo: 'dados_invalidos', error: 'Dados inválidos.' },
  // A path with a lone '%' or a bad '%XX' (the router cannot decode it), or a parameter past its length.
  FST_ERR_BAD_URL: { status: 400, codigo: 'dados_invalidos', error: 'Endereço inválido: a requisição tem uma sequência "%" malformada.' },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, codigo: 'dados_invalidos', error: 'Endereço longo demais.' },
  FST_ERR_ASYNC_CONSTRAINT: { status: 400, codigo: 'dados_invalidos', error: 'Requisição inválida.' },
};

/** Generic text per status for 4xx errors that carry no code we know. */
const MENSAGENS_STATUS: Record<number, { codigo: CodigoErro; error: string }> = {
  400: { codigo: 'dados_invalidos', error: 'Requisição inválida.' },
  401: { codigo: 'nao_autenticado', error: 'Não autenticado. Faça login para continuar.' },
  403: { codigo: 'sem_permissao', error: 'Você não tem permissão para esta ação.' },
  404: { codigo: 'nao_encontrado', error: 'Recurso não encontrado.' },
  405: { codigo: 'dados_invalidos', error: 'Método não permitido.' },
  406: { codigo: 'tipo_nao_suportado', error: 'Formato não aceito.' },
  409: { codigo: 'conflito', error: 'Conflito com o estado atual do registro.' },
  413: { codigo: 'arquivo_grande', error: 'A requisição é grande demais.' },
  415: { codigo: 'tipo_nao_suportado', error: 'Tipo de conteúdo não suportado.' },
  422: { codigo: 'regra_de_negocio', error: 'Operação não permitida.' },
  429: { codigo: 'muitas_tentativas', error: 'Muitas requisições. Aguarde um pouco e tente novamente.' },
};

export function corpoDoErro(erro: FastifyError | ErroApp | Error, request: FastifyRequest): { status: number; corpo: CorpoErro; esperaSegundos?: number } {
  if (erro instanceof ErroApp) {
    return { status: erro.statusCode, corpo: erro.corpo(), ...(erro.statusCode === 503 ? { esperaSegundos: erro instanceof ErroIndisponivel ? erro.tentarDeNovoEmSegundos : ESPERA_PADRAO_SEGUNDOS } : {}) };
  }
  const indisponivel = classificarIndisponibilidade(erro);
  if (indisponivel) {
    request.log.error({ err: erro, indisponivel }, indisponivel === 'disco' ? 'servidor sem espaço em disco' : 'banco de dados indisponível');
    return { status: 503, corpo: erroDeIndisponibilidade(indisponivel).corpo(), esperaSegundos: ESPERA_SEGUNDOS[indisponivel] };
  }
  const e = erro as FastifyError;
  if (hasZodFastifySchemaValidationErrors(e)) {
    const primeira = e.validation[0]!;
    // A type issue at the root means the body/query itself has the wrong shape (e.g. not an object).
    const mensagem =
      primeira.instancePath === '/' && primeira.keyword === 'invalid_type' ? 'Dados da requisição inválidos.' : (primeira.message ?? 'Dados inválidos.');
    return { status: 400, corpo: { error: mensagem, codigo: 'dados_invalidos' } };
  }
  if (e.code && MENSAGENS_FRAMEWORK[e.code]) {
    const m = MENSAGENS_FRAMEWORK[e.code]!;
    return { status: m.status, corpo: { error: m.error, codigo: m.codigo } };
  }
  // JSON syntax errors from the body parser carry a 400 but no code.
  const status = typeof e.statusCode === 'number' ? e.statusCode : 500;
  if (status >= 400 && status < 500) {
    const m = MENSAGENS_STATUS[status] ?? MENSAGENS_STATUS[400]!;
    return { status, corpo: { error: m.error, codigo: m.codigo } };
  }
  request.log.error({ err: erro }, 'erro não tratado');
  if (status === 503) {
    return { status, corpo: { error: 'Serviço temporariamente indisponível.', codigo: 'indisponivel' }, esperaSegundos: ESPERA_PADRAO_SEGUNDOS };
  }
  return { status: 500, corpo: { error: 'Erro interno do servidor. Tente novamente.', codigo: 'erro_interno' } };
}

/**
 * Fastify's `frameworkErrors`: errors the router raises before any route or hook (a bad '%XX' in
 * the path) went out as Fastify's own English body; now the same `{ error, codigo }` as the rest.
 */
export function responderErroDeFramework(erro: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  void responder(erro, request, reply);
}

function responder(erro: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
  const { status, corpo, esperaSegundos } = corpoDoErro(erro, request);
  if (status < 500) request.log.info({ status, codigo: corpo.codigo, motivo: corpo.error }, 'requisição recusada');
  // A 503 tells when to try again; one that set its own wait (an export's queue) keeps it.
  if (esperaSegundos !== undefined && !reply.hasHeader('retry-after')) reply.header('Retry-After', String(esperaSegundos));
  return reply.code(status).type('application/json; charset=utf-8').send(corpo);
}

async function erros(app: FastifyInstance) {
  app.setErrorHandler((erro: FastifyError, request: FastifyRequest, reply: FastifyReply) => responder(erro, request, reply));
}

export default fp(erros, { name: 'erros' });
