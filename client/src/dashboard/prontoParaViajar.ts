/**
 * 'Pronto para viajar': what this phone holds for a day without signal, as a checklist.
 * Pure: it reads a snapshot of the device (which copies exist and when they came from the server,
 * the storage, the queue) and says, item by item, ok / preparando / aviso / falta in pt-BR. The card
 * and the device reading live in CartaoProntoParaViajar.tsx and dadosDaViagem.ts.
 *
 * An alarm only for what the app cannot fix by itself. With signal the app fetches every
 * copy on its own (preparo.ts), so a missing or old copy then reads 'preparando', never 'falta';
 * waiting items go by themselves, so only a refused or stuck queue is an alarm.
 */
import { formatarBytes } from '../pwa/armazenamento';

export type EstadoItemViagem = 'ok' | 'preparando' | 'aviso' | 'falta';

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
  /** `travados`: waiting items the server failed several times in a row (the queue is not moving). */
  fila: { aguardando: number; recusados: number; travados?: number };
}

/** What the app can do about a missing or old copy right now. */
export interface ContextoViagem {
  /** The server is reachable: the app fetches the copies by itself. */
  comSinal: boolean;
  /** The app is fetching them now. */
  preparando: boolean;
}

/** Without saying: no signal (every missing copy is the person's to fix, with signal). */
const SEM_SINAL: ContextoViagem = { comSinal: false, preparando: false };

/** Failed attempts in a row after which a waiting item means the queue is stuck. */
export const TENTATIVAS_FILA_TRAVADA = 3;

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
  contexto: ContextoViagem,
): ItemViagem {
  const incompleto = !principal || complementos.some((c) => !c.copia) || copiasAntigas(principal, complementos, agora);
  // With signal the app fetches it by itself: not the person's problem.
  if (incompleto && contexto.comSinal) {
    return contexto.preparando
      ? { id, estado: 'preparando', titulo, detalhe: 'Baixando agora...' }
      : { id, estado: 'aviso', titulo, detalhe: 'Não veio na última tentativa: o app tenta de novo sozinho, ou toque em Atualizar tudo.' };
  }
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

function copiasAntigas(principal: Copia | null, complementos: { copia: Copia | null }[], agora: number): boolean {
  return [principal, ...complementos.map((c) => c.copia)].some((c) => c !== null && agora - Date.parse(c.atualizadoEm) > VALIDADE_COPIA_MS);
}

function itemRota(r: RetratoAparelho, agora: number, contexto: ContextoViagem): ItemViagem {
  if (r.rotas && !r.rotas.ativa) {
    return { id: 'rota', estado: 'falta', titulo: 'Nenhuma rota ativa', detalhe: 'Quando o administrador criar sua rota, atualize com sinal.' };
  }
  const titulo = r.rotas?.ativa ? `Rota ativa e ${plural(r.rotas.ativa.cidades, 'cidade', 'cidades')}` : 'Rota ativa e cidades';
  return itemDeCopias('rota', titulo, r.rotas, [{ copia: r.finalizadas, falta: 'faltam as rotas concluídas' }], agora, contexto);
}

/** Items that hang on the route: without it on the device they cannot be there either. */
function dependeDaRota(r: RetratoAparelho, id: IdItemViagem, titulo: string, montar: () => ItemViagem, agora: number, contexto: ContextoViagem): ItemViagem {
  if (r.rotas?.ativa) return montar();
  // The route itself is on its way: so are these.
  if (!r.rotas && contexto.comSinal) return itemDeCopias(id, titulo, null, [], agora, contexto);
  return { id, estado: 'falta', titulo, detalhe: 'Depende da rota ativa.' };
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

function itemFila({ aguardando, recusados, travados = 0 }: RetratoAparelho['fila']): ItemViagem {
  const partes = [
    aguardando > 0 && `${plural(aguardando, 'item', 'itens')} aguardando envio`,
    recusados > 0 && `${plural(recusados, 'item precisa', 'itens precisam')} de atenção`,
  ].filter(Boolean);
  if (partes.length === 0) return { id: 'fila', estado: 'ok', titulo: 'Fila vazia', detalhe: 'Tudo o que você registrou já chegou ao servidor.' };
  // Refused items need the person; a queue the server keeps failing is worth a look; waiting ones
  // are safe on the phone and go by themselves with the signal.
  if (recusados > 0) return { id: 'fila', estado: 'falta', titulo: partes.join(', '), detalhe: 'Abra a sincronização para corrigir ou descartar.' };
  if (travados > 0) {
    return { id: 'fila', estado: 'aviso', titulo: partes.join(', '), detalhe: 'O servidor não está aceitando o envio: abra a sincronização para ver o motivo.' };
  }
  return { id: 'fila', estado: 'ok', titulo: partes.join(', '), detalhe: 'Estão guardados neste aparelho e vão sozinhos quando houver sinal.' };
}

/** The checklist, in the order the card shows it. `agora`: epoch ms. */
export function montarChecklist(r: RetratoAparelho, agora: number, contexto: ContextoViagem = SEM_SINAL): ItemViagem[] {
  return [
    itemRota(r, agora, contexto),
    dependeDaRota(
      r,
      'vendas',
      'Vendas recentes',
      () => itemDeCopias('vendas', 'Vendas recentes', r.historico, [{ copia: r.diaDeHoje, falta: 'falta o dia de hoje' }], agora, contexto),
      agora,
      contexto,
    ),
    itemDeCopias('despesas', 'Suas despesas', r.despesas, [], agora, contexto),
    itemDeCopias('saldo', 'Saldo', r.saldo, [], agora, contexto),
    dependeDaRota(r, 'salario', 'Salário estimado', () => itemDeCopias('salario', 'Salário estimado', r.salario, [], agora, contexto), agora, contexto),
    itemPersistente(r.persistente),
    itemEspaco(r.livreBytes),
    itemFila(r.fila),
  ];
}

export interface ResumoViagem {
  pronto: boolean;
  faltam: number;
  avisos: number;
  /** Copies the app is fetching by itself now. */
  preparando: number;
  texto: string;
}

/** The card's one line: ready, 'Faltam 2 itens', only warnings left to check, or the app at work. */
export function resumirChecklist(itens: ItemViagem[]): ResumoViagem {
  const faltam = itens.filter((i) => i.estado === 'falta').length;
  const avisos = itens.filter((i) => i.estado === 'aviso').length;
  const preparando = itens.filter((i) => i.estado === 'preparando').length;
  let texto = 'Tudo pronto para trabalhar sem sinal';
  if (faltam > 0) {
    texto = faltam === 1 ? 'Falta 1 item' : `Faltam ${faltam} itens`;
    if (avisos > 0) texto += ` e ${plural(avisos, 'item', 'itens')} para conferir`;
  } else if (preparando > 0) {
    texto = 'Preparando o aparelho para trabalhar sem sinal';
  } else if (avisos > 0) {
    texto = `Quase pronto: ${plural(avisos, 'item', 'itens')} para conferir`;
  }
  return { pronto: faltam === 0 && avisos === 0 && preparando === 0, faltam, avisos, preparando, texto };
}
