/**
 * The deactivation's confirmation as text (pure functions): whether anything stays with the person,
 * and what the phones last reported as unsent.
 */
import { somarFilas } from '../../../shared/dispositivos';
import type { CelularComFila } from '../../../shared/schemas/dispositivos';
import type { ResumoDesativacao } from '../../../shared/schemas/usuarios';
import { descreverFila, diaEHora, haQuantoTempo } from '../dashboard/celulares';

/** No route, zero balance, nothing unsent: the plain 'Tem certeza?' is enough. */
export function haAlgoARelatar(r: ResumoDesativacao): boolean {
  return r.rota_ativa !== null || r.saldo_atual !== 0 || r.celulares.length > 0;
}

/** What waits since when, and when the phone last synced ('nunca sincronizou'). */
function tempos(c: CelularComFila, agoraMs: number, fuso: string): { desde: string; sync: string } {
  return {
    desde: c.mais_antigo_em ? ` ${haQuantoTempo(c.mais_antigo_em, agoraMs)}` : '',
    sync: c.ultima_sync_em ? `última sincronização ${diaEHora(c.ultima_sync_em, fuso)}` : 'nunca sincronizou',
  };
}

/**
 * The line after 'Registros não enviados:'. One phone says it all ('2 vendas no celular há 3 horas ·
 * última sincronização 20/11 14:32.'); several give the sum ('2 vendas e 1 despesa, em 2 celulares:')
 * and a line each (linhaDoCelular).
 */
export function resumoDosCelulares(celulares: CelularComFila[], agoraMs: number, fuso: string): string {
  if (celulares.length === 1) {
    const c = celulares[0]!;
    const { desde, sync } = tempos(c, agoraMs, fuso);
    return `${descreverFila(c.fila)} no celular${desde} · ${sync}.`;
  }
  return `${descreverFila(somarFilas(celulares.map((c) => c.fila)))}, em ${celulares.length} celulares:`;
}

/** One of several phones: '2 vendas há 3 horas · última sincronização 20/11 14:32'. */
export function linhaDoCelular(c: CelularComFila, agoraMs: number, fuso: string): string {
  const { desde, sync } = tempos(c, agoraMs, fuso);
  return `${descreverFila(c.fila)}${desde} · ${sync}`;
}
