/** /api/relatorios: admin dashboard, routes report and details, the salary of a route, exports. */
import { z } from 'zod';
import { hoje } from '../../../shared/dates';
import { paramsId } from '../../../shared/schemas/campos';
import {
  dashboardAdminSchema,
  detalhesRotaSchema,
  exportacaoSchema,
  filtroRelatorioRotasSchema,
  linhaRelatorioRotaSchema,
  relatorioSalarioRotaSchema,
  filtroTendenciasSchema,
  tendenciasSchema,
  type FormatoExportacao,
} from '../../../shared/schemas/relatorios';
import { exigirRotaVisivel } from '../rotas/servico';
import type { App } from '../tipos';
import { ErroApp } from '../errors';
import { encerrarTrabalhadores, exportar } from './foraDaThread';
import { listarTardias } from '../tardias/servico';
import { calculoParaApi, dashboardAdmin, detalhesDaRota, relatorioDeRotas, resultadoDaRota, salarioDaRota } from './servico';
import { periodoDasTendencias, tendencias } from './tendencias';

const ARQUIVO_EXPORTACAO: Record<FormatoExportacao, { tipo: string; extensao: string }> = {
  pdf: { tipo: 'application/pdf', extensao: 'pdf' },
  excel: { tipo: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', extensao: 'xlsx' },
  csv: { tipo: 'text/csv; charset=utf-8', extensao: 'csv' },
};

export default async function rotasRelatorios(app: App) {
  app.addHook('onRequest', app.autenticar);
  app.addHook('onClose', async () => encerrarTrabalhadores(app.db));

  app.get('/dashboard-admin', { config: { emCache: true }, onRequest: app.exigirAdmin, schema: { response: { 200: dashboardAdminSchema } } }, async () =>
    dashboardAdmin(app.db, hoje(app.config.appTz), app.config.versaoMinimaApp),
  );

  // The employee's own route too (another employee's is 404, as if it did not exist): their
  // dashboard shows the estimated salary, and Minhas Rotas the result of a finished route.
  app.get('/rota/:id', { config: { emCache: true }, schema: { params: paramsId, response: { 200: relatorioSalarioRotaSchema } } }, async (request) => {
    const rota = await exigirRotaVisivel(app.db, request.usuario, request.params.id);
    const { calculo, base, valorAluguelCentavos } = await salarioDaRota(app.db, rota.id);
    const api = calculoParaApi(calculo, valorAluguelCentavos);
    return {
      rota_id: rota.id,
      calculo_salario: api,
      desconto_aluguel_funcionario: api.desconto_aluguel,
      base,
      resultado: await resultadoDaRota(app.db, rota.id, calculo),
      tardios: await listarTardias(app.db, request.usuario, rota.id),
    };
  });

  app.get(
    '/rotas',
    { config: { emCache: true }, onRequest: app.exigirAdmin, schema: { querystring: filtroRelatorioRotasSchema, response: { 200: z.object({ rotas: z.array(linhaRelatorioRotaSchema) }) } } },
    async (request) => {
      const q = request.query;
      return {
        rotas: await relatorioDeRotas(app.db, {
          ...(q.status ? { status: q.status } : {}),
          ...(q.funcionario_id !== undefined ? { funcionarioId: q.funcionario_id } : {}),
          ...(q.data_inicio ? { dataInicio: q.data_inicio } : {}),
          ...(q.data_fim ? { dataFim: q.data_fim } : {}),
        }),
      };
    },
  );

  app.get('/rota/:id/detalhes', { config: { emCache: true }, onRequest: app.exigirAdmin, schema: { params: paramsId, response: { 200: detalhesRotaSchema } } }, async (request) =>
    detalhesDaRota(app.db, request.params.id),
  );

  // The admin's trend charts (dashboard and Relatórios); the last 30 days by default.
  app.get(
    '/tendencias',
    { config: { emCache: true }, onRequest: app.exigirAdmin, schema: { querystring: filtroTendenciasSchema, response: { 200: tendenciasSchema } } },
    async (request) => {
      const q = request.query;
      return tendencias(app.db, {
        ...periodoDasTendencias(hoje(app.config.appTz), q.data_inicio, q.data_fim),
        ...(q.rota_id !== undefined ? { rotaId: q.rota_id } : {}),
        ...(q.usuario_id !== undefined ? { funcionarioId: q.usuario_id } : {}),
      });
    },
  );

  // Drawn in a worker thread (foraDaThread.ts): a report of every route never holds the phones' requests.
  app.get('/rotas/exportar', { onRequest: app.exigirAdmin, schema: { querystring: exportacaoSchema } }, async (request, reply) => {
    const q = request.query;
    let exportacao;
    try {
      exportacao = await exportar(app.db, {
        formato: q.formato,
        filtro: {
          ...(q.status ? { status: q.status } : {}),
          ...(q.funcionario_id !== undefined ? { funcionarioId: q.funcionario_id } : {}),
          ...(q.data_inicio ? { dataInicio: q.data_inicio } : {}),
          ...(q.data_fim ? { dataFim: q.data_fim } : {}),
          ...(q.rotas ? { ids: q.rotas } : {}),
        },
        geradoEm: new Date().toISOString(),
        fuso: app.config.appTz,
        centro: app.config.centroNome,
      });
    } catch (erro) {
      if (erro instanceof ErroApp && erro.statusCode === 503) void reply.header('Retry-After', '5');
      throw erro;
    }
    request.log.info({ formato: q.formato, rotas: exportacao.rotas, bytes: exportacao.bytes, emTrabalhador: exportacao.emTrabalhador }, 'relatório exportado');
    const arquivo = ARQUIVO_EXPORTACAO[q.formato];
    return reply
      .type(arquivo.tipo)
      .header('Content-Disposition', `attachment; filename="relatorio_rotas.${arquivo.extensao}"`)
      .header('Content-Length', String(exportacao.bytes))
      .header('Cache-Control', 'no-store')
      .send(exportacao.corpo);
  });
}
