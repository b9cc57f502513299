/**
 * What the employee's screen shows for each city on a date: the server's answer (possibly from the
 * device's cache) with this device's own writes laid over it — queued, refused, or just sent and not
 * yet seen in a fresh answer. Pure, so the rules are tested without a browser.
 *
 * The overlay follows the server's rule (last write wins by the time the device recorded it): a local
 * sale covers the server's only when it was recorded later. So a sent write stays harmless once the
 * fresh answer contains it, and a newer closing from another device is never hidden.
 */
import { centavosParaReais, somarCentavos } from '../../../shared/money';
import { normalizarBusca } from '../../../shared/texto';
import type { CidadeStatus } from '../../../shared/schemas/rotas';
import { HISTORICO_POR_CIDADE } from '../../../shared/historicoDeVendas';
import type { VendaHistorico, VendaListada } from '../../../shared/schemas/vendas';
import type { EscritaLocal } from '../offline/escritas';
import { chaveDoDia, dadosDesfazerVisitaSchema, dadosVendaSchema, dadosVisitaSchema, OPERACAO_DESFAZER_VISITA, OPERACAO_REGISTRAR_VISITA, OPERACAO_SALVAR_VENDA } from './fila';

/** A write of this device: still queued ('pendente'), refused ('erro'), or confirmed a moment ago ('enviado'). */
export type ItemLocal = EscritaLocal;

/** A city's closing as the screen shows it: amounts in reais, as the server's listing gives them. */
export interface VendaDoDia extends Pick<VendaListada, 'valor_dinheiro' | 'valor_pix' | 'valor_cartao' | 'valor_link' | 'valor_boletos' | 'observacoes'> {
  id: string;
  /** dinheiro + pix + cartão + link, in reais (boletos are a count). */
  total: number;
  registrado_em: string;
  /** The server's version the person's next edit is based on (null: a closing only this device has). */
  versao: number | null;
}

export type SituacaoEnvio =
  | { estado: 'servidor'; recebidoEm: string | null }
  | { estado: 'enviado'; recebidoEm: string | null }
  | { estado: 'pendente' }
  | { estado: 'erro'; erro: string };

export interface EntradaHistorico {
  data_venda: string;
  total_vendas: number;
  /** Still only on this device. */
  local: boolean;
}

export interface CidadeDoDia {
  cidade_id: number;
  cidade_nome: string;
  uf: string;
  venda: VendaDoDia | null;
  visitada: boolean;
  /** Closed: a closing or a visit on the date (spec section 4). */
  fechada: boolean;
  /** Closed with nothing sold: 'Visitada (sem venda)'. */
  semVenda: boolean;
  /** Where the day's record stands; null while the city is open. */
  envio: SituacaoEnvio | null;
  historico: EntradaHistorico[];
}

export interface BaseDoDia {
  rotaId: number;
  data: string;
  cidades: { cidade_id: number; cidade_nome: string; uf: string }[];
  /** The day's status from the server; null when unknown (offline, never loaded). */
  status: CidadeStatus[] | null;
  /** The route's sales of the date. */
  vendas: VendaListada[];
  historico: VendaHistorico[];
}

/** Something was sold (an amount, boletos) or noted: a closing and not only a visit (spec section 5). */
export function temConteudo(v: Pick<VendaDoDia, 'valor_dinheiro' | 'valor_pix' | 'valor_cartao' | 'valor_link' | 'valor_boletos' | 'observacoes'>): boolean {
  return v.valor_dinheiro > 0 || v.valor_pix > 0 || v.valor_cartao > 0 || v.valor_link > 0 || v.valor_boletos > 0 || v.observacoes.trim() !== '';
}

function situacaoLocal(item: ItemLocal): SituacaoEnvio {
  if (item.estado === 'erro') return { estado: 'erro', erro: item.erro ?? 'O servidor recusou este registro.' };
  if (item.estado === 'enviado') return { estado: 'enviado', recebidoEm: item.recebidoEm ?? null };
  return { estado: 'pendente' };
}

/**
 * `visitasRecebidas`: when the server took each visit this device sent, by the day's key (chaveDoDia).
 * The day's status says only that a city was visited; this gives a visit without sale its
 * 'Recebido pelo servidor às …' like a sale's, also after the screen is opened again.
 */
export function montarDia(base: BaseDoDia, itens: ItemLocal[], visitasRecebidas: ReadonlyMap<string, string> = new Map()): CidadeDoDia[] {
  const porCidade = new Map<number, CidadeDoDia>();
  const statusPorCidade = new Map((base.status ?? []).map((s) => [s.cidade_id, s]));
  for (const c of base.cidades) {
    const v = base.vendas.find((x) => x.cidade_id === c.cidade_id && x.data_venda === base.data);
    const venda: VendaDoDia | null = v
      ? {
          id: v.id,
          valor_dinheiro: v.valor_dinheiro,
          valor_pix: v.valor_pix,
          valor_cartao: v.valor_cartao,
          valor_link: v.valor_link,
          valor_boletos: v.valor_boletos,
          observacoes: v.observacoes,
          total: v.total_vendas,
          registrado_em: v.registrado_em,
          versao: v.versao ?? null,
        }
      : null;
    const visitada = !!venda || !!statusPorCidade.get(c.cidade_id)?.visitada;
    porCidade.set(c.cidade_id, {
      ...c,
      venda,
      visitada,
      fechada: visitada,
      semVenda: false,
      envio: v ? { estado: 'servidor', recebidoEm: v.atualizado_em } : null,
      historico: [],
    });
  }

  // Past closings per city and date, then the local ones recorded later than the server's.
  const historico = new Map<number, Map<string, EntradaHistorico & { registrado_em: string }>>();
  const doHistorico = (cidadeId: number) => {
    let m = historico.get(cidadeId);
    if (!m) historico.set(cidadeId, (m = new Map()));
    return m;
  };
  for (const h of base.historico) doHistorico(h.cidade_id).set(h.data_venda, { data_venda: h.data_venda, total_vendas: h.total_vendas, local: false, registrado_em: h.registrado_em });

  for (const item of itens) {
    if (item.tipo === OPERACAO_SALVAR_VENDA) {
      const d = dadosVendaSchema.safeParse(item.dados).data;
      if (!d || d.rota_id !== base.rotaId) continue;
      // The queue keeps centavos; the screen's closing is in reais, as the server's listing gives it.
      const total = centavosParaReais(somarCentavos([d.valor_dinheiro, d.valor_pix, d.valor_cartao, d.valor_link]));
      const entradas = doHistorico(d.cidade_id);
      const anterior = entradas.get(d.data_venda);
      if (!anterior || d.registrado_em > anterior.registrado_em) {
        entradas.set(d.data_venda, { data_venda: d.data_venda, total_vendas: total, local: item.estado !== 'enviado', registrado_em: d.registrado_em });
      }
      const cidade = porCidade.get(d.cidade_id);
      if (!cidade || d.data_venda !== base.data) continue;
      // A write still in the queue is newer than the server's copy in this device's order, whatever
      // the phone's clock says; one already confirmed shows only if the copy predates it.
      const naFila = item.estado !== 'enviado';
      if (cidade.venda && !naFila && d.registrado_em <= cidade.venda.registrado_em) continue;
      const { id, valor_boletos, observacoes, registrado_em } = d;
      // Another device's id may already be the server's: the record stays the server's one.
      const versao = d.versao_base ?? cidade.venda?.versao ?? null;
      cidade.venda = {
        id: cidade.venda?.id ?? id,
        valor_dinheiro: centavosParaReais(d.valor_dinheiro),
        valor_pix: centavosParaReais(d.valor_pix),
        valor_cartao: centavosParaReais(d.valor_cartao),
        valor_link: centavosParaReais(d.valor_link),
        valor_boletos,
        observacoes,
        total,
        registrado_em,
        versao,
      };
      cidade.visitada = true;
      cidade.envio = situacaoLocal(item);
    } else if (item.tipo === OPERACAO_REGISTRAR_VISITA) {
      const d = dadosVisitaSchema.safeParse(item.dados).data;
      if (!d || d.rota_id !== base.rotaId || d.data !== base.data) continue;
      const cidade = porCidade.get(d.cidade_id);
      if (!cidade) continue;
      cidade.visitada = true;
      // A refused visit must show; otherwise a sale's state says more than its visit's.
      if (item.estado === 'erro') {
        if (cidade.envio?.estado !== 'erro') cidade.envio = situacaoLocal(item);
      } else if (!cidade.venda && (!cidade.envio || cidade.envio.estado === 'servidor')) {
        cidade.envio = situacaoLocal(item);
      }
    } else if (item.tipo === OPERACAO_DESFAZER_VISITA) {
      // The visit undone (queued or just confirmed): open again, unless the day has a closing.
      const d = dadosDesfazerVisitaSchema.safeParse(item.dados).data;
      if (!d || d.rota_id !== base.rotaId || d.data !== base.data) continue;
      const cidade = porCidade.get(d.cidade_id);
      if (!cidade || cidade.venda) continue;
      cidade.visitada = false;
      cidade.envio = null;
    }
  }

  for (const cidade of porCidade.values()) {
    cidade.fechada = cidade.visitada || !!cidade.venda;
    cidade.semVenda = cidade.fechada && !(cidade.venda && temConteudo(cidade.venda));
    if (cidade.fechada && !cidade.envio) cidade.envio = { estado: 'servidor', recebidoEm: null };
    if (!cidade.venda && cidade.envio?.estado === 'servidor' && cidade.envio.recebidoEm === null) {
      cidade.envio = { estado: 'servidor', recebidoEm: visitasRecebidas.get(chaveDoDia(base.rotaId, cidade.cidade_id, base.data)) ?? null };
    }
    cidade.historico = [...(historico.get(cidade.cidade_id)?.values() ?? [])]
      .sort((a, b) => (a.data_venda < b.data_venda ? 1 : -1))
      .slice(0, HISTORICO_POR_CIDADE)
      .map(({ data_venda, total_vendas, local }) => ({ data_venda, total_vendas, local }));
  }
  return [...porCidade.values()];
}

export type AbaCidades = 'abertas' | 'fechadas';

export function cidadesDaAba(cidades: CidadeDoDia[], aba: AbaCidades): CidadeDoDia[] {
  return cidades.filter((c) => (aba === 'fechadas' ? c.fechada : !c.fechada));
}

/** 'Buscar cidade...': by name or uf, ignoring case and accents ('goiania' finds 'Goiânia'). */
export function buscarCidades(cidades: CidadeDoDia[], termo: string): CidadeDoDia[] {
  const t = normalizarBusca(termo);
  if (!t) return cidades;
  return cidades.filter((c) => normalizarBusca(`${c.cidade_nome} ${c.uf}`).includes(t));
}

export const CARTOES_POR_PAGINA = 12;
/** At 600 px or less (spec section 9). */
export const CARTOES_POR_PAGINA_CELULAR = 10;

export function paginar<T>(lista: T[], pagina: number, porPagina: number): { itens: T[]; pagina: number; totalPaginas: number } {
  const totalPaginas = Math.max(1, Math.ceil(lista.length / porPagina));
  const atual = Math.min(Math.max(1, pagina), totalPaginas);
  return { itens: lista.slice((atual - 1) * porPagina, atual * porPagina), pagina: atual, totalPaginas };
}
