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
} from '../../../shared/schemas/relatorios';
import { exigirRotaVisivel } from '../rotas/servico';
import type { App } from '../tipos';
import { buscarUsuarioPorId } from '../usuarios/repositorio';
import { descreverFiltros, gerarPdf, gerarXlsx } from './exportacao';
import { calculoParaApi, dashboardAdmin, detalhesDaRota, relatorioDeRotas, resultadoDaRota, salarioDaRota } from './servico';

export default async function rotasRelatorios(app: App) {
  app.addHook('onRequest', app.autenticar);

  app.get('/dashboard-admin', { config: { emCache: true }, onRequest: app.exigirAdmin, schema: { response: { 200: dashboardAdminSchema } } }, async () =>
    dashboardAdmin(app.db, hoje(app.config.appTz), app.config.versaoMinimaApp),
  );

  // The employee's own route too (another employee's is 404, as if it did not exist): their
  // dashboard shows the estimated salary, and Minhas Rotas the result of a finished route.
  app.get('/rota/:id', { config: { emCache: true }, schema: { params: paramsId, response: { 200: relatorioSalarioRotaSchema } } }, async (request) => {
    const rota = exigirRotaVisivel(app.db, request.usuario, request.params.id);
    const { calculo, base, valorAluguelCentavos } = salarioDaRota(app.db, rota.id);
    const api = calculoParaApi(calculo, valorAluguelCentavos);
    return { rota_id: rota.id, calculo_salario: api, desconto_aluguel_funcionario: api.desconto_aluguel, base, resultado: resultadoDaRota(app.db, rota.id, calculo) };
  });

  app.get(
    '/rotas',
    { config: { emCache: true }, onRequest: app.exigirAdmin, schema: { querystring: filtroRelatorioRotasSchema, response: { 200: z.object({ rotas: z.array(linhaRelatorioRotaSchema) }) } } },
    async (request) => {
      const q = request.query;
      return {
        rotas: relatorioDeRotas(app.db, {
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

  app.get('/rotas/exportar', { onRequest: app.exigirAdmin, schema: { querystring: exportacaoSchema } }, async (request, reply) => {
    const q = request.query;
    const linhas = relatorioDeRotas(app.db, {
      ...(q.status ? { status: q.status } : {}),
      ...(q.funcionario_id !== undefined ? { funcionarioId: q.funcionario_id } : {}),
      ...(q.data_inicio ? { dataInicio: q.data_inicio } : {}),
      ...(q.data_fim ? { dataFim: q.data_fim } : {}),
      ...(q.rotas ? { ids: q.rotas } : {}),
    });
    const contexto = {
      filtros: descreverFiltros({
        ...(q.status ? { status: q.status } : {}),
        ...(q.funcionario_id !== undefined ? { funcionarioNome: buscarUsuarioPorId(app.db, q.funcionario_id)?.nome ?? `#${q.funcionario_id}` } : {}),
        ...(q.data_inicio ? { dataInicio: q.data_inicio } : {}),
        ...(q.data_fim ? { dataFim: q.data_fim } : {}),
        ...(q.rotas ? { rotasSelecionadas: q.rotas.length } : {}),
      }),
      geradoEm: new Date(),
      fuso: app.config.appTz,
      centro: app.config.centroNome,
    };
    request.log.info({ formato: q.formato, rotas: linhas.length }, 'relatório exportado');
    if (q.formato === 'pdf') {
      return reply
        .type('application/pdf')
        .header('Content-Disposition', 'attachment; filename="relatorio_rotas.pdf"')
        .header('Cache-Control', 'no-store')
        // Then, per route, what its details modal shows (issue 17).
        .send(await gerarPdf(linhas, contexto, linhas.map((l) => detalhesDaRota(app.db, l.rota_id))));
    }
    return reply
      .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('Content-Disposition', 'attachment; filename="relatorio_rotas.xlsx"')
      .header('Cache-Control', 'no-store')
      .send(await gerarXlsx(linhas, contexto));
  });
}
