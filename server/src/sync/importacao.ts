/**
 * POST /api/sync/importar (admin): the 'Exportar pendências' file of a phone that could not sync,
 * replayed as its employee with the batch sync's own code (processarLote): the same schemas, rules,
 * ownership checks and idempotency by id. Importing the same file twice changes nothing, and the
 * phone sending the same items later changes nothing either (same ids).
 *
 * The whole file is checked before anything is written (format, version, size, every operation and
 * receipt); a bad file is a 400/413 with a pt-BR message. Each write is answered: aceito, já
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
import { pastaTemporaria, Temporarios } from '../arquivos/temporarios';
import { registrarAuditoria } from '../auditoria/registro';
import { emTransacao } from '../db';
import { lerCupom, type CupomRecebido } from '../despesas/cupons';
import { arquivoGrande, dadosInvalidos, ErroApp, regraDeNegocio } from '../errors';
import { recusarCaractereNulo } from '../plugins/caractereNulo';
import type { App, UsuarioSessao } from '../tipos';
import { buscarUsuarioPorId } from '../usuarios/repositorio';
import { validar } from '../validacao';
import { contextoDeEscrita } from './contexto';
import { prepararOperacoes as prepararDoLote, processarLote, type Preparada, type ResultadoOperacao } from './lote';

/** The size limit read at each request (tests lower it instead of sending 100 MB). */
export const LIMITES_IMPORTACAO = { bytes: LIMITE_PENDENCIAS_BYTES };

const mb = (bytes: number) =>
  bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KB` : `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`.replace('.', ',');

const MENSAGEM_NAO_E_PENDENCIAS =
  'Este arquivo não é um arquivo de pendências do Sistema de Gestão. Escolha o arquivo .sgp criado em "Exportar pendências".';

/**
 * Reads the one file of the form (field `arquivo`), refusing with 413 past the limit. It is streamed
 * to a temporary file first (the multipart reader no longer holds its chunks and a copy of them),
 * then read once: the JSON parser needs it whole.
 */
async function lerArquivoEnviado(request: FastifyRequest, temporarios: Temporarios): Promise<{ conteudo: Buffer; nome: string }> {
  if (!request.isMultipart()) throw dadosInvalidos('Envie o arquivo de pendências no campo "arquivo" (multipart/form-data).');
  let achado: { conteudo: Buffer; nome: string } | null = null;
  const grandeDemais = () => arquivoGrande(`O arquivo de pendências é grande demais: o máximo é ${mb(LIMITES_IMPORTACAO.bytes)}.`);
  try {
    for await (const parte of request.parts({ limits: { fileSize: LIMITES_IMPORTACAO.bytes, files: 1, fields: 5, fieldSize: 1024 } })) {
      if (parte.type !== 'file') continue;
      if (parte.fieldname !== 'arquivo') throw dadosInvalidos('Envie o arquivo de pendências no campo "arquivo".');
      const recebido = await temporarios.receber(parte.file);
      if (recebido.truncado) throw grandeDemais();
      achado = { conteudo: await fs.promises.readFile(recebido.caminho), nome: parte.filename };
      await temporarios.remover(recebido.caminho);
    }
  } catch (erro) {
    const codigo = (erro as { code?: unknown }).code;
    if (codigo === 'FST_REQ_FILE_TOO_LARGE') throw grandeDemais();
    // Ours and the plugin's coded refusals go as they are; a malformed body is the sender's fault.
    if (erro instanceof ErroApp || typeof codigo === 'string') throw erro;
    throw dadosInvalidos('O envio do arquivo veio incompleto ou malformado. Tente enviar de novo.');
  }
  if (!achado || achado.conteudo.length === 0) throw dadosInvalidos('Escolha o arquivo de pendências (.sgp) para importar.');
  return achado;
}

/** The file's JSON checked through the shared schema: format and version first, with their own messages. */
export function lerPendencias(conteudo: Buffer): ArquivoPendencias {
  let bruto: unknown;
  try {
    bruto = JSON.parse(conteudo.toString('utf8'));
  } catch {
    throw dadosInvalidos(MENSAGEM_NAO_E_PENDENCIAS);
  }
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
 * Each operation as the batch takes it (either version), checked alone; receipts decoded to
 * temporary files (as the batch's arrive) and checked by their bytes. A receipt of a refused type is
 * the refusal of its operation; a receipt whose size does not match what the file says means the
 * file was altered, and the whole file is refused.
 */
export async function prepararOperacoes(
  arquivo: ArquivoPendencias,
  clienteId: string,
  temporarios: Temporarios,
): Promise<{ operacoes: Preparada[]; arquivos: Map<string, CupomRecebido[]> }> {
  const arquivos = new Map<string, CupomRecebido[]>();
  const errosDeArquivo = new Map<string, ErroApp>();
  const brutas: unknown[] = [];
  for (const op of arquivo.operacoes) {
    const nome = op.descricao || op.tipo || op.caminho || op.id;
    // Every receipt of the operation (issue 20, item 6: `arquivos`), or the one older apps exported.
    for (const comprovante of op.arquivos ?? (op.arquivo ? [op.arquivo] : [])) {
      if (errosDeArquivo.has(op.id)) break;
      const bytes = Buffer.from(comprovante.base64, 'base64');
      if (bytes.length !== comprovante.tamanho) throw dadosInvalidos(`O comprovante de "${nome}" está incompleto no arquivo: ele foi alterado depois de exportado.`);
      if (bytes.length > CUPOM_TAMANHO_MAXIMO) errosDeArquivo.set(op.id, arquivoGrande(`O comprovante de "${nome}" passa de ${mb(CUPOM_TAMANHO_MAXIMO)}.`));
      else {
        const recebido = await temporarios.gravar(bytes);
        try {
          arquivos.set(op.id, [...(arquivos.get(op.id) ?? []), lerCupom(recebido, comprovante.nome)]);
        } catch (erro) {
          await temporarios.remover(recebido.caminho);
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

  app.post('/importar', { schema: { response: { 200: resultadoImportacaoSchema } } }, async (request): Promise<ResultadoImportacao> => {
    const temporarios = new Temporarios(pastaTemp);
    try {
      return await importar(request, temporarios);
    } finally {
      await temporarios.limpar();
    }
  });

  async function importar(request: FastifyRequest, temporarios: Temporarios): Promise<ResultadoImportacao> {
    const enviado = await lerArquivoEnviado(request, temporarios);
    const arquivo = lerPendencias(enviado.conteudo);
    exigirVersaoAceita(arquivo, app.config.versaoMinimaApp);
    const funcionario = await funcionarioDoArquivo(app, arquivo);
    const clienteId = clienteDoArquivo(arquivo, funcionario.id);
    const { operacoes, arquivos } = await prepararOperacoes(arquivo, clienteId, temporarios);

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
        bytes: enviado.conteudo.length,
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
