/**
 * Cross-site requests: a request that changes something (POST/PUT/PATCH/DELETE) and is
 * authenticated only by the session cookie must come from a page of this app. Its Origin (or,
 * without one, its Referer) must name the host the request was sent to: the Host header, or the
 * proxy's X-Forwarded-Host when TRUST_PROXY. Otherwise 403. Requests authenticated by
 * `Authorization: Bearer` (what the PWA sends) are not affected: another site cannot make a browser
 * add that header. Any other Authorization header (Basic...) does not exempt a request: the session
 * then still comes from the cookie (auth/plugin.ts, tokenDaRequisicao), and a page elsewhere can make
 * a browser send Basic credentials.
 *
 * Runs in preValidation, after the routes' authentication: a request whose cookie is not a valid
 * session already got its 401, and one without a session is not "cookie-authenticated".
 */
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { semPermissao } from '../errors';
import type { App } from '../tipos';
import { autenticadaPeloCookie } from '../auth/plugin';

const METODOS_QUE_MUDAM = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export const MENSAGEM_ORIGEM = 'Requisição recusada: ela não veio de uma página deste sistema. Recarregue a página e tente novamente.';

function primeiro(valor: string | string[] | undefined): string | undefined {
  const v = Array.isArray(valor) ? valor[0] : valor;
  return v?.split(',')[0]?.trim() || undefined;
}

/** The host:port the request was sent to, as the browser saw it. */
function hostDaRequisicao(request: FastifyRequest, confiarNoProxy: boolean): string | undefined {
  return (confiarNoProxy ? primeiro(request.headers['x-forwarded-host']) : undefined) ?? primeiro(request.headers.host);
}

/** Does `endereco` (an Origin or Referer) point at `host`? Default ports compare equal (':80' on http). */
export function mesmaOrigem(endereco: string | undefined, host: string | undefined): boolean {
  if (!endereco || !host || endereco === 'null') return false;
  try {
    const origem = new URL(endereco);
    if (origem.protocol !== 'http:' && origem.protocol !== 'https:') return false;
    return origem.host === new URL(`${origem.protocol}//${host}`).host;
  } catch {
    return false;
  }
}

async function origem(app: App, { confiarNoProxy }: { confiarNoProxy: boolean }) {
  app.addHook('preValidation', async (request) => {
    if (!METODOS_QUE_MUDAM.has(request.method) || !request.usuario || !autenticadaPeloCookie(request)) return;
    const endereco = primeiro(request.headers.origin) ?? primeiro(request.headers.referer);
    if (!mesmaOrigem(endereco, hostDaRequisicao(request, confiarNoProxy))) throw semPermissao(MENSAGEM_ORIGEM);
  });
}

export default fp(origem, { name: 'origem', dependencies: ['auth'] });
