/**
 * Ticked rows of a table: only what is on screen counts (a filter or page change drops the ticked rows
 * it hides), 'select all' ticks every visible row or, when all are ticked, none.
 */
import { useMemo, useState } from 'react';

export interface SelecaoVisivel<Id> {
  /** The ticked ids that are on screen, in screen order. */
  marcadas: Id[];
  marcada: (id: Id) => boolean;
  todas: boolean;
  alguma: boolean;
  alternar: (id: Id) => void;
  alternarTodas: () => void;
  /** Keep only these ticked (e.g. the ones an action could not handle); `manter([])` clears. */
  manter: (ids: readonly Id[]) => void;
}

export function useSelecaoVisivel<Id>(visiveis: readonly Id[]): SelecaoVisivel<Id> {
  const [escolhidas, setEscolhidas] = useState<ReadonlySet<Id>>(() => new Set());
  const marcadas = useMemo(() => visiveis.filter((id) => escolhidas.has(id)), [visiveis, escolhidas]);
  const todas = visiveis.length > 0 && marcadas.length === visiveis.length;
  return {
    marcadas,
    marcada: (id) => escolhidas.has(id),
    todas,
    alguma: marcadas.length > 0,
    alternar: (id) =>
      setEscolhidas((s) => {
        const nova = new Set(s);
        if (nova.has(id)) nova.delete(id);
        else nova.add(id);
        return nova;
      }),
    alternarTodas: () => setEscolhidas(todas ? new Set() : new Set(visiveis)),
    manter: (ids) => setEscolhidas(new Set(ids)),
  };
}
