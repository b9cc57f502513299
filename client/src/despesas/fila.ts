/**
 * Expenses still in this device's outbox, laid over what the server answered: a queued expense
 * shows at once in the list, in the totals and in the projected balance ('Saldo projetado'), and
 * disappears from the overlay when the server confirms it. Pure functions: no Dexie, no React.
 */
import { centavosParaReais, reaisParaCentavos } from '../../../shared/money';
import type { Despesa, ListaDespesas, StatusAprovacao, TotaisDespesas } from '../../../shared/schemas/despesas';
import { TIPOS_DESPESA, type TipoDespesa } from '../../../shared/schemas/tiposDespesa';
import { OPERACOES } from '../../../shared/sync/operacoes';

export const OP_CRIAR = 'despesa.criar';
export const OP_EDITAR = 'despesa.editar';
export const OP_EXCLUIR = 'despesa.excluir';
/** A rejected expense corrected and sent again: back to Pendente when the server takes it. */
export const OP_CORRIGIR = 'despesa.corrigir';
export type TipoOperacaoDespesa = typeof OP_CRIAR | typeof OP_EDITAR | typeof OP_EXCLUIR | typeof OP_CORRIGIR;

/** The receipt's name and type; its bytes travel in the outbox's `arquivos` table. */
export interface CupomNaFila {
  nome: string;
  tipo: string;
}

/** What the form produced: the fields the server takes plus the names shown before it answers. */
export interface DadosDespesaNaFila {
  id: string;
  rota_id: number;
  cidade_id: number;
  data_despesa: string;
  tipo: TipoDespesa;
  tipo_outro: string;
  /** Reais, 2 decimals. */
  valor: number;
  descricao: string;
  /** The NFC-e's chave read from the receipt's QR or typed; null: none; absent: an older app's row. */
  chave_nfce?: string | null;
  registrado_em: string;
  rota_nome: string;
  cidade_nome: string;
  cidade_uf: string;
  funcionario_nome: string;
  /** The first receipt (what an older app's row has). */
  cupom: CupomNaFila | null;
  /** Every receipt, in the order of the item's files; absent in an older app's row. */
  cupons?: CupomNaFila[];
}

/** The expense as the person saw it when changing it: what the change moves away from. */
export interface EstadoAnterior {
  valor: number;
  tipo: TipoDespesa;
  data_despesa: string;
}

export interface DadosCriar extends DadosDespesaNaFila {
  operacao: 'criar';
}
export interface DadosEditar extends DadosDespesaNaFila {
  operacao: 'editar';
  excluir_cupom: boolean;
  /** Server receipts to remove; the item's files are added. Absent: an older app's edit (its file replaces). */
  remover_cupons?: number[];
  anterior: EstadoAnterior;
}
export interface DadosCorrigir extends DadosDespesaNaFila {
  operacao: 'corrigir';
  excluir_cupom: boolean;
  remover_cupons?: number[];
  anterior: EstadoAnterior;
  /** The reason the person was answering (shown while the correction waits). */
  motivo_rejeicao: string | null;
}
export interface DadosExcluir {
  operacao: 'excluir';
  id: string;
  /** The expense's route: a refused delete holds back that route's finishing. */
  rota_id?: number;
  anterior: EstadoAnterior;
  descricao_item: string;
}
export type DadosOperacaoDespesa = DadosCriar | DadosEditar | DadosCorrigir | DadosExcluir;

/** An outbox row as this module needs it (a subset of ItemOutbox). */
export interface ItemFilaDespesa {
  id: string;
  tipo: string;
  dados: unknown;
  arquivos: string[];
  estado: 'pendente' | 'erro';
  erro: string | null;
}

export interface EnvioPendente {
  operacao: 'criar' | 'editar' | 'corrigir';
  estado: 'pendente' | 'erro';
  erro: string | null;
}

/** A row of the screen: the server's expense, or one still waiting on this device. */
export interface DespesaExibida extends Despesa {
  /** Set while a change to this expense waits in the outbox. */
  envio: EnvioPendente | null;
  /** Id in the outbox's `arquivos` of a receipt not yet sent (previewed from the device). */
  cupomLocal: string | null;
  /** Every receipt not yet sent, in order: ids in the outbox's `arquivos`, with name and type. */
  cuponsLocais?: { id: string; nome: string; tipo: string }[];
}

/** How many receipts a row has: the server's, minus none, plus those still on the device (the list's count). */
export function quantidadeDeCupons(d: Pick<DespesaExibida, 'cupons' | 'cupom_url' | 'cupomLocal' | 'cuponsLocais'>): number {
  const doServidor = d.cupons?.length ?? (d.cupom_url ? 1 : 0);
  return doServidor + (d.cuponsLocais?.length ?? (d.cupomLocal ? 1 : 0));
}

/** The item's local receipts with their names (the row's `cupons`, or the older single `cupom`). */
function cuponsLocaisDo(item: Pick<ItemFilaDespesa, 'arquivos'>, op: DadosDespesaNaFila): { id: string; nome: string; tipo: string }[] {
  const metas = op.cupons ?? (op.cupom ? [op.cupom] : []);
  return item.arquivos.map((id, i) => ({ id, nome: metas[i]?.nome ?? 'comprovante', tipo: metas[i]?.tipo ?? '' }));
}

export interface FiltrosLocais {
  data_inicio?: string;
  data_fim?: string;
  tipo?: TipoDespesa | '';
  status_aprovacao?: StatusAprovacao | '';
}

function ehOperacao(dados: unknown): dados is DadosOperacaoDespesa {
  if (typeof dados !== 'object' || dados === null) return false;
  const d = dados as { operacao?: unknown; id?: unknown };
  return (d.operacao === 'criar' || d.operacao === 'editar' || d.operacao === 'corrigir' || d.operacao === 'excluir') && typeof d.id === 'string';
}

/** The expense items of the outbox, in replay order; rows written by another version are skipped. */
export function operacoesDeDespesa<T extends Pick<ItemFilaDespesa, 'tipo' | 'dados'>>(itens: T[]): (T & { dados: DadosOperacaoDespesa })[] {
  return itens.filter((i): i is T & { dados: DadosOperacaoDespesa } => i.tipo.startsWith('despesa.') && ehOperacao(i.dados));
}

function combina(v: { tipo: TipoDespesa; data_despesa: string; status_aprovacao?: StatusAprovacao }, f: FiltrosLocais): boolean {
  if (f.tipo && v.tipo !== f.tipo) return false;
  if (f.data_inicio && v.data_despesa < f.data_inicio) return false;
  if (f.data_fim && v.data_despesa > f.data_fim) return false;
  if (f.status_aprovacao && (v.status_aprovacao ?? 'pendente') !== f.status_aprovacao) return false;
  return true;
}

function despesaLocal(d: DadosDespesaNaFila, base: Despesa | null): Despesa {
  return {
    id: d.id,
    rota_id: d.rota_id,
    cidade_id: d.cidade_id,
    funcionario_id: base?.funcionario_id ?? 0,
    data_despesa: d.data_despesa,
    tipo: d.tipo,
    tipo_outro: d.tipo === 'outro' ? d.tipo_outro : null,
    valor: d.valor,
    descricao: d.descricao,
    arquivo_cupom: base?.arquivo_cupom ?? null,
    cupom_url: base?.cupom_url ?? null,
    cupom_mime: base?.cupom_mime ?? null,
    cupom_nome: base?.cupom_nome ?? null,
    chave_nfce: d.chave_nfce !== undefined ? d.chave_nfce : (base?.chave_nfce ?? null),
    status_aprovacao: base?.status_aprovacao ?? 'pendente',
    motivo_rejeicao: base?.motivo_rejeicao ?? null,
    aprovada: base?.aprovada ?? false,
    rejeitada: base?.rejeitada ?? false,
    avaliado_em: base?.avaliado_em ?? null,
    funcionario_nome: base?.funcionario_nome ?? d.funcionario_nome,
    rota_nome: base?.rota_nome ?? d.rota_nome,
    rota_status: base?.rota_status ?? 'ativa',
    cidade_nome: d.cidade_nome,
    cidade_uf: d.cidade_uf,
    registrado_em: base?.registrado_em ?? d.registrado_em,
    recebido_em: base?.recebido_em ?? '',
    atualizado_em: base?.atualizado_em ?? d.registrado_em,
    excluida: false,
  };
}

function ordenar(a: Despesa, b: Despesa): number {
  if (a.data_despesa !== b.data_despesa) return a.data_despesa < b.data_despesa ? 1 : -1;
  return a.registrado_em < b.registrado_em ? 1 : a.registrado_em > b.registrado_em ? -1 : 0;
}

const TOTAIS_ZERADOS: TotaisDespesas = { geral: 0, alimentacao: 0, hospedagem: 0, combustivel: 0, pedagio: 0, aluguel_sala: 0, outro: 0 };

export interface ListaMesclada {
  despesas: DespesaExibida[];
  totais: TotaisDespesas;
  total: number;
}

/**
 * The list to show: the server's page with the queued changes applied (edits replace, deletes
 * remove), queued new expenses on top of page 1, and totals moved by every queued change that
 * falls inside the filters (sums in integer centavos).
 */
export function mesclarDespesas(servidor: ListaDespesas | undefined, itens: ItemFilaDespesa[], filtros: FiltrosLocais, pagina: number): ListaMesclada {
  const linhas = new Map<string, DespesaExibida>();
  for (const d of servidor?.despesas ?? []) linhas.set(d.id, { ...d, envio: null, cupomLocal: null });
  const novas = new Map<string, DespesaExibida>();
  const centavos = Object.fromEntries(TIPOS_DESPESA.map((t) => [t, reaisParaCentavos(servidor?.totais[t] ?? 0) as number])) as Record<TipoDespesa, number>;
  let total = servidor?.total ?? 0;
  const mover = (v: { tipo: TipoDespesa; data_despesa: string; valor: number }, sinal: 1 | -1) => {
    if (!combina(v, filtros)) return;
    centavos[v.tipo] += sinal * reaisParaCentavos(v.valor);
    total += sinal;
  };

  for (const item of operacoesDeDespesa(itens)) {
    const op = item.dados;
    const envio = (operacao: EnvioPendente['operacao']): EnvioPendente => ({ operacao, estado: item.estado, erro: item.erro });
    if (op.operacao === 'criar') {
      if (linhas.has(op.id)) {
        // The server already has it (the answer was lost on the way back): show its version.
        linhas.set(op.id, { ...linhas.get(op.id)!, envio: envio('criar') });
        continue;
      }
      const local = despesaLocal(op, null);
      novas.set(op.id, {
        ...local,
        cupom_mime: op.cupom?.tipo ?? null,
        cupom_nome: op.cupom?.nome ?? null,
        envio: envio('criar'),
        cupomLocal: item.arquivos[0] ?? null,
        cuponsLocais: cuponsLocaisDo(item, op),
      });
      mover(op, 1);
    } else if (op.operacao === 'editar' || op.operacao === 'corrigir') {
      const atual = novas.get(op.id) ?? linhas.get(op.id);
      mover(op.anterior, -1);
      mover(op, 1);
      if (!atual) continue;
      const editada: DespesaExibida = {
        ...despesaLocal(op, atual),
        // An edit of an expense the server has not seen yet is still, for the person, "waiting to be sent".
        envio:
          atual.envio?.operacao === 'criar' && atual.envio.estado === 'erro'
            ? atual.envio
            : envio(atual.envio?.operacao === 'criar' ? 'criar' : op.operacao === 'corrigir' ? 'corrigir' : 'editar'),
        cupomLocal: atual.cupomLocal,
        ...(atual.cuponsLocais ? { cuponsLocais: atual.cuponsLocais } : {}),
      };
      if (op.remover_cupons) {
        // The listed receipts go, the item's files are added after the kept ones.
        const removidos = new Set(op.remover_cupons);
        const cupons = (atual.cupons ?? []).filter((c) => !removidos.has(c.id));
        const locais = [...(atual.cuponsLocais ?? []), ...cuponsLocaisDo(item, op)];
        Object.assign(editada, { cupons, cuponsLocais: locais, cupomLocal: cupons.length === 0 ? (locais[0]?.id ?? null) : null });
      } else if (item.arquivos[0] && op.cupom) {
        // An older app's edit: its file replaces every receipt.
        Object.assign(editada, { cupomLocal: item.arquivos[0], cuponsLocais: cuponsLocaisDo(item, op), cupons: [], cupom_mime: op.cupom.tipo, cupom_nome: op.cupom.nome, cupom_url: null, arquivo_cupom: null });
      } else if (op.excluir_cupom) {
        Object.assign(editada, { cupomLocal: null, cuponsLocais: [], cupons: [], cupom_mime: null, cupom_nome: null, cupom_url: null, arquivo_cupom: null });
      }
      (novas.has(op.id) ? novas : linhas).set(op.id, editada);
    } else {
      mover(op.anterior, -1);
      novas.delete(op.id);
      linhas.delete(op.id);
    }
  }

  const novasVisiveis = pagina === 1 ? [...novas.values()].filter((d) => combina(d, filtros)).sort(ordenar) : [];
  const geral = TIPOS_DESPESA.reduce((s, t) => s + centavos[t], 0);
  const totais = { ...TOTAIS_ZERADOS, geral: centavosParaReais(geral) };
  for (const t of TIPOS_DESPESA) totais[t] = centavosParaReais(centavos[t]);
  return { despesas: [...novasVisiveis, ...linhas.values()], totais, total: Math.max(0, total) };
}

/**
 * 'Saldo projetado': the server's balance minus what the queued expense changes will take from it
 * (creates and increases subtract, decreases and deletes give back), in integer centavos. `itens`
 * may also hold changes the server confirmed after the balance was read (offline/escritas.ts).
 */
export function saldoProjetado(confirmado: number, itens: Pick<ItemFilaDespesa, 'tipo' | 'dados'>[]): number {
  let centavos = reaisParaCentavos(confirmado) as number;
  // Each kind's effect on the balance is declared once, in the shared registry (in centavos).
  for (const { dados: op } of operacoesDeDespesa(itens)) {
    const valor = reaisParaCentavos(op.operacao === 'excluir' ? op.anterior.valor : op.valor);
    const efeito =
      op.operacao === 'criar'
        ? OPERACOES['despesa.criar'].efeito({ ...op, valor })
        : op.operacao === 'editar'
          ? OPERACOES['despesa.editar'].efeito({ ...op, valor }, { valor: reaisParaCentavos(op.anterior.valor) })
          : op.operacao === 'corrigir'
            ? OPERACOES['despesa.corrigir'].efeito({ ...op, valor }, { valor: reaisParaCentavos(op.anterior.valor) })
            : OPERACOES['despesa.excluir'].efeito(op, { valor });
    centavos += efeito.saldo ?? 0;
  }
  return centavosParaReais(centavos);
}

/** How many queued changes touch the balance (for the card's note). */
export function contarNaFila(itens: Pick<ItemFilaDespesa, 'tipo' | 'dados'>[]): number {
  return operacoesDeDespesa(itens).length;
}
