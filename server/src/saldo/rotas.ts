/** /api/saldo: balances, movements, the report, and crediting an employee (admin); own balance (employee). */
import { z } from 'zod';
import { centavosParaReais } from '../../../shared/money';
import { paramsId } from '../../../shared/schemas/campos';
import {
  adicionarSaldoRespostaSchema,
  adicionarSaldoSchema,
  CREDITOS_RECENTES,
  funcionariosComSaldoSchema,
  movimentacoesFiltroSchema,
  movimentacoesRespostaSchema,
  relatorioSaldoFiltroSchema,
  relatorioSaldoSchema,
  resumoSaldoAdminSchema,
  resumoSaldoFuncionarioSchema,
  saldoDeUmFuncionarioSchema,
  saldosRespostaSchema,
} from '../../../shared/schemas/saldo';
import { camposDaPagina, fatiar, janelaDaPagina } from '../paginacao';
import type { App } from '../tipos';
import { calcularAcerto } from '../../../shared/acerto';
import { entradasDoAcerto } from '../acerto/repositorio';
import { buscarMovimentacaoApresentada, contarMovimentacoes, listarMovimentacoes, relatorioPorRota, saldosDosFuncionarios } from './repositorio';
import { adicionarSaldo, exigirSaldoVisivel, resumoAdmin, saldoAtual } from './servico';

export default async function rotasSaldo(app: App) {
  app.addHook('onRequest', app.autenticar);

  app.get('/', { onRequest: app.exigirAdmin, schema: { response: { 200: saldosRespostaSchema } } }, async () => ({
    saldos: (await saldosDosFuncionarios(app.db)).map((s) => ({
      funcionario_id: s.id,
      funcionario_nome: s.nome,
      funcionario_email: s.email,
      funcionario_ativo: s.ativo,
      saldo_atual: centavosParaReais(s.saldo),
      data_ultima_atualizacao: s.ultima,
    })),
  }));

  // One path, two readers: the employee gets their balance, the admin the page's three cards.
  app.get(
    '/resumo',
    { schema: { response: { 200: z.union([resumoSaldoFuncionarioSchema, resumoSaldoAdminSchema]) } } },
    async (request) => {
      if (request.usuario.tipo === 'admin') {
        const r = await resumoAdmin(app.db, app.config.appTz);
        return { total_funcionarios: r.totalFuncionarios, saldo_total: centavosParaReais(r.saldoTotal), movimentacoes_hoje: r.movimentacoesHoje };
      }
      const s = await saldoAtual(app.db, request.usuario.id);
      // The latest credits, so the phone can say what arrived since it last looked.
      const creditos = (await listarMovimentacoes(app.db, { tipo: 'credito', funcionarioId: request.usuario.id }, 1, CREDITOS_RECENTES)).map((m) => ({
        id: m.id,
        valor: m.valor,
        data_movimentacao: m.data_movimentacao,
        descricao: m.descricao,
      }));
      return { saldo_atual: centavosParaReais(s.centavos), data_ultima_atualizacao: s.ultima, creditos_recentes: creditos };
    },
  );

  app.get(
    '/movimentacoes',
    { onRequest: app.exigirAdmin, schema: { querystring: movimentacoesFiltroSchema, response: { 200: movimentacoesRespostaSchema } } },
    async (request) => {
      const { tipo, funcionario_id } = request.query;
      const filtro = { ...(tipo ? { tipo } : {}), ...(funcionario_id !== undefined ? { funcionarioId: funcionario_id } : {}) };
      const { limite } = janelaDaPagina(request.query);
      return { movimentacoes: await listarMovimentacoes(app.db, filtro, request.query.page, limite), ...camposDaPagina(await contarMovimentacoes(app.db, filtro), request.query) };
    },
  );

  app.get('/funcionarios', { onRequest: app.exigirAdmin, schema: { response: { 200: funcionariosComSaldoSchema } } }, async () => ({
    // Only who may receive a credit: a deactivated employee is refused (adicionarSaldo), so never offered.
    funcionarios: (await saldosDosFuncionarios(app.db, { soAtivos: true })).map((s) => ({ id: s.id, nome: s.nome, email: s.email, saldo_atual: centavosParaReais(s.saldo) })),
  }));

  app.get('/relatorio', { config: { emCache: true }, onRequest: app.exigirAdmin, schema: { querystring: relatorioSaldoFiltroSchema, response: { 200: relatorioSaldoSchema } } }, async (request) => {
    const { itens, ...pagina } = fatiar(await relatorioPorRota(app.db), request.query);
    const acertos = await entradasDoAcerto(
      app.db,
      itens.flatMap((l) => (l.rota_id === null ? [] : [l.rota_id])),
    );
    // The open balance does not read the salary: not computed for each row.
    const figuras = (rotaId: number | null) => {
      const entrada = rotaId === null ? undefined : acertos.get(rotaId);
      return entrada ? calcularAcerto({ ...entrada, salarioCentavos: 0, descontoAluguelCentavos: 0 }) : null;
    };
    return { relatorio: itens.map((l) => ({
      funcionario_id: l.funcionario_id,
      funcionario_nome: l.funcionario_nome,
      funcionario_ativo: l.funcionario_ativo,
      rota_id: l.rota_id,
      rota_nome: l.rota_nome,
      total_creditado: centavosParaReais(l.creditado),
      total_gasto: centavosParaReais(l.gasto),
      saldo_atual: centavosParaReais(l.saldo),
      ...((f) => ({ a_devolver: f && centavosParaReais(f.aDevolverCentavos), a_receber: f && centavosParaReais(f.aReceberCentavos), acertada_em: f?.acertadaEm ?? null }))(figuras(l.rota_id)),
    })), ...pagina };
  });

  app.get('/funcionario/:id', { schema: { params: paramsId, response: { 200: saldoDeUmFuncionarioSchema } } }, async (request) => {
    const s = await exigirSaldoVisivel(app.db, request.usuario, request.params.id);
    return { saldo: { saldo_atual: centavosParaReais(s.centavos), data_ultima_atualizacao: s.ultima } };
  });

  app.post(
    '/adicionar',
    { onRequest: app.exigirAdmin, schema: { body: adicionarSaldoSchema, response: { 201: adicionarSaldoRespostaSchema } } },
    async (request, reply) => {
      const linha = await adicionarSaldo(app.db, request.usuario, request.body);
      request.log.info({ movimentacaoId: linha.id, funcionarioId: linha.funcionarioId, por: request.usuario.id }, 'saldo adicionado');
      return reply.code(201).send({
        message: 'Saldo adicionado com sucesso!',
        movimentacao: (await buscarMovimentacaoApresentada(app.db, linha.id))!,
        saldo: { saldo_atual: centavosParaReais(linha.saldoNovoCentavos), data_ultima_atualizacao: linha.dataMovimentacao },
      });
    },
  );
}
