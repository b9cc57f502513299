/**
 * The daily meal limit on the phone, before an expense is saved (shared/politicaDespesas.ts holds the
 * rule). The day's meals are what this phone knows of that route and date: the server's copy kept on
 * the device (the day's own copy, read while the form is open with signal; else every kept page of the
 * list), this person's writes laid over it (queued, refused, and confirmed after the copy was read),
 * without the expense being edited, plus the one being saved. Offline it is the same reading: nothing
 * here waits for the network.
 */
import { reaisParaCentavos } from '../../../shared/money';
import { avaliarDia, limiteDiarioCentavos, muitoAcimaDoLimite, somaAlimentacaoDoDia, TIPO_COM_LIMITE, type AvaliacaoDoDia, type DespesaNoLimite } from '../../../shared/politicaDespesas';
import type { Despesa, ListaDespesas } from '../../../shared/schemas/despesas';
import type { TipoDespesa } from '../../../shared/schemas/tiposDespesa';
import { lerTodasAsPaginas } from '../api/paginas';
import { buscarComCache } from '../offline/cache';
import { copiaDoGuardado } from '../offline/copiasSemDexie';
import type { BancoLocal } from '../offline/db';
import { escritasSobreCopia, lerEscritas } from '../offline/escritas';
import { mesclarDespesas, type ItemFilaDespesa } from './fila';

/** The device copy of one route-day's meals (GET /despesas of that route, date and type). */
export const chaveCopiaDoDia = (rotaId: number, data: string) => `despesas:dia:${rotaId}:${data}`;
/** Pages of the list screen (despesas/consultas.ts) also hold the day's meals when they reach that date. */
const PREFIXO_LISTA = 'despesas:lista:';

/** The server rows of a kept copy, each checked: a copy written by another version is not trusted blindly. */
function linhasDaCopia(dados: unknown): Despesa[] {
  const despesas = (dados as Partial<ListaDespesas> | null)?.despesas;
  if (!Array.isArray(despesas)) return [];
  return despesas.filter(
    (d): d is Despesa =>
      typeof d === 'object' &&
      d !== null &&
      typeof d.id === 'string' &&
      typeof d.rota_id === 'number' &&
      typeof d.data_despesa === 'string' &&
      typeof d.tipo === 'string' &&
      typeof d.valor === 'number' &&
      Number.isFinite(d.valor),
  );
}

/**
 * Reads the day's meals from the server into the device copy, while the form is open (signal or not:
 * offline it fails quietly, and the check uses what is kept).
 */
export async function atualizarCopiaDoDia(banco: BancoLocal, usuarioId: number, rotaId: number, data: string): Promise<void> {
  try {
    await buscarComCache(banco, chaveCopiaDoDia(rotaId, data), usuarioId, () =>
      lerTodasAsPaginas<ListaDespesas, 'despesas'>('/despesas', 'despesas', { rota_id: rotaId, data_inicio: data, data_fim: data, tipo: TIPO_COM_LIMITE }),
    );
  } catch {
    // No signal, or the server refused: the kept copies answer the check.
  }
}

/**
 * The server rows this phone keeps for the route-day and the confirmation counter they were read at:
 * the day's own copy when there is one (it holds the whole day), else every kept page of the list
 * (the oldest counter of them, so no confirmed write is left out; laying one twice changes nothing).
 */
async function copiaDoServidor(banco: BancoLocal, usuarioId: number, rotaId: number, data: string): Promise<{ linhas: Despesa[]; confirmacoesAte: number | undefined }> {
  const doDia = copiaDoGuardado<unknown>(await banco.cache.get(chaveCopiaDoDia(rotaId, data)), usuarioId);
  if (doDia) return { linhas: linhasDaCopia(doDia.dados), confirmacoesAte: doDia.confirmacoesAte };
  const paginas = (await banco.cache.where('chave').startsWith(PREFIXO_LISTA).toArray())
    .map((c) => copiaDoGuardado<unknown>(c, usuarioId))
    .filter((c) => c !== null)
    .sort((a, b) => (a.atualizadoEm < b.atualizadoEm ? -1 : 1));
  // One row per id, from the newest page that has it.
  const porId = new Map<string, Despesa>();
  for (const p of paginas) for (const d of linhasDaCopia(p.dados)) if (d.rota_id === rotaId && d.data_despesa === data) porId.set(d.id, d);
  const contadores = paginas.map((p) => p.confirmacoesAte);
  const confirmacoesAte = contadores.length === 0 || contadores.some((c) => c === undefined) ? undefined : Math.min(...(contadores as number[]));
  return { linhas: [...porId.values()], confirmacoesAte };
}

/**
 * The route-day's expenses as the phone knows them (pure): the server rows with the writes laid over
 * them, as the list lays them (edits replace, deletes remove, queued creates are added), without
 * `semId` (the expense being edited: the form's values replace it).
 */
export function despesasConhecidasDoDia(servidor: Despesa[], escritas: ItemFilaDespesa[], rotaId: number, data: string, semId: string | null): DespesaNoLimite[] {
  const lista: ListaDespesas = { despesas: servidor, totais: { geral: 0, alimentacao: 0, hospedagem: 0, combustivel: 0, pedagio: 0, aluguel_sala: 0, outro: 0 }, page: 1, limit: servidor.length, total: servidor.length };
  return mesclarDespesas(lista, escritas, {}, 1)
    .despesas.filter((d) => d.rota_id === rotaId && d.data_despesa === data && d.id !== semId)
    .map((d) => ({ rota_id: d.rota_id, data_despesa: d.data_despesa, tipo: d.tipo, valorCentavos: reaisParaCentavos(d.valor), status_aprovacao: d.status_aprovacao }));
}

/** The other expenses of the route-day this phone knows (see the module's comment). */
export async function lerDespesasDoDia(banco: BancoLocal, usuarioId: number, rotaId: number, data: string, semId: string | null): Promise<DespesaNoLimite[]> {
  const [{ linhas, confirmacoesAte }, escritas] = await Promise.all([copiaDoServidor(banco, usuarioId, rotaId, data), lerEscritas(banco, usuarioId)]);
  const sobre = escritasSobreCopia(escritas, confirmacoesAte).map((e) => ({
    id: e.id,
    tipo: e.tipo,
    dados: e.dados,
    arquivos: [],
    estado: e.estado === 'erro' ? ('erro' as const) : ('pendente' as const),
    erro: e.erro,
  }));
  return despesasConhecidasDoDia(linhas, sobre, rotaId, data, semId);
}

/** What the form asks before saving: the day above the limit (with by how much), and the amount read back in words. */
export interface AvisosDoLimite {
  /** Set when this is a meal and the day's meals, with it, pass the limit. */
  acima: AvaliacaoDoDia | null;
  /** Any expense above 10 times the day's limit. */
  muitoAcima: boolean;
}

/** The checks for the expense being saved (pure): `outras` are the day's other expenses the phone knows. */
export function avisosDoLimite(rota: { tem_secretario: boolean }, despesa: { rota_id: number; data_despesa: string; tipo: TipoDespesa; valorCentavos: number }, outras: DespesaNoLimite[]): AvisosDoLimite {
  const limite = limiteDiarioCentavos(rota);
  // Saving sends it for evaluation (a correction goes back to Pendente): it counts whatever it was.
  const esta: DespesaNoLimite = { ...despesa, status_aprovacao: 'pendente' };
  const dia = avaliarDia(somaAlimentacaoDoDia([...outras, esta], despesa.rota_id, despesa.data_despesa), limite);
  return { acima: despesa.tipo === TIPO_COM_LIMITE && dia.acima ? dia : null, muitoAcima: muitoAcimaDoLimite(despesa.valorCentavos, limite) };
}
