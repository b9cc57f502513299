/**
 * POST /api/sync/lote: the employee's queued writes in one request (see lote.ts).
 * JSON `{ operacoes: [...] }`, or multipart with a field `operacoes` (the same JSON) and one file
 * part `arquivo:<id da operação>` per write that carries a receipt.
 */
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { CUPOM_TAMANHO_MAXIMO } from '../../../shared/schemas/despesas';
import { lerCupom, type CupomRecebido } from '../despesas/cupons';
import { dadosInvalidos } from '../errors';
import type { App } from '../tipos';
import { validar } from '../validacao';
import { contextoDeEscrita } from './contexto';
import { loteSchema, processarLote, type ResultadoOperacao } from './lote';

/** Receipts per batch: the phone sends at most this many (and a few MB) per request. */
export const MAXIMO_ARQUIVOS_POR_LOTE = 10;
const PREFIXO_ARQUIVO = 'arquivo:';

async function lerLote(request: FastifyRequest): Promise<{ bruto: unknown; arquivos: Map<string, CupomRecebido> }> {
  const arquivos = new Map<string, CupomRecebido>();
  if (!request.isMultipart()) return { bruto: request.body, arquivos };
  let bruto: unknown;
  for await (const parte of request.parts()) {
    if (parte.type === 'file') {
      if (!parte.fieldname.startsWith(PREFIXO_ARQUIVO)) throw dadosInvalidos('Arquivo sem operação: use o campo "arquivo:<id>".');
      const conteudo = await parte.toBuffer();
      arquivos.set(parte.fieldname.slice(PREFIXO_ARQUIVO.length), lerCupom(conteudo, parte.filename));
    } else if (parte.fieldname === 'operacoes') {
      try {
        bruto = JSON.parse(String(parte.value));
      } catch {
        throw dadosInvalidos('O campo "operacoes" não é um JSON válido.');
      }
    }
  }
  return { bruto, arquivos };
}

export default async function rotasSync(app: App) {
  const ctx = contextoDeEscrita(app);
  await app.register(multipart, {
    throwFileSizeLimit: true,
    limits: { fileSize: CUPOM_TAMANHO_MAXIMO, files: MAXIMO_ARQUIVOS_POR_LOTE, fields: 5, fieldSize: 8 * 1024 * 1024, headerPairs: 100 },
  });
  app.addHook('onRequest', app.exigirFuncionario);

  app.post(
    '/lote',
    {
      // A few hundred queued writes: more than the 1 MB the other JSON routes accept.
      // No response schema: the answer is built here from typed results (ResultadoOperacao), and
      // checking hundreds of receipts against a zod schema on every batch cost more than writing them.
      bodyLimit: 8 * 1024 * 1024,
    },
    async (request): Promise<{ resultados: ResultadoOperacao[] }> => {
      const { bruto, arquivos } = await lerLote(request);
      const { operacoes } = validar(loteSchema, bruto ?? {});
      const resultados = await processarLote(ctx, request.usuario, operacoes, arquivos, request.log);
      const contagem = resultados.reduce<Record<string, number>>((c, r) => {
        const chave = typeof r.status === 'number' ? (r.status < 400 ? 'aceitas' : 'recusadas') : r.status;
        c[chave] = (c[chave] ?? 0) + 1;
        return c;
      }, {});
      request.log.info({ por: request.usuario.id, operacoes: operacoes.length, ...contagem }, 'lote sincronizado');
      return { resultados };
    },
  );
}

