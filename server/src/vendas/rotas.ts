/** /api/vendas: the employees' daily closings per city and the admins' sales view (spec section 7). */
import { paramsId } from '../../../shared/schemas/campos';
import {
  fechamentoDiarioRespostaSchema,
  historicoRespostaSchema,
  paramsVenda,
  resumoRespostaSchema,
  vendaCriarSchema,
  vendaEditarSchema,
  vendaRespostaSchema,
  vendasFiltroSchema,
  vendasRespostaSchema,
} from '../../../shared/schemas/vendas';
import type { App } from '../tipos';
import { consultarVendas, editarVenda, fechamentoDiario, historicoDeRota, resumoDeRota, salvarVenda } from './servico';

export default async function rotasVendas(app: App) {
  app.addHook('onRequest', app.autenticar);

  app.get('/', { schema: { querystring: vendasFiltroSchema, response: { 200: vendasRespostaSchema } } }, async (request) => ({
    vendas: consultarVendas(app.db, request.usuario, request.query),
  }));

  app.get('/fechamento-diario', { schema: { querystring: vendasFiltroSchema, response: { 200: fechamentoDiarioRespostaSchema } } }, async (request) =>
    fechamentoDiario(app.db, request.usuario, request.query),
  );

  app.get('/rota/:id/resumo', { schema: { params: paramsId, response: { 200: resumoRespostaSchema } } }, async (request) => ({
    resumo: resumoDeRota(app.db, request.usuario, request.params.id),
  }));

  // The employee's 'Histórico de vendas': the last 6 closings of each city of the route, in one call.
  app.get('/rota/:id/historico', { schema: { params: paramsId, response: { 200: historicoRespostaSchema } } }, async (request) => ({
    historico: historicoDeRota(app.db, request.usuario, request.params.id),
  }));

  // Admins do not register sales: 403 before the body is even read.
  app.post(
    '/',
    { onRequest: app.exigirFuncionario, schema: { body: vendaCriarSchema, response: { 200: vendaRespostaSchema, 201: vendaRespostaSchema } } },
    async (request, reply) => {
      const { venda, criada } = salvarVenda(app.db, request.usuario, request.body, app.config.appTz);
      if (criada) request.log.info({ vendaId: venda.id, rotaId: venda.rota_id, por: request.usuario.id }, 'venda registrada');
      return reply.code(criada ? 201 : 200).send({ venda });
    },
  );

  app.put(
    '/:id',
    { onRequest: app.exigirFuncionario, schema: { params: paramsVenda, body: vendaEditarSchema, response: { 200: vendaRespostaSchema } } },
    async (request) => ({ venda: editarVenda(app.db, request.usuario, request.params.id, request.body) }),
  );
}
