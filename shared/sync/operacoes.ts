/**
 * The offline writes, each defined once (docs/decisions/sincronizacao.md, 'Uma definição por tipo'): its kind, the data it carries
 * on the wire (money in centavos), the entities it touches, its label and group, and its effect on
 * the phone's projections. The outbox, the batch endpoint, the rescue export and import, the device
 * report and the sync panel all loop over OPERACOES; the server adds only the function that runs
 * each kind (server/src/sync/execucoes.ts) and the client only how its queued data becomes this
 * (client/src/offline/operacoes.ts). A missing piece on either side is a compile error.
 *
 * No zod here: the employee's first screen loads this. The schemas that check each kind's data on
 * the server are in ./esquemas.ts, typed against DadosOperacao.
 */

/** Every kind of offline write. The names are the ones older queues and rescue files already hold. */
export const TIPOS_OPERACAO = [
  'venda.salvar',
  'visita.registrar',
  'visita.desfazer',
  'rota.finalizar',
  'despesa.criar',
  'despesa.editar',
  'despesa.excluir',
  'despesa.corrigir',
] as const;
export type TipoOperacao = (typeof TIPOS_OPERACAO)[number];

/** Integer centavos. */
type Centavos = number;

/**
 * Receipts of one expense (up to 5, e.g. the NFC-e and the card slip), each under
 * CUPOM_TAMANHO_MAXIMO. The same limit on the phone (the form, the outbox) and on the server.
 */
export const MAXIMO_CUPONS_POR_DESPESA = 5;
export const MENSAGEM_CUPONS_DEMAIS = `Uma despesa pode ter no máximo ${MAXIMO_CUPONS_POR_DESPESA} comprovantes. Remova algum antes de adicionar outro.`;

/**
 * The typed seam of an offline write's files: in a multipart batch each receipt of an operation is a
 * part named `arquivo:<id da operação>`, in the order they were attached (older apps sent one); a
 * batch naming receipts already uploaded in parts gives, per operation, one reference or a list of them.
 */
export const campoArquivoDaOperacao = (operacaoId: string) => `arquivo:${operacaoId}`;
export interface ReferenciaEnvio {
  /** The upload's id (the phone's local file id). */
  id: string;
  /** The file's name on the phone. */
  nome: string;
}
export type ReferenciasEnvios = Record<string, ReferenciaEnvio | ReferenciaEnvio[]>;

/** A city's closing of a date; the same record is written again to change it. */
export interface DadosSalvarVenda {
  id: string;
  rota_id: number;
  cidade_id: number;
  data_venda: string;
  valor_dinheiro: Centavos;
  valor_pix: Centavos;
  valor_cartao: Centavos;
  valor_link: Centavos;
  /** A count, never money. */
  valor_boletos: number;
  observacoes: string;
  /** When the device recorded it: information only, it decides nothing on the server. */
  registrado_em?: string | undefined;
  /** The server version this write was based on (null: a new closing, or one this device wrote last). */
  versao_base?: number | null | undefined;
}

export interface DadosRegistrarVisita {
  id: string;
  rota_id: number;
  cidade_id: number;
  data: string;
  registrado_em?: string | undefined;
}

/** The 'Desfazer' of a visit the server already has: the city back to open on that date. */
export interface DadosDesfazerVisita {
  /** The operation's own id (a replay is recognised by the batch). */
  id: string;
  rota_id: number;
  cidade_id: number;
  data: string;
}

export interface DadosFinalizarRota {
  rota_id: number;
}

export interface DadosCamposDespesa {
  rota_id: number;
  cidade_id: number;
  data_despesa: string;
  tipo: string;
  tipo_outro: string;
  valor: Centavos;
  descricao: string;
  /** The NFC-e's chave: absent keeps the stored one, null removes it. */
  chave_nfce?: string | null | undefined;
}

export interface DadosCriarDespesa extends DadosCamposDespesa {
  id: string;
  registrado_em?: string | undefined;
}

export interface DadosEditarDespesa extends DadosCamposDespesa {
  id: string;
  /** Removes the stored receipt (when no new one is sent). Older apps' edits only: a file they send replaces every receipt. */
  excluir_cupom?: boolean | undefined;
  /**
   * The receipts to remove, by id; the files sent are added. Present (even empty)
   * in every edit of this version: absent means an older app's edit (its file replaces the receipts).
   */
  remover_cupons?: number[] | undefined;
}

/**
 * A rejected expense corrected and sent again by its owner (it goes back to Pendente). Its own kind,
 * not an edit: an edit queued while the phone still saw 'Pendente' must not silently resubmit an
 * expense the admin rejected meanwhile (docs/decisions/despesas-e-saldo.md, 'Rejeitada: corrigir e reenviar').
 */
export type DadosCorrigirDespesa = DadosEditarDespesa;

export interface DadosExcluirDespesa {
  id: string;
  /** The expense's route, so a refused delete holds back the route's finishing. */
  rota_id?: number | undefined;
}

export interface DadosOperacao {
  'venda.salvar': DadosSalvarVenda;
  'visita.registrar': DadosRegistrarVisita;
  'visita.desfazer': DadosDesfazerVisita;
  'rota.finalizar': DadosFinalizarRota;
  'despesa.criar': DadosCriarDespesa;
  'despesa.editar': DadosEditarDespesa;
  'despesa.excluir': DadosExcluirDespesa;
  'despesa.corrigir': DadosCorrigirDespesa;
}

/** One operation as it travels in a batch or a rescue file. */
export type OperacaoSync = { [T in TipoOperacao]: { id: string; tipo: T; seq: number; dados: DadosOperacao[T] } }[TipoOperacao];

/** The device report's counters ('Pendências nos celulares'). */
export type GrupoOperacao = 'vendas' | 'visitas' | 'despesas' | 'rotas';

/** What a queued write changes in what the phone shows before the server confirms it. */
export interface EfeitoOperacao {
  /** Change to the employee's balance, in centavos (an expense debits; its delete gives back). */
  saldo?: Centavos;
  /** The day's status of a city: a closing sells it, a visit marks it visited. */
  dia?: { rota_id: number; cidade_id: number; data: string; situacao: 'vendida' | 'visitada' };
  /** The route is finished. */
  rotaFinalizada?: number;
}

export interface DefinicaoOperacao<T extends TipoOperacao> {
  tipo: T;
  /** What the sync panel and the rescue preview call this kind. */
  rotulo: string;
  grupo: GrupoOperacao;
  /** Entities it touches: a later write on a refused entity waits for it. */
  chaves(dados: DadosOperacao[T]): string[];
  /** The route it writes to, if any: a refused write holds back that route's finishing. */
  rota(dados: DadosOperacao[T]): number | null;
  /** Carries receipt files (sent beside the batch's JSON, up to MAXIMO_CUPONS_POR_DESPESA). */
  comArquivo: boolean;
  /** Finishes its route: waits for every earlier write of that route. */
  finalizaRota: boolean;
  /**
   * Effect on the phone's projections. `anterior` is what the phone knew of the record before
   * (an expense's previous value), when the kind needs it.
   */
  efeito(dados: DadosOperacao[T], anterior?: { valor?: Centavos }): EfeitoOperacao;
}

export const chaveDoDia = (rotaId: number, cidadeId: number, data: string) => `venda:${rotaId}:${cidadeId}:${data}`;
export const chaveDaDespesa = (id: string) => `despesa:${id}`;
export const chaveDaRota = (rotaId: number) => `rota:${rotaId}`;

/**
 * An edit and a correction of a rejected expense travel alike and move the balance alike: only a
 * changed value moves it, by the difference (a rejected expense is still debited).
 */
function regravacaoDeDespesa<T extends 'despesa.editar' | 'despesa.corrigir'>(tipo: T, rotulo: string): DefinicaoOperacao<T> {
  return {
    tipo,
    rotulo,
    grupo: 'despesas',
    chaves: (d) => [chaveDaDespesa(d.id)],
    rota: (d) => d.rota_id,
    comArquivo: true,
    finalizaRota: false,
    efeito: (d, anterior) => ({ saldo: (anterior?.valor ?? d.valor) - d.valor }),
  };
}

export const OPERACOES: { [T in TipoOperacao]: DefinicaoOperacao<T> } = {
  'venda.salvar': {
    tipo: 'venda.salvar',
    rotulo: 'Fechamento do dia',
    grupo: 'vendas',
    chaves: (d) => [chaveDoDia(d.rota_id, d.cidade_id, d.data_venda)],
    rota: (d) => d.rota_id,
    comArquivo: false,
    finalizaRota: false,
    efeito: (d) => ({ dia: { rota_id: d.rota_id, cidade_id: d.cidade_id, data: d.data_venda, situacao: 'vendida' } }),
  },
  'visita.registrar': {
    tipo: 'visita.registrar',
    rotulo: 'Visita sem venda',
    grupo: 'visitas',
    chaves: (d) => [chaveDoDia(d.rota_id, d.cidade_id, d.data)],
    rota: (d) => d.rota_id,
    comArquivo: false,
    finalizaRota: false,
    efeito: (d) => ({ dia: { rota_id: d.rota_id, cidade_id: d.cidade_id, data: d.data, situacao: 'visitada' } }),
  },
  'visita.desfazer': {
    tipo: 'visita.desfazer',
    rotulo: 'Visita desfeita',
    grupo: 'visitas',
    // The same day's key as the visit: it goes after the visit it undoes, and waits if that one was refused.
    chaves: (d) => [chaveDoDia(d.rota_id, d.cidade_id, d.data)],
    rota: (d) => d.rota_id,
    comArquivo: false,
    finalizaRota: false,
    efeito: () => ({}),
  },
  'rota.finalizar': {
    tipo: 'rota.finalizar',
    rotulo: 'Finalização de rota',
    grupo: 'rotas',
    chaves: (d) => [chaveDaRota(d.rota_id)],
    rota: (d) => d.rota_id,
    comArquivo: false,
    finalizaRota: true,
    efeito: (d) => ({ rotaFinalizada: d.rota_id }),
  },
  'despesa.criar': {
    tipo: 'despesa.criar',
    rotulo: 'Nova despesa',
    grupo: 'despesas',
    chaves: (d) => [chaveDaDespesa(d.id)],
    rota: (d) => d.rota_id,
    comArquivo: true,
    finalizaRota: false,
    efeito: (d) => ({ saldo: -d.valor }),
  },
  'despesa.editar': regravacaoDeDespesa('despesa.editar', 'Alteração de despesa'),
  'despesa.excluir': {
    tipo: 'despesa.excluir',
    rotulo: 'Exclusão de despesa',
    grupo: 'despesas',
    chaves: (d) => [chaveDaDespesa(d.id)],
    rota: (d) => d.rota_id ?? null,
    comArquivo: false,
    finalizaRota: false,
    efeito: (_d, anterior) => ({ saldo: anterior?.valor ?? 0 }),
  },
  'despesa.corrigir': regravacaoDeDespesa('despesa.corrigir', 'Correção de despesa rejeitada'),
};

/**
 * A batch's answer for a write that reached a route its employee had finished (on another phone): status 202
 * with this situacao. The server keeps it for the admin to accept or refuse; it is not applied.
 */
export const SITUACAO_CHEGOU_DEPOIS = 'chegou_depois_da_finalizacao';
export const MENSAGEM_CHEGOU_DEPOIS = 'Chegou depois da finalização da rota: aguardando a decisão do administrador.';

export function ehTipoOperacao(valor: unknown): valor is TipoOperacao {
  return typeof valor === 'string' && (TIPOS_OPERACAO as readonly string[]).includes(valor);
}

/**
 * Which held keys make an operation wait, and which keys it holds when refused or held. Entities
 * hold each other; a route's finishing also waits for every earlier write of that route, without
 * those writes waiting for each other (and without carrying their keys: no limit grows with the
 * number of writes queued on a route).
 */
export function retencaoDe(op: { tipo: TipoOperacao; dados: unknown }): { espera: string[]; retem: string[] } {
  const def = OPERACOES[op.tipo] as DefinicaoOperacao<TipoOperacao>;
  const chaves = def.chaves(op.dados as never);
  const rota = def.rota(op.dados as never);
  const daRota = rota === null ? [] : [`fim-da-rota:${rota}`];
  return def.finalizaRota ? { espera: [...chaves, ...daRota], retem: chaves } : { espera: chaves, retem: [...chaves, ...daRota] };
}

/**
 * Keeps an order's holds (client's batch, server's batch, one-per-request transport): `retida` says
 * whether an operation waits behind an earlier refusal, `reter` records a refused or held one.
 */
export class Retencoes {
  private readonly retidas = new Set<string>();

  retida(r: { espera: string[] }): boolean {
    return r.espera.some((c) => this.retidas.has(c));
  }

  reter(r: { retem: string[] }): void {
    for (const c of r.retem) this.retidas.add(c);
  }
}
