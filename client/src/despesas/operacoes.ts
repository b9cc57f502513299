/**
 * The employee's expense writes as outbox operations (docs/decisions/sincronizacao.md): create, edit
 * and delete, with the receipt read back from the outbox's files and sent beside the batch. The
 * server applies each operation exactly once (its operation log), so a replay is always safe.
 */
import { formatarReais, reaisParaCentavos } from '../../../shared/money';
import { nomeDoTipo } from '../../../shared/schemas/tiposDespesa';
import { motorSync, registrarOperacao } from '../offline';
import { bancoLocal, type BancoLocal, type ItemOutbox } from '../offline/db';
import { arquivosDoItem, enfileirar, itensDoUsuario, recusadoDaEntidade, removerSubstituidos, substituirItem } from '../offline/outbox';
import { semEnvioEmCurso } from '../offline/sync';
import {
  OP_CORRIGIR,
  OP_CRIAR,
  OP_EDITAR,
  OP_EXCLUIR,
  type DadosCorrigir,
  type DadosCriar,
  type DadosDespesaNaFila,
  type DadosEditar,
  type DadosExcluir,
  type EstadoAnterior,
} from './fila';

/** A receipt ready to queue: bytes already reduced in the browser when it is a large image. */
export interface CupomPreparado {
  nome: string;
  tipo: string;
  conteudo: ArrayBuffer;
}

const ILEGIVEL = 'Despesa ilegível (feita por outra versão do aplicativo). Descarte-a e registre de novo.';

/** The queued expense's fields as they travel: the amount becomes centavos here, once. */
function camposParaEnvio(dados: unknown) {
  const d = dados as Partial<DadosDespesaNaFila> | null;
  const valido =
    d !== null &&
    typeof d === 'object' &&
    typeof d.id === 'string' &&
    typeof d.rota_id === 'number' &&
    typeof d.cidade_id === 'number' &&
    typeof d.data_despesa === 'string' &&
    typeof d.tipo === 'string' &&
    typeof d.valor === 'number' &&
    Number.isFinite(d.valor);
  if (!valido) throw new Error(ILEGIVEL);
  return {
    id: d.id!,
    rota_id: d.rota_id!,
    cidade_id: d.cidade_id!,
    data_despesa: d.data_despesa!,
    tipo: d.tipo!,
    tipo_outro: d.tipo === 'outro' ? (d.tipo_outro ?? '') : '',
    valor: reaisParaCentavos(d.valor!),
    descricao: d.descricao ?? '',
    // Absent in rows queued by an older app: the server then keeps what it has.
    ...(d.chave_nfce !== undefined ? { chave_nfce: d.chave_nfce } : {}),
  };
}

// The sync panel's 'Editar' of a refused expense opens it on the Despesas page.
const editarEm = (dados: unknown) => {
  const id = (dados as { id?: unknown } | null)?.id;
  return typeof id === 'string' ? `/despesas?corrigir=${encodeURIComponent(id)}` : null;
};

registrarOperacao(OP_CRIAR, {
  paraEnvio: (dados) => ({ ...camposParaEnvio(dados), registrado_em: (dados as DadosCriar).registrado_em }),
  editarEm,
});
/**
 * Several receipts per expense: this version's edits name the receipts to remove (its files are added); rows
 * queued by an older app have no `remover_cupons`, and the server then replaces as it did for them.
 */
const removerCupons = (dados: unknown) => {
  const lista = (dados as { remover_cupons?: unknown } | null)?.remover_cupons;
  return Array.isArray(lista) ? { remover_cupons: lista.filter((id): id is number => Number.isSafeInteger(id) && id > 0) } : {};
};
registrarOperacao(OP_EDITAR, {
  paraEnvio: (dados) => ({ ...camposParaEnvio(dados), excluir_cupom: (dados as DadosEditar).excluir_cupom === true, ...removerCupons(dados) }),
  editarEm,
});
registrarOperacao(OP_CORRIGIR, {
  paraEnvio: (dados) => ({ ...camposParaEnvio(dados), excluir_cupom: (dados as DadosCorrigir).excluir_cupom === true, ...removerCupons(dados) }),
  editarEm,
});
registrarOperacao(OP_EXCLUIR, {
  paraEnvio(dados) {
    const d = dados as Partial<DadosExcluir> | null;
    if (!d || typeof d.id !== 'string') throw new Error(ILEGIVEL);
    return { id: d.id, ...(typeof d.rota_id === 'number' ? { rota_id: d.rota_id } : {}) };
  },
});

const rotulo = (d: { tipo: DadosDespesaNaFila['tipo']; tipo_outro: string; valor: number; cidade_nome: string }): string =>
  `${nomeDoTipo(d.tipo, d.tipo_outro)} de ${formatarReais(d.valor)} em ${d.cidade_nome}`;

/** This person's queued create, edit and correction items of one expense, in queue order. */
async function itensDaDespesa(banco: BancoLocal, usuarioId: number, id: string): Promise<ItemOutbox[]> {
  const itens = await itensDoUsuario(banco, usuarioId);
  return itens.filter((i) => [OP_CRIAR, OP_EDITAR, OP_CORRIGIR].includes(i.tipo) && i.chaves.includes(`despesa:${id}`));
}

/**
 * The receipts of one expense still only on this device (the files of its queued items), in queue
 * order: what the form lists as 'Aguardando envio neste aparelho', each removable.
 */
export async function cuponsNaFila(usuarioId: number, id: string, banco: BancoLocal = bancoLocal): Promise<CupomLocal[]> {
  const itens = await itensDaDespesa(banco, usuarioId, id);
  const lista: CupomLocal[] = [];
  for (const item of itens) for (const a of await arquivosDoItem(banco, item)) lista.push({ id: a.id, nome: a.nome, tipo: a.tipo, tamanho: a.tamanho });
  return lista;
}

/** A receipt file of a queued item, as the form lists it. */
export interface CupomLocal {
  id: string;
  nome: string;
  tipo: string;
  tamanho: number;
}

const metaDoCupom = (cupom: Pick<CupomPreparado, 'nome' | 'tipo'>) => ({ nome: cupom.nome, tipo: cupom.tipo });

/** One receipt (older callers) or several, as a list. */
const listaDeCupons = (cupons: CupomPreparado | readonly CupomPreparado[] | null): CupomPreparado[] => (cupons === null ? [] : Array.isArray(cupons) ? [...cupons] : [cupons as CupomPreparado]);

/** The queued data's receipt fields: `cupom` the first (what older readers of the row look at), `cupons` all. */
const metasDosCupons = (cupons: readonly Pick<CupomPreparado, 'nome' | 'tipo'>[]) => ({ cupom: cupons[0] ? metaDoCupom(cupons[0]) : null, cupons: cupons.map(metaDoCupom) });

/** A queued item's files, minus the ones the person removed, as files of its new version (kept by id). */
async function arquivosMantidos(banco: BancoLocal, item: ItemOutbox, removerLocais: readonly string[]): Promise<(CupomPreparado & { id: string })[]> {
  const arquivos = await arquivosDoItem(banco, item);
  return arquivos.filter((a) => !removerLocais.includes(a.id)).map((a) => ({ id: a.id, nome: a.nome, tipo: a.tipo, conteudo: a.conteudo }));
}

/**
 * Receipts removed from a queued item the save does not otherwise replace (a create still waiting,
 * an earlier change): the item's new version without them, in the same transaction as the save.
 */
async function retirarArquivos(banco: BancoLocal, itens: ItemOutbox[], removerLocais: readonly string[]): Promise<void> {
  for (const item of itens) {
    if (!item.arquivos.some((a) => removerLocais.includes(a))) continue;
    const ficam = await arquivosMantidos(banco, item, removerLocais);
    const dados = { ...(item.dados as object), ...metasDosCupons(ficam) };
    await substituirItem(banco, item.id, { tipo: item.tipo, usuarioId: item.usuarioId, dados, chaves: item.chaves, descricao: item.descricao, arquivos: ficam });
  }
}

/**
 * A save that removes receipts of queued items runs while no request is carrying the queue
 * (offline/sync.ts, semEnvioEmCurso), and all of it in one IndexedDB transaction: the old version
 * stays whole until the new one is written, and nothing of it is left behind.
 */
function naFila<T>(banco: BancoLocal, removerLocais: readonly string[], fazer: () => Promise<T>): Promise<T> {
  const transacao = () => banco.transaction('rw', banco.outbox, banco.arquivos, banco.meta, fazer);
  return removerLocais.length > 0 ? semEnvioEmCurso(transacao) : transacao();
}

/**
 * Queues a new expense with its receipts (up to 5, each a file of the outbox); the files are in
 * IndexedDB when this resolves. Saving again an expense whose create the server refused corrects
 * that create in place (same queue position): it keeps the receipts it had, minus `removerLocais`
 * (file ids), plus the ones given.
 */
export async function enfileirarCriacao(
  usuarioId: number,
  dados: Omit<DadosDespesaNaFila, 'cupom'>,
  cupons: CupomPreparado | readonly CupomPreparado[] | null,
  banco: BancoLocal = bancoLocal,
  removerLocais: readonly string[] = [],
) {
  const lista = listaDeCupons(cupons);
  const chaves = [`despesa:${dados.id}`];
  const descricao = `Despesa: ${rotulo(dados)}`;
  return naFila(banco, removerLocais, async () => {
    const recusada = await recusadoDaEntidade(banco, usuarioId, chaves, [OP_CRIAR]);
    if (!recusada) return enfileirar(banco, { tipo: OP_CRIAR, usuarioId, dados: { ...dados, operacao: 'criar', ...metasDosCupons(lista) } satisfies DadosCriar, chaves, descricao, arquivos: lista });
    const todos = [...(await arquivosMantidos(banco, recusada, removerLocais)), ...lista];
    const op: DadosCriar = { ...dados, operacao: 'criar', ...metasDosCupons(todos) };
    return (await substituirItem(banco, recusada.id, { tipo: OP_CRIAR, usuarioId, dados: op, chaves, descricao, arquivos: todos }))!;
  });
}

/**
 * What a change does to the receipts: an older screen's one file replacing them (or removing them),
 * or this version's files to add, receipts to remove by their server id, and
 * receipts still on the device to remove by their file id.
 */
export type AlteracaoCupons =
  | { cupom: CupomPreparado | null; excluirCupom: boolean }
  | { novos: readonly CupomPreparado[]; removerCupons: readonly number[]; removerLocais?: readonly string[] };

function camposDaAlteracao(alteracao: AlteracaoCupons): { excluir_cupom: boolean; remover_cupons?: number[]; arquivos: CupomPreparado[]; removerLocais: readonly string[] } {
  if ('novos' in alteracao) return { excluir_cupom: false, remover_cupons: [...alteracao.removerCupons], arquivos: [...alteracao.novos], removerLocais: alteracao.removerLocais ?? [] };
  return { excluir_cupom: !alteracao.cupom && alteracao.excluirCupom, arquivos: alteracao.cupom ? [alteracao.cupom] : [], removerLocais: [] };
}

/**
 * A change (edit or correction) to a queued expense, in one transaction. A refused create of the
 * expense takes the change (the server never had the expense); else a refused change of the same
 * kind is replaced by the new one (keeping what the server had before it, and the server receipts it
 * removed); else the change is queued after what waits. Receipts removed from the device come out of
 * whichever queued item held them.
 */
async function enfileirarAlteracao(
  banco: BancoLocal,
  usuarioId: number,
  tipo: typeof OP_EDITAR | typeof OP_CORRIGIR,
  montar: (campos: { anterior: EstadoAnterior; remover_cupons?: number[]; excluir_cupom: boolean; cupons: readonly CupomPreparado[] }) => DadosEditar | DadosCorrigir,
  dados: Omit<DadosDespesaNaFila, 'cupom'>,
  anterior: EstadoAnterior,
  alteracao: AlteracaoCupons,
  descricao: string,
): Promise<ItemOutbox> {
  const chaves = [`despesa:${dados.id}`];
  const { excluir_cupom, remover_cupons, arquivos, removerLocais } = camposDaAlteracao(alteracao);
  return naFila(banco, removerLocais, async () => {
    const itens = await itensDaDespesa(banco, usuarioId, dados.id);
    // The refused version this save replaces: the expense's create (the server never had it) for an edit, or a refused change of the same kind.
    const indice = itens.findIndex((i) => i.estado === 'erro' && (i.tipo === OP_CRIAR ? tipo === OP_EDITAR : i.tipo === tipo));
    const alvo = indice >= 0 ? itens[indice] : undefined;
    await retirarArquivos(banco, alvo ? itens.slice(0, indice) : itens, removerLocais);
    if (!alvo) {
      return enfileirar(banco, { tipo, usuarioId, dados: montar({ anterior, remover_cupons, excluir_cupom, cupons: arquivos }), chaves, descricao, ...(arquivos.length > 0 ? { arquivos } : {}) });
    }
    // Changes queued after it were held behind it and are older than this save (the form showed them laid over): this one takes their place.
    const depois = itens.slice(indice + 1);
    // An older screen's one file replaces every receipt, and its 'excluir' removes them all.
    const substitui = excluir_cupom || (arquivos.length > 0 && remover_cupons === undefined);
    const mantidos = substitui ? [] : (await Promise.all([alvo, ...depois].map((i) => arquivosMantidos(banco, i, removerLocais)))).flat();
    const todos = [...mantidos, ...arquivos];
    await removerSubstituidos(banco, depois, mantidos.map((a) => a.id));
    if (alvo.tipo === OP_CRIAR) {
      const op: DadosCriar = { ...dados, operacao: 'criar', ...metasDosCupons(todos) };
      return (await substituirItem(banco, alvo.id, { tipo: OP_CRIAR, usuarioId, dados: op, chaves, descricao: `Despesa: ${rotulo(dados)}`, arquivos: todos }))!;
    }
    // The refused change never reached the server: what it had before stays the starting point, and the server receipts it (and those after it) removed stay removed.
    const anteriores = [alvo, ...depois].map((i) => i.dados as Partial<DadosEditar | DadosCorrigir>);
    const removidos = remover_cupons === undefined ? undefined : [...new Set([...anteriores.flatMap((d) => d.remover_cupons ?? []), ...remover_cupons])];
    const op = montar({
      anterior: anteriores[0]?.anterior ?? anterior,
      remover_cupons: removidos,
      excluir_cupom: excluir_cupom || anteriores.some((d) => d.excluir_cupom === true),
      cupons: todos,
    });
    return (await substituirItem(banco, alvo.id, { tipo, usuarioId, dados: op, chaves, descricao, arquivos: todos }))!;
  });
}

/**
 * Queues a change to an expense. When the server refused the expense's create, the change is folded
 * into that create (the expense does not exist on the server yet); a refused change is corrected.
 */
export async function enfileirarEdicao(
  usuarioId: number,
  dados: Omit<DadosDespesaNaFila, 'cupom'>,
  anterior: EstadoAnterior,
  alteracao: AlteracaoCupons,
  banco: BancoLocal = bancoLocal,
) {
  return enfileirarAlteracao(
    banco,
    usuarioId,
    OP_EDITAR,
    ({ anterior: a, remover_cupons, excluir_cupom, cupons }): DadosEditar => ({ ...dados, operacao: 'editar', anterior: a, excluir_cupom, ...(remover_cupons ? { remover_cupons } : {}), ...metasDosCupons(cupons) }),
    dados,
    anterior,
    alteracao,
    `Alteração da despesa: ${rotulo(dados)}`,
  );
}

/**
 * Queues the correction of a rejected expense: the fields and receipt as an edit, sent as
 * 'despesa.corrigir' so the server puts it back to Pendente. A refused correction is corrected in place.
 */
export async function enfileirarCorrecao(
  usuarioId: number,
  dados: Omit<DadosDespesaNaFila, 'cupom'>,
  anterior: EstadoAnterior & { motivo_rejeicao: string | null },
  alteracao: AlteracaoCupons,
  banco: BancoLocal = bancoLocal,
) {
  const { motivo_rejeicao, ...estado } = anterior;
  return enfileirarAlteracao(
    banco,
    usuarioId,
    OP_CORRIGIR,
    ({ anterior: a, remover_cupons, excluir_cupom, cupons }): DadosCorrigir => ({
      ...dados,
      operacao: 'corrigir',
      anterior: a,
      motivo_rejeicao,
      excluir_cupom,
      ...(remover_cupons ? { remover_cupons } : {}),
      ...metasDosCupons(cupons),
    }),
    dados,
    estado,
    alteracao,
    `Correção da despesa rejeitada: ${rotulo(dados)}`,
  );
}

export function enfileirarExclusao(
  usuarioId: number,
  despesa: { id: string; rota_id?: number; tipo: DadosDespesaNaFila['tipo']; tipo_outro: string | null; valor: number; data_despesa: string; cidade_nome: string },
  banco: BancoLocal = bancoLocal,
) {
  const d = { ...despesa, tipo_outro: despesa.tipo_outro ?? '' };
  const op: DadosExcluir = {
    operacao: 'excluir',
    id: despesa.id,
    ...(despesa.rota_id !== undefined ? { rota_id: despesa.rota_id } : {}),
    anterior: { valor: despesa.valor, tipo: despesa.tipo, data_despesa: despesa.data_despesa },
    descricao_item: rotulo(d),
  };
  return enfileirar(banco, { tipo: OP_EXCLUIR, usuarioId, dados: op, chaves: [`despesa:${despesa.id}`], descricao: `Exclusão da despesa: ${rotulo(d)}` });
}

/** `semSessao`: still queued because the server ended the session (there was signal), not for want of signal. */
export type ResultadoEnvio = { estado: 'enviado' } | { estado: 'recusado'; erro: string } | { estado: 'na-fila'; semSessao: boolean };

/** How long the form waits for the server before telling the person it was kept on the device. */
export const ESPERA_ENVIO_MS = 8_000;

/**
 * Replays the queue now and reports what happened to one item: the server took it, refused it
 * (the form shows the server's message; the item stays queued, under 'Precisam de atenção', until the
 * person saves a version the server takes or discards it from the sync panel after confirming), or
 * it is still waiting (offline, slow link).
 */
export async function enviarAgora(
  itemId: string,
  { limiteMs = ESPERA_ENVIO_MS, banco = bancoLocal, motor = motorSync }: { limiteMs?: number; banco?: BancoLocal; motor?: Pick<typeof motorSync, 'sincronizarAgora'> & Partial<Pick<typeof motorSync, 'estado'>> } = {},
): Promise<ResultadoEnvio> {
  if (typeof navigator !== 'undefined' && !navigator.onLine) return { estado: 'na-fila', semSessao: false };
  let temporizador: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([motor.sincronizarAgora(), new Promise<void>((r) => (temporizador = setTimeout(r, limiteMs)))]);
  clearTimeout(temporizador);
  const item = await banco.outbox.where('id').equals(itemId).first();
  if (!item) return { estado: 'enviado' };
  if (item.estado === 'erro') return { estado: 'recusado', erro: item.erro ?? 'Erro ao salvar despesa' };
  return { estado: 'na-fila', semSessao: motor.estado?.().pausadoPorSessao === true };
}
