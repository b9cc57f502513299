/**
 * Replaying a phone's queue in one request (POST /api/sync/lote), exactly once per operation
 * (docs/decisions/sincronizacao.md):
 *
 * - Each operation is { id, tipo, seq, dados } (shared/sync/operacoes.ts), checked by its kind's
 *   schema and run by its kind's function (execucoes.ts); the batch names the device (`cliente_id`).
 *   Old-format operations still replay (legado.ts).
 * - Exactly once: an applied operation is recorded (operacoes_aplicadas) in the same transaction as
 *   its effect. One recorded before is answered with its recorded outcome (`repetida`) and not run:
 *   a lost answer, a second tab or a re-imported rescue file change nothing. The log is not read up
 *   front: the run without savepoints inserts each operation's log row, whose key refuses a recorded
 *   id, so a batch of new operations (nearly every batch) costs no lookup. A run that fails
 *   reads the log for its operations: if it finds some, the run goes again answering them from it (a
 *   batch sent again, with new operations or not); the run with savepoints reads the log again under
 *   the write lock (another process may have applied some meanwhile).
 * - A write on a route its employee finished (refused with rota_finalizada) is another phone's, made before
 *   it knew: held for the admin with its receipts and recorded as applied with 202 (tardias/servico.ts),
 *   never lost and never applied by itself.
 * - Per-operation outcomes: a bad operation (invalid data, unknown kind, a receipt of a refused type
 *   or size) is refused alone with its own message; later operations on the same entity (and a
 *   finishing of its route) are answered 'retido'; everything else proceeds.
 * - Order is the phone's. Consecutive operations that only touch the database share one transaction
 *   (emTransacao, each write given its handle): the run first goes without savepoints (a savepoint
 *   per write makes SQLite copy every page it touches); if any write in it throws, the run is rolled
 *   back and done again with a savepoint per write (emSavepoint), so a refusal rolls back only
 *   itself. Operations with files run on their own: their files are written outside any transaction
 *   (nothing but the database is awaited inside one), so they commit in a transaction of their own.
 * - An unexpected failure stops the batch: what ran is committed (and recorded), the rest answered
 *   'nao_processado' and sent again later.
 */
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { ESQUEMAS_OPERACAO, operacaoCanonica, operacaoSyncSchema, VALIDACOES_CANONICAS, vendaCanonica } from '../../../shared/sync/esquemas';
import { ehTipoOperacao, retencaoDe, Retencoes, type TipoOperacao } from '../../../shared/sync/operacoes';
import type { CupomRecebido } from '../despesas/cupons';
import { conflito, dadosInvalidos, ErroApp, ErroRotaFinalizada } from '../errors';
import { ehPostgres, emSavepoint, emTransacao, type Db, type Trava } from '../db';
import { depois, rodarPassos, type Talvez } from '../db/talvez';
import { comSituacoesMemorizadas } from '../rotas/situacaoParaEscrita';
import { classificarIndisponibilidade } from '../saude/indisponibilidade';
import type { UsuarioSessao } from '../tipos';
import { ID_JA_USADO } from '../vendas/servico';
import { VendasNovasDoLote } from '../vendas/vendasNovasDoLote';
import type { VendaCriarDados } from '../../../shared/schemas/vendas';
import type { ContextoEscrita, RespostaEscrita } from './escritas';
import { EXECUCOES } from './execucoes';
import { operacaoLegadaSchema, prepararLegada } from './legado';
import { buscarAplicadas, registrarAplicada, type OperacaoAplicada } from './registroOperacoes';
import { SITUACAO_CHEGOU_DEPOIS } from '../../../shared/sync/operacoes';
import type { ArquivoTardio } from '../tardias/repositorio';
import { guardarArquivosDaTardia, guardarTardia } from '../tardias/servico';

/** A write held for the admin: it reached a route its employee had finished. */
export const STATUS_TARDIA = 202;

export const MAXIMO_OPERACOES_POR_LOTE = 500;

export const loteSchema = z.object({
  /** The device: its operations are recorded under it. Absent in old apps' batches. */
  cliente_id: z.string({ error: 'Identificador do aparelho inválido.' }).min(1, 'Identificador do aparelho inválido.').max(100, 'Identificador do aparelho inválido.').optional(),
  operacoes: z
    .array(z.unknown(), { error: 'Envie a lista de operações.' })
    .min(1, 'Envie ao menos uma operação.')
    .max(MAXIMO_OPERACOES_POR_LOTE, `Envie no máximo ${MAXIMO_OPERACOES_POR_LOTE} operações por lote.`),
});

/**
 * loteSchema's answer for a batch in the phone's usual form (a device id and 1 to 500 operations), without
 * zod: the schema checked each of the 200 elements as unknown, with an object per element.
 * null for anything else, which then goes through the schema and its messages (lote.test.ts holds the two
 * to the same answers).
 */
export function loteCanonico(bruto: unknown): z.output<typeof loteSchema> | null {
  if (typeof bruto !== 'object' || bruto === null || Array.isArray(bruto)) return null;
  const { cliente_id, operacoes } = bruto as Record<string, unknown>;
  if (cliente_id !== undefined && (typeof cliente_id !== 'string' || cliente_id.length < 1 || cliente_id.length > 100)) return null;
  if (!Array.isArray(operacoes) || operacoes.length < 1 || operacoes.length > MAXIMO_OPERACOES_POR_LOTE) return null;
  return cliente_id === undefined ? { operacoes } : { cliente_id, operacoes };
}

export type StatusOperacao = number | 'retido' | 'nao_processado';

/**
 * An operation's outcome. Accepted: its status and when the server took it (`recebido_em`), and
 * `repetida` when it had been applied before (answered from the log). Refused: `corpo` has the message.
 */
export interface ResultadoOperacao {
  id: string;
  status: StatusOperacao;
  recebido_em?: string | null;
  repetida?: true;
  /** Held for the admin (status 202): it reached a route its employee had finished (tardias/servico.ts). */
  situacao?: typeof SITUACAO_CHEGOU_DEPOIS;
  corpo?: unknown;
}

/** Runs the operation; at once on SQLite for the kinds whose steps allow it (db/talvez.ts). */
type Rodar = (ctx: ContextoEscrita, usuario: UsuarioSessao, cupons?: readonly CupomRecebido[]) => Talvez<RespostaEscrita>;

/** An operation checked and bound to what runs it, or to its refusal. */
export interface Preparada {
  id: string;
  tipo: string;
  seq: number;
  /** Which held keys it waits for and holds (see retencaoDe); only read once something was refused. */
  readonly retencao: { espera: string[]; retem: string[] };
  gravaArquivos: boolean;
  preservaRotas: boolean;
  rodar: Rodar | null;
  erro: ErroApp | null;
  /** A current-format sale's checked data: new ones may take the direct path (vendas/vendasNovasDoLote.ts). */
  venda?: VendaCriarDados;
  /** Its kind and checked data, kept when its route was finished meanwhile (tardias/servico.ts); absent for old formats. */
  readonly guardavel?: { tipo: TipoOperacao; dados: unknown } | null;
}

const MENSAGEM_DESCONHECIDA = 'Operação desconhecida: atualize o aplicativo e tente de novo.';

function mensagemDeValidacao(erro: z.ZodError): string {
  return erro.issues[0]?.message ?? 'Dados inválidos.';
}

/**
 * The kind's schema, or first its check without zod for data in the phone's usual form (same answer,
 * shared/sync/esquemas.ts): the schema was a third of the server's time per queued sale.
 */
function validarDados(tipo: TipoOperacao, dados: unknown): { success: true; data: unknown } | { success: false; error: z.ZodError } {
  const canonica = VALIDACOES_CANONICAS[tipo]?.(dados);
  if (canonica) return { success: true, data: canonica };
  return ESQUEMAS_OPERACAO[tipo].safeParse(dados);
}

const semRetencao = (): Preparada['retencao'] => ({ espera: [], retem: [] });

/**
 * An operation of the current format, checked. Its holds are worked out when first read: a batch with
 * no refusal never reads them (the run without savepoints does not), and naming each sale's keys was
 * ~2 µs of every queued sale. A class, fields in one fixed order: spreading one object into
 * another cost ~2 µs per operation, and an object literal with a getter is built the slow way.
 */
class PreparadaAtual implements Preparada {
  private calculada: Preparada['retencao'] | null = null;
  readonly gravaArquivos: boolean;
  readonly preservaRotas: boolean;
  readonly venda: VendaCriarDados | undefined;
  constructor(
    readonly id: string,
    readonly tipo: string,
    readonly seq: number,
    /** What retencaoDe reads (null: nothing to hold, an unknown kind or a malformed envelope). */
    private readonly paraRetencao: { tipo: TipoOperacao; dados: unknown } | null,
    execucao: { gravaArquivos?: boolean; preservaRotas?: boolean } | null,
    readonly rodar: Rodar | null,
    readonly erro: ErroApp | null,
  ) {
    this.gravaArquivos = execucao?.gravaArquivos === true;
    this.preservaRotas = execucao?.preservaRotas === true;
    this.venda = rodar && paraRetencao?.tipo === 'venda.salvar' ? (paraRetencao.dados as VendaCriarDados) : undefined;
  }

  get guardavel(): { tipo: TipoOperacao; dados: unknown } | null {
    return this.rodar ? this.paraRetencao : null;
  }

  get retencao(): Preparada['retencao'] {
    if (this.calculada) return this.calculada;
    try {
      this.calculada = this.paraRetencao ? retencaoDe(this.paraRetencao) : semRetencao();
    } catch {
      this.calculada = semRetencao(); // data too broken to name its entities: it holds nothing back
    }
    return this.calculada;
  }
}

/** A checked operation bound to what runs it. */
function preparadaValida(id: string, tipo: TipoOperacao, seq: number, dados: unknown, clienteId: string): Preparada {
  const execucao = EXECUCOES[tipo];
  const executar = execucao.executar as (...a: unknown[]) => Talvez<RespostaEscrita>;
  // The closure is passed as it is made, not bound to a name first: under tsx (dev, tests, benchmarks)
  // esbuild's keepNames renames every named closure with a defineProperty, 2-3% of a batch.
  return new PreparadaAtual(id, tipo, seq, { tipo, dados }, execucao, (ctx, usuario, cupons) => executar(ctx, usuario, dados, { clienteId }, cupons), null);
}

function prepararAtual(bruta: unknown, indice: number, clienteId: string): Preparada {
  const canonica = operacaoCanonica(bruta);
  // The phone's usual sale (nearly every queued operation) straight to its binding, no result wrappers.
  const venda = canonica?.tipo === 'venda.salvar' ? vendaCanonica(canonica.dados) : null;
  if (venda) return preparadaValida(canonica!.id, 'venda.salvar', canonica!.seq, venda, clienteId);
  const op = canonica ? { success: true as const, data: canonica } : operacaoSyncSchema.safeParse(bruta);
  const id = op.success ? op.data.id : String((bruta as { id?: unknown }).id);
  if (!op.success) return new PreparadaAtual(id, 'desconhecida', indice, null, null, null, dadosInvalidos(mensagemDeValidacao(op.error)));
  const { tipo, seq, dados } = op.data;
  if (!ehTipoOperacao(tipo)) return new PreparadaAtual(id, 'desconhecida', seq, null, null, null, new ErroApp(422, 'regra_de_negocio', MENSAGEM_DESCONHECIDA));
  const validado = validarDados(tipo, dados);
  if (!validado.success) return new PreparadaAtual(id, tipo, seq, { tipo, dados }, EXECUCOES[tipo], null, dadosInvalidos(mensagemDeValidacao(validado.error)));
  return preparadaValida(id, tipo, seq, validado.data, clienteId);
}

/**
 * Each operation of a batch or rescue file, checked alone: a malformed one is refused alone.
 * `errosDeArquivo`: receipts refused while reading the request (type, size), by operation id.
 */
export function prepararOperacoes(brutas: unknown[], clienteId: string, errosDeArquivo: Map<string, ErroApp> = new Map()): Preparada[] {
  return brutas.map((bruta, i) => {
    const objeto = typeof bruta === 'object' && bruta !== null ? (bruta as Record<string, unknown>) : {};
    if (typeof objeto.id !== 'string' || objeto.id === '' || objeto.id.length > 100) throw dadosInvalidos(`A operação nº ${i + 1} não tem identificador.`);
    let preparada: Preparada;
    if ('tipo' in objeto) preparada = prepararAtual(objeto, i, clienteId);
    else {
      const legada = operacaoLegadaSchema.safeParse(objeto);
      preparada = legada.success
        ? prepararLegada(legada.data, i)
        : { id: objeto.id, tipo: 'desconhecida', seq: i, retencao: { espera: [], retem: [] }, gravaArquivos: false, preservaRotas: false, rodar: null, erro: dadosInvalidos(mensagemDeValidacao(legada.error)) };
    }
    const erroDoArquivo = errosDeArquivo.get(preparada.id);
    return erroDoArquivo && !preparada.erro ? { ...preparada, retencao: preparada.retencao, rodar: null, erro: erroDoArquivo } : preparada;
  });
}

type Execucao = { tipo: 'resultado'; resultado: ResultadoOperacao } | { tipo: 'inesperado'; erro: unknown };

function recusa(id: string, erro: ErroApp): ResultadoOperacao {
  return { id, status: erro.statusCode, corpo: erro.corpo() };
}

function aceita(id: string, r: RespostaEscrita): Talvez<ResultadoOperacao> {
  return depois(r.recebidoEm(), (recebidoEm): ResultadoOperacao => ({ id, status: r.status, recebido_em: recebidoEm }));
}

export async function processarLote(
  ctx: ContextoEscrita,
  usuario: UsuarioSessao,
  clienteId: string,
  operacoes: Preparada[],
  /** Each operation's receipts, in order (several per expense). */
  arquivos: Map<string, CupomRecebido[]>,
  log: Pick<FastifyBaseLogger, 'error'>,
): Promise<ResultadoOperacao[]> {
  const resultados: ResultadoOperacao[] = [];
  // What held keys back, in order: the holds can be rebuilt from it (see emTransacaoDoLote).
  const retidas: Preparada['retencao'][] = [];
  let retencoes = new Retencoes();
  // Recorded before this batch (read when a run finds one, see the header), and recorded by it
  // (committed): both are answered, never run again.
  const aplicadas = new Map<string, OperacaoAplicada>();
  /** Ids added to `aplicadas` since the batch began, in order. */
  const novasAplicadas: string[] = [];
  let i = 0;
  let interrompido = false;
  // Every write of the batch is on this user's data: on PostgreSQL, their lock (db/travas.ts), so that
  // other employees' batches run beside it and another of theirs (a second process) waits.
  const travaDoLote: Trava = { usuario: usuario.id };

  const reter = (r: Preparada['retencao']) => {
    retencoes.reter(r);
    retidas.push(r);
  };

  const marcarAplicada = (a: OperacaoAplicada) => {
    aplicadas.set(a.id, a);
    novasAplicadas.push(a.id);
  };

  const registro = (op: Preparada, r: ResultadoOperacao): OperacaoAplicada => ({
    id: op.id,
    usuarioId: usuario.id,
    clienteId,
    seq: op.seq,
    tipo: op.tipo,
    status: r.status as number,
    recebidoEm: r.recebido_em ?? null,
  });

  /**
   * A transaction that changes the batch's state as it goes (the run with a savepoint per write).
   * PostgreSQL may run a transaction again from the start (a deadlock, db/index.ts):
   * each run first puts the state back as it was when the transaction began, so what the answers
   * say is what the committed run did. SQLite runs it once.
   */
  const emTransacaoDoLote = (fn: (tx: Db) => Promise<void>): Talvez<void> => {
    const marca = { i, resultados: resultados.length, retidas: retidas.length, aplicadas: novasAplicadas.length };
    return emTransacao(ctx.db, async (tx) => {
      i = marca.i;
      interrompido = false;
      resultados.length = marca.resultados;
      if (retidas.length > marca.retidas) {
        retidas.length = marca.retidas;
        retencoes = new Retencoes();
        for (const r of retidas) retencoes.reter(r);
      }
      for (const id of novasAplicadas.splice(marca.aplicadas)) aplicadas.delete(id);
      await fn(tx);
    }, travaDoLote);
  };

  /** Already applied (before, or earlier in this batch): the recorded outcome. Another user's id is refused. */
  const jaAplicada = (op: Preparada): ResultadoOperacao | null => {
    const a = aplicadas.get(op.id);
    if (!a) return null;
    if (a.usuarioId !== usuario.id) return recusa(op.id, conflito(ID_JA_USADO));
    return a.status === STATUS_TARDIA
      ? { id: op.id, status: a.status, recebido_em: a.recebidoEm, repetida: true, situacao: SITUACAO_CHEGOU_DEPOIS }
      : { id: op.id, status: a.status, recebido_em: a.recebidoEm, repetida: true };
  };

  const anotar = (op: Preparada, r: ResultadoOperacao) => {
    if (typeof r.status === 'number' && r.status >= 400) reter(op.retencao);
    resultados.push(r);
  };

  /** Answered without running: recorded, refused before running, or held behind a refusal. */
  const semRodar = (op: Preparada): ResultadoOperacao | null => {
    const repetida = jaAplicada(op);
    if (repetida) return repetida;
    if (retencoes.retida(op.retencao)) {
      reter(op.retencao);
      return { id: op.id, status: 'retido' };
    }
    if (op.erro) return recusa(op.id, op.erro);
    return null;
  };

  /**
   * A write refused because its route was finished, kept for the admin inside `tx` with its operation
   * recorded (202: a replay is answered, never held twice); null when the refusal is of another kind.
   */
  const guardarSeTardia = async (tx: Db, op: Preparada, erro: unknown, arquivos: readonly ArquivoTardio[] = []): Promise<ResultadoOperacao | null> => {
    if (!(erro instanceof ErroRotaFinalizada) || !op.guardavel) return null;
    const recebidoEm = await guardarTardia(
      tx,
      { operacaoId: op.id, usuarioId: usuario.id, rotaId: erro.rotaId, clienteId, seq: op.seq, tipo: op.guardavel.tipo, dados: op.guardavel.dados },
      arquivos,
    );
    const resultado: ResultadoOperacao = { id: op.id, status: STATUS_TARDIA, recebido_em: recebidoEm, situacao: SITUACAO_CHEGOU_DEPOIS };
    await registrarAplicada(tx, registro(op, resultado));
    return resultado;
  };

  /** One operation inside the run's transaction `tx`, in a savepoint: a refusal rolls back only this write. */
  const executarComSavepoint = async (tx: Db, ctxTx: ContextoEscrita, op: Preparada): Promise<Execucao> => {
    try {
      const r = await emSavepoint(tx, async (sp) => {
        const resultado = await aceita(op.id, await op.rodar!(ctxTx, usuario));
        await registrarAplicada(sp, registro(op, resultado));
        return resultado;
      });
      return { tipo: 'resultado', resultado: r };
    } catch (erro) {
      try {
        const tardia = await guardarSeTardia(tx, op, erro);
        if (tardia) return { tipo: 'resultado', resultado: tardia };
      } catch (falha) {
        return { tipo: 'inesperado', erro: falha };
      }
      if (erro instanceof ErroApp) return { tipo: 'resultado', resultado: recusa(op.id, erro) };
      return { tipo: 'inesperado', erro };
    }
  };

  /** The held write with receipts: they are stored under names of their own first, then held with them in a transaction. */
  const guardarTardiaComArquivos = async (op: Preparada, erro: ErroRotaFinalizada): Promise<Execucao> => {
    const guardados = await guardarArquivosDaTardia(ctx, arquivos.get(op.id) ?? []);
    try {
      const resultado = await emTransacao(ctx.db, (tx) => guardarSeTardia(tx, op, erro, guardados), travaDoLote);
      return { tipo: 'resultado', resultado: resultado! };
    } catch (falha) {
      await ctx.armazenamento.desfazer(guardados.map((a) => a.nome));
      return { tipo: 'inesperado', erro: falha };
    }
  };

  const executarComArquivos = async (op: Preparada): Promise<Execucao> => {
    let registrada = false;
    let resultado: ResultadoOperacao | null = null;
    // The service calls this inside the transaction of its change, with its handle: effect and record commit together.
    const aoAplicar = async (tx: Db, status: number, recebidoEm: string) => {
      resultado = { id: op.id, status, recebido_em: recebidoEm };
      await registrarAplicada(tx, registro(op, resultado));
      registrada = true;
    };
    try {
      const r = await op.rodar!({ ...ctx, aoAplicar }, usuario, arquivos.get(op.id));
      const final = resultado ?? (await aceita(op.id, r));
      // Answered without a change (the same data again): recorded now, nothing to commit with it.
      if (!registrada) await emTransacao(ctx.db, (tx) => registrarAplicada(tx, registro(op, final)), travaDoLote);
      return { tipo: 'resultado', resultado: final };
    } catch (erro) {
      if (erro instanceof ErroRotaFinalizada && op.guardavel) return guardarTardiaComArquivos(op, erro);
      if (erro instanceof ErroApp) return { tipo: 'resultado', resultado: recusa(op.id, erro) };
      return { tipo: 'inesperado', erro };
    }
  };

  const registrar = (op: Preparada, execucao: Execucao): boolean => {
    if (execucao.tipo === 'inesperado') {
      // The database or the disk failing is no operation's fault: the whole batch is answered 503 with
      // Retry-After (plugins/erros.ts), the phone keeps it, and what committed before is answered from the log.
      if (classificarIndisponibilidade(execucao.erro)) throw execucao.erro;
      log.error({ err: execucao.erro, operacao: op.id, tipo: op.tipo }, 'lote interrompido por um erro inesperado');
      return false;
    }
    const r = execucao.resultado;
    if (typeof r.status === 'number' && r.status < 400) {
      marcarAplicada(registro(op, r));
    }
    anotar(op, r);
    return true;
  };

  /** Adds to `aplicadas` what the log now records among operations [inicio, fim) not known as recorded. */
  const lerAplicadasDe = async (db: Db, inicio: number, fim: number): Promise<boolean> => {
    const ids = operacoes.slice(inicio, fim).filter((op) => !aplicadas.has(op.id)).map((op) => op.id);
    const achadas = await buscarAplicadas(db, ids);
    for (const a of achadas.values()) marcarAplicada(a);
    return achadas.size > 0;
  };

  /** Where the run of database-only operations starting at `inicio` ends (the next one with files, or the end). */
  const fimDoTrecho = (inicio: number): number => {
    let j = inicio;
    while (j < operacoes.length && !(operacoes[j]!.gravaArquivos && operacoes[j]!.rodar)) j += 1;
    return j;
  };

  /**
   * The operations [inicio, fim) in the open transaction `tx`, as steps (db/talvez.ts): on SQLite a run of
   * queued sales goes through at once, with no promise per statement; an operation whose kind
   * awaits (or PostgreSQL) makes the rest wait, in the same order. Throws at the first refusal. An
   * operation id given twice in the run is not looked for here: each accepted operation inserts its log
   * row, and the second row's key is refused before the run commits (the same check as for an earlier send).
   */
  function* passosDoTrecho(tx: Db, inicio: number, fim: number, esquecer: () => void): Generator<unknown, ResultadoOperacao[], unknown> {
    /** Operation inicio + k's outcome at k. */
    const parciais: ResultadoOperacao[] = [];
    const ctxTx: ContextoEscrita = { ...ctx, db: tx };
    const vendasNovas = ehPostgres(tx) ? null : new VendasNovasDoLote(tx, usuario, clienteId, ctx.fuso);
    for (let j = inicio; j < fim; j++) {
      const op = operacoes[j]!;
      const repetida = jaAplicada(op);
      if (repetida) {
        if (typeof repetida.status === 'number' && repetida.status >= 400) throw new Error('recusa');
        parciais.push(repetida);
        continue;
      }
      if (op.erro || !op.rodar) throw new Error('recusa');
      // A new sale on a free day, straight to the driver; anything else goes its kind's way below.
      const recebidoEm = vendasNovas && op.venda ? vendasNovas.gravar(op.id, op.seq, op.venda) : null;
      if (recebidoEm) {
        parciais.push({ id: op.id, status: 201, recebido_em: recebidoEm });
        continue;
      }
      const r = (yield op.rodar(ctxTx, usuario)) as RespostaEscrita;
      if (r.status >= 400) throw new Error('recusa');
      const resultado = (yield aceita(op.id, r)) as ResultadoOperacao;
      yield registrarAplicada(tx, registro(op, resultado));
      if (!op.preservaRotas) esquecer();
      parciais.push(resultado);
    }
    vendasNovas?.terminar();
    return parciais;
  }

  /** The run [inicio, fim) with no savepoints: false (and nothing written) if any operation was refused or threw. */
  const trechoSemSavepoints = async (inicio: number, fim: number): Promise<boolean> => {
    let parciais: ResultadoOperacao[];
    try {
      // Built anew by each run of the transaction (PostgreSQL may run it again).
      parciais = await emTransacao(ctx.db, (tx) => comSituacoesMemorizadas(tx, (esquecer) => rodarPassos(passosDoTrecho(tx, inicio, fim, esquecer))), travaDoLote);
    } catch {
      // Rolled back: done again below, one savepoint per operation, after reading the log. Where an
      // operation applied before lands (its log row's key refused the insert, or its sale's id was
      // taken), whether by an earlier send or by another process while this batch ran.
      return false;
    }
    // A run that ends the batch leaves no later operation to answer from `aplicadas` (nearly every batch:
    // ~200 records and map entries nobody reads).
    const fimDoLote = fim === operacoes.length;
    for (let k = 0; k < parciais.length; k++) {
      const r = parciais[k]!;
      if (!r.repetida && !fimDoLote) marcarAplicada(registro(operacoes[inicio + k]!, r));
      resultados.push(r);
    }
    return true;
  };

  while (i < operacoes.length && !interrompido) {
    const fim = fimDoTrecho(i);
    // A run that found operations applied before (a batch sent again, maybe with new ones after them) runs
    // once more without savepoints, now answering those from the log; one that found none (a refusal) goes
    // a savepoint per operation.
    if (fim > i && ((await trechoSemSavepoints(i, fim)) || ((await lerAplicadasDe(ctx.db, i, fim)) && (await trechoSemSavepoints(i, fim))))) {
      i = fim;
    } else {
      // A run of operations that only touch the database, in one transaction, a savepoint each.
      await emTransacaoDoLote(async (tx) => {
        const ctxTx: ContextoEscrita = { ...ctx, db: tx };
        // The log as it is now, under the write lock: the same batch sent again to another process
        // (a phone that gave up waiting) may have been applied there since `aplicadas` was read.
        await lerAplicadasDe(tx, i, fimDoTrecho(i));
        while (i < operacoes.length) {
          const op = operacoes[i]!;
          const semExecutar = semRodar(op);
          if (semExecutar) {
            anotar(op, semExecutar);
            i += 1;
            continue;
          }
          if (op.gravaArquivos) break;
          if (!registrar(op, await executarComSavepoint(tx, ctxTx, op))) {
            interrompido = true;
            break;
          }
          i += 1;
        }
      });
    }
    if (interrompido || i >= operacoes.length) break;
    const op = operacoes[i]!;
    await lerAplicadasDe(ctx.db, i, i + 1);
    const semExecutar = semRodar(op);
    if (semExecutar) anotar(op, semExecutar);
    else if (!registrar(op, await executarComArquivos(op))) break;
    i += 1;
  }
  for (const op of operacoes.slice(resultados.length)) resultados.push({ id: op.id, status: 'nao_processado' });
  return resultados;
}
