/** /api/usuarios: user management, admin only. */
import { z } from 'zod';
import { opcao, paramsId } from '../../../shared/schemas/campos';
import {
  filtroFuncionariosSchema,
  funcionariosRespostaSchema,
  resumoDesativacaoSchema,
  senhaAlterarSchema,
  paramsSessao,
  sessoesAbertasSchema,
  sessoesEncerradasSchema,
  usuarioCriarSchema,
  usuarioEditarSchema,
  usuarioRespostaSchema,
  usuariosRespostaSchema,
  TIPOS_USUARIO,
} from '../../../shared/schemas/usuarios';
import { camposPaginacao, camposRespostaPaginada, LIMITE_MAXIMO_PAGINA } from '../../../shared/schemas/paginacao';
import { fatiar } from '../paginacao';
import type { App } from '../tipos';
import { apresentarUsuario, listarFuncionariosAtivos, listarUsuarios } from './repositorio';
import { sessaoDe } from '../auth/plugin';
import { alterarSenha, criarUsuario, desbloquearUsuario, editarUsuario, encerrarSessao, encerrarSessoes, exigirUsuario } from './servico';
import { refDaSessao, sessoesAbertas } from '../auth/sessoes';
import { resumoDaDesativacao } from './desativacao';

const filtroLista = z.object({
  emRota: z.enum(['true', 'false'], { error: "emRota deve ser 'true' ou 'false'." }).optional(),
  tipo: opcao('Tipo', TIPOS_USUARIO).optional(),
  // Paged like every list; a page holds every user of any real team.
  ...camposPaginacao(LIMITE_MAXIMO_PAGINA),
});
const usuariosPaginados = usuariosRespostaSchema.extend(camposRespostaPaginada);

export default async function rotasUsuarios(app: App) {
  // onRequest, before the body is parsed or validated: a stranger gets 401 and an employee 403,
  // never a validation message about a request they may not make at all.
  app.addHook('onRequest', app.exigirAdmin);
  const resposta = { 200: usuarioRespostaSchema };
  const minutos = app.config.loginBloqueioMinutos;
  const apresentar = (u: Parameters<typeof apresentarUsuario>[0]) => apresentarUsuario(u, minutos);

  app.get('/', { schema: { querystring: filtroLista, response: { 200: usuariosPaginados } } }, async (request) => {
    const { emRota, tipo } = request.query;
    const { itens, ...pagina } = fatiar(await listarUsuarios(app.db, { ...(emRota === undefined ? {} : { emRota: emRota === 'true' }), ...(tipo ? { tipo } : {}) }), request.query);
    return { usuarios: itens.map(apresentar), ...pagina };
  });

  app.get('/funcionarios', { schema: { querystring: filtroFuncionariosSchema, response: { 200: funcionariosRespostaSchema } } }, async (request) => ({
    funcionarios: (await listarFuncionariosAtivos(app.db, { inativosComRotas: request.query.inativos_com_rotas === 'true' })).map(apresentar),
  }));

  app.post('/', { schema: { body: usuarioCriarSchema, response: { 201: usuarioRespostaSchema } } }, async (request, reply) => {
    const usuario = await criarUsuario(app.db, request.body, request.usuario.id);
    request.log.info({ usuarioId: usuario.id, por: request.usuario.id }, 'usuário criado');
    return reply.code(201).send({ usuario: apresentar(usuario) });
  });

  app.patch('/:id', { schema: { params: paramsId, body: usuarioEditarSchema, response: resposta } }, async (request) => ({
    usuario: apresentar(await editarUsuario(app.db, request.usuario.id, request.params.id, request.body)),
  }));

  app.patch('/:id/senha', { schema: { params: paramsId, body: senhaAlterarSchema, response: resposta } }, async (request) => ({
    // An admin setting their own password here keeps the session they are using; every other one ends.
    usuario: apresentar(
      await alterarSenha(app.db, request.params.id, request.body.novaSenha, request.params.id === request.usuario.id ? { manterSessao: sessaoDe(request), adminId: request.usuario.id } : { adminId: request.usuario.id }),
    ),
  }));

  app.patch('/:id/ativar', { schema: { params: paramsId, response: resposta } }, async (request) => ({
    usuario: apresentar(await editarUsuario(app.db, request.usuario.id, request.params.id, { ativo: true })),
  }));

  app.patch('/:id/desativar', { schema: { params: paramsId, response: resposta } }, async (request) => ({
    usuario: apresentar(await editarUsuario(app.db, request.usuario.id, request.params.id, { ativo: false })),
  }));

  app.post('/:id/encerrar-sessoes', { schema: { params: paramsId, response: { 200: sessoesEncerradasSchema } } }, async (request) => {
    const encerradas = await encerrarSessoes(app.db, request.params.id, { id: request.usuario.id, sessao: sessaoDe(request) });
    request.log.info({ usuarioId: request.params.id, por: request.usuario.id, encerradas }, 'sessões encerradas');
    const message = encerradas === 0 ? 'Nenhuma sessão aberta.' : encerradas === 1 ? '1 sessão encerrada.' : `${encerradas} sessões encerradas.`;
    return { message, encerradas };
  });

  // Asked before the deactivation's 'Sim': the route, the money and the phones' unsent records that stay.
  app.get('/:id/desativacao', { schema: { params: paramsId, response: { 200: resumoDesativacaoSchema } } }, async (request) =>
    resumoDaDesativacao(app.db, request.params.id, app.config.versaoMinimaApp),
  );

  app.get('/:id/sessoes', { schema: { params: paramsId, response: { 200: sessoesAbertasSchema } } }, async (request) => {
    await exigirUsuario(app.db, request.params.id);
    const atual = sessaoDe(request);
    return {
      sessoes: (await sessoesAbertas(app.db, request.params.id)).map((s) => ({ ref: refDaSessao(s.id), descricao: s.descricao, criada_em: s.criadaEm, expira_em: s.expiraEm, atual: s.id === atual })),
    };
  });

  app.delete('/:id/sessoes/:ref', { schema: { params: paramsSessao, response: { 200: sessoesEncerradasSchema } } }, async (request) => {
    await encerrarSessao(app.db, request.params.id, request.params.ref, { id: request.usuario.id, sessao: sessaoDe(request) });
    request.log.info({ usuarioId: request.params.id, por: request.usuario.id }, 'sessão encerrada');
    return { message: '1 sessão encerrada.', encerradas: 1 };
  });

  app.patch('/:id/desbloquear', { schema: { params: paramsId, response: resposta } }, async (request) => ({
    usuario: apresentar(await desbloquearUsuario(app.db, request.usuario.id, request.params.id)),
  }));
}
