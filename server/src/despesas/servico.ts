/**
 * Expense rules (decisions.md, 'Expenses' and 'Balance ledger'):
 * - an employee creates, edits and deletes only own expenses, on own active route (or a closed one,
 *   for expenses dated inside the period it was active: shared/periodoRota.ts), while Pendente;
 * - creates are idempotent by the client's UUID (a replay answers the stored expense, even a
 *   deleted one, and changes nothing); the same id from someone else is 409;
 * - each write moves the balance in the same transaction: debito on create, debito/devolucao for a
 *   changed value, devolucao on delete;
 * - a receipt arrives as a temporary file (arquivos/temporarios.ts) and is stored under its final
 *   name (arquivos/armazenamento.ts) just before the transaction that points at it (on disk, linked
 *   into place; in an S3 bucket, uploaded): nothing but the database is awaited inside a transaction.
 *   No row is ever without its file (the row commits after the file is there); a file no row names is
 *   reachable by nobody (receipts are served through their rows) and is removed again when the
 *   transaction refuses, fails or finds the write already done; what a crash in between leaves, the
 *   storage's sweep removes. The request removes whatever temporary file is left. A replaced or
 *   removed receipt is deleted only after the change committed;
 * - each employee's receipts fit in COTA_COMPROVANTES_MB (the sizes of their non-deleted expenses'
 *   receipts; replacing one counts only the difference), refused with 413 and what is left.
 * No HTTP here: the batch sync endpoint replays these same functions.
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import { hoje } from '../../../shared/dates';
import { formatarCentavos } from '../../../shared/money';
import { MAXIMO_CUPONS_POR_DESPESA, MENSAGEM_CUPONS_DEMAIS, MENSAGEM_JA_AVALIADA, nomeDoTipo, type DadosDespesaCriar, type DadosDespesaEditar } from '../../../shared/schemas/despesas';
import type { ArmazenamentoCupons } from '../arquivos/armazenamento';
import { registrarAuditoria, retratoAvaliacao } from '../auditoria/registro';
import { emTransacao, type Db } from '../db';
import { cidades, despesaCupons, despesas } from '../db/tabelas';
import { arquivoGrande, conflito, dadosInvalidos, ErroApp, naoEncontrado, regraDeNegocio, semPermissao } from '../errors';
import { exigirRotaAtivaDoFuncionario } from '../rotas/servico';
import { registrarMovimentacao } from '../saldo/servico';
import type { UsuarioSessao } from '../tipos';
import { nomeCupomValido, nomeNovoCupom, type CupomRecebido } from './cupons';
import { erroDaNfce, exigirNfceLivre } from './nfce';
import {
  atualizarDespesa,
  buscarDespesa,
  cuponsDaDespesa,
  donoDaDespesa,
  espelharPrimeiroCupom,
  excluirCupons,
  inserirCupom,
  inserirDespesa,
  type LinhaCupom,
  type LinhaDespesa,
  type NovaLinhaDespesa,
} from './repositorio';

export const DESPESA_NAO_ENCONTRADA = 'Despesa não encontrada.';

export interface ContextoDespesas {
  db: Db;
  /** Where receipts are stored: DATA_DIR/uploads or the S3 bucket. */
  armazenamento: ArmazenamentoCupons;
  /** APP_TZ: "today" for the date rule. */
  fuso: string;
  /** COTA_COMPROVANTES_MB in bytes: the receipts each employee may keep. */
  cotaComprovantesBytes: number;
  /**
   * Called inside the transaction of a change, with its handle and its answer: the batch sync records
   * the operation there through `tx`, so effect and record commit together (sync/registroOperacoes.ts).
   */
  aoAplicar?: (tx: Db, status: number, recebidoEm: string) => Promise<void>;
}

function exigirFuncionario(usuario: UsuarioSessao) {
  // Spec section 6: admins view all expenses read-only; only employees write them.
  if (usuario.tipo !== 'funcionario') throw semPermissao('Apenas funcionários registram, alteram ou excluem despesas.');
}

async function nomeCidade(db: Db, cidadeId: number): Promise<string> {
  const [cidade] = await db.select({ nome: cidades.nome }).from(cidades).where(eq(cidades.id, cidadeId)).limit(1);
  return cidade?.nome ?? '';
}

export async function rotuloDespesa(db: Db, d: Pick<LinhaDespesa, 'tipo' | 'tipoOutro' | 'cidadeId'>): Promise<string> {
  const cidade = await nomeCidade(db, d.cidadeId);
  return `${nomeDoTipo(d.tipo, d.tipoOutro)}${cidade ? ` — ${cidade}` : ''}`;
}

function validarData(fuso: string, data: string) {
  if (data > hoje(fuso)) throw regraDeNegocio('A data da despesa não pode estar no futuro.');
}

/** The owner's expense, not deleted; anyone else's (or none) is the same 404. */
async function exigirDespesaPropria(db: Db, usuario: UsuarioSessao, id: string): Promise<LinhaDespesa> {
  const despesa = await buscarDespesa(db, id);
  if (!despesa || despesa.funcionarioId !== usuario.id || despesa.excluidaEm !== null) throw naoEncontrado(DESPESA_NAO_ENCONTRADA);
  return despesa;
}

/**
 * A change to a stored expense: still Pendente, and its route takes records of its date — the date
 * it has and, on an edit, the one it gets (a closed route takes only dates of its active period).
 */
async function exigirAlteravel(db: Db, usuario: UsuarioSessao, fuso: string, despesa: LinhaDespesa, edicao?: { cidadeId: number; data: string }) {
  if (despesa.statusAprovacao !== 'pendente') throw conflito(MENSAGEM_JA_AVALIADA);
  await exigirRotaAtivaDoFuncionario(db, usuario, despesa.rotaId, { data: despesa.dataDespesa, fuso, ...(edicao ? { cidadeId: edicao.cidadeId } : {}) });
  if (edicao && edicao.data !== despesa.dataDespesa) await exigirRotaAtivaDoFuncionario(db, usuario, despesa.rotaId, { data: edicao.data, fuso });
}

/** Sizes as people read them: '850 KB', '12,3 MB', '200 MB'. */
export function tamanhoLegivel(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.ceil(bytes / 1024)} KB`;
  const mb = bytes / (1024 * 1024);
  const casas = Number.isInteger(mb) ? 0 : 1;
  return `${mb.toLocaleString('pt-BR', { minimumFractionDigits: casas, maximumFractionDigits: casas })} MB`;
}

/** Bytes of receipts the employee keeps: those of their expenses not deleted. */
export async function usoDeComprovantes(db: Db, funcionarioId: number): Promise<number> {
  const [r] = await db
    .select({ usado: sql<number>`coalesce(sum(${despesaCupons.tamanho}), 0)` })
    .from(despesaCupons)
    .innerJoin(despesas, eq(despesas.id, despesaCupons.despesaId))
    .where(and(eq(despesas.funcionarioId, funcionarioId), isNull(despesas.excluidaEm)));
  return Number(r?.usado ?? 0);
}

export function mensagemCotaAtingida(usado: number, cota: number, tamanho: number): string {
  return (
    `Limite de armazenamento de comprovantes atingido: restam ${tamanhoLegivel(Math.max(0, cota - usado))} de ${tamanhoLegivel(cota)}, ` +
    `e este comprovante tem ${tamanhoLegivel(tamanho)}. Envie uma foto menor ou peça ao administrador para aumentar o limite.`
  );
}

/**
 * A receipt of `tamanho` bytes in place of one of `anterior` fits in the employee's quota; 413
 * otherwise. Only growth is checked: a smaller receipt, or none, always passes.
 */
async function exigirCota(ctx: ContextoDespesas, db: Db, funcionarioId: number, tamanho: number, anterior = 0) {
  if (tamanho <= anterior) return;
  const usado = await usoDeComprovantes(db, funcionarioId);
  if (usado - anterior + tamanho > ctx.cotaComprovantesBytes) throw arquivoGrande(mensagemCotaAtingida(usado, ctx.cotaComprovantesBytes, tamanho));
}

const somaTamanhos = (cupons: readonly { tamanho: number }[]) => cupons.reduce((t, c) => t + c.tamanho, 0);

function exigirQuantidadeDeCupons(quantidade: number) {
  if (quantidade > MAXIMO_CUPONS_POR_DESPESA) throw dadosInvalidos(MENSAGEM_CUPONS_DEMAIS);
}

/** What a change does to an expense's receipts: stored ones removed, received ones added. */
interface PlanoCupons {
  remover: LinhaCupom[];
  novos: CupomRecebido[];
}

/**
 * The receipts of an edit or correction. This version's edits name the receipts to remove
 * (`remover_cupons`) and add the files sent; a file with the bytes of a receipt kept is not added
 * again (a replayed edit whose answer was lost). An older app's edit (no `remover_cupons`): its file
 * replaces every receipt and `excluir_cupom` removes them, as before (the same bytes again change nothing).
 */
async function planoDeCupons(ctx: ContextoDespesas, existentes: LinhaCupom[], dados: DadosDespesaEditar, cupons: readonly CupomRecebido[]): Promise<PlanoCupons> {
  if (dados.remover_cupons === undefined) {
    if (cupons.length === 0) return { remover: dados.excluir_cupom ? existentes : [], novos: [] };
    const [unico] = existentes;
    if (existentes.length === 1 && cupons.length === 1 && unico && (await ctx.armazenamento.mesmoConteudo(unico.arquivo, cupons[0]!))) return { remover: [], novos: [] };
    return { remover: existentes, novos: [...cupons] };
  }
  const ids = new Set(dados.remover_cupons);
  const remover = existentes.filter((c) => ids.has(c.id));
  const mantidos = existentes.filter((c) => !ids.has(c.id));
  const novos: CupomRecebido[] = [];
  for (const cupom of cupons) {
    let jaGuardado = false;
    for (const m of mantidos) {
      if (await ctx.armazenamento.mesmoConteudo(m.arquivo, cupom)) {
        jaGuardado = true;
        break;
      }
    }
    if (!jaGuardado) novos.push(cupom);
  }
  return { remover, novos };
}

/**
 * Inside the change's transaction: the removed receipts' rows go (their files only after the commit:
 * the names are returned), the new ones get rows after the last, and the old columns mirror the first.
 */
async function gravarCupons(db: Db, despesaId: string, plano: PlanoCupons, nomes: readonly string[]): Promise<string[]> {
  const atuais = await cuponsDaDespesa(db, despesaId);
  const remover = atuais.filter((c) => plano.remover.some((r) => r.id === c.id));
  exigirQuantidadeDeCupons(atuais.length - remover.length + plano.novos.length);
  await excluirCupons(
    db,
    remover.map((c) => c.id),
  );
  let ordem = atuais.reduce((m, c) => Math.max(m, c.ordem), -1) + 1;
  for (const [i, cupom] of plano.novos.entries()) {
    await inserirCupom(db, { despesaId, ordem: ordem++, arquivo: nomes[i]!, mime: cupom.mime, nomeOriginal: cupom.nomeOriginal, tamanho: cupom.tamanho });
  }
  if (remover.length > 0 || plano.novos.length > 0) await espelharPrimeiroCupom(db, despesaId);
  return remover.map((c) => c.arquivo);
}

async function removerArquivos(armazenamento: ArmazenamentoCupons, arquivos: readonly string[]) {
  for (const arquivo of arquivos) await armazenamento.remover(arquivo);
}

const tipoOutroDe = (dados: { tipo: string; tipo_outro: string }) => (dados.tipo === 'outro' ? dados.tipo_outro : null);

export interface ResultadoCriacao {
  despesa: LinhaDespesa;
  /** False for a replay: the stored expense was answered and nothing changed. */
  criada: boolean;
}

/** Registers an expense (and its debit). Replaying the same id answers what is stored. */
export async function criarDespesa(ctx: ContextoDespesas, usuario: UsuarioSessao, dados: DadosDespesaCriar, cupons: readonly CupomRecebido[] = []): Promise<ResultadoCriacao> {
  const { db } = ctx;
  exigirFuncionario(usuario);
  const repetida = (existente: LinhaDespesa): ResultadoCriacao => {
    if (existente.funcionarioId !== usuario.id) throw conflito('Este identificador já foi usado por outro registro.');
    return { despesa: existente, criada: false };
  };
  const existente = await buscarDespesa(db, dados.id);
  if (existente) return repetida(existente);

  const validar = async (db: Db) => {
    await exigirRotaAtivaDoFuncionario(db, usuario, dados.rota_id, { data: dados.data_despesa, fuso: ctx.fuso, cidadeId: dados.cidade_id });
    validarData(ctx.fuso, dados.data_despesa);
    exigirQuantidadeDeCupons(cupons.length);
    if (cupons.length > 0) await exigirCota(ctx, db, usuario.id, somaTamanhos(cupons));
    await exigirNfceLivre(db, dados.chave_nfce, dados.id, usuario);
  };
  await validar(db);
  const nomes = cupons.map(nomeNovoCupom);
  // Stored under their final names now, before the transaction that points at them (see the header).
  const colocados = await ctx.armazenamento.preparar(cupons, nomes);
  try {
    const resultado = await emTransacao(db, async (tx): Promise<ResultadoCriacao> => {
      // Checked again inside the transaction: the same id may have arrived while the files were stored.
      const jaGravada = await buscarDespesa(tx, dados.id);
      if (jaGravada) return repetida(jaGravada);
      await validar(tx);
      const despesa = await inserirDespesa(tx, {
        id: dados.id,
        rotaId: dados.rota_id,
        cidadeId: dados.cidade_id,
        funcionarioId: usuario.id,
        dataDespesa: dados.data_despesa,
        tipo: dados.tipo,
        tipoOutro: tipoOutroDe(dados),
        valorCentavos: dados.valor,
        descricao: dados.descricao,
        chaveNfce: dados.chave_nfce ?? null,
        registradoEm: dados.registrado_em ?? new Date().toISOString(),
      });
      await gravarCupons(tx, despesa.id, { remover: [], novos: [...cupons] }, nomes);
      await registrarMovimentacao(tx, {
        funcionarioId: usuario.id,
        tipo: 'debito',
        valorCentavos: despesa.valorCentavos,
        descricao: `Despesa: ${await rotuloDespesa(tx, despesa)}`,
        rotaId: despesa.rotaId,
        despesaId: despesa.id,
      });
      await ctx.aoAplicar?.(tx, 201, despesa.recebidoEm);
      return { despesa, criada: true };
    }, { usuario: usuario.id });
    // The same id committed while these were stored: that expense is answered, these files are nobody's.
    if (!resultado.criada) await ctx.armazenamento.desfazer(colocados);
    return resultado;
  } catch (erro) {
    await ctx.armazenamento.desfazer(colocados);
    throw await erroDaNfce(db, erro, dados.chave_nfce, dados.id, usuario);
  }
}

/** Nothing would change: a replayed edit (its answer was lost) is answered, even after an approval. */
function edicaoSemMudanca(atual: LinhaDespesa, dados: DadosDespesaEditar, plano: PlanoCupons): boolean {
  const camposIguais =
    atual.cidadeId === dados.cidade_id &&
    atual.dataDespesa === dados.data_despesa &&
    atual.tipo === dados.tipo &&
    atual.tipoOutro === tipoOutroDe(dados) &&
    atual.valorCentavos === dados.valor &&
    atual.descricao === dados.descricao &&
    (dados.chave_nfce === undefined || atual.chaveNfce === dados.chave_nfce);
  return camposIguais && plano.remover.length === 0 && plano.novos.length === 0;
}

/**
 * What tells an edit from a correction of a rejected expense; the rest (receipts, quota, the write,
 * the balance moved by a changed value) is one procedure, regravarDespesa.
 */
interface ModoDeRegravar {
  /** Whether a write that changes nothing is answered with the expense as it is (a replay). */
  semMudancaResponde: (atual: LinhaDespesa) => boolean;
  /** The rules of the expense's state and dates, checked before and again inside the transaction. */
  exigir: (db: Db, despesa: LinhaDespesa) => Promise<void>;
  /** Fields written besides the person's. */
  campos: Partial<NovaLinhaDespesa>;
  /** How the ledger names the balance's adjustment. */
  ajuste: string;
}

/** What an edit and a correction take: the expense, the person's fields and the files sent. */
type ParametrosDeRegravar = [ctx: ContextoDespesas, usuario: UsuarioSessao, id: string, dados: DadosDespesaEditar, cupons?: readonly CupomRecebido[]];

async function regravarDespesa(
  ctx: ContextoDespesas,
  usuario: UsuarioSessao,
  id: string,
  dados: DadosDespesaEditar,
  cupons: readonly CupomRecebido[],
  modo: ModoDeRegravar,
): Promise<LinhaDespesa> {
  const { db } = ctx;
  exigirFuncionario(usuario);
  const atual = await exigirDespesaPropria(db, usuario, id);
  if (dados.rota_id !== undefined && dados.rota_id !== atual.rotaId) throw regraDeNegocio('Uma despesa não pode mudar de rota.');
  const plano = await planoDeCupons(ctx, await cuponsDaDespesa(db, id), dados, cupons);
  if (modo.semMudancaResponde(atual) && edicaoSemMudanca(atual, dados, plano)) return atual;

  const validar = async (db: Db, despesa: LinhaDespesa) => {
    await modo.exigir(db, despesa);
    validarData(ctx.fuso, dados.data_despesa);
    await exigirNfceLivre(db, dados.chave_nfce, id, usuario);
  };
  await validar(db, atual);
  const cota = (db: Db) => exigirCota(ctx, db, usuario.id, somaTamanhos(plano.novos), somaTamanhos(plano.remover));
  await cota(db);
  const nomes = plano.novos.map(nomeNovoCupom);
  // Stored under their final names now, before the transaction that points at them (see the header).
  const colocados = await ctx.armazenamento.preparar(plano.novos, nomes);
  try {
    const { despesa, removidos } = await emTransacao(db, async (tx) => {
      const antes = await exigirDespesaPropria(tx, usuario, id);
      await validar(tx, antes);
      await cota(tx);
      const despesa = await atualizarDespesa(tx, id, {
        cidadeId: dados.cidade_id,
        dataDespesa: dados.data_despesa,
        tipo: dados.tipo,
        tipoOutro: tipoOutroDe(dados),
        valorCentavos: dados.valor,
        descricao: dados.descricao,
        ...(dados.chave_nfce !== undefined ? { chaveNfce: dados.chave_nfce } : {}),
        ...modo.campos,
      });
      const removidos = await gravarCupons(tx, id, plano, nomes);
      const diferenca = despesa.valorCentavos - antes.valorCentavos;
      if (diferenca !== 0) {
        await registrarMovimentacao(tx, {
          funcionarioId: usuario.id,
          tipo: diferenca > 0 ? 'debito' : 'devolucao',
          valorCentavos: Math.abs(diferenca),
          descricao: `${modo.ajuste}: ${await rotuloDespesa(tx, despesa)} (${formatarCentavos(antes.valorCentavos)} → ${formatarCentavos(despesa.valorCentavos)})`,
          rotaId: despesa.rotaId,
          despesaId: despesa.id,
        });
      }
      await ctx.aoAplicar?.(tx, 200, despesa.atualizadoEm);
      return { despesa: (await buscarDespesa(tx, id))!, removidos };
    }, { usuario: usuario.id });
    // Only now that the change committed: a rolled-back one still points at them.
    await removerArquivos(ctx.armazenamento, removidos);
    return despesa;
  } catch (erro) {
    await ctx.armazenamento.desfazer(colocados);
    throw await erroDaNfce(db, erro, dados.chave_nfce, id, usuario);
  }
}

/**
 * Changes an expense: the fields, and the receipts (the files sent are added, `remover_cupons` go;
 * an older app's file replaces them, see planoDeCupons). A changed value moves the balance by the difference.
 */
export function editarDespesa(...[ctx, usuario, id, dados, cupons = []]: ParametrosDeRegravar): Promise<LinhaDespesa> {
  return regravarDespesa(ctx, usuario, id, dados, cupons, {
    semMudancaResponde: () => true,
    exigir: (db, despesa) => exigirAlteravel(db, usuario, ctx.fuso, despesa, { cidadeId: dados.cidade_id, data: dados.data_despesa }),
    campos: {},
    ajuste: 'Ajuste da despesa',
  });
}

export const MENSAGEM_SO_REJEITADA = 'Só uma despesa rejeitada pode ser corrigida e reenviada.';
export const MENSAGEM_JA_APROVADA = 'Esta despesa já foi aprovada e não precisa ser reenviada.';

/**
 * The owner corrects a rejected expense (fields and receipt, as an edit) and sends it again: it goes
 * back to Pendente, without the rejection. The rejected expense was never given back (a rejection
 * moves no money), so only a changed value moves the balance, by the difference. A replay of a
 * correction already applied (same fields, now Pendente) is answered as it is.
 */
export function corrigirDespesa(...[ctx, usuario, id, dados, cupons = []]: ParametrosDeRegravar): Promise<LinhaDespesa> {
  return regravarDespesa(ctx, usuario, id, dados, cupons, {
    semMudancaResponde: (atual) => atual.statusAprovacao === 'pendente',
    exigir: async (db, despesa) => {
      if (despesa.statusAprovacao === 'aprovada') throw conflito(MENSAGEM_JA_APROVADA);
      if (despesa.statusAprovacao !== 'rejeitada') throw conflito(MENSAGEM_SO_REJEITADA);
      await exigirRotaAtivaDoFuncionario(db, usuario, despesa.rotaId, { data: despesa.dataDespesa, fuso: ctx.fuso, cidadeId: dados.cidade_id });
      if (dados.data_despesa !== despesa.dataDespesa) await exigirRotaAtivaDoFuncionario(db, usuario, despesa.rotaId, { data: dados.data_despesa, fuso: ctx.fuso });
    },
    campos: { statusAprovacao: 'pendente', motivoRejeicao: null, avaliadoPor: null, avaliadoEm: null },
    ajuste: 'Correção da despesa rejeitada',
  });
}

/**
 * Deletes an expense (soft: the ledger keeps pointing at it) and gives its value back with a
 * devolucao. Deleting again answers the deleted expense.
 */
export async function excluirDespesa(ctx: ContextoDespesas, usuario: UsuarioSessao, id: string): Promise<LinhaDespesa> {
  const { db } = ctx;
  exigirFuncionario(usuario);
  const { despesa, arquivos } = await emTransacao(db, async (tx) => {
    const atual = await buscarDespesa(tx, id);
    if (!atual || atual.funcionarioId !== usuario.id) throw naoEncontrado(DESPESA_NAO_ENCONTRADA);
    if (atual.excluidaEm !== null) return { despesa: atual, arquivos: [] };
    await exigirAlteravel(tx, usuario, ctx.fuso, atual);
    const despesa = await atualizarDespesa(tx, id, {
      excluidaEm: new Date().toISOString(),
      // Nobody can see a deleted expense's receipt: the file goes, the row says so.
      arquivoCupom: null,
      cupomMime: null,
      cupomNomeOriginal: null,
      cupomTamanho: null,
    });
    if (atual.valorCentavos > 0) {
      await registrarMovimentacao(tx, {
        funcionarioId: usuario.id,
        tipo: 'devolucao',
        valorCentavos: atual.valorCentavos,
        descricao: `Exclusão da despesa: ${await rotuloDespesa(tx, atual)}`,
        rotaId: atual.rotaId,
        despesaId: atual.id,
      });
    }
    // Nobody can see a deleted expense's receipts: their rows and files go.
    const cupons = await cuponsDaDespesa(tx, id);
    await excluirCupons(
      tx,
      cupons.map((c) => c.id),
    );
    await ctx.aoAplicar?.(tx, 200, despesa.atualizadoEm);
    return { despesa, arquivos: cupons.map((c) => c.arquivo) };
  }, { usuario: usuario.id });
  await removerArquivos(ctx.armazenamento, arquivos);
  return despesa;
}

export type Avaliacao = { status: 'aprovada' } | { status: 'rejeitada'; motivo: string };

/**
 * One expense's evaluation, inside the caller's transaction. Asking for the state it already has (approved
 * again, rejected again for the same reason) changes nothing: the employee is not told twice, and who
 * decided first stays recorded.
 */
async function avaliarUma(db: Db, admin: UsuarioSessao, id: string, avaliacao: Avaliacao, agora: string): Promise<LinhaDespesa> {
  const atual = await buscarDespesa(db, id);
  if (!atual || atual.excluidaEm !== null) throw naoEncontrado(DESPESA_NAO_ENCONTRADA);
  const motivo = avaliacao.status === 'rejeitada' ? avaliacao.motivo : null;
  if (atual.statusAprovacao === avaliacao.status && atual.motivoRejeicao === motivo) return atual;
  // Approved after an acerto charged it back to the employee: the company bears it again (acerto/servico.ts).
  const descobrar = avaliacao.status === 'aprovada' && atual.cobradaNoAcertoEm !== null;
  const avaliada = await atualizarDespesa(db, id, {
    statusAprovacao: avaliacao.status,
    motivoRejeicao: motivo,
    avaliadoPor: admin.id,
    avaliadoEm: agora,
    ...(descobrar ? { cobradaNoAcertoEm: null } : {}),
  });
  if (descobrar) {
    await registrarMovimentacao(db, {
      funcionarioId: atual.funcionarioId,
      tipo: 'debito',
      valorCentavos: atual.valorCentavos,
      descricao: `Despesa aprovada depois do acerto: ${await rotuloDespesa(db, atual)} (${formatarCentavos(atual.valorCentavos)})`,
      adminId: admin.id,
      rotaId: atual.rotaId,
      despesaId: atual.id,
    });
  }
  await registrarAuditoria(db, {
    adminId: admin.id,
    acao: avaliacao.status === 'aprovada' ? 'despesa.aprovar' : 'despesa.rejeitar',
    alvoTipo: 'despesa',
    alvoId: id,
    antes: retratoAvaliacao(atual),
    depois: retratoAvaliacao(avaliada),
  });
  return avaliada;
}

/**
 * An admin approves or rejects (with a reason). Money does not move (the cash was spent either way), except
 * for an expense an acerto charged back to the employee and now approved; a decision can be revised.
 */
export async function avaliarDespesa(db: Db, admin: UsuarioSessao, id: string, avaliacao: Avaliacao): Promise<LinhaDespesa> {
  if (admin.tipo !== 'admin') throw semPermissao('Acesso restrito a administradores.');
  // The expense's owner's lock (their ledger moves when an expense charged back is approved); the bulk
  // approval below touches many employees and takes the lock for everything (db/travas.ts).
  return emTransacao(db, (tx) => avaliarUma(tx, admin, id, avaliacao, new Date().toISOString()), { usuarioDe: (tx) => donoDaDespesa(tx, id) });
}

export type ResultadoAvaliacao = { id: string; ok: true; despesa: LinhaDespesa } | { id: string; ok: false; error: string };

/**
 * The admin's bulk approval or rejection: every id by the rules of one, in one transaction
 * (one disk sync for the page); an id that cannot be evaluated fails alone with its reason and writes nothing.
 */
export async function avaliarDespesasEmLote(db: Db, admin: UsuarioSessao, ids: readonly string[], avaliacao: Avaliacao): Promise<ResultadoAvaliacao[]> {
  if (admin.tipo !== 'admin') throw semPermissao('Acesso restrito a administradores.');
  const agora = new Date().toISOString();
  return emTransacao(db, async (tx) => {
    const resultados: ResultadoAvaliacao[] = [];
    for (const id of ids) {
      try {
        resultados.push({ id, ok: true, despesa: await avaliarUma(tx, admin, id, avaliacao, agora) });
      } catch (erro) {
        // Only a refusal of this id (ErroApp: gone, deleted; thrown before it writes) is its own result; anything else aborts the whole batch.
        if (erro instanceof ErroApp && erro.statusCode < 500) resultados.push({ id, ok: false, error: erro.message });
        else throw erro;
      }
    }
    return resultados;
  });
}

/**
 * A stored receipt of an expense the caller may see (admin, or the owner), by its id, or the first
 * without one (the single-receipt URL of installed apps); anyone else gets the same 404.
 */
export async function exigirCupomVisivel(ctx: ContextoDespesas, usuario: UsuarioSessao, id: string, cupomId?: number) {
  const despesa = await buscarDespesa(ctx.db, id);
  const visivel = despesa && despesa.excluidaEm === null && (usuario.tipo === 'admin' || despesa.funcionarioId === usuario.id);
  const cupons = visivel ? await cuponsDaDespesa(ctx.db, id) : [];
  const cupom = cupomId === undefined ? cupons[0] : cupons.find((c) => c.id === cupomId);
  if (!cupom || !nomeCupomValido(cupom.arquivo)) throw naoEncontrado('Cupom não encontrado.');
  return { arquivo: cupom.arquivo, mime: cupom.mime, nome: cupom.nomeOriginal };
}
