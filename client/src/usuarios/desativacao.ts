/**
 * The deactivation's confirmation as text (pure functions): whether anything stays with the person,
 * and what the phones last reported as unsent ('2 vendas e 1 despesa, em 2 celulares'; per phone
 * '2 vendas há 3 horas · última sincronização 20/11 14:32').
 */
import { somarFilas } from '../../../shared/dispositivos';
import type { CelularComFila } from '../../../shared/schemas/dispositivos';
import type { ResumoDesativacao } from '../../../shared/schemas/usuarios';
import { descreverFila, diaEHora, haQuantoTempo } from '../dashboard/celulares';

/** No route, zero balance, nothing unsent: the plain 'Tem certeza?' is enough. */
export function haAlgoARelatar(r: ResumoDesativacao): boolean {
  return r.rota_ativa !== null || r.saldo_atual !== 0 || r.celulares.length > 0;
}

/** '2 vendas e 1 despesa, em 2 celulares.' / '2 vendas, no celular.' */
export function resumoDosCelulares(celulares: CelularComFila[]): string {
  const fila = descreverFila(somarFilas(celulares.map((c) => c.fila)));
  return celulares.length === 1 ? `${fila}, no celular.` : `${fila}, em ${celulares.length} celulares.`;
}

/** One phone: what waits, since when, and when it last synced ('nunca sincronizou'). */
export function linhaDoCelular(c: CelularComFila, agoraMs: number, fuso: string): string {
  const desde = c.mais_antigo_em ? ` ${haQuantoTempo(c.mais_antigo_em, agoraMs)}` : '';
  const sync = c.ultima_sync_em ? `última sincronização ${diaEHora(c.ultima_sync_em, fuso)}` : 'nunca sincronizou';
  return `${descreverFila(c.fila)}${desde} · ${sync}`;
}
