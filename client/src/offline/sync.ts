/**
 * The sync engine: replays the signed-in user's outbox in order (decisions.md, 'Offline and sync').
 * - Runs at start, on the `online` event, every 30 s, and on "Sincronizar agora".
 * - No answer (offline, timeout, 5xx, 429): the item stays, retried with exponential backoff forever;
 *   later items wait behind it, so order is kept.
 * - 401: the queue pauses until the user signs in again (`retomar()`), nothing changes.
 * - Any other refusal (400, 403, 404, 409, 413, 422...): the item is marked 'precisa de atenção' with
 *   the server's message and set aside; later items on the same entity wait, the rest go on.
 * - Nothing leaves the outbox without the server's confirmation or the person's decision.
 */
import { liveQuery, type Subscription } from 'dexie';
import { ErroApi, ErroOffline, requisitar } from '../api/client';
import type { BancoLocal, ItemOutbox } from './db';
import { arquivosDoItem, atualizarItem, confirmarItem, itensDoUsuario, type Operacoes } from './outbox';

export interface EstadoSync {
  online: boolean;
  sincronizando: boolean;
  pendentes: number;
  comErro: number;
  ultimaSincronizacao: string | null;
  /** The server refused the session (401): waiting for the user to sign in again. */
  pausadoPorSessao: boolean;
  /** Last network failure, for the indicator's tooltip. */
  ultimoErroRede: string | null;
}

export interface Sessao {
  usuarioId: number;
  token: string | null;
}

type Enviar = (metodo: string, caminho: string, opcoes: { corpo?: unknown; token?: string | null; tempoLimiteMs?: number }) => Promise<unknown>;

export interface OpcoesMotor {
  banco: BancoLocal;
  operacoes: Operacoes;
  obterSessao: () => Sessao | null;
  enviar?: Enviar;
  agora?: () => number;
  intervaloMs?: number;
  /** Backoff base; doubles per attempt up to `esperaMaximaMs`. */
  esperaBaseMs?: number;
  esperaMaximaMs?: number;
}

const CHAVE_ULTIMA_SYNC = 'ultimaSincronizacao';

/** Statuses that mean "try again later", not "the server refuses this". */
function ehFalhaTransitoria(erro: unknown): boolean {
  if (erro instanceof ErroOffline) return true;
  return erro instanceof ErroApi && (erro.status >= 500 || erro.status === 408 || erro.status === 429);
}

export function esperaParaTentativa(tentativas: number, baseMs: number, maximaMs: number): number {
  return Math.min(maximaMs, baseMs * 2 ** Math.max(0, tentativas - 1));
}

export class MotorSync {
  private readonly banco: BancoLocal;
  private readonly operacoes: Operacoes;
  private readonly obterSessao: () => Sessao | null;
  private readonly enviar: Enviar;
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
    ultimoErroRede: null,
  };
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
    this.agora = opcoes.agora ?? Date.now;
    this.intervaloMs = opcoes.intervaloMs ?? 30_000;
    this.esperaBaseMs = opcoes.esperaBaseMs ?? 2_000;
    this.esperaMaximaMs = opcoes.esperaMaximaMs ?? 5 * 60_000;
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
      this.definir({ pendentes: 0, comErro: 0 });
      return;
    }
    this.contagem = liveQuery(() => this.banco.outbox.where('usuarioId').equals(usuarioId).toArray()).subscribe({
      next: (itens) => {
        const comErro = itens.filter((i) => i.estado === 'erro').length;
        this.definir({ pendentes: itens.length - comErro, comErro });
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
        this.definir({ sincronizando: false });
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

  private async passada(ignorarEspera: boolean): Promise<void> {
    const sessao = this.obterSessao();
    if (!sessao || this.atual.pausadoPorSessao) return;
    this.acompanharContagem();
    const itens = await itensDoUsuario(this.banco, sessao.usuarioId);
    if (itens.length === 0) return;
    this.definir({ sincronizando: true });

    const chavesRetidas = new Set<string>();
    for (const item of itens) {
      const retido = item.chaves.some((c) => chavesRetidas.has(c));
      if (item.estado === 'erro' || retido) {
        // A refused item holds back later items on the same entity (an edit after a refused create...).
        item.chaves.forEach((c) => chavesRetidas.add(c));
        continue;
      }
      if (!ignorarEspera && item.proximaTentativaEm !== null && item.proximaTentativaEm > this.agora()) {
        this.agendarNovaTentativa(item.proximaTentativaEm);
        return; // keep the order: nothing after it goes first
      }
      const resultado = await this.enviarItem(item, sessao);
      if (resultado === 'parar') return;
      if (resultado === 'recusado') item.chaves.forEach((c) => chavesRetidas.add(c));
    }
    // Reached the end without losing the connection: everything that could go, went.
    const agora = new Date(this.agora()).toISOString();
    await this.banco.meta.put({ chave: CHAVE_ULTIMA_SYNC, valor: agora });
    this.definir({ ultimaSincronizacao: agora, online: true, ultimoErroRede: null });
  }

  private async enviarItem(item: ItemOutbox, sessao: Sessao): Promise<'confirmado' | 'recusado' | 'parar'> {
    const definicao = this.operacoes[item.tipo];
    if (!definicao) {
      await atualizarItem(this.banco, item.id, {
        estado: 'erro',
        erro: 'Este registro foi criado por outra versão do aplicativo e não pode ser enviado. Descarte-o ou refaça o registro.',
      });
      return 'recusado';
    }
    try {
      const requisicao = definicao.requisicao(item.dados, await arquivosDoItem(this.banco, item));
      const resposta = await this.enviar(requisicao.metodo, requisicao.caminho, {
        corpo: requisicao.corpo,
        token: sessao.token,
        ...(requisicao.tempoLimiteMs ? { tempoLimiteMs: requisicao.tempoLimiteMs } : {}),
      });
      const recebidoEm = definicao.recebidoEm?.(resposta) ?? new Date(this.agora()).toISOString();
      await confirmarItem(this.banco, item, recebidoEm);
      return 'confirmado';
    } catch (erro) {
      if (erro instanceof ErroApi && erro.status === 401) {
        this.definir({ pausadoPorSessao: true });
        return 'parar';
      }
      if (ehFalhaTransitoria(erro)) {
        const tentativas = item.tentativas + 1;
        const proxima = this.agora() + esperaParaTentativa(tentativas, this.esperaBaseMs, this.esperaMaximaMs);
        const mensagem = erro instanceof Error ? erro.message : String(erro);
        await atualizarItem(this.banco, item.id, { tentativas, proximaTentativaEm: proxima, erro: mensagem });
        this.definir({ ultimoErroRede: mensagem, online: !(erro instanceof ErroOffline) && this.atual.online });
        this.agendarNovaTentativa(proxima);
        return 'parar';
      }
      const mensagem = erro instanceof Error ? erro.message : 'Erro desconhecido.';
      await atualizarItem(this.banco, item.id, { estado: 'erro', erro: mensagem });
      return 'recusado';
    }
  }
}
