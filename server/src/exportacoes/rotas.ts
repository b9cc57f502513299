/**
 * /api/exportacoes: GET /contabil (admin), the accountant's ZIP of a period (contabil.ts). The period is
 * checked before the first byte (422 in pt-BR: start after end, more than 366 days); then the ZIP is
 * streamed, and a failure can only cut it (logged).
 */
import { nomeDoArquivoContabil, recusaDoPeriodo } from '../../../shared/exportacoes';
import { exportacaoContabilSchema } from '../../../shared/schemas/exportacoes';
import { naoEncontrado, regraDeNegocio } from '../errors';
import { buscarUsuarioPorId } from '../usuarios/repositorio';
import type { App } from '../tipos';
import { zipContabil } from './contabil';
import { ocuparVaga } from './limite';

export default async function rotasExportacoes(app: App) {
  app.addHook('onRequest', app.autenticar);

  app.get('/contabil', { onRequest: app.exigirAdmin, schema: { querystring: exportacaoContabilSchema } }, async (request, reply) => {
    const { data_inicio: inicio, data_fim: fim, funcionario_id: funcionarioId } = request.query;
    const recusa = recusaDoPeriodo(inicio, fim);
    if (recusa) throw regraDeNegocio(recusa);
    let funcionarioNome: string | undefined;
    if (funcionarioId !== undefined) {
      const funcionario = await buscarUsuarioPorId(app.db, funcionarioId);
      if (!funcionario || funcionario.tipo !== 'funcionario') throw naoEncontrado('Funcionário não encontrado.');
      funcionarioNome = funcionario.nome;
    }
    ocuparVaga(app, reply);
    const zip = zipContabil(
      { db: app.db, armazenamento: app.armazenamento, log: request.log },
      {
        inicio,
        fim,
        ...(funcionarioId !== undefined ? { funcionarioId } : {}),
        ...(funcionarioNome !== undefined ? { funcionarioNome } : {}),
        fuso: app.config.appTz,
        centro: app.config.centroNome,
        geradoEm: new Date(),
      },
    );
    request.log.info({ inicio, fim, funcionarioId, por: request.usuario.id }, 'exportação para o contador iniciada');
    return reply
      .type('application/zip')
      .header('Content-Disposition', `attachment; filename="${nomeDoArquivoContabil(inicio, fim)}"`)
      .header('Cache-Control', 'no-store')
      .send(zip);
  });
}
