/**
 * The app's offline wiring: the operation registry every domain adds its employee writes to,
 * and the one sync engine replaying them with the signed-in user's session.
 */
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { lerToken, lerUsuarioSalvo } from '../auth/sessaoLocal';
import { definirPassadaEmCurso, passadaTerminou } from './cache';
import { bancoLocal } from './db';
import type { TipoOperacao } from '../../../shared/sync/operacoes';
import type { DefinicaoOperacao, Operacoes } from './outbox';
import { iniciarRelatorioDoDispositivo } from './dispositivo';
import { publicarEstadoSync, useEstadoSync } from './estado';
import { MotorSync } from './sync';

export const operacoes: Operacoes = {};

/**
 * Each domain registers the client half of its kinds once (offline/operacoes.ts imports them all;
 * a test checks every kind of shared/sync/operacoes.ts is registered).
 */
export function registrarOperacao<T extends TipoOperacao>(tipo: T, definicao: DefinicaoOperacao<T>): void {
  operacoes[tipo] = definicao as DefinicaoOperacao<never>;
}

export const motorSync = new MotorSync({
  banco: bancoLocal,
  operacoes,
  obterSessao: () => {
    const usuario = lerUsuarioSalvo();
    return usuario ? { usuarioId: usuario.id, token: lerToken() } : null;
  },
});

// One read of each device copy per sync pass (offline/cache.ts): a read while a pass sends
// this user's writes waits for it; a pass that confirmed writes opens the window of its one refresh.
definirPassadaEmCurso((usuarioId) => motorSync.passadaComEscritas(usuarioId));
let confirmacoesVistas = motorSync.estado().confirmacoes;
motorSync.assinar(() => {
  const { confirmacoes, sincronizando } = motorSync.estado();
  if (sincronizando || confirmacoes === confirmacoesVistas) return;
  confirmacoesVistas = confirmacoes;
  passadaTerminou(confirmacoes);
});

// The shell reads the state through offline/estado.ts (it does not load the engine's chunk).
publicarEstadoSync(motorSync.estado());
motorSync.assinar(() => publicarEstadoSync(motorSync.estado()));
export { useEstadoSync };

/**
 * What the app starts once the engine is loaded (app/Provedores.tsx): the device's queue report on
 * every request (offline/dispositivo.ts) and the engine. Returns what stops both.
 */
export function iniciarOffline(): () => void {
  const pararRelatorio = iniciarRelatorioDoDispositivo(bancoLocal);
  void motorSync.iniciar();
  return () => {
    motorSync.parar();
    pararRelatorio();
  };
}

const sincronizandoAgora = () => motorSync.estado().sincronizando;
const confirmacoesDaPassada = () => motorSync.estado().confirmacoes;

/**
 * A screen whose data changes when the server confirms this device's writes reads it again ONCE
 * per sync pass, when the pass ends, not once per confirmed write (a field day's sync
 * was followed by ~21 GETs). `vistas`: the confirmation counter as the screen sees it live
 * (undefined while loading; it covers confirmations made by another tab); `cobertasPelaCopia`:
 * the counter the screen's copy already includes, when it knows. Confirmations the screen hears
 * of late (its live query answering after the pass ended) are already covered by that one read.
 */
export function useReleituraPorPassada(vistas: number | undefined, cobertasPelaCopia: number | undefined, reler: () => void): void {
  const sincronizando = useSyncExternalStore(motorSync.assinar, sincronizandoAgora, sincronizandoAgora);
  const daPassada = useSyncExternalStore(motorSync.assinar, confirmacoesDaPassada, confirmacoesDaPassada);
  const cobertas = useRef<number | null>(null);
  const relerAtual = useRef(reler);
  useEffect(() => {
    relerAtual.current = reler;
  });
  useEffect(() => {
    if (vistas === undefined) return;
    cobertas.current ??= cobertasPelaCopia ?? vistas;
    if (sincronizando) return; // the overlay shows confirmed writes meanwhile
    if (vistas > Math.max(cobertas.current, cobertasPelaCopia ?? 0)) {
      // This read covers every confirmation of the pass, also those the live query reports later.
      cobertas.current = Math.max(vistas, daPassada);
      relerAtual.current();
    }
  }, [vistas, daPassada, sincronizando, cobertasPelaCopia]);
}
