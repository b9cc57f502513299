/**
 * Sessions: a JWT signed with the app's secret, sent as `Authorization: Bearer` (the PWA keeps it
 * in localStorage) or as the httpOnly `token` cookie (so <img src> of a receipt works). Every
 * authenticated request checks the user as the database has it now, so deactivating someone ends their
 * session at once.
 */
import cookie from '@fastify/cookie';
import jwt from '@fastify/jwt';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { naoAutenticado, semPermissao, sessaoInvalida } from '../errors';
import type { App } from '../tipos';
import { carimboDoBanco } from '../db';
import { buscarUsuarioPorId, type LinhaUsuario } from '../usuarios/repositorio';

export const COOKIE_SESSAO = 'token';

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
    verify: { algorithms: ['HS256'], cache: true },
    cookie: { cookieName: COOKIE_SESSAO, signed: false },
  });

  // The user as the database has it now: re-read only when something in the database changed.
  const usuarios = new Map<number, { carimbo: string; usuario: LinhaUsuario | undefined }>();
  function usuarioAtual(id: number): LinhaUsuario | undefined {
    const carimbo = carimboDoBanco(app.db);
    const guardado = usuarios.get(id);
    if (guardado && guardado.carimbo === carimbo) return guardado.usuario;
    const usuario = buscarUsuarioPorId(app.db, id);
    if (usuarios.size >= 10_000) usuarios.clear();
    usuarios.set(id, { carimbo, usuario });
    return usuario;
  }

  async function autenticar(request: FastifyRequest) {
    if (!request.headers.authorization && !request.cookies[COOKIE_SESSAO]) throw naoAutenticado();
    let payload: { sub: string; v?: number };
    try {
      payload = await request.jwtVerify();
    } catch (erro) {
      const code = (erro as { code?: string }).code;
      if (code === 'FST_JWT_AUTHORIZATION_TOKEN_EXPIRED') throw sessaoInvalida('Sessão expirada. Faça login novamente.');
      if (code === 'FST_JWT_NO_AUTHORIZATION_IN_HEADER' || code === 'FST_JWT_NO_AUTHORIZATION_IN_COOKIE') {
        throw naoAutenticado();
      }
      throw sessaoInvalida();
    }
    const id = Number(payload.sub);
    const usuario = Number.isSafeInteger(id) ? usuarioAtual(id) : undefined;
    if (!usuario) throw sessaoInvalida();
    if (!usuario.ativo) throw sessaoInvalida('Usuário inativo. Procure um administrador.');
    if ((payload.v ?? 0) !== usuario.sessaoVersao) throw sessaoInvalida('Sua senha foi alterada. Faça login novamente.');
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
