/** POST /api/auth/login, POST /api/auth/logout, GET /api/auth/me */
import { loginRespostaSchema, loginSchema, mensagemSchema, usuarioRespostaSchema } from '../../../shared/schemas/usuarios';
import { muitasTentativas, sessaoInvalida } from '../errors';
import type { App } from '../tipos';
import { apresentarUsuario, buscarUsuarioPorId } from '../usuarios/repositorio';
import { definirCookieSessao, limparCookieSessao } from './plugin';
import { autenticarCredenciais } from './servico';

export default async function rotasAuth(app: App) {
  app.post(
    '/login',
    {
      schema: { body: loginSchema, response: { 200: loginRespostaSchema } },
      config: {
        rateLimit: {
          max: app.config.limiteLoginPorMinuto,
          timeWindow: 60_000,
          errorResponseBuilder: (_req, contexto) =>
            muitasTentativas(
              `Muitas tentativas de login a partir deste endereço. Aguarde ${Math.max(1, Math.ceil(contexto.ttl / 1000))} segundos e tente novamente.`,
            ),
        },
      },
    },
    async (request, reply) => {
      const usuario = await autenticarCredenciais(app.db, request.body.email, request.body.senha);
      const token = app.jwt.sign({ sub: String(usuario.id), tipo: usuario.tipo, v: usuario.sessaoVersao });
      definirCookieSessao(reply, request, token, app.config.jwtTtlSegundos);
      request.log.info({ usuarioId: usuario.id }, 'login');
      return { token, usuario: apresentarUsuario(usuario) };
    },
  );

  app.post('/logout', { schema: { response: { 200: mensagemSchema } } }, async (_request, reply) => {
    limparCookieSessao(reply);
    return { message: 'Logout realizado com sucesso.' };
  });

  app.get('/me', { onRequest: app.autenticar, schema: { response: { 200: usuarioRespostaSchema } } }, async (request) => {
    const usuario = buscarUsuarioPorId(app.db, request.usuario.id);
    if (!usuario) throw sessaoInvalida();
    return { usuario: apresentarUsuario(usuario) };
  });
}
