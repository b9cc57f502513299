/**
 * /api/despesas: the filtered list (admin: all; employee: own), multipart create and edit with the
 * receipts in `cupom` parts (several), delete, the admin's approve/reject, and each
 * receipt itself (admin or owner, by bearer or by the session cookie so <img src> and <iframe src> work).
 */
import fs from 'node:fs';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  CUPOM_TAMANHO_MAXIMO,
  despesaFiltroSchema,
  MAXIMO_CUPONS_POR_DESPESA,
  MENSAGEM_ARQUIVO_GRANDE,
  MENSAGEM_CUPONS_DEMAIS,
  listaDespesasSchema,
  aprovarDespesasSchema,
  avaliacaoEmLoteSchema,
  cupomDespesaSchema,
  rejeitarDespesaSchema,
  rejeitarDespesasSchema,
  umaDespesaSchema,
  type AvaliacaoEmLote,
} from '../../../shared/schemas/despesas';
import { exportacaoDespesasSchema } from '../../../shared/schemas/exportacoes';
import { limparTemporariosAntigos, pastaTemporaria, Temporarios } from '../arquivos/temporarios';
import { csvDeDespesas, responderCsv } from '../exportacoes/listas';
import { arquivoGrande, dadosInvalidos, ErroApp, naoEncontrado } from '../errors';
import { recusarCaractereNulo } from '../plugins/caractereNulo';
import { camposDaPagina, janelaDaPagina } from '../paginacao';
import type { App, UsuarioSessao } from '../tipos';
import { validar } from '../validacao';
import { lerCupom, type CupomRecebido } from './cupons';
import { buscarDespesa, buscarDespesaApresentada, listarDespesas, totaisDespesas, type FiltroDespesas } from './repositorio';
import { escritaCorrigirDespesa, escritaCriarDespesa, escritaEditarDespesa, escritaExcluirDespesa, paramsDespesa } from './escritas';
import { avaliarDespesa, avaliarDespesasEmLote, exigirCupomVisivel, type Avaliacao, type ContextoDespesas } from './servico';


const paramsCupom = paramsDespesa.extend({ cupomId: z.coerce.number({ error: 'Comprovante não encontrado.' }).int('Comprovante não encontrado.').positive('Comprovante não encontrado.').max(Number.MAX_SAFE_INTEGER, 'Comprovante não encontrado.') });

export const MENSAGEM_FORMULARIO_MALFORMADO = 'O formulário enviado está incompleto ou malformado. Tente enviar de novo.';

interface Formulario {
  campos: Record<string, unknown>;
  /** The receipts, in the order of their `cupom` parts. */
  cupons: CupomRecebido[];
}

/**
 * Reads a multipart form: text fields, and each receipt in a `cupom` part, streamed to a temporary file
 * and checked by its first bytes (never held in memory; past 20 MB the read stops with 413 and the
 * partial file is removed with the request's others). A JSON body is accepted too, for edits without a file.
 */
async function lerFormulario(request: FastifyRequest, temporarios: Temporarios): Promise<Formulario> {
  if (!request.isMultipart()) {
    const corpo = request.body;
    if (corpo === undefined || corpo === null) return { campos: {}, cupons: [] };
    if (typeof corpo !== 'object' || Array.isArray(corpo)) throw dadosInvalidos('Dados da requisição inválidos.');
    return { campos: corpo as Record<string, unknown>, cupons: [] };
  }
  const campos: Record<string, unknown> = {};
  const cupons: CupomRecebido[] = [];
  try {
    for await (const parte of request.parts()) {
      if (parte.type === 'file') {
        if (parte.fieldname !== 'cupom') {
          // Read to its end without keeping it, so an oversized one is still told as such (413).
          await pipeline(parte.file, new Writable({ write: (_pedaco, _codificacao, feito) => feito() }));
          if (parte.file.truncated) throw arquivoGrande(MENSAGEM_ARQUIVO_GRANDE);
          throw dadosInvalidos('Envie o comprovante no campo "cupom".');
        }
        const recebido = await temporarios.receber(parte.file);
        if (recebido.truncado) throw arquivoGrande(MENSAGEM_ARQUIVO_GRANDE);
        // A form's empty file input (no file chosen) arrives as a nameless empty part: no receipt.
        if (recebido.tamanho === 0 && !parte.filename) continue;
        cupons.push(lerCupom(recebido, parte.filename));
      } else {
        campos[parte.fieldname] = parte.value;
      }
    }
  } catch (erro) {
    // Our refusals and the multipart plugin's (coded: size, count) go as they are. The parser reports a
    // malformed body (no boundary, cut short, broken part headers) as a bare Error: the client's fault, not a 500.
    if ((erro as { code?: unknown }).code === 'FST_FILES_LIMIT') throw dadosInvalidos(MENSAGEM_CUPONS_DEMAIS);
    if (erro instanceof ErroApp || typeof (erro as { code?: unknown }).code === 'string') throw erro;
    throw dadosInvalidos(MENSAGEM_FORMULARIO_MALFORMADO);
  }
  recusarCaractereNulo(campos);
  return { campos, cupons };
}

/** The list's filter as this user may apply it: an employee always gets their own expenses, whatever filter they send. */
function filtroDaLista(usuario: UsuarioSessao, q: z.output<typeof despesaFiltroSchema>): FiltroDespesas {
  const funcionarioId = usuario.tipo === 'admin' ? q.funcionario_id : usuario.id;
  return {
    ...(funcionarioId !== undefined ? { funcionarioId } : {}),
    ...(q.rota_id !== undefined ? { rotaId: q.rota_id } : {}),
    ...(q.status_rota ? { statusRota: q.status_rota } : {}),
    ...(q.data_inicio ? { dataInicio: q.data_inicio } : {}),
    ...(q.data_fim ? { dataFim: q.data_fim } : {}),
    ...(q.tipo ? { tipo: q.tipo } : {}),
    ...(q.status_aprovacao ? { statusAprovacao: q.status_aprovacao } : {}),
    ...(q.avaliadas_desde ? { avaliadasDesde: q.avaliadas_desde } : {}),
    ...(q.acima_do_limite ? { acimaDoLimite: true } : {}),
  };
}

/** ASCII fallback plus the UTF-8 name (RFC 6266), both safe inside the header. */
function disposicaoInline(nome: string): string {
  const ascii = nome.normalize('NFD').replace(/[^\x20-\x7e]/g, '').replace(/["\\]/g, '') || 'cupom';
  return `inline; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(nome)}`;
}

export default async function rotasDespesas(app: App) {
  const ctx: ContextoDespesas = {
    db: app.db,
    armazenamento: app.armazenamento,
    fuso: app.config.appTz,
    cotaComprovantesBytes: app.config.cotaComprovantesBytes,
  };
  const pastaTemp = pastaTemporaria(app.config.dataDir);
  fs.mkdirSync(pastaTemp, { recursive: true });
  limparTemporariosAntigos(pastaTemp);

  /** Runs a write with the request's form; its temporary files are removed whatever happens. */
  const comFormulario = async <T>(request: FastifyRequest, fazer: (formulario: Formulario) => Promise<T>): Promise<T> => {
    const temporarios = new Temporarios(pastaTemp);
    try {
      return await fazer(await lerFormulario(request, temporarios));
    } finally {
      await temporarios.limpar();
    }
  };

  await app.register(multipart, {
    throwFileSizeLimit: true,
    // A sixth receipt is refused (400, pt-BR) by the plugin's file count, before it is read.
    limits: { fileSize: CUPOM_TAMANHO_MAXIMO, files: MAXIMO_CUPONS_POR_DESPESA, fields: 20, parts: 20 + MAXIMO_CUPONS_POR_DESPESA, fieldSize: 64 * 1024, headerPairs: 100 },
  });
  app.addHook('onRequest', app.autenticar);

  const apresentar = async (id: string) => ({ despesa: (await buscarDespesaApresentada(app.db, id))! });
  /** Reads of one expense: the admin or its owner, not deleted; anyone else gets the same 404 as an unknown id. */
  const exigirVisivel = async (request: FastifyRequest, id: string) => {
    const despesa = await buscarDespesa(app.db, id);
    const visivel = despesa && despesa.excluidaEm === null && (request.usuario.tipo === 'admin' || despesa.funcionarioId === request.usuario.id);
    if (!visivel) throw naoEncontrado('Despesa não encontrada.');
  };

  // Kept by the read cache until the database changes (the admin's screen read it afresh, uncompressed, every time).
  app.get('/', { config: { emCache: true }, schema: { querystring: despesaFiltroSchema, response: { 200: listaDespesasSchema } } }, async (request) => {
    const q = request.query;
    const filtro = filtroDaLista(request.usuario, q);
    // Totals of the whole filtered set (the page's cards); the rows of one page, at most LIMITE_MAXIMO_PAGINA.
    const { total, totais } = await totaisDespesas(app.db, filtro);
    return { despesas: await listarDespesas(app.db, filtro, janelaDaPagina(q)), totais, ...camposDaPagina(total, q) };
  });

  // The admin's whole filtered set as CSV, not the page on screen: the list's filters and order, streamed.
  app.get('/exportar', { onRequest: app.exigirAdmin, schema: { querystring: exportacaoDespesasSchema } }, async (request, reply) =>
    responderCsv(app, request, reply, 'despesas.csv', () => csvDeDespesas(app.db, filtroDaLista(request.usuario, request.query))),
  );

  app.post(
    '/',
    { onRequest: app.exigirFuncionario, schema: { response: { 200: umaDespesaSchema, 201: umaDespesaSchema } } },
    async (request, reply) => {
      // Answered once the request's temporary files are gone (comFormulario), as the other writes.
      const { status, corpo } = await comFormulario(request, async ({ campos, cupons }) => {
        const r = await escritaCriarDespesa.executar(ctx, request.usuario, {}, validar(escritaCriarDespesa.corpo, campos), cupons);
        if (r.status === 201) request.log.info({ por: request.usuario.id }, 'despesa registrada');
        return { status: r.status as 200 | 201, corpo: (await r.corpo()) as z.infer<typeof umaDespesaSchema> };
      });
      return reply.code(status).send(corpo);
    },
  );

  app.put(
    '/:id',
    { onRequest: app.exigirFuncionario, schema: { params: paramsDespesa, response: { 200: umaDespesaSchema } } },
    async (request) =>
      comFormulario(request, async ({ campos, cupons }) => {
        const r = await escritaEditarDespesa.executar(ctx, request.usuario, request.params, validar(escritaEditarDespesa.corpo, campos), cupons);
        return (await r.corpo()) as z.infer<typeof umaDespesaSchema>;
      }),
  );

  // The owner corrects a rejected expense and sends it again (multipart, as the edit).
  app.put(
    '/:id/corrigir',
    { onRequest: app.exigirFuncionario, schema: { params: paramsDespesa, response: { 200: umaDespesaSchema } } },
    async (request) =>
      comFormulario(request, async ({ campos, cupons }) => {
        const r = await escritaCorrigirDespesa.executar(ctx, request.usuario, request.params, validar(escritaCorrigirDespesa.corpo, campos), cupons);
        request.log.info({ despesaId: request.params.id, por: request.usuario.id }, 'despesa rejeitada corrigida e reenviada');
        return (await r.corpo()) as z.infer<typeof umaDespesaSchema>;
      }),
  );

  app.delete(
    '/:id',
    { onRequest: app.exigirFuncionario, schema: { params: paramsDespesa, response: { 200: umaDespesaSchema.extend({ message: z.string() }) } } },
    async (request) => (await (await escritaExcluirDespesa.executar(ctx, request.usuario, request.params, undefined)).corpo()) as z.infer<typeof umaDespesaSchema> & { message: string },
  );

  /** The bulk answer: each evaluated expense as the list shows it, each refusal with its reason. */
  const avaliarEmLote = async (request: FastifyRequest, ids: string[], avaliacao: Avaliacao): Promise<AvaliacaoEmLote> => {
    const resultados: AvaliacaoEmLote['resultados'] = [];
    for (const r of await avaliarDespesasEmLote(app.db, request.usuario, ids, avaliacao)) {
      resultados.push(r.ok ? { id: r.id, ok: true, despesa: (await buscarDespesaApresentada(app.db, r.id))! } : r);
    }
    const avaliadas = resultados.filter((r) => r.ok).length;
    request.log.info({ status: avaliacao.status, avaliadas, falhas: resultados.length - avaliadas, por: request.usuario.id }, 'despesas avaliadas em lote');
    return { resultados, avaliadas, falhas: resultados.length - avaliadas };
  };

  // Several at once (the admin's checkboxes), each id whole or not at all with its own result.
  app.patch(
    '/aprovar',
    { onRequest: app.exigirAdmin, schema: { body: z.preprocess((v) => v ?? {}, aprovarDespesasSchema), response: { 200: avaliacaoEmLoteSchema } } },
    async (request) => avaliarEmLote(request, request.body.ids, { status: 'aprovada' }),
  );

  app.patch(
    '/rejeitar',
    { onRequest: app.exigirAdmin, schema: { body: z.preprocess((v) => v ?? {}, rejeitarDespesasSchema), response: { 200: avaliacaoEmLoteSchema } } },
    async (request) => avaliarEmLote(request, request.body.ids, { status: 'rejeitada', motivo: request.body.motivo }),
  );

  app.patch(
    '/:id/aprovar',
    { onRequest: app.exigirAdmin, schema: { params: paramsDespesa, response: { 200: umaDespesaSchema } } },
    async (request) => {
      const despesa = await avaliarDespesa(app.db, request.usuario, request.params.id, { status: 'aprovada' });
      request.log.info({ despesaId: despesa.id, por: request.usuario.id }, 'despesa aprovada');
      return apresentar(despesa.id);
    },
  );

  app.patch(
    '/:id/rejeitar',
    { onRequest: app.exigirAdmin, schema: { params: paramsDespesa, body: z.preprocess((v) => v ?? {}, rejeitarDespesaSchema), response: { 200: umaDespesaSchema } } },
    async (request) => {
      const despesa = await avaliarDespesa(app.db, request.usuario, request.params.id, { status: 'rejeitada', motivo: request.body.motivo });
      request.log.info({ despesaId: despesa.id, por: request.usuario.id }, 'despesa rejeitada');
      return apresentar(despesa.id);
    },
  );

  /** Sends a receipt the caller may see (exigirCupomVisivel: admin or owner; anyone else 404). */
  const enviarCupom = async (request: FastifyRequest, reply: FastifyReply, despesaId: string, cupomId?: number) => {
    const cupom = await exigirCupomVisivel(ctx, request.usuario, despesaId, cupomId);
    // Streamed from the folder or the bucket (a 503 when the bucket does not answer); never a URL of the bucket.
    const aberto = await ctx.armazenamento.abrir(cupom.arquivo);
    if (!aberto) {
      request.log.error({ despesaId, arquivo: cupom.arquivo, armazenamento: ctx.armazenamento.tipo }, 'arquivo de cupom ausente no armazenamento');
      throw naoEncontrado('Cupom não encontrado.');
    }
    // The URL stays when the receipt is replaced: revalidate each time, by the stored (random) name.
    const etag = `"${cupom.arquivo}"`;
    reply
      .header('Cache-Control', 'private, no-cache')
      .header('ETag', etag)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Disposition', disposicaoInline(cupom.nome));
    if (request.headers['if-none-match'] === etag) {
      aberto.descartar();
      return reply.code(304).send();
    }
    return reply.type(cupom.mime).header('Content-Length', aberto.tamanho).send(aberto.fluxo());
  };

  // Installed apps of the single-receipt era ask for this URL: it serves the expense's first receipt.
  app.get('/:id/cupom', { schema: { params: paramsDespesa } }, async (request, reply) => enviarCupom(request, reply, request.params.id));

  // One expense as the list shows it, for a screen opened at its address (the audit trail's link), whatever the
  // list's filters: the admin or its owner; anyone else, and one deleted since, the same 404.
  app.get('/:id', { schema: { params: paramsDespesa, response: { 200: umaDespesaSchema } } }, async (request) => {
    await exigirVisivel(request, request.params.id);
    return apresentar(request.params.id);
  });

  // The list of an expense's receipts, and each by its id.
  app.get('/:id/cupons', { schema: { params: paramsDespesa, response: { 200: z.object({ cupons: z.array(cupomDespesaSchema) }) } } }, async (request) => {
    await exigirVisivel(request, request.params.id);
    return { cupons: (await buscarDespesaApresentada(app.db, request.params.id))!.cupons ?? [] };
  });

  app.get('/:id/cupons/:cupomId', { schema: { params: paramsCupom } }, async (request, reply) => enviarCupom(request, reply, request.params.id, request.params.cupomId));
}
