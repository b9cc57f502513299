/**
 * The outbox: every employee write is stored here first (so it shows at once and survives a
 * closed app or a phone restart) and replayed by the sync engine. Only the person removes an item.
 */
import { v7 as uuidv7 } from 'uuid';
import type { DadosOperacao, TipoOperacao } from '../../../shared/sync/operacoes';
import type { ArquivoLocal, BancoLocal, ItemOutbox, ItemSincronizado } from './db';
import { restaurarItem } from './db';

export interface NovaOperacao {
  tipo: string;
  usuarioId: number;
  dados: unknown;
  chaves: string[];
  descricao: string;
  /** Files to send with it (receipts), stored in the same transaction as the item. */
  arquivos?: { id?: string; nome: string; tipo: string; conteudo: ArrayBuffer }[];
}

/**
 * The client's half of an offline write kind (the shared half, with its schema, entities and label,
 * is shared/sync/operacoes.ts): how the queued data becomes what travels. Each kind registers one.
 */
export interface DefinicaoOperacao<T extends TipoOperacao = TipoOperacao> {
  /**
   * The queued data as it travels (amounts in centavos). Throws an Error with a pt-BR message when
   * this version cannot read it (written by another version): the person then decides.
   */
  paraEnvio(dados: unknown): DadosOperacao[T];
  /** Where in the app a refused item is fixed (the sync panel's 'Editar'). */
  editarEm?(dados: unknown): string | null;
}

/** By kind. Typed loosely at run time: a queue may hold kinds of another app version. */
export type Operacoes = Record<string, DefinicaoOperacao<never> | DefinicaoOperacao>;

/**
 * Synced items kept for the 'Recebido pelo servidor' display. Beyond it, the oldest go, except one a
 * kept copy may still miss (confirmed after the copy was read: the screens lay it over the copy)...
 */
export const HISTORICO_MAXIMO = 200;
/** ...up to this hard bound (a copy never read again, e.g. a past day's, must not pin the history). */
export const HISTORICO_TETO = 5000;
/** Pruning reads every kept copy: it runs once this many items above the limit have piled up. */
export const PODA_EM_LOTE = 20;

/** Meta key of the confirmation counter: one more for every write the server takes. */
export const CHAVE_CONFIRMACOES = 'confirmacoes';

/** The confirmation counter now (0 on a fresh device). */
export async function lerConfirmacoes(banco: BancoLocal): Promise<number> {
  const valor = (await banco.meta.get(CHAVE_CONFIRMACOES))?.valor;
  return typeof valor === 'number' ? valor : 0;
}

/** The files an operation brings, as the queue stores them (bytes, with their own ids). */
function arquivosLocais(arquivos: NonNullable<NovaOperacao['arquivos']>): ArquivoLocal[] {
  return arquivos.map((a) => ({
    id: a.id ?? uuidv7(),
    nome: a.nome,
    tipo: a.tipo,
    tamanho: a.conteudo.byteLength,
    conteudo: a.conteudo,
    criadoEm: new Date().toISOString(),
  }));
}

export async function enfileirar(banco: BancoLocal, op: NovaOperacao): Promise<ItemOutbox> {
  const arquivos = arquivosLocais(op.arquivos ?? []);
  const item: ItemOutbox = {
    id: uuidv7(),
    usuarioId: op.usuarioId,
    tipo: op.tipo,
    dados: op.dados,
    arquivos: arquivos.map((a) => a.id),
    bytesArquivos: arquivos.reduce((t, a) => t + a.tamanho, 0),
    chaves: op.chaves,
    descricao: op.descricao,
    estado: 'pendente',
    tentativas: 0,
    proximaTentativaEm: null,
    erro: null,
    conflito: null,
    criadoEm: new Date().toISOString(),
  };
  await banco.transaction('rw', banco.outbox, banco.arquivos, async () => {
    if (arquivos.length > 0) await banco.arquivos.bulkPut(arquivos);
    item.seq = await banco.outbox.add(item);
  });
  return item;
}

/** The owner's queued items in replay order. */
export async function itensDoUsuario(banco: BancoLocal, usuarioId: number): Promise<ItemOutbox[]> {
  const brutos = await banco.outbox.where('usuarioId').equals(usuarioId).sortBy('seq');
  return brutos.map(restaurarItem).filter((i): i is ItemOutbox => i !== null);
}

export async function arquivosDoItem(banco: BancoLocal, item: ItemOutbox): Promise<ArquivoLocal[]> {
  const encontrados = await banco.arquivos.bulkGet(item.arquivos);
  return encontrados.filter((a): a is ArquivoLocal => a !== undefined);
}

/**
 * The server took it: move it to the history (with its data and its place in the confirmation
 * order) and free its files, atomically.
 */
export async function confirmarItem(banco: BancoLocal, item: ItemOutbox, recebidoEm: string): Promise<void> {
  await registrarRespostas(banco, { confirmados: [{ item, recebidoEm }] });
}

/** One batch answer as the engine applies it: confirmed items, and changes to the others (refused, retried later). */
export interface Respostas {
  /** `tardia`: kept by the server for the admin (202), not applied. */
  confirmados?: { item: ItemOutbox; recebidoEm: string; tardia?: boolean }[];
  alterados?: { id: string; campos: Partial<ItemOutbox> }[];
}

/**
 * A whole batch answer in ONE transaction: every confirmed item moves to the history and
 * frees its files (and its upload mark, envioEmPartes.ts), every refused or postponed one is
 * marked. One transaction, not one per item: a phone with a slow CPU had its queue still showing
 * items seconds after the server had them all, and each screen watching the queue woke up once per item.
 */
export async function registrarRespostas(banco: BancoLocal, { confirmados = [], alterados = [] }: Respostas): Promise<void> {
  if (confirmados.length === 0 && alterados.length === 0) return;
  await banco.transaction('rw', [banco.outbox, banco.arquivos, banco.sincronizados, banco.meta, banco.cache], async () => {
    if (confirmados.length > 0) {
      const ids = confirmados.map((c) => c.item.id);
      await banco.outbox.where('id').anyOf(ids).delete();
      const arquivos = confirmados.flatMap((c) => c.item.arquivos);
      if (arquivos.length > 0) {
        await banco.arquivos.bulkDelete(arquivos);
        await banco.meta.bulkDelete(arquivos.map((id) => `envio:${id}`));
      }
      let ordem = await lerConfirmacoes(banco);
      const historico: ItemSincronizado[] = confirmados.map(({ item, recebidoEm, tardia }) => ({
        id: item.id,
        usuarioId: item.usuarioId,
        tipo: item.tipo,
        descricao: item.descricao,
        chaves: item.chaves,
        criadoEm: item.criadoEm,
        recebidoEm,
        dados: item.dados,
        ordem: ++ordem,
        ...(tardia ? { tardia: true as const } : {}),
      }));
      await banco.meta.put({ chave: CHAVE_CONFIRMACOES, valor: ordem });
      await banco.sincronizados.bulkPut(historico);
      const total = await banco.sincronizados.count();
      if (total > HISTORICO_MAXIMO + PODA_EM_LOTE) await podarHistorico(banco, total);
    }
    for (const { id, campos } of alterados) await banco.outbox.where('id').equals(id).modify(campos);
  });
}

/** Drops the oldest history beyond HISTORICO_MAXIMO that every kept copy already includes (all beyond HISTORICO_TETO). */
async function podarHistorico(banco: BancoLocal, total: number): Promise<void> {
  let coberto = Infinity;
  await banco.cache.each((c) => {
    if (typeof c.confirmacoesAte === 'number') coberto = Math.min(coberto, c.confirmacoesAte);
  });
  const antigos = await banco.sincronizados.orderBy('recebidoEm').limit(total - HISTORICO_MAXIMO).toArray();
  const podados = antigos.filter((h, i) => total - i > HISTORICO_TETO || typeof h.ordem !== 'number' || h.ordem <= coberto).map((h) => h.id);
  if (podados.length > 0) await banco.sincronizados.bulkDelete(podados);
}

export async function atualizarItem(banco: BancoLocal, id: string, campos: Partial<ItemOutbox>): Promise<void> {
  await banco.outbox.where('id').equals(id).modify(campos);
}

/** The person chose to try a refused item again (after fixing the cause, e.g. reopening the route). */
export async function tentarNovamente(banco: BancoLocal, id: string): Promise<void> {
  await atualizarItem(banco, id, { estado: 'pendente', erro: null, conflito: null, tentativas: 0, proximaTentativaEm: null });
}

/**
 * A version conflict (someone changed the record since this device read it): the person keeps this
 * device's values, so the write goes again based on the version the server reported.
 */
export async function manterDesteAparelho(banco: BancoLocal, id: string): Promise<void> {
  await banco.transaction('rw', banco.outbox, async () => {
    const item = await banco.outbox.where('id').equals(id).first();
    if (!item?.conflito || typeof item.dados !== 'object' || item.dados === null) return;
    const dados = { ...(item.dados as Record<string, unknown>), versao_base: item.conflito.versao_atual };
    await banco.outbox.where('id').equals(id).modify({ dados, estado: 'pendente', erro: null, conflito: null, tentativas: 0, proximaTentativaEm: null });
  });
}

/** The person corrected a refused item's data; it goes back to the queue in its original place. */
export async function corrigirItem(banco: BancoLocal, id: string, dados: unknown, descricao?: string): Promise<void> {
  await atualizarItem(banco, id, {
    dados,
    ...(descricao ? { descricao } : {}),
    estado: 'pendente',
    erro: null,
    conflito: null,
    tentativas: 0,
    proximaTentativaEm: null,
  });
}

/** The person decided to discard it (after confirming): the item and its files go. */
export async function descartarItem(banco: BancoLocal, id: string): Promise<void> {
  await banco.transaction('rw', banco.outbox, banco.arquivos, async () => {
    const item = await banco.outbox.where('id').equals(id).first();
    if (!item) return;
    if (item.arquivos?.length) await banco.arquivos.bulkDelete(item.arquivos);
    await banco.outbox.where('id').equals(id).delete();
  });
}

/**
 * Saving again what the server refused: the refused item (same user, same entity keys, one of
 * `tipos`) takes the new data and files and goes back to the queue in its original place, instead
 * of a new item waiting forever behind it. Returns null when there is no such refused item.
 */
export async function corrigirRecusado(banco: BancoLocal, op: NovaOperacao, tipos: string[] = [op.tipo]): Promise<ItemOutbox | null> {
  return banco.transaction('rw', banco.outbox, banco.arquivos, banco.meta, async () => {
    const recusado = await recusadoDaEntidade(banco, op.usuarioId, op.chaves, tipos);
    if (!recusado) return null;
    // Saves of it queued after the refused one (held behind it) are older than this one: it replaces them too.
    await removerSubstituidos(banco, await posterioresDaEntidade(banco, recusado, tipos), []);
    return substituirItem(banco, recusado.id, op);
  });
}

/**
 * The items queued after `item` on exactly its entities, of one of `tipos`: held behind it while it
 * is refused, and older than a version the person saves now.
 */
export async function posterioresDaEntidade(banco: BancoLocal, item: ItemOutbox, tipos: string[]): Promise<ItemOutbox[]> {
  const mesmaEntidade = (i: ItemOutbox) => i.chaves.length === item.chaves.length && i.chaves.every((c) => item.chaves.includes(c));
  const itens = await itensDoUsuario(banco, item.usuarioId);
  return itens.filter((i) => i.id !== item.id && (i.seq ?? 0) > (item.seq ?? 0) && tipos.includes(i.tipo) && mesmaEntidade(i));
}

/** Items a newer version took the place of: they go, with their files except those the new version keeps (`manter`). */
export async function removerSubstituidos(banco: BancoLocal, itens: ItemOutbox[], manter: readonly string[]): Promise<void> {
  if (itens.length === 0) return;
  await banco.transaction('rw', banco.outbox, banco.arquivos, banco.meta, async () => {
    const saem = itens.flatMap((i) => i.arquivos).filter((a) => !manter.includes(a));
    if (saem.length > 0) {
      await banco.arquivos.bulkDelete(saem);
      await banco.meta.bulkDelete(saem.map((a) => `envio:${a}`));
    }
    await banco.outbox.where('id').anyOf(itens.map((i) => i.id)).delete();
  });
}

/** The refused item of one of `tipos` touching exactly these entities, if any. */
export async function recusadoDaEntidade(banco: BancoLocal, usuarioId: number, chaves: string[], tipos: string[]): Promise<ItemOutbox | undefined> {
  const recusados = await banco.outbox.where('[usuarioId+estado]').equals([usuarioId, 'erro']).toArray();
  const mesmaEntidade = (i: ItemOutbox) => i.chaves.length === chaves.length && i.chaves.every((c) => chaves.includes(c));
  return recusados.find((i) => tipos.includes(i.tipo) && mesmaEntidade(i));
}

/**
 * A queued item's new version, in one transaction: its data, and (when `op.arquivos` is given) its
 * files: a file given with the id of one it has keeps it, the others it had are deleted, new ones
 * are stored. It keeps its place and goes back to waiting. Null when the item is no longer queued
 * (the server took it, or the person discarded it): nothing is written then.
 */
export async function substituirItem(banco: BancoLocal, id: string, op: NovaOperacao): Promise<ItemOutbox | null> {
  return banco.transaction('rw', banco.outbox, banco.arquivos, banco.meta, async () => {
    const atual = restaurarItem(await banco.outbox.where('id').equals(id).first());
    if (!atual) return null;
    const volta: Partial<ItemOutbox> = { tipo: op.tipo, dados: op.dados, descricao: op.descricao, chaves: op.chaves, estado: 'pendente', erro: null, conflito: null, tentativas: 0, proximaTentativaEm: null };
    // No files given: the item keeps its own (a corrected expense keeps the receipt already chosen).
    if (op.arquivos === undefined) {
      await banco.outbox.where('id').equals(id).modify(volta);
      return { ...atual, ...volta };
    }
    const existentes = new Map((await banco.arquivos.bulkGet(atual.arquivos)).filter((a): a is ArquivoLocal => a !== undefined).map((a) => [a.id, a]));
    const arquivos: ArquivoLocal[] = op.arquivos.map((a) => {
      const mantido = a.id !== undefined ? existentes.get(a.id) : undefined;
      return mantido ?? { id: a.id ?? uuidv7(), nome: a.nome, tipo: a.tipo, tamanho: a.conteudo.byteLength, conteudo: a.conteudo, criadoEm: new Date().toISOString() };
    });
    const ficam = new Set(arquivos.map((a) => a.id));
    const saem = atual.arquivos.filter((a) => !ficam.has(a));
    if (saem.length > 0) {
      await banco.arquivos.bulkDelete(saem);
      await banco.meta.bulkDelete(saem.map((a) => `envio:${a}`));
    }
    const novos = arquivos.filter((a) => !existentes.has(a.id));
    if (novos.length > 0) await banco.arquivos.bulkPut(novos);
    const corrigido: Partial<ItemOutbox> = { ...volta, arquivos: arquivos.map((a) => a.id), bytesArquivos: arquivos.reduce((t, a) => t + a.tamanho, 0) };
    await banco.outbox.where('id').equals(id).modify(corrigido);
    return { ...atual, ...corrigido };
  });
}

/** Queues a write, or corrects the refused one it replaces (see corrigirRecusado). */
export async function enfileirarOuCorrigir(banco: BancoLocal, op: NovaOperacao, tipos: string[] = [op.tipo]): Promise<ItemOutbox> {
  // One transaction: never the refused item and a new one side by side, not even for a moment.
  return banco.transaction('rw', banco.outbox, banco.arquivos, banco.meta, async () => (await corrigirRecusado(banco, op, tipos)) ?? enfileirar(banco, op));
}
