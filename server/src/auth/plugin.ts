/**
 * Sessions: a JWT signed with the app's secret, sent as `Authorization: Bearer` (the PWA keeps it
 * in localStorage) or as the httpOnly `token` cookie (so <img src> of a receipt works). The token
 * names a server-side session (`sid`, auth/sessoes.ts). Every authenticated request checks the user
 * and the session as the database has them now, so a logout, a password change, a deactivation or
 * the admin's 'Encerrar sessões' end it at once. Both are cached until the database changes.
 */
import cookie from '@fastify/cookie';
import jwt from '@fastify/jwt';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { naoAutenticado, semPermissao, sessaoInvalida } from '../errors';
import type { App } from '../tipos';
import { carimboDaRequisicao } from '../db';
import { sessaoEncerradaPorAdmin } from '../auditoria/repositorio';
import { buscarUsuarioPorId } from '../usuarios/repositorio';
import { buscarSessao, sessaoValida } from './sessoes';

export const COOKIE_SESSAO = 'token';
export const MENSAGEM_SESSAO_ENCERRADA = 'Sessão encerrada. Faça login novamente.';
/** The phone's login screen shows it as the reason (client/src/auth/motivoDaSaida.ts). */
export const MENSAGEM_SESSAO_ENCERRADA_PELO_ADMIN = 'Sua sessão foi encerrada pelo administrador.';

/** The session each authenticated request came with (logout and the own password change need it). */
const sessaoDaRequisicao = new WeakMap<FastifyRequest, string>();
export function sessaoDe(request: FastifyRequest): string | undefined {
  return sessaoDaRequisicao.get(request);
}

/**
 * Where a request's token is read, the one rule for it: `Authorization: Bearer <token>` (what the PWA
 * sends), else the session cookie. Any other Authorization (Basic, a bare word) plays no part, so a
 * request carrying one beside the cookie is authenticated by the cookie.
 */
export function tokenDaRequisicao(request: FastifyRequest): { texto: string; peloCookie: boolean } | undefined {
  const cabecalho = request.headers.authorization;
  if (cabecalho && /^Bearer\s/i.test(cabecalho)) {
    const partes = cabecalho.split(' ');
    // A malformed Bearer header is refused as an invalid session, never passed over for the cookie.
    return { texto: partes.length === 2 && partes[1] ? partes[1] : '', peloCookie: false };
  }
  const cookie = request.cookies[COOKIE_SESSAO];
  return cookie ? { texto: cookie, peloCookie: true } : undefined;
}

/** Requests whose session came from the cookie: the writes among them must come from this app's pages (plugins/origem.ts). */
const autenticadasPeloCookie = new WeakSet<FastifyRequest>();
export function autenticadaPeloCookie(request: FastifyRequest): boolean {
  return autenticadasPeloCookie.has(request);
}

/** A token's claims as verified; `exp` (seconds) is checked to be a number before it is kept. */
interface TokenVerificado {
  sub: string;
  sid?: unknown;
  exp: number;
}

export interface OpcoesAuth {
  segredo: string;
  ttlSegundos: number;
}

async function auth(app: App, { segredo, ttlSegundos }: OpcoesAuth) {
  await app.register(cookie);
  await app.register(jwt, {
    secret: segredo,
    sign: { expiresIn: ttlSegundos, algorithm: 'HS256' },
    // A token seen before is not verified (HMAC) again until it expires; the user is still re-read below.
    // The token is found by tokenDaRequisicao, so what authenticates and what the Origin check sees agree.
    verify: { algorithms: ['HS256'], cache: true, extractToken: (request: FastifyRequest) => tokenDaRequisicao(request)?.texto },
    cookie: { cookieName: COOKIE_SESSAO, signed: false },
  });

  // The user and the session as the database has them now: re-read only when something in the database
  // changed, so a revocation or a deactivation (both writes) is seen by the very next request.
  const usuarioAtual = lidoAteOBancoMudar(app, (id: number) => buscarUsuarioPorId(app.db, id));
  const sessaoAtual = lidoAteOBancoMudar(app, (id: string) => buscarSessao(app.db, id));

  // Tokens this process has verified (signature, algorithm, claims), by their exact text, kept until they
  // expire: a phone replaying its queue sends the same token on every batch, and @fastify/jwt's own
  // verification, even answered from its cache, cost ~0.13 ms of each. Found by the plugin's
  // own lookup (lookupToken), so the text kept is the text that was verified.
  const verificados = new Map<string, TokenVerificado>();
  async function tokenVerificado(request: FastifyRequest): Promise<TokenVerificado> {
    let texto: string | undefined;
    try {
      texto = app.jwt.lookupToken(request);
    } catch {
      // No token where the plugin looks: jwtVerify gives the refusal.
    }
    const lembrado = texto === undefined ? undefined : verificados.get(texto);
    // Past its expiry it goes to jwtVerify again, which refuses it as expired (the same instant fast-jwt uses: exp in seconds, inclusive).
    if (lembrado && Date.now() <= lembrado.exp * 1000) return lembrado;
    const payload = await request.jwtVerify<{ sub: string; sid?: unknown; exp?: unknown }>();
    if (texto !== undefined && typeof payload.exp === 'number') {
      if (verificados.size >= 10_000) verificados.clear();
      verificados.set(texto, payload as TokenVerificado);
    }
    return payload as TokenVerificado;
  }

  async function autenticar(request: FastifyRequest) {
    const token = tokenDaRequisicao(request);
    if (!token) throw naoAutenticado();
    let payload: { sub: string; sid?: unknown; exp?: unknown };
    try {
      payload = await tokenVerificado(request);
    } catch (erro) {
      const code = (erro as { code?: string }).code;
      if (code === 'FST_JWT_AUTHORIZATION_TOKEN_EXPIRED') throw sessaoInvalida('Sessão expirada. Faça login novamente.');
      if (code === 'FST_JWT_NO_AUTHORIZATION_IN_HEADER' || code === 'FST_JWT_NO_AUTHORIZATION_IN_COOKIE') {
        throw naoAutenticado();
      }
      throw sessaoInvalida();
    }
    // A token that never expires is not one this server signs.
    if (typeof payload.exp !== 'number') throw sessaoInvalida();
    const id = Number(payload.sub);
    const usuario = Number.isSafeInteger(id) ? await usuarioAtual(id, request) : undefined;
    if (!usuario) throw sessaoInvalida();
    if (!usuario.ativo) throw sessaoInvalida('Usuário inativo. Procure um administrador.');
    // Tokens from before server-side sessions carry no `sid`: refused, the phone keeps its queue and asks for a login.
    const sid = payload.sid;
    const sessao = typeof sid === 'string' ? await sessaoAtual(sid, request) : undefined;
    if (!sessaoValida(sessao, usuario.id)) {
      // Read only on a refusal: the person is told who ended it when an admin did.
      const peloAdmin = sessao?.revogadaEm != null && sessao.usuarioId === usuario.id && (await sessaoEncerradaPorAdmin(app.db, usuario.id, sessao.revogadaEm));
      throw sessaoInvalida(peloAdmin ? MENSAGEM_SESSAO_ENCERRADA_PELO_ADMIN : MENSAGEM_SESSAO_ENCERRADA);
    }
    sessaoDaRequisicao.set(request, sid as string);
    if (token.peloCookie) autenticadasPeloCookie.add(request);
    request.usuario = { id: usuario.id, nome: usuario.nome, email: usuario.email, tipo: usuario.tipo };
  }

  app.decorateRequest('usuario', null as unknown as FastifyRequest['usuario']);
  app.decorate('autenticar', autenticar);
  // A route may add these on top of a subtree that already authenticated: do not verify twice.
  const autenticado = async (request: FastifyRequest) => {
    if (!request.usuario) await autenticar(request);
  };
  app.decorate('exigirAdmin', async (request: FastifyRequest) => {
    await autenticado(request);
    if (request.usuario.tipo !== 'admin') throw semPermissao('Acesso restrito a administradores.');
  });
  app.decorate('exigirFuncionario', async (request: FastifyRequest) => {
    await autenticado(request);
    if (request.usuario.tipo !== 'funcionario') throw semPermissao('Acesso restrito a funcionários.');
  });
}

/** A read by key kept until the database changes (carimboDoBanco); bounded so forged keys cannot grow it. */
function lidoAteOBancoMudar<K, V>(app: App, ler: (chave: K) => Promise<V>): (chave: K, requisicao: FastifyRequest) => Promise<V> {
  const guardados = new Map<K, { carimbo: string; valor: V }>();
  return async (chave, requisicao) => {
    // Taken before the read: a write that lands while it runs changes the stamp, so the next call reads again.
    const carimbo = await carimboDaRequisicao(app.db, requisicao);
    const guardado = guardados.get(chave);
    if (guardado && guardado.carimbo === carimbo) return guardado.valor;
    const valor = await ler(chave);
    if (guardados.size >= 10_000) guardados.clear();
    guardados.set(chave, { carimbo, valor });
    return valor;
  };
}

/** Sets the session cookie next to the token in the login response. */
export function definirCookieSessao(reply: FastifyReply, request: FastifyRequest, token: string, ttlSegundos: number) {
  reply.setCookie(COOKIE_SESSAO, token, {
    httpOnly: true,
    sameSite: 'strict',
    secure: request.protocol === 'https',
    path: '/api',
    maxAge: ttlSegundos,
  });
}

export function limparCookieSessao(reply: FastifyReply) {
  reply.clearCookie(COOKIE_SESSAO, { path: '/api' });
}

export default fp(auth, { name: 'auth', dependencies: [] });
