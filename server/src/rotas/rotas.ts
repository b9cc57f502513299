/** /api/rotas: routes, their cities, the day's city status, visits, finishing, cancelling and reopening. */
import { z } from 'zod';
import { hoje } from '../../../shared/dates';
import { paramsId } from '../../../shared/schemas/campos';
import {
  cidadeResumoSchema,
  cidadesStatusFiltroSchema,
  cidadeStatusSchema,
  rotaFiltroSchema,
  rotaSalvarSchema,
  rotaSchema,
  visitaRespostaSchema,
  desfazerVisitaRespostaSchema,
} from '../../../shared/schemas/rotas';
import { mensagemSchema } from '../../../shared/schemas/usuarios';
import { semPermissao } from '../errors';
import { contextoDeEscrita } from '../sync/contexto';
import { camposPaginacao, camposRespostaPaginada, LIMITE_MAXIMO_PAGINA } from '../../../shared/schemas/paginacao';
import { fatiar } from '../paginacao';
import type { App } from '../tipos';
import { escritaDesfazerVisita, escritaFinalizarRota, escritaVisitar } from './escritas';
import { apresentarRotas, cidadesDasRotas, listarLinhasRotas, statusDasCidades, type FiltroRotas, type LinhaRota } from './repositorio';
import {
  cancelarRota,
  criarRota,
  editarRota,
  excluirRota,
  exigirRotaVisivel,
  reabrirRota,
} from './servico';

const listaRotas = z.object({ rotas: z.array(rotaSchema) });
const listaRotasPaginada = listaRotas.extend(camposRespostaPaginada);
/** GET /rotas: the filters and the page; a page holds every route of years of work. */
const filtroListaRotas = rotaFiltroSchema.extend(camposPaginacao(LIMITE_MAXIMO_PAGINA));
const umaRota = z.object({ rota: rotaSchema });

export default async function rotasRotas(app: App) {
  app.addHook('onRequest', app.autenticar);
  const contexto = contextoDeEscrita(app);
  const hojeNoApp = () => hoje(app.config.appTz);
  const listar = async (filtro: FiltroRotas) => ({ rotas: await apresentarRotas(app.db, await listarLinhasRotas(app.db, filtro), hojeNoApp()) });
  const uma = async (rota: LinhaRota) => (await apresentarRotas(app.db, [rota], hojeNoApp()))[0]!;

  // An employee always gets their own routes, whatever filter they send.
  app.get('/', { schema: { querystring: filtroListaRotas, response: { 200: listaRotasPaginada } } }, async (request) => {
    const { status, funcionario_id } = request.query;
    const funcionarioId = request.usuario.tipo === 'admin' ? funcionario_id : request.usuario.id;
    // The page is cut before the routes are dressed (cities, totals): only its routes cost anything.
    const { itens, ...pagina } = fatiar(await listarLinhasRotas(app.db, { ...(status ? { status } : {}), ...(funcionarioId !== undefined ? { funcionarioId } : {}) }), request.query);
    return { rotas: await apresentarRotas(app.db, itens, hojeNoApp()), ...pagina };
  });

  app.get('/ativas', { schema: { response: { 200: listaRotas } } }, async (request) =>
    listar({ status: 'ativa', ...(request.usuario.tipo === 'admin' ? {} : { funcionarioId: request.usuario.id }) }),
  );

  app.get('/funcionario', { onRequest: app.exigirFuncionario, schema: { response: { 200: listaRotas } } }, async (request) =>
    listar({ funcionarioId: request.usuario.id }),
  );
  app.get('/ativas/funcionario', { onRequest: app.exigirFuncionario, schema: { response: { 200: listaRotas } } }, async (request) =>
    listar({ funcionarioId: request.usuario.id, status: 'ativa' }),
  );
  app.get('/finalizadas/funcionario', { onRequest: app.exigirFuncionario, schema: { response: { 200: listaRotas } } }, async (request) =>
    listar({ funcionarioId: request.usuario.id, status: 'finalizada' }),
  );

  app.get('/:id', { schema: { params: paramsId, response: { 200: umaRota } } }, async (request) => {
    const rota = await exigirRotaVisivel(app.db, request.usuario, request.params.id);
    return { rota: await uma(rota) };
  });

  app.get(
    '/:id/cidades',
    { schema: { params: paramsId, response: { 200: z.object({ cidades: z.array(cidadeResumoSchema) }) } } },
    async (request) => {
      const rota = await exigirRotaVisivel(app.db, request.usuario, request.params.id);
      const cidades = (await cidadesDasRotas(app.db, [rota.id])).get(rota.id) ?? [];
      return { cidades: cidades.map(({ id, nome, uf }) => ({ id, nome, uf })) };
    },
  );

  app.get(
    '/:id/cidades-status',
    {
      config: { emCache: true },
      schema: {
        params: paramsId,
        querystring: cidadesStatusFiltroSchema,
        response: { 200: z.object({ data: z.string(), cidades: z.array(cidadeStatusSchema) }) },
      },
    },
    async (request) => {
      const rota = await exigirRotaVisivel(app.db, request.usuario, request.params.id);
      const data = request.query.data ?? hojeNoApp();
      return { data, cidades: await statusDasCidades(app.db, rota.id, data) };
    },
  );

  app.post(
    '/',
    { onRequest: app.exigirAdmin, schema: { body: rotaSalvarSchema, response: { 201: umaRota } } },
    async (request, reply) => {
      const rota = await criarRota(app.db, request.usuario.id, request.body);
      request.log.info({ rotaId: rota.id, por: request.usuario.id }, 'rota criada');
      return reply.code(201).send({ rota: await uma(rota) });
    },
  );

  app.put(
    '/:id',
    { onRequest: app.exigirAdmin, schema: { params: paramsId, body: rotaSalvarSchema, response: { 200: umaRota } } },
    async (request) => {
      const rota = await editarRota(app.db, request.usuario.id, request.params.id, request.body);
      return { rota: await uma(rota) };
    },
  );

  app.delete(
    '/:id',
    {
      // Spec section 8: an employee trying to delete gets this exact 403.
      onRequest: async (request) => {
        if (request.usuario.tipo !== 'admin') throw semPermissao('Você não tem permissão para excluir esta rota.');
      },
      schema: { params: paramsId, response: { 200: mensagemSchema } },
    },
    async (request) => {
      await excluirRota(app.db, request.usuario.id, request.params.id);
      request.log.info({ rotaId: request.params.id, por: request.usuario.id }, 'rota excluída');
      return { message: 'Rota excluída com sucesso!' };
    },
  );

  app.patch(
    '/:id/finalizar',
    { onRequest: app.exigirFuncionario, schema: { params: escritaFinalizarRota.params, response: { 200: umaRota } } },
    async (request) => (await (await escritaFinalizarRota.executar(contexto, request.usuario, request.params, undefined)).corpo()) as z.infer<typeof umaRota>,
  );

  app.patch(
    '/:id/cancelar',
    { onRequest: app.exigirAdmin, schema: { params: paramsId, response: { 200: umaRota } } },
    async (request) => {
      const rota = await cancelarRota(app.db, request.usuario.id, request.params.id);
      return { rota: await uma(rota) };
    },
  );

  // A cancelled route back to active (decisions: 'Registros de campo depois que o admin finaliza ou cancela a rota').
  app.patch(
    '/:id/reabrir',
    { onRequest: app.exigirAdmin, schema: { params: paramsId, response: { 200: umaRota } } },
    async (request) => {
      const rota = await reabrirRota(app.db, request.usuario.id, request.params.id);
      request.log.info({ rotaId: rota.id, por: request.usuario.id }, 'rota reaberta');
      return { rota: await uma(rota) };
    },
  );

  app.post(
    '/:rotaId/cidades/:cidadeId/visitar',
    {
      onRequest: app.exigirFuncionario,
      schema: { params: escritaVisitar.params, body: escritaVisitar.corpo, response: { 200: visitaRespostaSchema } },
    },
    async (request) =>
      (await (await escritaVisitar.executar(contexto, request.usuario, request.params, request.body)).corpo()) as z.infer<typeof visitaRespostaSchema>,
  );

  app.post(
    '/:rotaId/cidades/:cidadeId/desfazer-visita',
    {
      onRequest: app.exigirFuncionario,
      schema: { params: escritaDesfazerVisita.params, body: escritaDesfazerVisita.corpo, response: { 200: desfazerVisitaRespostaSchema } },
    },
    async (request) =>
      (await (await escritaDesfazerVisita.executar(contexto, request.usuario, request.params, request.body)).corpo()) as z.infer<typeof desfazerVisitaRespostaSchema>,
  );
}
