/**
 * This device's sales writes for the screen's overlay: the queued and refused ones from the outbox
 * (live), plus the ones that left the outbox while the screen was open. Those stay in the overlay
 * until the screen's data is fetched again, so a city never flashes back to 'Em aberto' between the
 * server's confirmation and the fresh answer (the overlay's time rule makes them harmless afterwards).
 * An item that left because the person discarded it is dropped as soon as that is known.
 * Also when the server took each visit this device sent (from the history): a visit without sale
 * shows 'Recebido pelo servidor às …' like a sale, also when the screen is opened again.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useMemo, useRef, useState } from 'react';
import { bancoLocal, type ItemOutbox } from '../offline/db';
import { itensDoUsuario } from '../offline/outbox';
import { chavesVendas } from './consultas';
import type { ItemLocal } from './estadoCidades';
import { OPERACAO_REGISTRAR_VISITA, OPERACAO_SALVAR_VENDA } from './fila';

const TIPOS = new Set([OPERACAO_SALVAR_VENDA, OPERACAO_REGISTRAR_VISITA]);

function paraLocal(item: ItemOutbox): ItemLocal {
  return { id: item.id, tipo: item.tipo, dados: item.dados, estado: item.estado, erro: item.erro };
}

/** When the server took each visit this device sent (the history), by the day's key; the latest wins. */
async function lerVisitasRecebidas(usuarioId: number): Promise<Map<string, string>> {
  const recebidas = new Map<string, string>();
  const historico = await bancoLocal.sincronizados.where('usuarioId').equals(usuarioId).toArray();
  for (const item of historico) {
    if (item.tipo !== OPERACAO_REGISTRAR_VISITA || !Array.isArray(item.chaves) || typeof item.recebidoEm !== 'string') continue;
    for (const chave of item.chaves) {
      const anterior = recebidas.get(chave);
      if (!anterior || anterior < item.recebidoEm) recebidas.set(chave, item.recebidoEm);
    }
  }
  return recebidas;
}

const SEM_VISITAS: ReadonlyMap<string, string> = new Map();

export function useFilaDeVendas(usuarioId: number): { itens: ItemLocal[]; carregada: boolean; visitasRecebidas: ReadonlyMap<string, string> } {
  const queryClient = useQueryClient();
  const naFila = useLiveQuery(async () => (await itensDoUsuario(bancoLocal, usuarioId)).filter((i) => TIPOS.has(i.tipo)), [usuarioId]);
  const visitasRecebidas = useLiveQuery(() => lerVisitasRecebidas(usuarioId), [usuarioId]) ?? SEM_VISITAS;

  // Derived during render (not in an effect), so no frame ever shows the city without its item.
  const [anterior, setAnterior] = useState(naFila);
  const [sairam, setSairam] = useState<ItemLocal[]>([]);
  if (naFila !== anterior) {
    setAnterior(naFila);
    const atuais = new Set((naFila ?? []).map((i) => i.id));
    const novos = (anterior ?? []).filter((i) => !atuais.has(i.id));
    if (novos.length > 0) setSairam((s) => [...s, ...novos.map((i) => ({ ...paraLocal(i), estado: 'enviado' as const }))]);
  }

  const montado = useRef(true);
  useEffect(() => {
    montado.current = true;
    return () => {
      montado.current = false;
    };
  }, []);

  // Then ask whether the server took them (with its time) or the person discarded them, and refetch.
  const semConfirmar = sairam.filter((i) => i.recebidoEm === undefined).map((i) => i.id);
  const chaveConfirmacao = semConfirmar.join(',');
  useEffect(() => {
    if (!chaveConfirmacao) return;
    const ids = chaveConfirmacao.split(',');
    void bancoLocal.sincronizados.bulkGet(ids).then((confirmados) => {
      if (!montado.current) return;
      const recebido = new Map(ids.map((id, k) => [id, confirmados[k]?.recebidoEm ?? null]));
      setSairam((s) =>
        s.flatMap((i) => {
          if (!recebido.has(i.id)) return [i];
          const em = recebido.get(i.id);
          return em ? [{ ...i, recebidoEm: em }] : [];
        }),
      );
      void queryClient.invalidateQueries({ queryKey: chavesVendas.funcionario(usuarioId) });
    });
  }, [chaveConfirmacao, queryClient, usuarioId]);

  const itens = useMemo(() => [...sairam, ...(naFila ?? []).map(paraLocal)], [sairam, naFila]);
  return { itens, carregada: naFila !== undefined, visitasRecebidas };
}
