/**
 * Receipts sent in parts, resumable: a phone on a weak link sends a large
 * receipt in pieces, each a request of its own, and after a cut goes on from the byte the server
 * has instead of starting over. When the last byte is in, a batch operation names the upload
 * (`envios: { "<id da operação>": { id, nome } }` beside `operacoes`, see rotas.ts) and the receipt
 * is stored by that operation's write (arquivos/armazenamento.ts), as a multipart receipt is.
 *
 * - PUT /api/sync/envios/:id/partes?inicio=N&total=T[&sha256=H], body application/octet-stream:
 *   the bytes from offset N of a file of T bytes. Idempotent: the same offset again rewrites the
 *   same bytes; an offset past what the server has is refused (409) with `recebidos`. A part cut by
 *   the network keeps what arrived: the next try starts from there.
 * - GET (and HEAD) /api/sync/envios/:id: `{ recebidos, total, completo }` (and the header
 *   Upload-Offset), 404 when there is no such upload of this employee.
 * - State lives in files (no table): DATA_DIR/uploads-tmp/partes/<usuario>/<id>.dados (the bytes)
 *   and <id>.json (declared size, hash, done). One employee's folder is never read for another:
 *   an upload id of someone else is simply not found.
 * - Checked when complete: the size, the SHA-256 the phone declared, the type by the first bytes
 *   (cupons.ts); when created: the employee's receipt quota, counting the uploads in progress.
 * - Abandoned uploads (no byte for a day) are removed at start and, at most every 10 minutes,
 *   when an upload is created.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform, type Readable } from 'node:stream';
import { z } from 'zod';
import { CUPOM_TAMANHO_MAXIMO, MAXIMO_CUPONS_POR_DESPESA, MENSAGEM_ARQUIVO_GRANDE } from '../../../shared/schemas/despesas';
import { BYTES_AMOSTRA, pastaTemporaria } from '../arquivos/temporarios';
import { lerCupom, type CupomRecebido } from '../despesas/cupons';
import { mensagemCotaAtingida, usoDeComprovantes } from '../despesas/servico';
import { arquivoGrande, conflito, dadosInvalidos, ErroApp, naoEncontrado } from '../errors';
import type { App } from '../tipos';
import { validar } from '../validacao';
import { comTravaEntreProcessos } from '../operacao/travaEntreProcessos';

/** The most one part may carry (the phone sizes parts by its link, far below this). */
export const PARTE_MAXIMA = 8 * 1024 * 1024;
/** Uploads of one employee in progress at once (each is a file on disk). */
export const ENVIOS_ABERTOS_MAXIMO = 20;
/** An upload with no new byte for this long is abandoned and removed. */
export const ENVIO_ABANDONADO_MS = 24 * 60 * 60 * 1000;
const VARREDURA_A_CADA_MS = 10 * 60 * 1000;

export const MENSAGEM_ENVIO_NAO_ENCONTRADO = 'Envio do comprovante não encontrado.';
export const MENSAGEM_ENVIO_INCOMPLETO = 'O comprovante não chegou inteiro ao servidor; ele será enviado de novo.';
const MENSAGEM_ID = 'Identificador do envio inválido.';

const idEnvio = z.string({ error: MENSAGEM_ID }).regex(/^[0-9a-fA-F-]{8,64}$/, MENSAGEM_ID);

const parametrosSchema = z.object({ id: idEnvio });

const parteSchema = z.object({
  inicio: z.coerce.number({ error: 'Início da parte inválido.' }).int('Início da parte inválido.').min(0, 'Início da parte inválido.'),
  total: z.coerce
    .number({ error: 'Tamanho do comprovante inválido.' })
    .int('Tamanho do comprovante inválido.')
    .min(1, 'Tamanho do comprovante inválido.')
    .max(CUPOM_TAMANHO_MAXIMO, MENSAGEM_ARQUIVO_GRANDE),
  sha256: z
    .string({ error: 'Resumo (SHA-256) do comprovante inválido.' })
    .regex(/^[0-9a-f]{64}$/, 'Resumo (SHA-256) do comprovante inválido.')
    .optional(),
});

const referenciaSchema = z.object({ id: idEnvio, nome: z.string({ error: 'Nome do comprovante inválido.' }).max(500, 'Nome do comprovante inválido.') });

/**
 * A batch's references to finished uploads: operation id → upload id and the file's name on the
 * phone, or a list of them in order (an expense with several receipts; shared/sync/operacoes.ts ReferenciasEnvios).
 */
export const referenciasSchema = z.record(
  z.string().max(100),
  z.union([referenciaSchema, z.array(referenciaSchema).min(1).max(MAXIMO_CUPONS_POR_DESPESA)], { error: 'Lista de envios de comprovantes inválida.' }),
  { error: 'Lista de envios de comprovantes inválida.' },
);

interface MetaEnvio {
  total: number;
  sha256: string | null;
  completo: boolean;
  criadoEm: string;
}

export interface SituacaoEnvio {
  recebidos: number;
  total: number;
  completo: boolean;
}

export function pastaEnvios(dataDir: string): string {
  return path.join(pastaTemporaria(dataDir), 'partes');
}

function pastaDoUsuario(dataDir: string, usuarioId: number): string {
  return path.join(pastaEnvios(dataDir), String(usuarioId));
}

function caminhos(dataDir: string, usuarioId: number, id: string) {
  const pasta = pastaDoUsuario(dataDir, usuarioId);
  const nome = id.toLowerCase();
  return { pasta, dados: path.join(pasta, `${nome}.dados`), meta: path.join(pasta, `${nome}.json`) };
}

function lerMeta(arquivo: string): MetaEnvio | null {
  try {
    const m = JSON.parse(fs.readFileSync(arquivo, 'utf8')) as Partial<MetaEnvio>;
    if (typeof m.total !== 'number') return null;
    return { total: m.total, sha256: typeof m.sha256 === 'string' ? m.sha256 : null, completo: m.completo === true, criadoEm: String(m.criadoEm ?? '') };
  } catch {
    return null;
  }
}

function gravarMeta(arquivo: string, meta: MetaEnvio): void {
  const temporario = `${arquivo}.${process.pid}.tmp`;
  fs.writeFileSync(temporario, JSON.stringify(meta));
  fs.renameSync(temporario, arquivo);
}

function tamanhoDe(arquivo: string): number {
  try {
    return fs.statSync(arquivo).size;
  } catch {
    return 0;
  }
}

function removerEnvio(c: { dados: string; meta: string }): void {
  fs.rmSync(c.dados, { force: true });
  fs.rmSync(c.meta, { force: true });
}

/** The upload of this employee, or null: another employee's id reads exactly as a missing one. */
export function situacaoDoEnvio(dataDir: string, usuarioId: number, id: string): SituacaoEnvio | null {
  const c = caminhos(dataDir, usuarioId, id);
  const meta = lerMeta(c.meta);
  if (!meta) return null;
  return { recebidos: Math.min(tamanhoDe(c.dados), meta.total), total: meta.total, completo: meta.completo };
}

/** Uploads with no byte for `ENVIO_ABANDONADO_MS` (and stray files), under every employee's folder. */
export function limparEnviosAbandonados(dataDir: string, agora = Date.now()): number {
  let removidos = 0;
  let usuarios: string[];
  try {
    usuarios = fs.readdirSync(pastaEnvios(dataDir));
  } catch {
    return 0;
  }
  for (const usuario of usuarios) {
    const pasta = path.join(pastaEnvios(dataDir), usuario);
    let nomes: string[];
    try {
      nomes = fs.readdirSync(pasta);
    } catch {
      continue;
    }
    for (const nome of nomes) {
      const arquivo = path.join(pasta, nome);
      try {
        if (agora - fs.statSync(arquivo).mtimeMs > ENVIO_ABANDONADO_MS) {
          fs.rmSync(arquivo, { force: true });
          removidos += 1;
        }
      } catch {
        // gone meanwhile
      }
    }
  }
  return removidos;
}

/** Bytes the employee's uploads in progress declared (they will count against the quota when used). */
function reservadoEmEnvios(pasta: string, exceto: string): { bytes: number; abertos: number } {
  let bytes = 0;
  let abertos = 0;
  let nomes: string[];
  try {
    nomes = fs.readdirSync(pasta);
  } catch {
    return { bytes, abertos };
  }
  for (const nome of nomes) {
    if (!nome.endsWith('.json') || path.join(pasta, nome) === exceto) continue;
    const meta = lerMeta(path.join(pasta, nome));
    if (!meta) continue;
    bytes += meta.total;
    abertos += 1;
  }
  return { bytes, abertos };
}

async function sha256DoArquivo(arquivo: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(fs.createReadStream(arquivo), hash);
  return hash.digest('hex');
}

async function amostras(arquivo: string, tamanho: number): Promise<{ inicio: Buffer; fim: Buffer }> {
  const f = await fs.promises.open(arquivo, 'r');
  try {
    const inicio = Buffer.alloc(Math.min(BYTES_AMOSTRA, tamanho));
    await f.read(inicio, 0, inicio.length, 0);
    const fim = Buffer.alloc(Math.min(BYTES_AMOSTRA, tamanho));
    await f.read(fim, 0, fim.length, tamanho - fim.length);
    return { inicio, fim };
  } finally {
    await f.close();
  }
}

/**
 * The receipt of a finished upload, checked again (size, type by its bytes), ready for the
 * operation's write to store (arquivos/armazenamento.ts: renamed into place, or uploaded to the bucket).
 * Not found, unfinished or changed: 409 (the phone sends it again); of a refused type: 415.
 */
export async function cupomDoEnvio(dataDir: string, usuarioId: number, id: string, nome: string): Promise<CupomRecebido> {
  const c = caminhos(dataDir, usuarioId, id);
  const meta = lerMeta(c.meta);
  const tamanho = tamanhoDe(c.dados);
  if (!meta || !meta.completo || tamanho !== meta.total) throw conflito(MENSAGEM_ENVIO_INCOMPLETO);
  const { inicio, fim } = await amostras(c.dados, tamanho);
  return lerCupom({ caminho: c.dados, tamanho, inicio, fim, truncado: false, descartado: false }, nome);
}

/** After the batch: an upload whose operation the server took is no longer needed (moved, or the same bytes kept). */
export function descartarEnvio(dataDir: string, usuarioId: number, id: string): void {
  removerEnvio(caminhos(dataDir, usuarioId, id));
}

/**
 * One upload's parts in order: a part of the same upload waits for the one being written, in this
 * process (a queue, no polling) and in any other process on the same DATA_DIR (a lock file next to
 * the upload's: the proxy may send a part sent again to another process).
 */
const filas = new Map<string, Promise<unknown>>();
function emFila<T>(chave: string, trabalho: () => Promise<T>): Promise<T> {
  const anterior = filas.get(chave) ?? Promise.resolve();
  const atual = anterior.catch(() => undefined).then(() => comTravaEntreProcessos(`${chave}.trava`, trabalho));
  const marcador = atual.catch(() => undefined);
  filas.set(chave, marcador);
  void marcador.then(() => {
    if (filas.get(chave) === marcador) filas.delete(chave);
  });
  return atual;
}

/**
 * Writes a part at `inicio` (the file cut there first: a part sent again replaces itself). A part
 * cut by the network keeps the bytes that arrived. Past the declared size: 400, nothing kept of it.
 */
async function gravarParte(arquivo: string, inicio: number, total: number, corpo: Readable): Promise<'ok' | 'excedeu'> {
  const f = await fs.promises.open(arquivo, fs.existsSync(arquivo) ? 'r+' : 'w+');
  try {
    await f.truncate(inicio);
  } finally {
    await f.close();
  }
  let escritos = 0;
  let excedeu = false;
  const limite = new Transform({
    transform(pedaco: Buffer, _codificacao, feito) {
      if (excedeu || inicio + escritos + pedaco.length > total || escritos + pedaco.length > PARTE_MAXIMA) {
        excedeu = true;
        feito(); // read and thrown away, so the refusal reaches the phone
        return;
      }
      escritos += pedaco.length;
      feito(null, pedaco);
    },
  });
  await pipeline(corpo, limite, fs.createWriteStream(arquivo, { flags: 'r+', start: inicio }));
  if (excedeu) {
    await fs.promises.truncate(arquivo, inicio);
    return 'excedeu';
  }
  return 'ok';
}

export default async function rotasEnvioEmPartes(app: App): Promise<void> {
  const dataDir = app.config.dataDir;
  fs.mkdirSync(pastaEnvios(dataDir), { recursive: true });
  limparEnviosAbandonados(dataDir);
  let ultimaVarredura = Date.now();

  // The parts' bytes as a stream, written to disk as they arrive (never whole in memory).
  app.addContentTypeParser('application/octet-stream', (_request, corpo, feito) => feito(null, corpo));

  const situacao = (usuarioId: number, id: string): SituacaoEnvio => {
    const s = situacaoDoEnvio(dataDir, usuarioId, id);
    if (!s) throw naoEncontrado(MENSAGEM_ENVIO_NAO_ENCONTRADO);
    return s;
  };

  app.get('/envios/:id', async (request, reply) => {
    const { id } = validar(parametrosSchema, request.params);
    const s = situacao(request.usuario.id, id);
    void reply.header('upload-offset', String(s.recebidos)).header('cache-control', 'no-store');
    return s;
  });

  app.put('/envios/:id/partes', async (request, reply): Promise<SituacaoEnvio> => {
    const { id } = validar(parametrosSchema, request.params);
    const parte = validar(parteSchema, request.query);
    const corpo = request.body as Readable | undefined;
    if (!corpo || typeof (corpo as Readable).pipe !== 'function') throw dadosInvalidos('Envie os bytes da parte como application/octet-stream.');
    const usuarioId = request.usuario.id;
    const c = caminhos(dataDir, usuarioId, id);
    const resultado = await emFila(c.dados, async (): Promise<SituacaoEnvio | ErroApp> => {
      let meta = lerMeta(c.meta);
      if (meta && (meta.total !== parte.total || (parte.sha256 && meta.sha256 && parte.sha256 !== meta.sha256))) {
        return conflito('Este envio começou com outro arquivo. Comece um envio novo.');
      }
      const recebidos = meta ? Math.min(tamanhoDe(c.dados), meta.total) : 0;
      if (parte.inicio > recebidos) {
        void reply.header('upload-offset', String(recebidos));
        return Object.assign(conflito(`O servidor tem ${recebidos} bytes deste comprovante: continue a partir deles.`), { recebidos });
      }
      if (!meta) {
        if (Date.now() - ultimaVarredura > VARREDURA_A_CADA_MS) {
          ultimaVarredura = Date.now();
          limparEnviosAbandonados(dataDir);
        }
        const reservado = reservadoEmEnvios(c.pasta, c.meta);
        if (reservado.abertos >= ENVIOS_ABERTOS_MAXIMO) {
          return new ErroApp(429, 'muitas_tentativas', 'Envios de comprovantes em andamento demais. Aguarde os atuais terminarem.');
        }
        const cota = app.config.cotaComprovantesBytes;
        const usado = (await usoDeComprovantes(app.db, usuarioId)) + reservado.bytes;
        if (usado + parte.total > cota) return arquivoGrande(mensagemCotaAtingida(usado, cota, parte.total));
        fs.mkdirSync(c.pasta, { recursive: true });
        meta = { total: parte.total, sha256: parte.sha256 ?? null, completo: false, criadoEm: new Date().toISOString() };
        gravarMeta(c.meta, meta);
      }
      if (meta.completo && parte.inicio + 0 >= meta.total) return { recebidos: meta.total, total: meta.total, completo: true };
      if (meta.completo) {
        meta = { ...meta, completo: false };
        gravarMeta(c.meta, meta);
      }
      let gravado: 'ok' | 'excedeu';
      try {
        gravado = await gravarParte(c.dados, parte.inicio, meta.total, corpo);
      } catch (erro) {
        // The connection dropped mid-part: what arrived stays, the phone resumes from it.
        request.log.info({ err: erro, envio: id, recebidos: tamanhoDe(c.dados) }, 'parte de comprovante interrompida');
        throw erro;
      }
      if (gravado === 'excedeu') return dadosInvalidos('A parte passa do tamanho declarado do comprovante.');
      const tamanho = tamanhoDe(c.dados);
      if (tamanho < meta.total) return { recebidos: tamanho, total: meta.total, completo: false };
      // Complete: the declared hash and an accepted type, or the upload is dropped.
      if (meta.sha256 && (await sha256DoArquivo(c.dados)) !== meta.sha256) {
        removerEnvio(c);
        return dadosInvalidos('O comprovante chegou diferente do que saiu do aparelho. Toque em Tentar novamente para enviá-lo de novo.');
      }
      try {
        const { inicio, fim } = await amostras(c.dados, tamanho);
        lerCupom({ caminho: c.dados, tamanho, inicio, fim, truncado: false, descartado: false }, 'cupom');
      } catch (erro) {
        removerEnvio(c);
        throw erro;
      }
      gravarMeta(c.meta, { ...meta, completo: true });
      return { recebidos: tamanho, total: meta.total, completo: true };
    });
    if (resultado instanceof ErroApp) {
      const recebidos = (resultado as ErroApp & { recebidos?: number }).recebidos;
      void reply.code(resultado.statusCode);
      return { ...resultado.corpo(), ...(recebidos !== undefined ? { recebidos } : {}) } as never;
    }
    void reply.header('upload-offset', String(resultado.recebidos));
    return resultado;
  });
}
