/**
 * The employee's expense writes as outbox operations (docs/decisions/sincronizacao.md): create, edit
 * and delete, with the receipt read back from the outbox's files and sent beside the batch. The
 * server applies each operation exactly once (its operation log), so a replay is always safe.
 */
import { formatarReais, reaisParaCentavos } from '../../../shared/money';
import { nomeDoTipo } from '../../../shared/schemas/tiposDespesa';
import { motorSync, registrarOperacao } from '../offline';
import { bancoLocal, type BancoLocal, type ItemOutbox } from '../offline/db';
import { arquivosDoItem, corrigirRecusado, descartarItem, enfileirar, enfileirarOuCorrigir } from '../offline/outbox';
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
 * Issue 20, item 6: this version's edits name the receipts to remove (its files are added); rows
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

/** The create of this expense the server refused (it never reached the server), if any. */
async function criacaoRecusada(banco: BancoLocal, usuarioId: number, id: string): Promise<ItemOutbox | undefined> {
  const recusados = await banco.outbox.where('[usuarioId+estado]').equals([usuarioId, 'erro']).toArray();
  return recusados.find((i) => i.tipo === OP_CRIAR && i.chaves.includes(`despesa:${id}`));
}

const metaDoCupom = (cupom: CupomPreparado) => ({ nome: cupom.nome, tipo: cupom.tipo });

/** One receipt (older callers) or several (issue 20, item 6), as a list. */
const listaDeCupons = (cupons: CupomPreparado | readonly CupomPreparado[] | null): CupomPreparado[] => (cupons === null ? [] : Array.isArray(cupons) ? [...cupons] : [cupons as CupomPreparado]);

/** The queued data's receipt fields: `cupom` the first (what older readers of the row look at), `cupons` all. */
const metasDosCupons = (cupons: readonly CupomPreparado[]) => ({ cupom: cupons[0] ? metaDoCupom(cupons[0]) : null, cupons: cupons.map(metaDoCupom) });

/**
 * Queues a new expense with its receipts (up to 5, each a file of the outbox); the files are in
 * IndexedDB when this resolves. Saving again an expense whose create the server refused corrects
 * that create in place (same queue position); with no receipts given, it keeps the ones it had.
 */
export async function enfileirarCriacao(
  usuarioId: number,
  dados: Omit<DadosDespesaNaFila, 'cupom'>,
  cupons: CupomPreparado | readonly CupomPreparado[] | null,
  banco: BancoLocal = bancoLocal,
) {
  const lista = listaDeCupons(cupons);
  const antes = lista.length > 0 ? undefined : ((await criacaoRecusada(banco, usuarioId, dados.id))?.dados as DadosCriar | undefined);
  const op: DadosCriar = {
    ...dados,
    operacao: 'criar',
    ...(lista.length > 0 ? metasDosCupons(lista) : { cupom: antes?.cupom ?? null, ...(antes?.cupons ? { cupons: antes.cupons } : {}) }),
  };
  return enfileirarOuCorrigir(
    banco,
    {
      tipo: OP_CRIAR,
      usuarioId,
      dados: op,
      chaves: [`despesa:${dados.id}`],
      descricao: `Despesa: ${rotulo(dados)}`,
      ...(lista.length > 0 ? { arquivos: lista } : {}),
    },
    [OP_CRIAR],
  );
}

/**
 * What a change does to the receipts: an older screen's one file replacing them (or removing them),
 * or this version's files to add and receipts to remove by their server id (issue 20, item 6).
 */
export type AlteracaoCupons = { cupom: CupomPreparado | null; excluirCupom: boolean } | { novos: readonly CupomPreparado[]; removerCupons: readonly number[] };

function camposDaAlteracao(alteracao: AlteracaoCupons): { excluir_cupom: boolean; remover_cupons?: number[]; arquivos: CupomPreparado[] } {
  if ('novos' in alteracao) return { excluir_cupom: false, remover_cupons: [...alteracao.removerCupons], arquivos: [...alteracao.novos] };
  return { excluir_cupom: !alteracao.cupom && alteracao.excluirCupom, arquivos: alteracao.cupom ? [alteracao.cupom] : [] };
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
  const chaves = [`despesa:${dados.id}`];
  const { excluir_cupom, remover_cupons, arquivos } = camposDaAlteracao(alteracao);
  const criacao = await criacaoRecusada(banco, usuarioId, dados.id);
  if (criacao) {
    // The server never had it: the create carries the receipts it had (none removed by id: they have no server id) and the new ones.
    const criada = criacao.dados as DadosCriar;
    const mantidos = excluir_cupom || (arquivos.length > 0 && remover_cupons === undefined) ? [] : await arquivosDoItem(banco, criacao);
    const todos: CupomPreparado[] = [...mantidos.map((a) => ({ nome: a.nome, tipo: a.tipo, conteudo: a.conteudo })), ...arquivos];
    const mudouArquivos = todos.length !== mantidos.length || excluir_cupom;
    const op: DadosCriar = { ...dados, operacao: 'criar', ...(mudouArquivos ? metasDosCupons(todos) : { cupom: criada.cupom, ...(criada.cupons ? { cupons: criada.cupons } : {}) }) };
    const corrigido = await corrigirRecusado(
      banco,
      { tipo: OP_CRIAR, usuarioId, dados: op, chaves, descricao: `Despesa: ${rotulo(dados)}`, ...(mudouArquivos ? { arquivos: todos } : {}) },
      [OP_CRIAR],
    );
    if (corrigido) return corrigido;
  }
  const op: DadosEditar = {
    ...dados,
    operacao: 'editar',
    anterior,
    excluir_cupom,
    ...(remover_cupons ? { remover_cupons } : {}),
    ...metasDosCupons(arquivos),
  };
  return enfileirarOuCorrigir(
    banco,
    {
      tipo: OP_EDITAR,
      usuarioId,
      dados: op,
      chaves,
      descricao: `Alteração da despesa: ${rotulo(dados)}`,
      ...(arquivos.length > 0 ? { arquivos } : {}),
    },
    [OP_EDITAR],
  );
}

/**
 * Queues the correction of a rejected expense (issue 17): the fields and receipt as an edit, sent as
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
  const { excluir_cupom, remover_cupons, arquivos } = camposDaAlteracao(alteracao);
  const op: DadosCorrigir = {
    ...dados,
    operacao: 'corrigir',
    anterior: estado,
    motivo_rejeicao,
    excluir_cupom,
    ...(remover_cupons ? { remover_cupons } : {}),
    ...metasDosCupons(arquivos),
  };
  return enfileirarOuCorrigir(
    banco,
    {
      tipo: OP_CORRIGIR,
      usuarioId,
      dados: op,
      chaves: [`despesa:${dados.id}`],
      descricao: `Correção da despesa rejeitada: ${rotulo(dados)}`,
      ...(arquivos.length > 0 ? { arquivos } : {}),
    },
    [OP_CORRIGIR],
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

export type ResultadoEnvio = { estado: 'enviado' } | { estado: 'recusado'; erro: string } | { estado: 'na-fila' };

/** How long the form waits for the server before telling the person it was kept on the device. */
export const ESPERA_ENVIO_MS = 8_000;

/**
 * Replays the queue now and reports what happened to one item: the server took it, refused it
 * (the form shows the server's message; the refused item is discarded because the person still
 * has the data on screen to fix and save again), or it is still waiting (offline, slow link).
 */
export async function enviarAgora(itemId: string, { limiteMs = ESPERA_ENVIO_MS, banco = bancoLocal }: { limiteMs?: number; banco?: BancoLocal } = {}): Promise<ResultadoEnvio> {
  if (typeof navigator !== 'undefined' && !navigator.onLine) return { estado: 'na-fila' };
  let temporizador: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([motorSync.sincronizarAgora(), new Promise<void>((r) => (temporizador = setTimeout(r, limiteMs)))]);
  clearTimeout(temporizador);
  const item = await banco.outbox.where('id').equals(itemId).first();
  if (!item) return { estado: 'enviado' };
  if (item.estado === 'erro') {
    await descartarItem(banco, itemId);
    return { estado: 'recusado', erro: item.erro ?? 'Erro ao salvar despesa' };
  }
  return { estado: 'na-fila' };
}
