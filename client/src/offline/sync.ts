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
 *   later items wait behind it, so order is kept. A 429 (the per-user request limit, issue 18) or 503
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
import { ehTipoOperacao, retencaoDe, Retencoes, type OperacaoSync } from '../../../shared/sync/operacoes';
import { versaoAntiga, versaoValida } from '../../../shared/versao';
import { api, ErroApi, ErroOffline } from '../api/client';
import { versaoApp } from '../versaoApp';
import type { BancoLocal, ItemOutbox } from './db';
import { idDoDispositivo } from './dispositivo';
import { arquivosDoItem, atualizarItem, confirmarItem, itensDoUsuario, type DefinicaoOperacao, type Operacoes } from './outbox';
import { ehStatusTransitorio, LIMITES_LOTE, transporteEmLote, type Enviar, type Envio, type ResultadoEnvio, type Transporte } from './transporte';

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

  private atual: EstadoSync = {
    online: typeof navigator === 'undefined' ? true : navigator.onLine,
    sincronizando: false,
    pendentes: 0,
    comErro: 0,
    ultimaSincronizacao: null,
    pausadoPorSessao: false,
    atualizacaoNecessaria: false,
    ultimoErroRede: null,
    progresso: null,
    deOutrosUsuarios: 0,
  };
  private readonly obterClienteId: () => Promise<string>;
  private readonly travas: Pick<LockManager, 'request'> | null;
  /** Batch size for the rest of this pass after a whole request was refused (halved each time). */
  private limiteDaPassada: number | null = null;
  private readonly consultarVersaoMinima: () => Promise<string | null>;
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
    this.transporte = opcoes.transporte ?? transporteEmLote(opcoes.enviar);
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
        this.emAndamento = null;
        this.definir({ sincronizando: false, progresso: null });
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
    const clienteId = await this.obterClienteId();
    let total: number | null = null;
    let enviados = 0;
    // Batch after batch until the queue is done, waits behind a failure, or is paused.
    for (;;) {
      const itens = await itensDoUsuario(this.banco, sessao.usuarioId);
      total ??= itens.filter((i) => i.estado !== 'erro').length;
      const { envios, esperarAte } = await this.montarLote(itens, ignorarEspera);
      if (envios.length === 0) {
        if (esperarAte !== null) {
          this.agendarNovaTentativa(esperarAte);
          return; // keep the order: nothing after the waiting item goes first
        }
        break;
      }
      this.definir({ sincronizando: true, progresso: { enviados, total: Math.max(total, enviados + envios.length) } });
      let resultados: ResultadoEnvio[];
      try {
        resultados = await this.transporte(envios, sessao.token, clienteId);
      } catch (erro) {
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
    // Reached the end without losing the connection: everything that could go, went.
    const agora = new Date(this.agora()).toISOString();
    await this.banco.meta.put({ chave: CHAVE_ULTIMA_SYNC, valor: agora });
    this.definir({ ultimaSincronizacao: agora, online: true, ultimoErroRede: null });
  }

  /** The server refused the request itself (not an operation in it), for a reason that will not pass with time. */
  private recusaDoPedidoInteiro(erro: unknown): boolean {
    return erro instanceof ErroApi && erro.status !== 401 && erro.status !== 426 && !ehStatusTransitorio(erro.status);
  }

  /**
   * The next writes to send, in order: refused items and later items on their entities stay aside;
   * an item waiting out its backoff stops the batch there (nothing after it goes first).
   */
  private async montarLote(itens: ItemOutbox[], ignorarEspera: boolean): Promise<{ envios: Envio[]; esperarAte: number | null }> {
    const retencoes = new Retencoes();
    const envios: Envio[] = [];
    const maximo = this.limiteDaPassada ?? this.limites.escritas;
    let bytes = 0;
    let arquivosNoLote = 0;
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
      if (!ignorarEspera && item.proximaTentativaEm !== null && item.proximaTentativaEm > this.agora()) {
        return { envios, esperarAte: item.proximaTentativaEm };
      }
      if (!operacao) {
        // Data this version cannot read (written by another version): the person decides.
        await atualizarItem(this.banco, item.id, { estado: 'erro', erro: 'erro' in convertida ? convertida.erro : MENSAGEM_TIPO_DESCONHECIDO });
        retencoes.reter(retencao);
        continue;
      }
      const arquivos = await arquivosDoItem(this.banco, item);
      const tamanho = arquivos.reduce((t, a) => t + a.tamanho, 0);
      const cheio = envios.length >= maximo || arquivosNoLote + arquivos.length > this.limites.arquivos || bytes + tamanho > this.limites.bytes;
      if (envios.length > 0 && cheio) break;
      envios.push({ item, operacao, arquivos });
      bytes += tamanho;
      arquivosNoLote += arquivos.length;
    }
    return { envios, esperarAte: null };
  }

  /** Applies the server's answer to each operation; `seguir` false when the queue must stop (pause or retry later). */
  private async aplicarResultados(envios: Envio[], resultados: ResultadoEnvio[]): Promise<{ seguir: boolean; progresso: boolean; respondidos: number }> {
    const porId = new Map(resultados.map((r) => [r.id, r]));
    let progresso = false;
    let respondidos = 0;
    for (const { item } of envios) {
      const r = porId.get(item.id);
      if (!r || r.status === 'nao_processado') {
        await this.adiar(item, 'O servidor não concluiu o envio; nova tentativa em instantes.');
        return { seguir: false, progresso, respondidos };
      }
      if (r.status === 'retido') continue; // held behind a refusal in the same batch
      if (r.status < 300) {
        await confirmarItem(this.banco, item, r.recebido_em ?? new Date(this.agora()).toISOString());
        progresso = true;
        respondidos += 1;
        continue;
      }
      if (r.status === 401) {
        this.definir({ pausadoPorSessao: true });
        return { seguir: false, progresso, respondidos };
      }
      if (r.status === 426) {
        this.pausarPorVersao();
        return { seguir: false, progresso, respondidos };
      }
      const mensagem = ehCorpoErro(r.corpo) ? r.corpo.error : `Erro ${r.status}`;
      if (ehStatusTransitorio(r.status)) {
        await this.adiar(item, mensagem);
        return { seguir: false, progresso, respondidos };
      }
      const conflito: ConflitoDeVersao | null = ehCorpoErro(r.corpo) && r.corpo.conflito ? r.corpo.conflito : null;
      await atualizarItem(this.banco, item.id, { estado: 'erro', erro: mensagem, conflito });
      progresso = true;
      respondidos += 1;
    }
    return { seguir: true, progresso, respondidos };
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
    // A 429 (the per-user limit) or 503 says how long to wait: never sooner than that; the writes are not refused.
    const pedidoDoServidorMs = erro instanceof ErroApi && erro.esperarSegundos !== undefined ? erro.esperarSegundos * 1000 : 0;
    await this.adiar(primeiro, mensagem, pedidoDoServidorMs);
    this.definir({ ultimoErroRede: mensagem, online: !(erro instanceof ErroOffline) && this.atual.online });
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
