/**
 * POST /api/sync/lote: the employee's queued operations in one request (see lote.ts).
 * JSON `{ cliente_id, operacoes: [...] }`, or multipart with a field `operacoes` (the same JSON) and
 * one file part `arquivo:<id da operação>` per receipt of an operation, in order (older apps sent one). A receipt of a
 * refused type or size is the refusal of its operation alone, never of the whole request.
 */
import fs from 'node:fs';
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { CUPOM_TAMANHO_MAXIMO, MENSAGEM_ARQUIVO_GRANDE } from '../../../shared/schemas/despesas';
import { pastaTemporaria, Temporarios } from '../arquivos/temporarios';
import { lerCupom, type CupomRecebido } from '../despesas/cupons';
import { tamanhoLegivel } from '../despesas/servico';
import { arquivoGrande, dadosInvalidos, ErroApp } from '../errors';
import { recusarCaractereNulo } from '../plugins/caractereNulo';
import type { App, UsuarioSessao } from '../tipos';
import { validar } from '../validacao';
import { contextoDeEscrita } from './contexto';
import rotasEnvioEmPartes, { cupomDoEnvio, descartarEnvio, referenciasSchema } from './envioEmPartes';
import { aguardarCopiaContinua } from '../operacao/copiaContinuaComandos';
import { loteCanonico, loteSchema, prepararOperacoes, processarLote, type ResultadoOperacao } from './lote';

/** How long a batch's answer waits for the continuous copy before it is refused with 503 (the phone keeps its queue). */
export const LIMITE_ESPERA_COPIA_MS = 5_000;
/** The Retry-After of that 503: the copy retries the bucket with backoff (1 s doubling to 30 s). */
export const SEGUNDOS_PARA_REENVIAR_SEM_COPIA = 10;
export const MENSAGEM_SEM_COPIA =
  'Os registros chegaram ao servidor, mas a cópia de segurança externa está fora do ar e eles ainda não estão protegidos. ' +
  'O aparelho mantém tudo na fila e envia de novo sozinho em instantes.';

/**
 * The file budget of one request. Receipts go to disk as they arrive (never into memory), but each
 * request still holds a connection, disk space and the batch's time while it lasts: 10 × 20 MB in
 * one request, three at once, was the measured case
 * (docs/decisions/comprovantes.md). The phone never needs more: it closes a
 * batch at 10 receipts or 8 MB of them (client/src/offline/transporte.ts, LIMITES_LOTE), and sends a
 * receipt over 8 MB (at most 20 MB) alone, so one full receipt plus the phone's 8 MB always fits.
 * Past the budget the whole request is refused with 413 and the phone splits the batch in halves
 * (client/src/offline/sync.ts) down to one operation, which always fits.
 */
export const MAXIMO_ARQUIVOS_POR_LOTE = 10;
export const MAXIMO_BYTES_ARQUIVOS_POR_LOTE = CUPOM_TAMANHO_MAXIMO + 8 * 1024 * 1024;
export const MENSAGEM_LOTE_GRANDE =
  `Envio grande demais: cada sincronização leva no máximo ${MAXIMO_ARQUIVOS_POR_LOTE} comprovantes, ` +
  `somando até ${tamanhoLegivel(MAXIMO_BYTES_ARQUIVOS_POR_LOTE)}. Envie os comprovantes em partes menores.`;
const PREFIXO_ARQUIVO = 'arquivo:';
const MENSAGEM_LOTE_MALFORMADO = 'O envio da sincronização veio incompleto ou malformado. Tente enviar de novo.';

interface LoteLido {
  bruto: unknown;
  arquivos: Map<string, CupomRecebido[]>;
  errosDeArquivo: Map<string, ErroApp>;
}

/**
 * The batch's JSON and its receipts, each streamed to a temporary file and checked by its first
 * bytes. Past the request's budget the rest is read and thrown away (so the 413 reaches the phone
 * instead of a broken connection) and the whole request is refused.
 */
async function lerLote(request: FastifyRequest, temporarios: Temporarios): Promise<LoteLido> {
  const arquivos = new Map<string, CupomRecebido[]>();
  const errosDeArquivo = new Map<string, ErroApp>();
  if (!request.isMultipart()) return { bruto: request.body, arquivos, errosDeArquivo };
  let bruto: unknown;
  let bytes = 0;
  let excedido = false;
  const aceitar = (n: number) => {
    bytes += n;
    excedido ||= bytes > MAXIMO_BYTES_ARQUIVOS_POR_LOTE;
    return !excedido;
  };
  try {
    for await (const parte of request.parts()) {
      if (parte.type === 'file') {
        if (!parte.fieldname.startsWith(PREFIXO_ARQUIVO)) throw dadosInvalidos('Arquivo sem operação: use o campo "arquivo:<id>".');
        const id = parte.fieldname.slice(PREFIXO_ARQUIVO.length);
        const recebido = await temporarios.receber(parte.file, aceitar);
        if (excedido) {
          await temporarios.remover(recebido.caminho);
          continue;
        }
        // Too large or of a refused type: that operation is refused, the rest of the batch goes on.
        if (recebido.truncado) errosDeArquivo.set(id, arquivoGrande(MENSAGEM_ARQUIVO_GRANDE));
        else {
          try {
            const cupom = lerCupom(recebido, parte.filename);
            // Several parts of one operation are its receipts in order.
            arquivos.set(id, [...(arquivos.get(id) ?? []), cupom]);
          } catch (erro) {
            if (!(erro instanceof ErroApp)) throw erro;
            errosDeArquivo.set(id, erro);
          }
        }
        if (errosDeArquivo.has(id)) {
          await temporarios.remover(recebido.caminho);
          for (const anterior of arquivos.get(id) ?? []) await temporarios.remover(anterior.caminhoTemporario);
          arquivos.delete(id);
        }
      } else if (parte.fieldname === 'operacoes') {
        try {
          bruto = JSON.parse(String(parte.value));
        } catch {
          throw dadosInvalidos('O campo "operacoes" não é um JSON válido.');
        }
        recusarCaractereNulo(bruto);
      }
    }
  } catch (erro) {
    const codigo = (erro as { code?: unknown }).code;
    if (codigo === 'FST_FILES_LIMIT') throw arquivoGrande(MENSAGEM_LOTE_GRANDE);
    // Ours and the plugin's coded refusals go as they are; the parser reports a malformed body (no
    // boundary, cut short, broken part headers) as a bare Error: the sender's fault, not a 500.
    if (erro instanceof ErroApp || typeof codigo === 'string') throw erro;
    throw dadosInvalidos(MENSAGEM_LOTE_MALFORMADO);
  }
  if (excedido) throw arquivoGrande(MENSAGEM_LOTE_GRANDE);
  return { bruto, arquivos, errosDeArquivo };
}

/**
 * Receipts already uploaded in parts (envioEmPartes.ts), named by `envios` beside `operacoes`:
 * each becomes its operation's receipt, as a multipart part would (a part of the same operation
 * wins). Unfinished, missing or of a refused type: that operation alone is refused.
 */
async function receberEnvios(
  dataDir: string,
  usuarioId: number,
  bruto: unknown,
  arquivos: Map<string, CupomRecebido[]>,
  errosDeArquivo: Map<string, ErroApp>,
): Promise<Map<string, string[]>> {
  const envios = new Map<string, string[]>();
  const referencias = (bruto as { envios?: unknown } | null)?.envios;
  if (referencias === undefined) return envios;
  for (const [operacaoId, referencia] of Object.entries(validar(referenciasSchema, referencias))) {
    if (arquivos.has(operacaoId) || errosDeArquivo.has(operacaoId)) continue;
    const lista = Array.isArray(referencia) ? referencia : [referencia];
    envios.set(
      operacaoId,
      lista.map((r) => r.id),
    );
    try {
      const cupons: CupomRecebido[] = [];
      for (const { id, nome } of lista) cupons.push(await cupomDoEnvio(dataDir, usuarioId, id, nome));
      arquivos.set(operacaoId, cupons);
    } catch (erro) {
      if (!(erro instanceof ErroApp)) throw erro;
      errosDeArquivo.set(operacaoId, erro);
    }
  }
  return envios;
}

/** The device the operations come from; old apps did not say, so their user stands for it. */
export function clienteDoLote(clienteId: string | undefined, usuario: UsuarioSessao): string {
  return clienteId ?? `sem-aparelho:${usuario.id}`;
}

export default async function rotasSync(app: App) {
  const ctx = contextoDeEscrita(app);
  const pastaTemp = pastaTemporaria(app.config.dataDir);
  fs.mkdirSync(pastaTemp, { recursive: true });
  await app.register(multipart, {
    // A receipt past the limit is cut and marked (file.truncated), refused alone in lerLote.
    throwFileSizeLimit: false,
    limits: { fileSize: CUPOM_TAMANHO_MAXIMO, files: MAXIMO_ARQUIVOS_POR_LOTE, fields: 5, fieldSize: 8 * 1024 * 1024, headerPairs: 100 },
  });
  app.addHook('onRequest', app.exigirFuncionario);
  // Large receipts in resumable parts (envioEmPartes.ts); the batch then names the finished upload.
  await rotasEnvioEmPartes(app);

  app.post(
    '/lote',
    {
      // A few hundred queued writes: more than the 1 MB the other JSON routes accept.
      // No response schema: the answer is built here from typed results (ResultadoOperacao), and
      // checking hundreds of receipts against a zod schema on every batch cost more than writing them.
      bodyLimit: 8 * 1024 * 1024,
    },
    async (request, reply): Promise<{ resultados: ResultadoOperacao[] }> => {
      const temporarios = new Temporarios(pastaTemp);
      let clienteId: string;
      let operacoes: ReturnType<typeof prepararOperacoes>;
      let resultados: ResultadoOperacao[];
      try {
        const { bruto, arquivos, errosDeArquivo } = await lerLote(request, temporarios);
        const lote = loteCanonico(bruto) ?? validar(loteSchema, bruto ?? {});
        clienteId = clienteDoLote(lote.cliente_id, request.usuario);
        const envios = await receberEnvios(app.config.dataDir, request.usuario.id, bruto, arquivos, errosDeArquivo);
        operacoes = prepararOperacoes(lote.operacoes, clienteId, errosDeArquivo);
        resultados = await processarLote(ctx, request.usuario, clienteId, operacoes, arquivos, request.log);
        // Taken (moved into place, or the same bytes kept): the upload is done with. A refused one stays for a corrected try.
        for (const r of resultados) {
          for (const envio of envios.get(r.id) ?? []) {
            if (typeof r.status === 'number' && r.status < 400) descartarEnvio(app.config.dataDir, request.usuario.id, envio);
          }
        }
      } finally {
        // Receipts not moved into place (refused, held back, not reached, a failed request): gone.
        await temporarios.limpar();
      }
      const contagem = resultados.reduce<Record<string, number>>((c, r) => {
        const chave = r.repetida ? 'repetidas' : typeof r.status === 'number' ? (r.status < 400 ? 'aceitas' : 'recusadas') : r.status;
        c[chave] = (c[chave] ?? 0) + 1;
        return c;
      }, {});
      request.log.info({ por: request.usuario.id, cliente: clienteId, operacoes: operacoes.length, ...contagem }, 'lote sincronizado');
      // The phone drops what this answer confirms from its queue: with the continuous off-site copy on
      // (COPIA_S3_BUCKET), it is in the bucket first, so losing the server's disk loses nothing confirmed.
      // A repetition confirms too (its first answer may have been this 503). Not in the bucket within the
      // bound: 503, and the phone keeps its queue; its replay is answered from the operation log once the
      // copy is made (decisions.md, "A cópia contínua nunca confirma o que não saiu do servidor").
      if (resultados.some((r) => typeof r.status === 'number' && r.status < 400)) {
        const copia = await aguardarCopiaContinua(LIMITE_ESPERA_COPIA_MS);
        if (copia.ligada && !copia.copiado) {
          request.log.warn({ atrasoMs: copia.atrasoMs }, 'lote recusado com 503: a cópia contínua não foi feita');
          void reply.header('Retry-After', String(SEGUNDOS_PARA_REENVIAR_SEM_COPIA));
          throw new ErroApp(503, 'indisponivel', MENSAGEM_SEM_COPIA);
        }
      }
      return { resultados };
    },
  );
}
