/**
 * This device's sales writes for the screen's overlay (offline/escritas.ts): the queued and refused
 * ones, and those the server confirmed after the screen's copy was read (`confirmacoesAte`), so a
 * city never flashes back to 'Em aberto' between the server's confirmation and the fresh answer, and
 * a copy read before a day of sent sales still shows them without signal. Confirmations re-read
 * the screen's data once the sync pass ends (the copy then has them, and the overlay drops them):
 * one read per pass, not one per confirmed write.
 * Also when the server took each visit this device sent (from the history): a visit without sale
 * shows 'Recebido pelo servidor às …' like a sale, also when the screen is opened again.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useLiveQuery } from 'dexie-react-hooks';
import { useMemo } from 'react';
import { useReleituraPorPassada } from '../offline';
import { bancoLocal } from '../offline/db';
import { escritasSobreCopia, useEscritasDoAparelho } from '../offline/escritas';
import { chavesVendas } from './consultas';
import type { ItemLocal } from './estadoCidades';
import { OPERACAO_DESFAZER_VISITA, OPERACAO_REGISTRAR_VISITA, OPERACAO_SALVAR_VENDA } from './fila';

const TIPOS = new Set([OPERACAO_SALVAR_VENDA, OPERACAO_REGISTRAR_VISITA, OPERACAO_DESFAZER_VISITA]);

/** When the server took each visit this device sent (the history), by the day's key; the latest wins. */
async function lerVisitasRecebidas(usuarioId: number): Promise<Map<string, string>> {
  const recebidas = new Map<string, string>();
  const historico = await bancoLocal.sincronizados.where('usuarioId').equals(usuarioId).toArray();
  for (const item of historico) {
    if (item.tipo !== OPERACAO_REGISTRAR_VISITA || item.tardia || !Array.isArray(item.chaves) || typeof item.recebidoEm !== 'string') continue;
    for (const chave of item.chaves) {
      const anterior = recebidas.get(chave);
      if (!anterior || anterior < item.recebidoEm) recebidas.set(chave, item.recebidoEm);
    }
  }
  return recebidas;
}

const SEM_VISITAS: ReadonlyMap<string, string> = new Map();

/** `confirmacoesAte`: the screen's copy's confirmation counter (the oldest, when it reads several). */
export function useFilaDeVendas(
  usuarioId: number,
  confirmacoesAte?: number,
): { itens: ItemLocal[]; carregada: boolean; visitasRecebidas: ReadonlyMap<string, string> } {
  const queryClient = useQueryClient();
  const escritas = useEscritasDoAparelho(usuarioId);
  const visitasRecebidas = useLiveQuery(() => lerVisitasRecebidas(usuarioId), [usuarioId]) ?? SEM_VISITAS;

  const ultimaConfirmada = escritas ? (escritas.confirmadas.at(-1)?.ordem ?? 0) : undefined;
  useReleituraPorPassada(ultimaConfirmada, confirmacoesAte ?? 0, () => void queryClient.invalidateQueries({ queryKey: chavesVendas.funcionario(usuarioId) }));

  const itens = useMemo(
    () => (escritas ? escritasSobreCopia(escritas, confirmacoesAte).filter((i) => TIPOS.has(i.tipo)) : []),
    [escritas, confirmacoesAte],
  );
  return { itens, carregada: escritas !== undefined, visitasRecebidas };
}
