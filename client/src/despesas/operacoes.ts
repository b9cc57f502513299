/**
 * The employee's expense writes as outbox operations (decisions.md, 'Offline and sync'): create and
 * edit go as multipart with the receipt read back from the outbox's files, delete as DELETE. Each is
 * idempotent on the server (the expense's client UUID), so a replay after a lost answer is safe.
 */
import { formatarReais } from '../../../shared/money';
import { nomeDoTipo } from '../../../shared/schemas/tiposDespesa';
import { motorSync, registrarOperacao } from '../offline';
import { bancoLocal, type ArquivoLocal, type BancoLocal, type ItemOutbox } from '../offline/db';
import { corrigirRecusado, descartarItem, enfileirar, enfileirarOuCorrigir, type RequisicaoOperacao } from '../offline/outbox';
import { OP_CRIAR, OP_EDITAR, OP_EXCLUIR, type DadosCriar, type DadosDespesaNaFila, type DadosEditar, type DadosExcluir, type EstadoAnterior } from './fila';

/** A receipt on a phone link: up to 20 MB may take far longer than the API's default 10 s. */
const TEMPO_LIMITE_ENVIO_MS = 120_000;

/** A receipt ready to queue: bytes already reduced in the browser when it is a large image. */
export interface CupomPreparado {
  nome: string;
  tipo: string;
  conteudo: ArrayBuffer;
}

function camposDoFormulario(d: Omit<DadosDespesaNaFila, 'cupom'>): FormData {
  const form = new FormData();
  form.append('rota_id', String(d.rota_id));
  form.append('cidade_id', String(d.cidade_id));
  form.append('data_despesa', d.data_despesa);
  form.append('tipo', d.tipo);
  form.append('tipo_outro', d.tipo === 'outro' ? d.tipo_outro : '');
  form.append('valor', d.valor.toFixed(2));
  form.append('descricao', d.descricao);
  form.append('registrado_em', d.registrado_em);
  return form;
}

function anexarCupom(form: FormData, arquivos: ArquivoLocal[]) {
  const arquivo = arquivos[0];
  // Fields first, the file last: the server reads the parts in order.
  if (arquivo) form.append('cupom', new Blob([arquivo.conteudo], { type: arquivo.tipo || 'application/octet-stream' }), arquivo.nome);
}

export function requisicaoCriar(dados: unknown, arquivos: ArquivoLocal[]): RequisicaoOperacao {
  const d = dados as DadosCriar;
  const form = camposDoFormulario(d);
  form.append('id', d.id);
  anexarCupom(form, arquivos);
  return { metodo: 'POST', caminho: '/despesas', corpo: form, tempoLimiteMs: TEMPO_LIMITE_ENVIO_MS };
}

export function requisicaoEditar(dados: unknown, arquivos: ArquivoLocal[]): RequisicaoOperacao {
  const d = dados as DadosEditar;
  const form = camposDoFormulario(d);
  if (d.excluir_cupom && arquivos.length === 0) form.append('excluir_cupom', 'true');
  anexarCupom(form, arquivos);
  return { metodo: 'PUT', caminho: `/despesas/${d.id}`, corpo: form, tempoLimiteMs: TEMPO_LIMITE_ENVIO_MS };
}

export function requisicaoExcluir(dados: unknown): RequisicaoOperacao {
  return { metodo: 'DELETE', caminho: `/despesas/${(dados as DadosExcluir).id}` };
}

type RespostaDespesa = { despesa?: { recebido_em?: string; atualizado_em?: string } } | null;
// The server's own time: when it received the expense, or when it applied the change.
const recebidoEm = (resposta: unknown) => (resposta as RespostaDespesa)?.despesa?.recebido_em;
const alteradoEm = (resposta: unknown) => (resposta as RespostaDespesa)?.despesa?.atualizado_em;

// The sync panel's 'Editar' of a refused expense opens it on the Despesas page.
const editarEm = (dados: unknown) => {
  const id = (dados as { id?: unknown } | null)?.id;
  return typeof id === 'string' ? `/despesas?corrigir=${encodeURIComponent(id)}` : null;
};

registrarOperacao(OP_CRIAR, { requisicao: requisicaoCriar, recebidoEm, editarEm });
registrarOperacao(OP_EDITAR, { requisicao: requisicaoEditar, recebidoEm: alteradoEm, editarEm });
registrarOperacao(OP_EXCLUIR, { requisicao: requisicaoExcluir, recebidoEm: alteradoEm });

const rotulo = (d: { tipo: DadosDespesaNaFila['tipo']; tipo_outro: string; valor: number; cidade_nome: string }): string =>
  `${nomeDoTipo(d.tipo, d.tipo_outro)} de ${formatarReais(d.valor)} em ${d.cidade_nome}`;

/** The create of this expense the server refused (it never reached the server), if any. */
async function criacaoRecusada(banco: BancoLocal, usuarioId: number, id: string): Promise<ItemOutbox | undefined> {
  const recusados = await banco.outbox.where('[usuarioId+estado]').equals([usuarioId, 'erro']).toArray();
  return recusados.find((i) => i.tipo === OP_CRIAR && i.chaves.includes(`despesa:${id}`));
}

const metaDoCupom = (cupom: CupomPreparado) => ({ nome: cupom.nome, tipo: cupom.tipo });

/**
 * Queues a new expense with its receipt; the file is in IndexedDB when this resolves. Saving again
 * an expense whose create the server refused corrects that create in place (same queue position).
 */
export async function enfileirarCriacao(usuarioId: number, dados: Omit<DadosDespesaNaFila, 'cupom'>, cupom: CupomPreparado | null, banco: BancoLocal = bancoLocal) {
  const antes = cupom ? undefined : ((await criacaoRecusada(banco, usuarioId, dados.id))?.dados as DadosCriar | undefined);
  const op: DadosCriar = { ...dados, operacao: 'criar', cupom: cupom ? metaDoCupom(cupom) : (antes?.cupom ?? null) };
  return enfileirarOuCorrigir(
    banco,
    {
      tipo: OP_CRIAR,
      usuarioId,
      dados: op,
      chaves: [`despesa:${dados.id}`],
      descricao: `Despesa: ${rotulo(dados)}`,
      ...(cupom ? { arquivos: [cupom] } : {}),
    },
    [OP_CRIAR],
  );
}

/**
 * Queues a change to an expense. When the server refused the expense's create, the change is folded
 * into that create (the expense does not exist on the server yet); a refused change is corrected.
 */
export async function enfileirarEdicao(
  usuarioId: number,
  dados: Omit<DadosDespesaNaFila, 'cupom'>,
  anterior: EstadoAnterior,
  { cupom, excluirCupom }: { cupom: CupomPreparado | null; excluirCupom: boolean },
  banco: BancoLocal = bancoLocal,
) {
  const chaves = [`despesa:${dados.id}`];
  const criacao = await criacaoRecusada(banco, usuarioId, dados.id);
  if (criacao) {
    const removeu = !cupom && excluirCupom;
    const op: DadosCriar = { ...dados, operacao: 'criar', cupom: cupom ? metaDoCupom(cupom) : removeu ? null : (criacao.dados as DadosCriar).cupom };
    const corrigido = await corrigirRecusado(
      banco,
      { tipo: OP_CRIAR, usuarioId, dados: op, chaves, descricao: `Despesa: ${rotulo(dados)}`, ...(cupom ? { arquivos: [cupom] } : removeu ? { arquivos: [] } : {}) },
      [OP_CRIAR],
    );
    if (corrigido) return corrigido;
  }
  const op: DadosEditar = {
    ...dados,
    operacao: 'editar',
    anterior,
    excluir_cupom: !cupom && excluirCupom,
    cupom: cupom ? metaDoCupom(cupom) : null,
  };
  return enfileirarOuCorrigir(
    banco,
    {
      tipo: OP_EDITAR,
      usuarioId,
      dados: op,
      chaves,
      descricao: `Alteração da despesa: ${rotulo(dados)}`,
      ...(cupom ? { arquivos: [cupom] } : {}),
    },
    [OP_EDITAR],
  );
}

export function enfileirarExclusao(
  usuarioId: number,
  despesa: { id: string; tipo: DadosDespesaNaFila['tipo']; tipo_outro: string | null; valor: number; data_despesa: string; cidade_nome: string },
  banco: BancoLocal = bancoLocal,
) {
  const d = { ...despesa, tipo_outro: despesa.tipo_outro ?? '' };
  const op: DadosExcluir = {
    operacao: 'excluir',
    id: despesa.id,
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
