/** /api/vendas: the employees' daily closings per city and the admins' sales view (spec section 7). */
import { paramsId } from '../../../shared/schemas/campos';
import {
  fechamentoDiarioRespostaSchema,
  historicoRespostaSchema,
  resumoRespostaSchema,
  vendaRespostaSchema,
  vendasFiltroSchema,
  vendasRespostaSchema,
} from '../../../shared/schemas/vendas';
import type { z } from 'zod';
import { exportacaoVendasSchema } from '../../../shared/schemas/exportacoes';
import { csvDeVendas, responderCsv } from '../exportacoes/listas';
import { contextoDeEscrita } from '../sync/contexto';
import type { App } from '../tipos';
import { escritaEditarVenda, escritaSalvarVenda } from './escritas';
import { consultarVendas, fechamentoDiario, filtroDoUsuario, historicoDeRota, resumoDeRota } from './servico';

export default async function rotasVendas(app: App) {
  app.addHook('onRequest', app.autenticar);
  const contexto = contextoDeEscrita(app);

  app.get('/', { config: { emCache: true }, schema: { querystring: vendasFiltroSchema, response: { 200: vendasRespostaSchema } } }, async (request) =>
    consultarVendas(app.db, request.usuario, request.query),
  );

  app.get('/fechamento-diario', { config: { emCache: true }, schema: { querystring: vendasFiltroSchema, response: { 200: fechamentoDiarioRespostaSchema } } }, async (request) =>
    fechamentoDiario(app.db, request.usuario, request.query),
  );

  // The admin's whole filtered set as CSV, not the page on screen: the same filters, in the list's order, streamed.
  app.get('/exportar', { onRequest: app.exigirAdmin, schema: { querystring: exportacaoVendasSchema } }, async (request, reply) =>
    responderCsv(app, request, reply, 'vendas.csv', () => csvDeVendas(app.db, filtroDoUsuario(request.usuario, request.query))),
  );

  app.get('/rota/:id/resumo', { config: { emCache: true }, schema: { params: paramsId, response: { 200: resumoRespostaSchema } } }, async (request) => ({
    resumo: await resumoDeRota(app.db, request.usuario, request.params.id),
  }));

  // The employee's 'Histórico de vendas': the last 6 closings of each city of the route, in one call.
  app.get('/rota/:id/historico', { config: { emCache: true }, schema: { params: paramsId, response: { 200: historicoRespostaSchema } } }, async (request) => ({
    historico: await historicoDeRota(app.db, request.usuario, request.params.id),
  }));

  // Admins do not register sales: 403 before the body is even read.
  app.post(
    '/',
    { onRequest: app.exigirFuncionario, schema: { body: escritaSalvarVenda.corpo, response: { 200: vendaRespostaSchema, 201: vendaRespostaSchema } } },
    async (request, reply) => {
      const r = await escritaSalvarVenda.executar(contexto, request.usuario, {}, request.body);
      if (r.status === 201) request.log.info({ rotaId: request.body.rota_id, por: request.usuario.id }, 'venda registrada');
      return reply.code(r.status as 200 | 201).send((await r.corpo()) as z.infer<typeof vendaRespostaSchema>);
    },
  );

  app.put(
    '/:id',
    { onRequest: app.exigirFuncionario, schema: { params: escritaEditarVenda.params, body: escritaEditarVenda.corpo, response: { 200: vendaRespostaSchema } } },
    async (request) => (await (await escritaEditarVenda.executar(contexto, request.usuario, request.params, request.body)).corpo()) as z.infer<typeof vendaRespostaSchema>,
  );
}
