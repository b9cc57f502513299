/**
 * The sync engine: replays the signed-in user's outbox in order (decisions.md, 'Offline and sync'
 * and 'Sync protocol').
 * - Runs at start, on the `online` event, every 30 s, and on "Sincronizar agora".
 * - One uploader per device: the tabs and the installed app share one outbox, and only the one
 *   holding the Web Lock 'sistema-de-gestao:sync' replays it; the others skip their pass.
 * - Sends in batches (POST /api/sync/lote): each operation carries its id, kind, the device's
 *   sequence number and its data; the batch names the device. The server answers each operation on
 *   its own and applies each exactly once (a replay is answered from its operation log).
 * - A whole request refused (400/413/415: a proxy's size limit, a framing error): the batch is split
 *   in halves and sent again, down to one operation, so the refusal lands on the right item.
 * - No answer (offline, timeout, 5xx, 429): the item stays, retried with exponential backoff forever;
 *   later items wait behind it, so order is kept. A 429 (the per-user request limit) or 503
 *   with Retry-After waits at least that long; it never refuses a write.
 * - 401: the queue pauses until the user signs in again (`retomar()`), nothing changes.
 * - 426: this app is older than the server accepts ('Atualize o aplicativo'): the queue pauses, nothing
 *   is discarded; it goes again once the app is another version, or the server says it accepts this one.
 * - Any other refusal (400, 403, 404, 409, 413, 422...): the item is marked 'precisa de atenção' with
 *   the server's message and set aside; later items on the same entity wait, the rest go on.
 * - Nothing leaves the outbox without the server's confirmation or the person's decision.
 */
import { liveQuery, type Subscription } from 'dexie';
import { ehCorpoErro, type ConflitoDeVersao } from '../../../shared/api/errors';
import { ehTipoOperacao, retencaoDe, Retencoes, SITUACAO_CHEGOU_DEPOIS, type OperacaoSync } from '../../../shared/sync/operacoes';
import { versaoAntiga, versaoValida } from '../../../shared/versao';
import { api, ErroApi, ErroOffline, requisitar } from '../api/client';
import { versaoApp } from '../versaoApp';
import type { ArquivoLocal, BancoLocal, ItemOutbox } from './db';
import { encerrarJanelaDaPassada } from './cache';
import { idDoDispositivo } from './dispositivo';
import { enviarEmPartes, PARTES_A_PARTIR_DE } from './envioEmPartes';
import { arquivosDoItem, atualizarItem, itensDoUsuario, lerConfirmacoes, registrarRespostas, type DefinicaoOperacao, type Operacoes, type Respostas } from './outbox';
import { ehStatusTransitorio, LIMITES_LOTE, transporteEmLote, type Enviar, type Envio, type ResultadoEnvio, type Transporte } from './transporte';
import { estadoSyncInicial } from './estado';
import { Vazao } from './vazao';

export interface EstadoSync {
  online: boolean;
  sincronizando: boolean;
  pendentes: number;
  comErro: number;
  ultimaSincronizacao: string | null;
  /** The server refused the session (401): waiting for the user to sign in again. */
  pausadoPorSessao: boolean;
  /** The server refused this app's version (426): waiting for the update ('Atualize o aplicativo'). */
  atualizacaoNecessaria: boolean;
  /** Last network failure, for the indicator's tooltip. */
  ultimoErroRede: string | null;
  /** During a pass: how many of the items it found have been answered ('Enviando 120 de 1.000'). */
  progresso: { enviados: number; total: number } | null;
  /** Items of other users queued on this device: they wait for their owner to sign in. */
  deOutrosUsuarios: number;
  /**
   * The confirmation counter (outbox.ts, meta 'confirmacoes') when this tab's last pass ended: the
   * screens read their data again once per pass when it grows (offline/index.ts useReleituraPorPassada).
   */
  confirmacoes: number;
}

export interface Sessao {
  usuarioId: number;
  token: string | null;
}

export interface OpcoesMotor {
  banco: BancoLocal;
  operacoes: Operacoes;
  obterSessao: () => Sessao | null;
  /** How writes travel; batches to /api/sync/lote by default. */
  transporte?: Transporte;
  /** The batch's requests through this function (tests). */
  enviar?: Enviar;
  /** This device's id (the client id its operations are recorded under on the server). */
  obterClienteId?: () => Promise<string>;
  /** Web Locks (navigator.locks by default; absent in old browsers and jsdom: then no lock). */
  travas?: Pick<LockManager, 'request'> | null;
  limites?: typeof LIMITES_LOTE;
  agora?: () => number;
  intervaloMs?: number;
  /** Backoff base; doubles per attempt up to `esperaMaximaMs`. */
  esperaBaseMs?: number;
  esperaMaximaMs?: number;
  /** The oldest app version the server accepts (GET /api/config), asked while paused by a 426. */
  consultarVersaoMinima?: () => Promise<string | null>;
  /** The measured link (vazao.ts): sizes the receipt requests and their time limits. */
  vazao?: Vazao;
  /** Monotonic milliseconds, for measuring requests (performance.now by default). */
  medirMs?: () => number;
  /** After a failure with no signal: a tiny request that says whether the server is reachable again (GET /api/health). */
  sondar?: () => Promise<void>;
  /** How often the probe asks while there is no signal (10 s: the signal is found within 15 s without an `online` event). */
  intervaloSondaMs?: number;
}

const sondarSaude = () => requisitar<unknown>('GET', '/health', { tempoLimiteMs: 5_000, ignorarSessaoExpirada: true }).then(() => undefined);

/** What the next request carries: writes (text first, then receipts), or one receipt to upload in parts first. */
interface Lote {
  envios: Envio[];
  esperarAte: number | null;
  /** A receipt too large for one request: uploaded in parts, then its operation goes naming the upload. */
  emPartes: Envio | null;
}

async function versaoMinimaDoServidor(): Promise<string | null> {
  const config = await api.get<{ versao_minima_app?: unknown }>('/config');
  return typeof config?.versao_minima_app === 'string' ? config.versao_minima_app : null;
}

export const CHAVE_ULTIMA_SYNC = 'ultimaSincronizacao';

const MENSAGEM_TIPO_DESCONHECIDO =
  'Este registro foi criado por outra versão do aplicativo e não pode ser enviado. Descarte-o ou refaça o registro.';

/** The lock every tab and window of this app on the device competes for: one uploader at a time. */
export const TRAVA_SYNC = 'sistema-de-gestao:sync';

/**
 * Runs `fazer` while no tab is sending (holding TRAVA_SYNC; a pass under way finishes first): a
 * queued item changed in place must not be the one a request is carrying, or the server would take
 * the old version and the new one would leave the queue with it. Without Web Locks, it just runs.
 */
export function semEnvioEmCurso<T>(fazer: () => Promise<T>, travas: Pick<LockManager, 'request'> | null = typeof navigator !== 'undefined' && navigator.locks ? navigator.locks : null): Promise<T> {
  if (!travas) return fazer();
  return travas.request(TRAVA_SYNC, fazer) as Promise<T>;
}

/** The operation an item becomes on the wire, or the reason this version cannot send it. */
function operacaoDoItem(item: ItemOutbox, definicao: DefinicaoOperacao | undefined): OperacaoSync | { erro: string } {
  if (!definicao) return { erro: MENSAGEM_TIPO_DESCONHECIDO };
  try {
    return { id: item.id, tipo: item.tipo, seq: item.seq ?? 0, dados: definicao.paraEnvio(item.dados) } as OperacaoSync;
  } catch (erro) {
    return { erro: erro instanceof Error ? erro.message : MENSAGEM_TIPO_DESCONHECIDO };
  }
}

/** What an item waits for and holds: from the registry for known kinds, else its stored keys. */
function retencaoDoItem(item: ItemOutbox, operacao: OperacaoSync | null): { espera: string[]; retem: string[] } {
  if (operacao && ehTipoOperacao(operacao.tipo)) return retencaoDe(operacao);
  return { espera: item.chaves, retem: item.chaves };
}

export function esperaParaTentativa(tentativas: number, baseMs: number, maximaMs: number): number {
  return Math.min(maximaMs, baseMs * 2 ** Math.max(0, tentativas - 1));
}

export class MotorSync {
  private readonly banco: BancoLocal;
  private readonly operacoes: Operacoes;
  private readonly obterSessao: () => Sessao | null;
  private readonly transporte: Transporte;
  private readonly limites: typeof LIMITES_LOTE;
  private readonly agora: () => number;
  private readonly intervaloMs: number;
  private readonly esperaBaseMs: number;
  private readonly esperaMaximaMs: number;

  private atual: EstadoSync = estadoSyncInicial();

  private readonly obterClienteId: () => Promise<string>;
  private readonly travas: Pick<LockManager, 'request'> | null;
  /** Batch size for the rest of this pass after a whole request was refused (halved each time). */
  private limiteDaPassada: number | null = null;
  private readonly consultarVersaoMinima: () => Promise<string | null>;
  private readonly enviar: Enviar;
  private readonly vazao: Vazao;
  private readonly medirMs: () => number;
  private readonly sondar: () => Promise<void>;
  private readonly intervaloSondaMs: number;
  /** The last request found no signal (not a slow answer): the probe runs, the backoff does not grow. */
  private semSinal = false;
  private sonda: ReturnType<typeof setInterval> | null = null;
  private sondando = false;
  /** This pass's receipts read ahead or for the request on its way, by item (dropped once answered). */
  private readonly lidos = new Map<string, Promise<ArquivoLocal[]>>();
  /** Bytes of items queued by older versions (no `bytesArquivos`), read once per pass. */
  private readonly tamanhos = new Map<string, number>();
  /** Confirmations being recorded while the next request travels, and their items (out of the queue for this pass). */
  private readonly registros = new Set<Promise<void>>();
  private readonly registrando = new Set<string>();
  /** The version the server refused (426). */
  private versaoRecusada: string | null = null;
  private readonly ouvintes = new Set<() => void>();
  private emAndamento: Promise<void> | null = null;
  private repetir = false;
  private ignorarEsperaNaProxima = false;
  private temporizador: ReturnType<typeof setTimeout> | null = null;
  private intervalo: ReturnType<typeof setInterval> | null = null;
  private contagem: Subscription | null = null;
  private usuarioContado: number | null = null;
  private readonly aoFicarOnline = () => {
    this.definir({ online: true });
    // The signal is back: do not sit out a backoff that was counting failures of the offline period.
    void this.sincronizarAgora({ ignorarEspera: true });
  };
  private readonly aoFicarOffline = () => this.definir({ online: false });

  constructor(opcoes: OpcoesMotor) {
    this.banco = opcoes.banco;
    this.operacoes = opcoes.operacoes;
    this.obterSessao = opcoes.obterSessao;
    this.enviar = opcoes.enviar ?? ((metodo, caminho, o) => requisitar(metodo, caminho, o));
    this.transporte = opcoes.transporte ?? transporteEmLote(this.enviar);
    this.vazao = opcoes.vazao ?? new Vazao(opcoes.banco);
    this.medirMs = opcoes.medirMs ?? (() => performance.now());
    this.sondar = opcoes.sondar ?? sondarSaude;
    this.intervaloSondaMs = opcoes.intervaloSondaMs ?? 10_000;
    this.obterClienteId = opcoes.obterClienteId ?? (() => idDoDispositivo(opcoes.banco));
    this.travas = opcoes.travas !== undefined ? opcoes.travas : typeof navigator !== 'undefined' && navigator.locks ? navigator.locks : null;
    this.limites = opcoes.limites ?? LIMITES_LOTE;
    this.agora = opcoes.agora ?? Date.now;
    this.intervaloMs = opcoes.intervaloMs ?? 30_000;
    this.esperaBaseMs = opcoes.esperaBaseMs ?? 2_000;
    this.esperaMaximaMs = opcoes.esperaMaximaMs ?? 5 * 60_000;
    this.consultarVersaoMinima = opcoes.consultarVersaoMinima ?? versaoMinimaDoServidor;
  }

  estado = (): EstadoSync => this.atual;

  assinar = (ouvinte: () => void): (() => void) => {
    this.ouvintes.add(ouvinte);
    return () => this.ouvintes.delete(ouvinte);
  };

  private definir(parcial: Partial<EstadoSync>) {
    this.atual = { ...this.atual, ...parcial };
    for (const o of this.ouvintes) o();
  }

  /** Starts listening for connectivity and the periodic replay, and replays once now. */
  async iniciar(): Promise<void> {
    window.addEventListener('online', this.aoFicarOnline);
    window.addEventListener('offline', this.aoFicarOffline);
    this.intervalo = setInterval(() => void this.sincronizarAgora(), this.intervaloMs);
    const ultima = await this.banco.meta.get(CHAVE_ULTIMA_SYNC);
    if (typeof ultima?.valor === 'string') this.definir({ ultimaSincronizacao: ultima.valor });
    this.acompanharContagem();
    await this.sincronizarAgora();
  }

  parar(): void {
    window.removeEventListener('online', this.aoFicarOnline);
    window.removeEventListener('offline', this.aoFicarOffline);
    if (this.intervalo) clearInterval(this.intervalo);
    if (this.temporizador) clearTimeout(this.temporizador);
    this.intervalo = null;
    this.temporizador = null;
    this.pararSonda();
    encerrarJanelaDaPassada();
    this.contagem?.unsubscribe();
    this.contagem = null;
    this.usuarioContado = null;
  }

  /** Keeps `pendentes`/`comErro` live for the signed-in user (the queue changes from many screens). */
  acompanharContagem(): void {
    const sessao = this.obterSessao();
    const usuarioId = sessao?.usuarioId ?? null;
    if (usuarioId === this.usuarioContado && this.contagem) return;
    this.contagem?.unsubscribe();
    this.usuarioContado = usuarioId;
    if (usuarioId === null) {
      this.contagem = null;
      this.definir({ pendentes: 0, comErro: 0, deOutrosUsuarios: 0 });
      return;
    }
    this.contagem = liveQuery(() => this.banco.outbox.toArray()).subscribe({
      next: (todos) => {
        const itens = todos.filter((i) => i.usuarioId === usuarioId);
        const comErro = itens.filter((i) => i.estado === 'erro').length;
        this.definir({ pendentes: itens.length - comErro, comErro, deOutrosUsuarios: todos.length - itens.length });
      },
      error: (erro) => console.error('Erro ao contar a fila de sincronização:', erro),
    });
  }

  /**
   * The pass in progress while it has this user's writes to send (offline/cache.ts: a copy read
   * meanwhile waits for it, so it is read once, with the writes in); null when there is none.
   */
  passadaComEscritas(usuarioId: number): Promise<void> | null {
    if (!this.emAndamento || this.usuarioContado !== usuarioId || this.atual.pendentes === 0) return null;
    return this.emAndamento;
  }

  /**
   * Runs `mudar` only while no pass is sending from this device (any tab: it takes the passes' lock),
   * so an item it takes out of the queue cannot be on its way to the server. A pass under way is
   * waited for up to `esperaMs` (it may have sent the item, or found no signal and left it); false,
   * without running it, when one still runs then: the caller queues a write that undoes it instead.
   */
  async foraDaPassada(mudar: () => Promise<void>, esperaMs = 0): Promise<boolean> {
    const emCurso = this.emAndamento;
    if (emCurso) {
      let esperou: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([emCurso.catch(() => undefined), new Promise<void>((r) => (esperou = setTimeout(r, esperaMs)))]);
      clearTimeout(esperou);
      if (this.emAndamento) return false;
    }
    if (!this.travas) {
      await mudar();
      return true;
    }
    let feito = false;
    const opcoes: LockOptions = esperaMs > 0 && typeof AbortSignal.timeout === 'function' ? { signal: AbortSignal.timeout(esperaMs) } : { ifAvailable: true };
    try {
      await this.travas.request(TRAVA_SYNC, opcoes, async (trava) => {
        if (!trava || this.emAndamento) return;
        await mudar();
        feito = true;
      });
    } catch (erro) {
      // Another tab's pass held the lock the whole wait.
      if (!(erro instanceof DOMException && (erro.name === 'AbortError' || erro.name === 'TimeoutError'))) throw erro;
    }
    return feito;
  }

  /** After signing in again: un-pause and replay. */
  retomar(): Promise<void> {
    this.definir({ pausadoPorSessao: false });
    this.acompanharContagem();
    return this.sincronizarAgora();
  }

  /**
   * Replays now; concurrent calls share one run (and ask for one more pass if items arrived meanwhile).
   * `ignorarEspera`: the person asked ("Sincronizar agora") or the connection came back, so items
   * waiting out a retry delay go now.
   */
  sincronizarAgora({ ignorarEspera = false }: { ignorarEspera?: boolean } = {}): Promise<void> {
    if (ignorarEspera) this.ignorarEsperaNaProxima = true;
    if (this.emAndamento) {
      this.repetir = true;
      return this.emAndamento;
    }
    this.emAndamento = (async () => {
      try {
        do {
          this.repetir = false;
          const ignorar = this.ignorarEsperaNaProxima;
          this.ignorarEsperaNaProxima = false;
          await this.passada(ignorar);
        } while (this.repetir);
      } finally {
        // Read before the pass is said to be over: a screen refreshing then covers every confirmation of it.
        const confirmacoes = await lerConfirmacoes(this.banco).catch(() => this.atual.confirmacoes);
        this.emAndamento = null;
        this.definir({ sincronizando: false, progresso: null, confirmacoes });
      }
    })();
    return this.emAndamento;
  }

  private agendarNovaTentativa(quando: number) {
    if (this.temporizador) clearTimeout(this.temporizador);
    this.temporizador = setTimeout(
      () => {
        this.temporizador = null;
        void this.sincronizarAgora();
      },
      Math.max(0, quando - this.agora()),
    );
  }

  /** One pass, under the device-wide lock: if another tab or window holds it, that one is replaying. */
  private async passada(ignorarEspera: boolean): Promise<void> {
    if (!this.travas) return this.passadaComTrava(ignorarEspera);
    await this.travas.request(TRAVA_SYNC, { ifAvailable: true }, async (trava) => {
      if (trava) await this.passadaComTrava(ignorarEspera);
    });
  }

  private async passadaComTrava(ignorarEspera: boolean): Promise<void> {
    const sessao = this.obterSessao();
    if (!sessao || this.atual.pausadoPorSessao) return;
    if (this.atual.atualizacaoNecessaria && !(await this.versaoVoltouASerAceita())) return;
    this.acompanharContagem();
    this.limiteDaPassada = null;
    try {
      await this.repassar(sessao, ignorarEspera);
    } finally {
      // Answers still being recorded (the next request went before them) are written before the pass ends.
      await this.registrosPendentes();
      this.lidos.clear();
      this.tamanhos.clear();
    }
  }

  private async repassar(sessao: Sessao, ignorarEspera: boolean): Promise<void> {
    const clienteId = await this.obterClienteId();
    let total: number | null = null;
    let enviados = 0;
    // Batch after batch until the queue is done, waits behind a failure, or is paused.
    for (;;) {
      // Items whose confirmation is still being recorded have left the queue already.
      const itens = (await itensDoUsuario(this.banco, sessao.usuarioId)).filter((i) => !this.registrando.has(i.id));
      total ??= itens.filter((i) => i.estado !== 'erro').length;
      const lote = await this.montarLote(itens, ignorarEspera);
      const { esperarAte, emPartes } = lote;
      let { envios } = lote;
      if (envios.length === 0) {
        if (esperarAte !== null) {
          this.agendarNovaTentativa(esperarAte);
          return; // keep the order: nothing after the waiting item goes first
        }
        break;
      }
      envios = await this.comArquivos(envios);
      this.definir({ sincronizando: true, progresso: { enviados, total: Math.max(total, enviados + envios.length) } });
      let resultados: ResultadoEnvio[];
      // Receipts carried in this request (not those uploaded in parts): its time limit scales with them.
      const bytes = emPartes ? 0 : envios.reduce((t, e) => t + e.arquivos.reduce((s, a) => s + a.tamanho, 0), 0);
      const inicio = this.medirMs();
      try {
        if (emPartes) {
          // Each of its receipts (up to 5) uploaded in parts, in order; one the server
          // already has whole is answered 'completo' at once, so a pass cut after the first goes on from the second.
          const arquivos = envios[0]!.arquivos;
          let cedeu = false;
          for (const arquivo of arquivos) {
            const situacao = await enviarEmPartes(
              { banco: this.banco, enviar: this.enviar, vazao: this.vazao, token: sessao.token, agora: this.medirMs, ceder: () => this.haEscritasSemArquivo(sessao.usuarioId) },
              arquivo,
            );
            // Writes without files arrived meanwhile: they go first, the upload goes on from the server's offset after them.
            if (situacao === 'cedeu') {
              cedeu = true;
              break;
            }
          }
          if (cedeu) continue;
          if (arquivos.length > 0) {
            // One receipt is named as older servers read it; several as a list (shared/sync/operacoes.ts ReferenciasEnvios).
            const referencias = arquivos.map((a) => ({ id: a.id, nome: a.nome }));
            envios = [{ ...envios[0]!, envio: referencias.length === 1 ? referencias[0]! : referencias }];
          }
        }
        await this.vazao.carregar();
        const pedido = this.transporte(envios, sessao.token, clienteId, bytes > 0 ? { tempoLimiteMs: this.vazao.tempoLimiteMs(bytes) } : {});
        // While this request travels, the phone reads the next one's receipts: the link does not wait for it after the answer.
        this.anteciparProximo(itens, envios, ignorarEspera);
        resultados = await pedido;
        if (bytes > 0) await this.vazao.registrar(bytes, this.medirMs() - inicio);
      } catch (erro) {
        if (bytes > 0 && erro instanceof ErroOffline && erro.tempoEsgotado) await this.vazao.tempoEsgotado(bytes, this.medirMs() - inicio);
        if (this.recusaDoPedidoInteiro(erro)) {
          if (envios.length > 1) {
            // Refused as a whole: smaller requests until the refusal lands on the item that causes it.
            this.limiteDaPassada = Math.max(1, Math.floor(envios.length / 2));
            continue;
          }
          // Alone and still refused: the refusal is this item's; the rest of the queue goes on.
          await atualizarItem(this.banco, envios[0]!.item.id, { estado: 'erro', erro: erro instanceof Error ? erro.message : String(erro) });
          enviados += 1;
          continue;
        }
        await this.falhaDoEnvio(envios[0]!.item, erro);
        return;
      }
      for (const e of envios) this.lidos.delete(e.item.id);
      this.semSinal = false;
      this.pararSonda();
      this.definir({ online: true, ultimoErroRede: null });
      const { seguir, progresso, respondidos } = await this.aplicarResultados(envios, resultados);
      enviados += respondidos;
      this.definir({ progresso: { enviados, total: Math.max(total, enviados) } });
      if (!seguir) return;
      if (esperarAte !== null) {
        this.agendarNovaTentativa(esperarAte);
        return;
      }
      if (!progresso) break;
    }
    await this.registrosPendentes();
    // Reached the end without losing the connection: everything that could go, went.
    const agora = new Date(this.agora()).toISOString();
    await this.banco.meta.put({ chave: CHAVE_ULTIMA_SYNC, valor: agora });
    this.definir({ ultimaSincronizacao: agora, online: true, ultimoErroRede: null });
  }

  /** Waits for the answers being recorded (see aplicarResultados); a failure leaves the items queued for the next pass. */
  private async registrosPendentes(): Promise<void> {
    while (this.registros.size > 0) await Promise.all([...this.registros]);
  }

  /** Bytes of an item's receipts, without reading them when the item says (items of older versions: read once per pass). */
  private async tamanhoDoItem(item: ItemOutbox): Promise<number> {
    if (item.arquivos.length === 0) return 0;
    if (typeof item.bytesArquivos === 'number') return item.bytesArquivos;
    const conhecido = this.tamanhos.get(item.id);
    if (conhecido !== undefined) return conhecido;
    const arquivos = await this.arquivosDe(item);
    const tamanho = arquivos.reduce((t, a) => t + a.tamanho, 0);
    this.tamanhos.set(item.id, tamanho);
    return tamanho;
  }

  /** The item's files: read ahead during the previous request, or now. Kept until its request is answered. */
  private arquivosDe(item: ItemOutbox): Promise<ArquivoLocal[]> {
    let lendo = this.lidos.get(item.id);
    if (!lendo) {
      lendo = arquivosDoItem(this.banco, item);
      this.lidos.set(item.id, lendo);
      // A failed read is tried again when the request needs it.
      lendo.catch(() => this.lidos.delete(item.id));
    }
    return lendo;
  }

  /** The request's envios with their files' bytes (montarLote chooses them by size only). */
  private comArquivos(envios: Envio[]): Promise<Envio[]> {
    return Promise.all(envios.map(async (e) => (e.item.arquivos.length > 0 ? { ...e, arquivos: await this.arquivosDe(e.item) } : e)));
  }

  /** The request most likely to follow this one (every item of this one taken): its receipts are read now, not after the answer. */
  private anteciparProximo(itens: ItemOutbox[], atuais: Envio[], ignorarEspera: boolean): void {
    const ids = new Set(atuais.map((e) => e.item.id));
    void this.montarLote(
      itens.filter((i) => !ids.has(i.id)),
      ignorarEspera,
      true,
    )
      .then((proximo) => {
        for (const e of proximo.envios) if (e.item.arquivos.length > 0) void this.arquivosDe(e.item).catch(() => undefined);
      })
      .catch(() => undefined);
  }

  /** The server refused the request itself (not an operation in it), for a reason that will not pass with time. */
  private recusaDoPedidoInteiro(erro: unknown): boolean {
    return erro instanceof ErroApi && erro.status !== 401 && erro.status !== 426 && !ehStatusTransitorio(erro.status);
  }

  /**
   * The next request: writes without files first, in order, and never behind a receipt;
   * then receipts, in order, as many as fit a request sized for the link (vazao.ts); a receipt
   * larger than PARTES_A_PARTIR_DE alone, uploaded in parts. Entity order holds across both: an item
   * on the same entity as an earlier receipt (an edit of an expense whose create carries the
   * photo, the finishing of its route) goes with the receipts, after it. Refused items and later
   * items on their entities stay aside. An item waiting out its backoff stops its lane there
   * (nothing after it in that lane goes first); receipts wait for the writes without files.
   */
  private async montarLote(itens: ItemOutbox[], ignorarEspera: boolean, simulado = false): Promise<Lote> {
    const retencoes = new Retencoes();
    /** Entities of items that go with the receipts: later items on them go there too, in order. */
    const dosComprovantes = new Retencoes();
    /** Entities of items waiting out a backoff: later items on them wait too. */
    const paradas = new Retencoes();
    const textos: Envio[] = [];
    const comprovantes: Envio[] = [];
    const maximo = this.limiteDaPassada ?? this.limites.escritas;
    let textosAte: number | null = null;
    let comprovantesAte: number | null = null;
    for (const item of itens) {
      const convertida = operacaoDoItem(item, this.operacoes[item.tipo] as DefinicaoOperacao | undefined);
      const operacao = 'erro' in convertida ? null : convertida;
      const retencao = retencaoDoItem(item, operacao);
      if (item.estado === 'erro' || retencoes.retida(retencao)) {
        // A refused item holds back later items on the same entity (an edit after a refused create,
        // the finishing of its route...).
        retencoes.reter(retencao);
        continue;
      }
      if (paradas.retida(retencao)) {
        paradas.reter(retencao);
        continue;
      }
      if (!operacao) {
        // Data this version cannot read (written by another version): the person decides.
        if (!simulado) await atualizarItem(this.banco, item.id, { estado: 'erro', erro: 'erro' in convertida ? convertida.erro : MENSAGEM_TIPO_DESCONHECIDO });
        retencoes.reter(retencao);
        continue;
      }
      // Chosen by size: the files' bytes are read only for the request that carries them (comArquivos).
      const vaiComComprovantes = item.arquivos.length > 0 || dosComprovantes.retida(retencao);
      const esperando = !ignorarEspera && item.proximaTentativaEm !== null && item.proximaTentativaEm > this.agora();
      if (vaiComComprovantes) {
        dosComprovantes.reter(retencao);
        if (comprovantesAte !== null || esperando) {
          comprovantesAte ??= item.proximaTentativaEm;
          paradas.reter(retencao);
          continue;
        }
        comprovantes.push({ item, operacao, arquivos: [] });
        continue;
      }
      if (textosAte !== null || esperando) {
        textosAte ??= item.proximaTentativaEm;
        paradas.reter(retencao);
        continue;
      }
      textos.push({ item, operacao, arquivos: [] });
      if (textos.length >= maximo) break;
    }
    if (textos.length > 0 || textosAte !== null) return { envios: textos, esperarAte: textosAte, emPartes: null };
    const primeiro = comprovantes[0];
    if (!primeiro) return { envios: [], esperarAte: comprovantesAte, emPartes: null };
    await this.vazao.carregar();
    const orcamento = Math.min(this.vazao.orcamento(), this.limites.bytes);
    // In parts: a receipt larger than a request sized for this link (never one of PARTES_A_PARTIR_DE or less).
    const emPartes = Math.max(PARTES_A_PARTIR_DE, orcamento);
    if ((await this.tamanhoDoItem(primeiro.item)) > emPartes) return { envios: [primeiro], esperarAte: null, emPartes: primeiro };
    const envios: Envio[] = [];
    let bytes = 0;
    let arquivosNoLote = 0;
    for (const e of comprovantes) {
      const tamanho = await this.tamanhoDoItem(e.item);
      if (tamanho > emPartes) break; // goes in parts, in its turn
      const cheio = envios.length >= maximo || arquivosNoLote + e.item.arquivos.length > this.limites.arquivos || bytes + tamanho > orcamento;
      if (envios.length > 0 && cheio) break;
      envios.push(e);
      bytes += tamanho;
      arquivosNoLote += e.item.arquivos.length;
    }
    return { envios, esperarAte: envios.length === comprovantes.length ? comprovantesAte : null, emPartes: null };
  }

  /** A write without files is waiting (asked between the parts of a large receipt: it goes first). */
  private async haEscritasSemArquivo(usuarioId: number): Promise<boolean> {
    // Chosen by size only (no file is read): cheap enough between every two parts.
    const itens = (await itensDoUsuario(this.banco, usuarioId)).filter((i) => !this.registrando.has(i.id));
    const lote = await this.montarLote(itens, false, true);
    return lote.emPartes === null && lote.envios.length > 0 && lote.envios.every((e) => e.item.arquivos.length === 0);
  }

  /**
   * Applies the server's answer to each operation, all in one IndexedDB transaction;
   * `seguir` false when the queue must stop (pause or retry later).
   */
  private async aplicarResultados(envios: Envio[], resultados: ResultadoEnvio[]): Promise<{ seguir: boolean; progresso: boolean; respondidos: number }> {
    const porId = new Map(resultados.map((r) => [r.id, r]));
    const respostas: Required<Respostas> = { confirmados: [], alterados: [] };
    let progresso = false;
    let respondidos = 0;
    let seguir = true;
    let novaTentativa: number | null = null;
    const adiar = (item: ItemOutbox, mensagem: string) => {
      const tentativas = item.tentativas + 1;
      novaTentativa = this.agora() + esperaParaTentativa(tentativas, this.esperaBaseMs, this.esperaMaximaMs);
      respostas.alterados.push({ id: item.id, campos: { tentativas, proximaTentativaEm: novaTentativa, erro: mensagem } });
      seguir = false;
    };
    for (const { item, envio } of envios) {
      const r = porId.get(item.id);
      if (!r || r.status === 'nao_processado') {
        adiar(item, 'O servidor não concluiu o envio; nova tentativa em instantes.');
        break;
      }
      if (r.status === 'retido') continue; // held behind a refusal in the same batch
      if (r.status < 300) {
        respostas.confirmados.push({
          item,
          recebidoEm: r.recebido_em ?? new Date(this.agora()).toISOString(),
          ...(r.situacao === SITUACAO_CHEGOU_DEPOIS ? { tardia: true } : {}),
        });
        progresso = true;
        respondidos += 1;
        continue;
      }
      if (r.status === 401) {
        this.definir({ pausadoPorSessao: true });
        seguir = false;
        break;
      }
      if (r.status === 426) {
        this.pausarPorVersao();
        seguir = false;
        break;
      }
      const mensagem = ehCorpoErro(r.corpo) ? r.corpo.error : `Erro ${r.status}`;
      // The upload it named is not (or no longer) complete on the server: the receipt goes again, never a refusal.
      const envioPerdido = envio !== undefined && r.status === 409 && ehCorpoErro(r.corpo) && r.corpo.codigo === 'conflito' && !r.corpo.conflito;
      if (ehStatusTransitorio(r.status) || envioPerdido) {
        adiar(item, mensagem);
        break;
      }
      const conflito: ConflitoDeVersao | null = ehCorpoErro(r.corpo) && r.corpo.conflito ? r.corpo.conflito : null;
      respostas.alterados.push({ id: item.id, campos: { estado: 'erro', erro: mensagem, conflito } });
      progresso = true;
      respondidos += 1;
    }
    if (seguir && respostas.alterados.length === 0 && respostas.confirmados.length === envios.length) {
      // Every item taken (the usual answer): the next request goes while this one is recorded; those
      // items are out of the queue for this pass, and the pass ends only once they are written.
      const ids = respostas.confirmados.map((c) => c.item.id);
      for (const id of ids) this.registrando.add(id);
      const registro: Promise<void> = registrarRespostas(this.banco, respostas)
        .catch((erro: unknown) => console.error('Erro ao registrar as confirmações (os itens vão de novo na próxima passada):', erro))
        .finally(() => {
          this.registros.delete(registro);
          for (const id of ids) this.registrando.delete(id);
        });
      this.registros.add(registro);
      return { seguir, progresso, respondidos };
    }
    await registrarRespostas(this.banco, respostas);
    if (novaTentativa !== null) this.agendarNovaTentativa(novaTentativa);
    return { seguir, progresso, respondidos };
  }

  /**
   * The whole request failed, for a reason that is no item's: pause on 401 or 426; anything else
   * (no signal, a timeout, 5xx, an error reading the answer) is retried later, never blamed on an item.
   */
  private async falhaDoEnvio(primeiro: ItemOutbox, erro: unknown): Promise<void> {
    if (erro instanceof ErroApi && erro.status === 401) {
      this.definir({ pausadoPorSessao: true });
      return;
    }
    if (erro instanceof ErroApi && erro.status === 426) {
      this.pausarPorVersao();
      return;
    }
    const mensagem = erro instanceof Error ? erro.message : String(erro);
    const semSinal = (erro instanceof ErroOffline && !erro.tempoEsgotado) || (typeof navigator !== 'undefined' && navigator.onLine === false);
    if (semSinal) {
      // No signal says nothing about the item: no attempt counted, no growing wait. A tiny probe
      // finds the signal (an `online` event may never come: a tunnel, a weak cell).
      await atualizarItem(this.banco, primeiro.id, { erro: mensagem });
      this.semSinal = true;
      this.iniciarSonda();
      this.definir({ ultimoErroRede: mensagem, online: false });
      return;
    }
    // A 429 (the per-user limit) or 503 says how long to wait: never sooner than that; the writes are not refused.
    const pedidoDoServidorMs = erro instanceof ErroApi && erro.esperarSegundos !== undefined ? erro.esperarSegundos * 1000 : 0;
    await this.adiar(primeiro, mensagem, pedidoDoServidorMs);
    this.definir({ ultimoErroRede: mensagem, online: !(erro instanceof ErroOffline) && this.atual.online });
  }

  /** Every `intervaloSondaMs` while there is no signal: one tiny request; any answer means the signal is back. */
  private iniciarSonda(): void {
    if (this.sonda) return;
    this.sonda = setInterval(() => void this.sondarUmaVez(), this.intervaloSondaMs);
  }

  private pararSonda(): void {
    if (this.sonda) clearInterval(this.sonda);
    this.sonda = null;
  }

  private async sondarUmaVez(): Promise<void> {
    if (this.sondando || !this.semSinal) return;
    this.sondando = true;
    try {
      await this.sondar();
    } catch (erro) {
      if (erro instanceof ErroOffline) return; // still no signal
    } finally {
      this.sondando = false;
    }
    // Answered (even with an error status): the server is reachable. Go now, without the wait.
    this.semSinal = false;
    this.pararSonda();
    this.definir({ online: true });
    await this.sincronizarAgora({ ignorarEspera: true });
  }

  /** 426: nothing is discarded or marked; the queue waits for the update. */
  private pausarPorVersao(): void {
    this.versaoRecusada = versaoApp();
    this.definir({ atualizacaoNecessaria: true });
  }

  /**
   * While paused by a 426: another version of the app is running (it was updated), or the server
   * now accepts this one (its minimum went down). The check is one small GET, on each pass.
   */
  private async versaoVoltouASerAceita(): Promise<boolean> {
    let aceita = versaoApp() !== this.versaoRecusada;
    if (!aceita) {
      try {
        const minima = await this.consultarVersaoMinima();
        aceita = minima !== null && versaoValida(minima) && !versaoAntiga(versaoApp(), minima);
      } catch {
        aceita = false; // no answer: stay paused, ask again on the next pass
      }
    }
    if (aceita) {
      this.versaoRecusada = null;
      this.definir({ atualizacaoNecessaria: false });
    }
    return aceita;
  }

  /** Another attempt later, with the wait growing each time (and at least what the server asked for). */
  private async adiar(item: ItemOutbox, mensagem: string, minimoMs = 0): Promise<void> {
    const tentativas = item.tentativas + 1;
    const proxima = this.agora() + Math.max(minimoMs, esperaParaTentativa(tentativas, this.esperaBaseMs, this.esperaMaximaMs));
    await atualizarItem(this.banco, item.id, { tentativas, proximaTentativaEm: proxima, erro: mensagem });
    this.agendarNovaTentativa(proxima);
  }
}
