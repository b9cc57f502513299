/**
 * The app's offline wiring: the operation registry every domain adds its employee writes to,
 * and the one sync engine replaying them with the signed-in user's session.
 */
import { useSyncExternalStore } from 'react';
import { lerToken, lerUsuarioSalvo } from '../auth/sessaoLocal';
import { bancoLocal } from './db';
import type { TipoOperacao } from '../../../shared/sync/operacoes';
import type { DefinicaoOperacao, Operacoes } from './outbox';
import { MotorSync, type EstadoSync } from './sync';

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

export function useEstadoSync(): EstadoSync {
  return useSyncExternalStore(motorSync.assinar, motorSync.estado, motorSync.estado);
}
