/**
 * The one module that owns IndexedDB (Dexie). What is stored where:
 * - outbox: employee writes waiting for the server, replayed in `seq` order (never dropped silently);
 * - arquivos: receipt files of queued expenses, as bytes (ArrayBuffer: stores everywhere, unlike Blob);
 * - sincronizados: recent items the server confirmed, with its time ('Recebido pelo servidor às 14:32');
 * - cache: the last server answer for each screen's data, so employee screens open offline;
 * - rascunhos: half-filled forms, kept while the camera or file chooser has the page in background;
 * - meta: small values (last sync time, the confirmation counter).
 * Rows are written by older app versions too, so everything read back is checked (restaurar*).
 */
import Dexie, { type Table } from 'dexie';
import type { ConflitoDeVersao } from '../../../shared/api/errors';
import { reaisParaCentavos } from '../../../shared/money';
import { NOME_DO_BANCO } from './nomeDoBanco';

export type EstadoItem = 'pendente' | 'erro';

export interface ItemOutbox {
  /** Auto-increment: the replay order of this device. */
  seq?: number;
  /** The operation's own id (uuid). */
  id: string;
  /** The owner: items are replayed only within the owner's session. */
  usuarioId: number;
  tipo: string;
  dados: unknown;
  /** Ids in `arquivos` this operation sends (receipts). */
  arquivos: string[];
  /**
   * Bytes of those files, written with them: the sync engine sizes its requests without reading the
   * files' bytes. Absent in items queued by older versions (the engine then reads them once).
   */
  bytesArquivos?: number;
  /** Entities the operation touches ('rota:12', 'despesa:<uuid>'): later items on a refused entity wait for it. */
  chaves: string[];
  /** What the person sees in the sync panel. */
  descricao: string;
  estado: EstadoItem;
  tentativas: number;
  proximaTentativaEm: number | null;
  /** The server's refusal ('precisa de atenção'), or the last network error. */
  erro: string | null;
  /** When the refusal is a version conflict: the server's values and version ('Manter o deste aparelho'). */
  conflito: ConflitoDeVersao | null;
  criadoEm: string;
}

export interface ItemSincronizado {
  id: string;
  usuarioId: number;
  tipo: string;
  descricao: string;
  chaves: string[];
  criadoEm: string;
  recebidoEm: string;
  /**
   * The write itself, kept so the screens can lay it over a copy read before it was confirmed
   * (offline/escritas.ts). Absent in history written by versions before it was kept.
   */
  dados?: unknown;
  /** The device's confirmation counter when the server took it (meta 'confirmacoes'): clock-free order. */
  ordem?: number;
  /**
   * The server kept it for the admin instead of applying it: its route had been finished (on another phone).
   * Never laid over a copy (it is in no server data until an admin accepts it).
   */
  tardia?: true;
}

export interface ArquivoLocal {
  id: string;
  nome: string;
  tipo: string;
  tamanho: number;
  conteudo: ArrayBuffer;
  criadoEm: string;
}

export interface EntradaCache {
  chave: string;
  usuarioId: number;
  dados: unknown;
  atualizadoEm: string;
  /**
   * The confirmation counter when the request for this copy left: every write confirmed with a
   * higher `ordem` may be missing from it. Absent in copies kept by older versions.
   */
  confirmacoesAte?: number;
}

export interface Rascunho {
  chave: string;
  usuarioId: number;
  dados: unknown;
  atualizadoEm: string;
}

export interface Meta {
  chave: string;
  valor: unknown;
}

export class BancoLocal extends Dexie {
  outbox!: Table<ItemOutbox, number>;
  sincronizados!: Table<ItemSincronizado, string>;
  arquivos!: Table<ArquivoLocal, string>;
  cache!: Table<EntradaCache, string>;
  rascunhos!: Table<Rascunho, string>;
  meta!: Table<Meta, string>;

  constructor(nome = NOME_DO_BANCO) {
    super(nome);
    this.version(1).stores({
      outbox: '++seq, &id, usuarioId, [usuarioId+estado]',
      sincronizados: 'id, usuarioId, recebidoEm',
      arquivos: 'id',
      cache: 'chave, usuarioId',
      rascunhos: 'chave, usuarioId',
      meta: 'chave',
    });
    // Version 2 (sync protocol): a queued finishing no longer carries the keys of every write of its
    // route (the registry says what it waits for, shared/sync/operacoes.ts); its own key stays.
    this.version(2)
      .stores({})
      .upgrade((tx) =>
      tx
        .table('outbox')
        .toCollection()
        .modify((item: Partial<ItemOutbox>) => {
          const rotaId = (item.dados as { rota_id?: unknown } | null)?.rota_id;
          if (item.tipo === 'rota.finalizar' && typeof rotaId === 'number') item.chaves = [`rota:${rotaId}`];
        }),
    );
    // Version 3: when each copy came from the server, readable from the index alone, so
    // 'Pronto para viajar' dates every copy without bringing their contents to the main thread.
    this.version(3).stores({ cache: 'chave, usuarioId, [usuarioId+atualizadoEm]' });
    // Version 4: a queued sale keeps its amounts in centavos (the form converts once, as the sync sends
    // them); earlier versions kept reais. Its confirmed copies in the history are laid over screens
    // with the same reader, so both tables convert. Self-contained: only this step touches sale amounts.
    this.version(4)
      .stores({})
      .upgrade(async (tx) => {
        await tx.table('outbox').toCollection().modify(vendaEmCentavos);
        await tx.table('sincronizados').toCollection().modify(vendaEmCentavos);
      });
  }
}

const VALORES_DA_VENDA = ['valor_dinheiro', 'valor_pix', 'valor_cartao', 'valor_link'] as const;

/**
 * A queued sale written before version 4 (amounts in reais) in today's shape (centavos), in place.
 * An amount that is not a finite number is left as it was: the queue's reader then shows the item as
 * unreadable, as it did before the upgrade.
 */
export function vendaEmCentavos(item: { tipo?: unknown; dados?: unknown }): void {
  if (item.tipo !== 'venda.salvar' || typeof item.dados !== 'object' || item.dados === null) return;
  const dados = item.dados as Record<string, unknown>;
  for (const campo of VALORES_DA_VENDA) {
    const reais = dados[campo];
    if (typeof reais === 'number' && Number.isFinite(reais)) dados[campo] = reaisParaCentavos(reais);
  }
}

/** The app's single instance. Tests create their own `new BancoLocal(name)`. */
export const bancoLocal = new BancoLocal();

/** Repairs an outbox row read back (an older version may have written fewer fields); null if unusable. */
export function restaurarItem(bruto: Partial<ItemOutbox> | undefined): ItemOutbox | null {
  if (!bruto || typeof bruto.id !== 'string' || typeof bruto.tipo !== 'string' || typeof bruto.usuarioId !== 'number') {
    return null;
  }
  return {
    seq: bruto.seq,
    id: bruto.id,
    usuarioId: bruto.usuarioId,
    tipo: bruto.tipo,
    dados: bruto.dados ?? null,
    arquivos: Array.isArray(bruto.arquivos) ? bruto.arquivos.filter((a) => typeof a === 'string') : [],
    ...(typeof bruto.bytesArquivos === 'number' && bruto.bytesArquivos >= 0 ? { bytesArquivos: bruto.bytesArquivos } : {}),
    chaves: Array.isArray(bruto.chaves) ? bruto.chaves.filter((c) => typeof c === 'string') : [],
    descricao: typeof bruto.descricao === 'string' ? bruto.descricao : bruto.tipo,
    estado: bruto.estado === 'erro' ? 'erro' : 'pendente',
    tentativas: typeof bruto.tentativas === 'number' ? bruto.tentativas : 0,
    proximaTentativaEm: typeof bruto.proximaTentativaEm === 'number' ? bruto.proximaTentativaEm : null,
    erro: typeof bruto.erro === 'string' ? bruto.erro : null,
    conflito: bruto.conflito && typeof bruto.conflito === 'object' && typeof bruto.conflito.versao_atual === 'number' ? bruto.conflito : null,
    criadoEm: typeof bruto.criadoEm === 'string' ? bruto.criadoEm : new Date(0).toISOString(),
  };
}
