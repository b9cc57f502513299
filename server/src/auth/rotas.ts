/** POST /api/auth/login, POST /api/auth/logout, GET /api/auth/me, PUT /api/auth/senha */
import { loginRespostaSchema, loginSchema, mensagemSchema, senhaPropriaSchema, usuarioRespostaSchema } from '../../../shared/schemas/usuarios';
import { muitasTentativas, regraDeNegocio, sessaoInvalida } from '../errors';
import type { App } from '../tipos';
import { apresentarUsuario, buscarUsuarioPorId, registrarFalhaDeLogin, registrarLoginCerto, reservarTentativaDeLogin } from '../usuarios/repositorio';
import { alterarSenha } from '../usuarios/servico';
import { limitarLoginPorEndereco } from './limiteLogin';
import { definirCookieSessao, limparCookieSessao, sessaoDe } from './plugin';
import { conferirSenha } from './senha';
import { autenticarCredenciais, MAX_TENTATIVAS_LOGIN } from './servico';
import { criarSessao, revogarSessao } from './sessoes';

export default async function rotasAuth(app: App) {
  const minutos = app.config.loginBloqueioMinutos;

  app.post(
    '/login',
    {
      // Counted in the database: every app process behind the proxy sees the same attempts (limiteLogin.ts).
      onRequest: limitarLoginPorEndereco(app.db, app.config.limiteLoginPorMinuto),
      schema: { body: loginSchema, response: { 200: loginRespostaSchema } },
    },
    async (request, reply) => {
      const usuario = await autenticarCredenciais(app.db, request.body.email, request.body.senha, { bloqueioMinutos: minutos });
      const sessao = await criarSessao(app.db, usuario.id, app.config.jwtTtlSegundos, String(request.headers['user-agent'] ?? ''));
      const token = app.jwt.sign({ sub: String(usuario.id), tipo: usuario.tipo, sid: sessao.id });
      definirCookieSessao(reply, request, token, app.config.jwtTtlSegundos);
      request.log.info({ usuarioId: usuario.id }, 'login');
      return { token, usuario: apresentarUsuario(usuario, minutos) };
    },
  );

  // Ends this session on the server (the token by header or cookie), then the cookie. Never fails:
  // an expired, revoked or missing token still gets the cookie cleared.
  app.post('/logout', { schema: { response: { 200: mensagemSchema } } }, async (request, reply) => {
    if (request.headers.authorization || request.cookies.token) {
      try {
        const payload = await request.jwtVerify<{ sub: string; sid?: unknown }>();
        const id = Number(payload.sub);
        if (typeof payload.sid === 'string' && Number.isSafeInteger(id)) await revogarSessao(app.db, payload.sid, id);
      } catch {
        // Nothing to end.
      }
    }
    limparCookieSessao(reply);
    return { message: 'Logout realizado com sucesso.' };
  });

  app.get('/me', { onRequest: app.autenticar, schema: { response: { 200: usuarioRespostaSchema } } }, async (request) => {
    const usuario = await buscarUsuarioPorId(app.db, request.usuario.id);
    if (!usuario) throw sessaoInvalida();
    return { usuario: apresentarUsuario(usuario, minutos) };
  });

  // The signed-in user's own password (admin or employee). A wrong current password counts like a
  // wrong login (the same 5 in a row, the same block), so a stolen session cannot guess it either.
  // The other sessions end; this one goes on (an employee's phone keeps working).
  app.put('/senha', { onRequest: app.autenticar, schema: { body: senhaPropriaSchema, response: { 200: mensagemSchema } } }, async (request) => {
    const id = request.usuario.id;
    const reservado = await reservarTentativaDeLogin(app.db, id, MAX_TENTATIVAS_LOGIN, new Date(Date.now() - minutos * 60_000).toISOString());
    if (!reservado) throw muitasTentativas(`Muitas tentativas com a senha atual errada. Tente novamente em até ${minutos} minutos.`);
    if (!(await conferirSenha(request.body.senhaAtual, reservado.senhaHash))) {
      await registrarFalhaDeLogin(app.db, id, MAX_TENTATIVAS_LOGIN);
      throw regraDeNegocio('Senha atual incorreta.');
    }
    await registrarLoginCerto(app.db, id);
    if (request.body.novaSenha === request.body.senhaAtual) throw regraDeNegocio('A nova senha deve ser diferente da atual.');
    await alterarSenha(app.db, id, request.body.novaSenha, { manterSessao: sessaoDe(request) });
    request.log.info({ usuarioId: id }, 'senha alterada pelo próprio usuário');
    return { message: 'Senha alterada com sucesso.' };
  });
}
