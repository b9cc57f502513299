/**
 * POST /api/sync/lote: the employee's queued operations in one request (see lote.ts).
 * JSON `{ cliente_id, operacoes: [...] }`, or multipart with a field `operacoes` (the same JSON) and
 * one file part `arquivo:<id da operação>` per operation that carries a receipt. A receipt of a
 * refused type or size is the refusal of its operation alone, never of the whole request.
 */
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { CUPOM_TAMANHO_MAXIMO, MENSAGEM_ARQUIVO_GRANDE } from '../../../shared/schemas/despesas';
import { lerCupom, type CupomRecebido } from '../despesas/cupons';
import { arquivoGrande, dadosInvalidos, ErroApp } from '../errors';
import type { App, UsuarioSessao } from '../tipos';
import { validar } from '../validacao';
import { contextoDeEscrita } from './contexto';
import { loteSchema, prepararOperacoes, processarLote, type ResultadoOperacao } from './lote';

/** Receipts per batch: the phone sends at most this many (and a few MB) per request. */
export const MAXIMO_ARQUIVOS_POR_LOTE = 10;
const PREFIXO_ARQUIVO = 'arquivo:';

interface LoteLido {
  bruto: unknown;
  arquivos: Map<string, CupomRecebido>;
  errosDeArquivo: Map<string, ErroApp>;
}

async function lerLote(request: FastifyRequest): Promise<LoteLido> {
  const arquivos = new Map<string, CupomRecebido>();
  const errosDeArquivo = new Map<string, ErroApp>();
  if (!request.isMultipart()) return { bruto: request.body, arquivos, errosDeArquivo };
  let bruto: unknown;
  for await (const parte of request.parts()) {
    if (parte.type === 'file') {
      if (!parte.fieldname.startsWith(PREFIXO_ARQUIVO)) throw dadosInvalidos('Arquivo sem operação: use o campo "arquivo:<id>".');
      const id = parte.fieldname.slice(PREFIXO_ARQUIVO.length);
      const conteudo = await parte.toBuffer();
      // Too large or of a refused type: that operation is refused, the rest of the batch goes on.
      if (parte.file.truncated) errosDeArquivo.set(id, arquivoGrande(MENSAGEM_ARQUIVO_GRANDE));
      else {
        try {
          arquivos.set(id, lerCupom(conteudo, parte.filename));
        } catch (erro) {
          if (!(erro instanceof ErroApp)) throw erro;
          errosDeArquivo.set(id, erro);
        }
      }
    } else if (parte.fieldname === 'operacoes') {
      try {
        bruto = JSON.parse(String(parte.value));
      } catch {
        throw dadosInvalidos('O campo "operacoes" não é um JSON válido.');
      }
    }
  }
  return { bruto, arquivos, errosDeArquivo };
}

/** The device the operations come from; old apps did not say, so their user stands for it. */
export function clienteDoLote(clienteId: string | undefined, usuario: UsuarioSessao): string {
  return clienteId ?? `sem-aparelho:${usuario.id}`;
}

export default async function rotasSync(app: App) {
  const ctx = contextoDeEscrita(app);
  await app.register(multipart, {
    // A receipt past the limit is cut and marked (file.truncated), refused alone in lerLote.
    throwFileSizeLimit: false,
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
      const { bruto, arquivos, errosDeArquivo } = await lerLote(request);
      const lote = validar(loteSchema, bruto ?? {});
      const clienteId = clienteDoLote(lote.cliente_id, request.usuario);
      const operacoes = prepararOperacoes(lote.operacoes, clienteId, errosDeArquivo);
      const resultados = await processarLote(ctx, request.usuario, clienteId, operacoes, arquivos, request.log);
      const contagem = resultados.reduce<Record<string, number>>((c, r) => {
        const chave = r.repetida ? 'repetidas' : typeof r.status === 'number' ? (r.status < 400 ? 'aceitas' : 'recusadas') : r.status;
        c[chave] = (c[chave] ?? 0) + 1;
        return c;
      }, {});
      request.log.info({ por: request.usuario.id, cliente: clienteId, operacoes: operacoes.length, ...contagem }, 'lote sincronizado');
      return { resultados };
    },
  );
}
