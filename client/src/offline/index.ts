/**
 * The app's offline wiring: the operation registry every domain adds its employee writes to,
 * and the one sync engine replaying them with the signed-in user's session.
 */
import { useSyncExternalStore } from 'react';
import { lerToken, lerUsuarioSalvo } from '../auth/sessaoLocal';
import { bancoLocal } from './db';
import type { DefinicaoOperacao, Operacoes } from './outbox';
import { MotorSync, type EstadoSync } from './sync';

export const operacoes: Operacoes = {};

/** Each domain declares its queued write types once (e.g. 'venda.salvar'). */
export function registrarOperacao(tipo: string, definicao: DefinicaoOperacao): void {
  operacoes[tipo] = definicao;
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
