/**
 * POST /api/sync/importar (admin): the 'Exportar pendências' file of a phone that could not sync,
 * replayed as its employee with the batch sync's own code (processarLote): the same schemas, rules,
 * ownership checks and idempotency by id. Importing the same file twice changes nothing, and the
 * phone sending the same items later changes nothing either (same ids).
 *
 * The whole file is checked before anything is written (format, version, size, every operation and
 * receipt); a bad file is a 400/413 with a pt-BR message. The file is read as it streams, never whole
 * (leitorPendencias.ts: the receipts are decoded straight to temporary files), and a process imports one
 * file at a time: another admin's import meanwhile is a 503 with Retry-After. Each write is answered: aceito, já
 * recebido (the server already had it: nothing changed), recusado (with the rule's message), retido
 * (behind a refusal on the same entity) or não processado (an unexpected failure stopped the run).
 */
import fs from 'node:fs';
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { abaixoDaMinima } from '../../../shared/versao';
import { CUPOM_TAMANHO_MAXIMO, MENSAGEM_TIPO_ARQUIVO } from '../../../shared/schemas/despesas';
import {
  FORMATO_PENDENCIAS,
  LIMITE_PENDENCIAS_BYTES,
  pendenciasSchema,
  resultadoImportacaoSchema,
  tipoDaPendencia,
  VERSAO_PENDENCIAS,
  VERSOES_PENDENCIAS_LIDAS,
  type ArquivoPendencias,
  type ItemImportado,
  type ResultadoImportacao,
  type SituacaoImportada,
} from '../../../shared/schemas/pendencias';
import { pastaTemporaria, Temporarios, type ArquivoRecebido } from '../arquivos/temporarios';
import { registrarAuditoria } from '../auditoria/registro';
import { emTransacao } from '../db';
import { lerCupom, type CupomRecebido } from '../despesas/cupons';
import { arquivoGrande, dadosInvalidos, ErroApp, indisponivel, regraDeNegocio } from '../errors';
import { recusarCaractereNulo } from '../plugins/caractereNulo';
import { LimiteDeExportacoes } from '../relatorios/foraDaThread';
import type { App, UsuarioSessao } from '../tipos';
import { buscarUsuarioPorId } from '../usuarios/repositorio';
import { validar } from '../validacao';
import { contextoDeEscrita } from './contexto';
import { chaveDoComprovante, lerArquivoPendencias, MENSAGEM_NAO_E_PENDENCIAS, pedacosDoArquivo, type ComprovanteLido } from './leitorPendencias';
import { prepararOperacoes as prepararDoLote, processarLote, type Preparada, type ResultadoOperacao } from './lote';

/** The size limit read at each request (tests lower it instead of sending 100 MB). */
export const LIMITES_IMPORTACAO = { bytes: LIMITE_PENDENCIAS_BYTES };

const mb = (bytes: number) =>
  bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KB` : `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`.replace('.', ',');

/** Imports one process runs at once: each holds up to LIMITE_JSON_FORA_DOS_COMPROVANTES of parsed writes and a batch's run. */
export const IMPORTACOES_SIMULTANEAS = 1;
export const MENSAGEM_IMPORTACAO_EM_ANDAMENTO = 'Outra importação está em andamento. Tente de novo em alguns segundos.';
/** Retry-After of that 503: about what a large file takes to import. */
export const SEGUNDOS_ENTRE_IMPORTACOES = 10;

/**
 * Receives the one file of the form (field `arquivo`) into a temporary file, refusing with 413 past
 * the limit: the multipart reader holds none of it, and the file is then read from disk in chunks.
 */
async function receberArquivo(request: FastifyRequest, temporarios: Temporarios): Promise<{ recebido: ArquivoRecebido; nome: string }> {
  if (!request.isMultipart()) throw dadosInvalidos('Envie o arquivo de pendências no campo "arquivo" (multipart/form-data).');
  let achado: { recebido: ArquivoRecebido; nome: string } | null = null;
  const grandeDemais = () => arquivoGrande(`O arquivo de pendências é grande demais: o máximo é ${mb(LIMITES_IMPORTACAO.bytes)}.`);
  try {
    for await (const parte of request.parts({ limits: { fileSize: LIMITES_IMPORTACAO.bytes, files: 1, fields: 5, fieldSize: 1024 } })) {
      if (parte.type !== 'file') continue;
      if (parte.fieldname !== 'arquivo') throw dadosInvalidos('Envie o arquivo de pendências no campo "arquivo".');
      const recebido = await temporarios.receber(parte.file);
      if (recebido.truncado) throw grandeDemais();
      achado = { recebido, nome: parte.filename };
    }
  } catch (erro) {
    const codigo = (erro as { code?: unknown }).code;
    if (codigo === 'FST_REQ_FILE_TOO_LARGE') throw grandeDemais();
    // Ours and the plugin's coded refusals go as they are; a malformed body is the sender's fault.
    if (erro instanceof ErroApp || typeof codigo === 'string') throw erro;
    throw dadosInvalidos('O envio do arquivo veio incompleto ou malformado. Tente enviar de novo.');
  }
  if (!achado || achado.recebido.tamanho === 0) throw dadosInvalidos('Escolha o arquivo de pendências (.sgp) para importar.');
  return achado;
}

/** The file's JSON (as leitorPendencias.ts gives it) checked through the shared schema: format and version first, with their own messages. */
export function validarPendencias(bruto: unknown): ArquivoPendencias {
  recusarCaractereNulo(bruto);
  const cabecalho = (typeof bruto === 'object' && bruto !== null ? bruto : {}) as { formato?: unknown; versao?: unknown };
  if (cabecalho.formato !== FORMATO_PENDENCIAS) throw dadosInvalidos(MENSAGEM_NAO_E_PENDENCIAS);
  if (typeof cabecalho.versao === 'number' && cabecalho.versao > VERSAO_PENDENCIAS) {
    throw dadosInvalidos('Este arquivo foi criado por uma versão mais nova do aplicativo. Atualize o servidor e importe de novo.');
  }
  if (!(VERSOES_PENDENCIAS_LIDAS as readonly unknown[]).includes(cabecalho.versao)) throw dadosInvalidos('Versão do arquivo de pendências não suportada.');
  const arquivo = validar(pendenciasSchema, bruto);
  const ids = new Set<string>();
  for (const op of arquivo.operacoes) {
    if (ids.has(op.id)) throw dadosInvalidos('O arquivo tem a mesma pendência mais de uma vez: ele foi alterado depois de exportado.');
    ids.add(op.id);
  }
  return arquivo;
}

/**
 * The gate the phone's own sync has (426 there): writes exported by an app older than the server's
 * minimum are not taken, whoever brings them. A file without a version it can read (tests, scripts)
 * is not gated, as a request without X-Versao-App is not.
 */
export function exigirVersaoAceita(arquivo: ArquivoPendencias, minima: string): void {
  if (!abaixoDaMinima(arquivo.versaoApp, minima)) return;
  throw regraDeNegocio(
    `Este arquivo foi exportado pela versão ${arquivo.versaoApp!.trim()} do aplicativo, anterior à mínima aceita pelo servidor (${minima}). ` +
      'Atualize o aplicativo no celular e exporte as pendências de novo: elas continuam guardadas no celular.',
  );
}

/**
 * Each operation as the batch takes it (either version), checked alone, with its receipts as the
 * reader left them on disk (`comprovantes`, by their place in the file), checked by their bytes. A
 * receipt of a refused type or size is the refusal of its operation; a receipt whose size does not
 * match what the file says means the file was altered, and the whole file is refused.
 */
export function prepararOperacoes(
  arquivo: ArquivoPendencias,
  comprovantes: Map<string, ComprovanteLido>,
  clienteId: string,
): { operacoes: Preparada[]; arquivos: Map<string, CupomRecebido[]> } {
  const arquivos = new Map<string, CupomRecebido[]>();
  const errosDeArquivo = new Map<string, ErroApp>();
  const brutas: unknown[] = [];
  for (const [i, op] of arquivo.operacoes.entries()) {
    const nome = op.descricao || op.tipo || op.caminho || op.id;
    // Every receipt of the operation (`arquivos`), or the one older apps exported.
    const lugares = op.arquivos
      ? op.arquivos.map((comprovante, j) => ({ comprovante, chave: chaveDoComprovante(i, j) }))
      : op.arquivo
        ? [{ comprovante: op.arquivo, chave: chaveDoComprovante(i, null) }]
        : [];
    for (const { comprovante, chave } of lugares) {
      const lido = comprovantes.get(chave);
      if (!lido || lido.bytes !== comprovante.tamanho) throw dadosInvalidos(`O comprovante de "${nome}" está incompleto no arquivo: ele foi alterado depois de exportado.`);
      if (errosDeArquivo.has(op.id)) continue;
      if (lido.bytes > CUPOM_TAMANHO_MAXIMO) errosDeArquivo.set(op.id, arquivoGrande(`O comprovante de "${nome}" passa de ${mb(CUPOM_TAMANHO_MAXIMO)}.`));
      else {
        try {
          arquivos.set(op.id, [...(arquivos.get(op.id) ?? []), lerCupom(lido.recebido, comprovante.nome)]);
        } catch (erro) {
          if (!(erro instanceof ErroApp)) throw erro;
          errosDeArquivo.set(op.id, new ErroApp(erro.statusCode, erro.codigo, `O comprovante de "${nome}" não é aceito. ${MENSAGEM_TIPO_ARQUIVO}`));
        }
      }
    }
    brutas.push(
      op.tipo !== undefined
        ? { id: op.id, tipo: op.tipo, seq: op.seq ?? 0, dados: op.dados }
        : { id: op.id, metodo: op.metodo, caminho: op.caminho, corpo: op.corpo, chaves: op.chaves },
    );
  }
  return { operacoes: prepararDoLote(brutas, clienteId, errosDeArquivo), arquivos };
}

/** The device the file's operations were queued on (the same id its own sync records them under). */
export function clienteDoArquivo(arquivo: ArquivoPendencias, funcionarioId: number): string {
  return arquivo.dispositivo ?? `sem-aparelho:${funcionarioId}`;
}

/** The employee the file speaks for, as this server knows them. */
export async function funcionarioDoArquivo(app: App, arquivo: ArquivoPendencias): Promise<UsuarioSessao> {
  const { id, nome, email } = arquivo.funcionario;
  const u = await buscarUsuarioPorId(app.db, id);
  const confira = 'Confira se o arquivo foi exportado deste sistema.';
  if (!u) throw regraDeNegocio(`O funcionário deste arquivo (${nome}, ${email}) não existe neste servidor. ${confira}`);
  // Same id, another person: a file from another installation (ids are per database).
  if (u.email.trim().toLowerCase() !== email.trim().toLowerCase()) {
    throw regraDeNegocio(`O arquivo é de ${nome} (${email}), mas o usuário nº ${id} deste servidor é ${u.nome} (${u.email}). ${confira}`);
  }
  if (u.tipo !== 'funcionario') throw regraDeNegocio('Só pendências de funcionários podem ser importadas: o usuário deste arquivo é um administrador.');
  return { id: u.id, nome: u.nome, email: u.email, tipo: u.tipo };
}

/**
 * A write's outcome in the admin's words. An accepted write whose record the server received before
 * this import began changed nothing: every write answers the stored record when replayed.
 */
export function situacaoDe(r: ResultadoOperacao, inicio: number): { situacao: SituacaoImportada; status: number | null; mensagem: string | null } {
  if (r.status === 'retido') return { situacao: 'retido', status: null, mensagem: 'Não aplicado: espera a correção de um registro recusado da mesma rota ou despesa.' };
  if (r.status === 'nao_processado') return { situacao: 'nao_processado', status: null, mensagem: 'O servidor não concluiu este registro. Importe o arquivo de novo.' };
  if (r.status >= 400) {
    const corpo = r.corpo as { error?: unknown } | undefined;
    return { situacao: 'recusado', status: r.status, mensagem: typeof corpo?.error === 'string' ? corpo.error : `Erro ${r.status}` };
  }
  // Answered from the operation log: applied before (by the phone or an earlier import), nothing changed now.
  if (r.repetida) return { situacao: 'ja_recebido', status: r.status, mensagem: null };
  const recebido = r.recebido_em ? Date.parse(r.recebido_em) : NaN;
  const ja = Number.isFinite(recebido) && recebido < inicio;
  return { situacao: ja ? 'ja_recebido' : 'aceito', status: r.status, mensagem: null };
}

export default async function rotasImportacao(app: App) {
  const ctx = contextoDeEscrita(app);
  const pastaTemp = pastaTemporaria(app.config.dataDir);
  fs.mkdirSync(pastaTemp, { recursive: true });
  await app.register(multipart, { throwFileSizeLimit: true, limits: { fileSize: LIMITE_PENDENCIAS_BYTES, files: 1, fields: 5, headerPairs: 100 } });
  app.addHook('onRequest', app.exigirAdmin);
  const vagas = new LimiteDeExportacoes(IMPORTACOES_SIMULTANEAS);

  app.post('/importar', { schema: { response: { 200: resultadoImportacaoSchema } } }, async (request): Promise<ResultadoImportacao> => {
    // Taken before the body is read. The one refused has its file read and thrown away as it arrives (no
    // memory, no disk): left unread, the upload stalled with the connection open and the browser waiting.
    const liberar = vagas.ocupar();
    if (!liberar) {
      request.raw.resume();
      throw indisponivel(MENSAGEM_IMPORTACAO_EM_ANDAMENTO, SEGUNDOS_ENTRE_IMPORTACOES);
    }
    const temporarios = new Temporarios(pastaTemp);
    try {
      return await importar(request, temporarios);
    } finally {
      await temporarios.limpar();
      liberar();
    }
  });

  async function importar(request: FastifyRequest, temporarios: Temporarios): Promise<ResultadoImportacao> {
    const enviado = await receberArquivo(request, temporarios);
    const lidas = await lerArquivoPendencias(pedacosDoArquivo(enviado.recebido.caminho), temporarios);
    await temporarios.remover(enviado.recebido.caminho);
    const arquivo = validarPendencias(lidas.bruto);
    exigirVersaoAceita(arquivo, app.config.versaoMinimaApp);
    const funcionario = await funcionarioDoArquivo(app, arquivo);
    const clienteId = clienteDoArquivo(arquivo, funcionario.id);
    const { operacoes, arquivos } = prepararOperacoes(arquivo, lidas.comprovantes, clienteId);

    const inicio = Date.now();
    const resultados = await processarLote(ctx, funcionario, clienteId, operacoes, arquivos, request.log);
    const porId = new Map(resultados.map((r) => [r.id, r]));
    const itens: ItemImportado[] = arquivo.operacoes.map((op) => {
      const r = porId.get(op.id) ?? { id: op.id, status: 'nao_processado' as const };
      return { id: op.id, tipo: tipoDaPendencia(op), descricao: op.descricao || op.tipo || `${op.metodo} ${op.caminho}`, ...situacaoDe(r, inicio) };
    });
    const totais = { aceito: 0, ja_recebido: 0, recusado: 0, retido: 0, nao_processado: 0 };
    for (const i of itens) totais[i.situacao] += 1;
    // The trail records an import that wrote something (a re-import changes nothing, as approving twice).
    // The writes commit in the batch's own transactions, so the row follows them: it never claims a
    // write that did not happen; a crash between the two loses the row, not a write.
    if (totais.aceito > 0) {
      await emTransacao(app.db, (tx) =>
        registrarAuditoria(tx, {
          adminId: request.usuario.id,
          acao: 'pendencias.importar',
          alvoTipo: 'usuario',
          alvoId: funcionario.id,
          antes: null,
          depois: { arquivo: enviado.nome, exportado_em: arquivo.exportadoEm, dispositivo: arquivo.dispositivo ?? null, ...totais },
        }),
        { usuario: funcionario.id },
      );
    }

    request.log.info(
      {
        por: request.usuario.id,
        funcionario: funcionario.id,
        arquivo: enviado.nome,
        bytes: enviado.recebido.tamanho,
        exportadoEm: arquivo.exportadoEm,
        dispositivo: arquivo.dispositivo,
        operacoes: itens.length,
        comprovantes: arquivos.size,
        ...totais,
      },
      'pendências importadas',
    );
    return { funcionario: { id: funcionario.id, nome: funcionario.nome, email: funcionario.email }, exportadoEm: arquivo.exportadoEm, totais, itens };
  }
}
