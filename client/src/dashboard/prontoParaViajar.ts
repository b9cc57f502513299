/**
 * 'Pronto para viajar' (issue 11): what this phone holds for a day without signal, as a checklist.
 * Pure: it reads a snapshot of the device (which copies exist and when they came from the server,
 * the storage, the queue) and says, item by item, ok / aviso / falta in pt-BR. The card and the
 * device reading live in CartaoProntoParaViajar.tsx and dadosDaViagem.ts.
 */
import { formatarBytes } from '../pwa/armazenamento';

export type EstadoItemViagem = 'ok' | 'aviso' | 'falta';

export type IdItemViagem = 'rota' | 'vendas' | 'despesas' | 'saldo' | 'salario' | 'persistente' | 'espaco' | 'fila';

export interface ItemViagem {
  id: IdItemViagem;
  estado: EstadoItemViagem;
  /** The line itself ('Rota ativa e 12 cidades', 'Fila vazia'). */
  titulo: string;
  /** How old the copy is, or what to do ('atualizado há 5 minutos', 'Abra com sinal...'); '' when the line says it all. */
  detalhe: string;
}

/** A copy of a screen's data kept on the device: when it came from the server (ISO). */
export interface Copia {
  atualizadoEm: string;
}

export interface RetratoAparelho {
  /** The employee's route list (`rotas:ativas:<id>`): null when the device has no copy. */
  rotas: (Copia & { ativa: { nome: string; cidades: number } | null }) | null;
  /** Finished routes (Minhas Rotas and the dashboard's 'Rotas Concluídas'). */
  finalizadas: Copia | null;
  /** The route's sales history (Vendas). */
  historico: Copia | null;
  /** Today's city status and closings (Vendas on today's date). */
  diaDeHoje: Copia | null;
  /** The first page of the employee's expenses, as Despesas opens. */
  despesas: Copia | null;
  saldo: Copia | null;
  /** The base of the estimated salary (dashboard). */
  salario: Copia | null;
  /** navigator.storage.persisted(); null when the browser cannot say. */
  persistente: boolean | null;
  /** navigator.storage.estimate(): quota − usage; null when the browser cannot say. */
  livreBytes: number | null;
  fila: { aguardando: number; recusados: number };
}

/** A copy older than this is a warning: it may miss what the office changed since. */
export const VALIDADE_COPIA_MS = 24 * 60 * 60 * 1000;
const MB = 1024 * 1024;
/** Below this the app's room is a warning (receipt photos, a long day's queue)... */
export const ESPACO_AVISO_BYTES = 200 * MB;
/** ...and below this it is missing: a few receipts may not fit. */
export const ESPACO_FALTA_BYTES = 20 * MB;

const plural = (n: number, um: string, varios: string) => `${n} ${n === 1 ? um : varios}`;

/** 'agora mesmo', 'há 5 minutos', 'há 1 hora', 'há 3 dias' (a clock behind the copy reads as now). */
export function formatarIdade(atualizadoEm: string, agora: number): string {
  const ms = Math.max(0, agora - Date.parse(atualizadoEm));
  const minutos = Math.floor(ms / 60_000);
  if (minutos < 1) return 'agora mesmo';
  if (minutos < 60) return `há ${plural(minutos, 'minuto', 'minutos')}`;
  const horas = Math.floor(minutos / 60);
  if (horas < 24) return `há ${plural(horas, 'hora', 'horas')}`;
  return `há ${plural(Math.floor(horas / 24), 'dia', 'dias')}`;
}

const ABRA_COM_SINAL = 'Não está neste aparelho: toque em Atualizar tudo com sinal.';

/**
 * One line built from the copies a screen needs: `principal` missing is 'falta'; a missing
 * `complementos` entry or any copy older than VALIDADE_COPIA_MS is 'aviso'; the age shown is the
 * oldest copy's (what the screen would show offline).
 */
function itemDeCopias(
  id: IdItemViagem,
  titulo: string,
  principal: Copia | null,
  complementos: { copia: Copia | null; falta: string }[],
  agora: number,
): ItemViagem {
  if (!principal) return { id, estado: 'falta', titulo, detalhe: ABRA_COM_SINAL };
  const copias = [principal, ...complementos.flatMap((c) => (c.copia ? [c.copia] : []))];
  const maisAntiga = copias.reduce((a, b) => (Date.parse(b.atualizadoEm) < Date.parse(a.atualizadoEm) ? b : a));
  const idade = `atualizado ${formatarIdade(maisAntiga.atualizadoEm, agora)}`;
  const faltando = complementos.find((c) => !c.copia);
  if (faltando) return { id, estado: 'aviso', titulo, detalhe: `${idade}; ${faltando.falta}` };
  if (agora - Date.parse(maisAntiga.atualizadoEm) > VALIDADE_COPIA_MS) {
    return { id, estado: 'aviso', titulo, detalhe: `${idade}: cópia antiga, atualize com sinal` };
  }
  return { id, estado: 'ok', titulo, detalhe: idade };
}

function itemRota(r: RetratoAparelho, agora: number): ItemViagem {
  if (r.rotas && !r.rotas.ativa) {
    return { id: 'rota', estado: 'falta', titulo: 'Nenhuma rota ativa', detalhe: 'Quando o administrador criar sua rota, atualize com sinal.' };
  }
  const titulo = r.rotas?.ativa ? `Rota ativa e ${plural(r.rotas.ativa.cidades, 'cidade', 'cidades')}` : 'Rota ativa e cidades';
  return itemDeCopias('rota', titulo, r.rotas, [{ copia: r.finalizadas, falta: 'faltam as rotas concluídas' }], agora);
}

/** Items that hang on the route: without it on the device they cannot be there either. */
function dependeDaRota(r: RetratoAparelho, id: IdItemViagem, titulo: string, montar: () => ItemViagem): ItemViagem {
  return r.rotas?.ativa ? montar() : { id, estado: 'falta', titulo, detalhe: 'Depende da rota ativa.' };
}

function itemPersistente(persistente: boolean | null): ItemViagem {
  if (persistente) {
    return { id: 'persistente', estado: 'ok', titulo: 'Armazenamento persistente concedido', detalhe: '' };
  }
  return {
    id: 'persistente',
    estado: 'aviso',
    titulo: persistente === null ? 'Armazenamento persistente: o navegador não informa' : 'Armazenamento persistente não concedido',
    detalhe: 'Com o celular sem espaço, o navegador pode apagar os dados do app. Atualizar tudo pede de novo.',
  };
}

function itemEspaco(livre: number | null): ItemViagem {
  if (livre === null) return { id: 'espaco', estado: 'aviso', titulo: 'Espaço livre: não foi possível medir', detalhe: 'Este navegador não informa o espaço.' };
  const quanto = formatarBytes(Math.max(0, livre));
  if (livre < ESPACO_FALTA_BYTES) {
    return { id: 'espaco', estado: 'falta', titulo: `Quase sem espaço: ${quanto} livres`, detalhe: 'Libere espaço no celular: fotos de comprovantes podem não caber.' };
  }
  if (livre < ESPACO_AVISO_BYTES) {
    return { id: 'espaco', estado: 'aviso', titulo: `Pouco espaço livre: ${quanto}`, detalhe: 'Libere espaço no celular antes de viajar.' };
  }
  return { id: 'espaco', estado: 'ok', titulo: `Espaço livre: ${quanto}`, detalhe: '' };
}

function itemFila({ aguardando, recusados }: RetratoAparelho['fila']): ItemViagem {
  const partes = [
    aguardando > 0 && `${plural(aguardando, 'item', 'itens')} aguardando envio`,
    recusados > 0 && `${plural(recusados, 'item precisa', 'itens precisam')} de atenção`,
  ].filter(Boolean);
  if (partes.length === 0) return { id: 'fila', estado: 'ok', titulo: 'Fila vazia', detalhe: 'Tudo o que você registrou já chegou ao servidor.' };
  // Refused items need the person; waiting ones are safe on the phone and go with the signal.
  return recusados > 0
    ? { id: 'fila', estado: 'falta', titulo: partes.join(', '), detalhe: 'Abra a sincronização para corrigir ou descartar.' }
    : { id: 'fila', estado: 'aviso', titulo: partes.join(', '), detalhe: 'Estão guardados neste aparelho e vão quando houver sinal.' };
}

/** The checklist, in the order the card shows it. `agora`: epoch ms. */
export function montarChecklist(r: RetratoAparelho, agora: number): ItemViagem[] {
  return [
    itemRota(r, agora),
    dependeDaRota(r, 'vendas', 'Vendas recentes', () =>
      itemDeCopias('vendas', 'Vendas recentes', r.historico, [{ copia: r.diaDeHoje, falta: 'falta o dia de hoje' }], agora),
    ),
    itemDeCopias('despesas', 'Suas despesas', r.despesas, [], agora),
    itemDeCopias('saldo', 'Saldo', r.saldo, [], agora),
    dependeDaRota(r, 'salario', 'Salário estimado', () => itemDeCopias('salario', 'Salário estimado', r.salario, [], agora)),
    itemPersistente(r.persistente),
    itemEspaco(r.livreBytes),
    itemFila(r.fila),
  ];
}

export interface ResumoViagem {
  pronto: boolean;
  faltam: number;
  avisos: number;
  texto: string;
}

/** The card's one line: ready, 'Faltam 2 itens', or only warnings left to check. */
export function resumirChecklist(itens: ItemViagem[]): ResumoViagem {
  const faltam = itens.filter((i) => i.estado === 'falta').length;
  const avisos = itens.filter((i) => i.estado === 'aviso').length;
  let texto = 'Tudo pronto para trabalhar sem sinal';
  if (faltam > 0) {
    texto = faltam === 1 ? 'Falta 1 item' : `Faltam ${faltam} itens`;
    if (avisos > 0) texto += ` e ${plural(avisos, 'item', 'itens')} para conferir`;
  } else if (avisos > 0) {
    texto = `Quase pronto: ${plural(avisos, 'item', 'itens')} para conferir`;
  }
  return { pronto: faltam === 0 && avisos === 0, faltam, avisos, texto };
}
