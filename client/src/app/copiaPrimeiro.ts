/**
 * The device's copy first on a repeat visit (docs/decisions/abertura-do-app.md, 'A cópia primeiro'):
 * an employee screen whose data is kept in
 * IndexedDB (offline/cache.ts) used to wait for the server before drawing anything, 2.8 s on 3G
 * with the page ready. Here the kept copy is put in the query at once, marked `previa`, while the
 * request the query already sent goes on behind it: its answer (or, without signal, the same copy
 * read again) replaces the preview when it arrives. A preview never overwrites an answer that got
 * there first, and only the copy of the person signed in is ever shown (lerDoCache checks the owner).
 */
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect } from 'react';
import { lerDoCache, type Carga } from '../offline/cache';
import { bancoLocal } from '../offline/db';
import { semearPrevia, tomarCopiaDeAbertura } from './copiasDeAbertura';

export function ehPrevia(carga: Carga<unknown> | undefined): boolean {
  return !!carga && 'previa' in carga && carga.previa === true;
}

/**
 * While the query at `queryKey` has no data, shows the device's copy kept under `chave` (null:
 * nothing to read yet, e.g. the route is not known). `transformar` turns the kept value into the
 * query's (the active route is kept as the list the server answered).
 */
export function useCopiaDoAparelhoPrimeiro<TGuardado, TDados = TGuardado>(
  queryKey: QueryKey,
  chave: string | null,
  usuarioId: number,
  transformar?: (guardado: TGuardado) => TDados,
): void {
  const queryClient = useQueryClient();
  const chaveDaConsulta = JSON.stringify(queryKey);
  useEffect(() => {
    if (chave === null) return;
    let cancelado = false;
    const consulta = JSON.parse(chaveDaConsulta) as QueryKey;
    // The read main.tsx started at boot, when there is one (copiasDeAbertura.ts); else read now.
    void (tomarCopiaDeAbertura<TGuardado>(chave, usuarioId) ?? lerDoCache<TGuardado>(bancoLocal, chave, usuarioId))
      .then((guardado) => {
        if (!cancelado && guardado) semearPrevia(queryClient, consulta, guardado, transformar);
      })
      .catch(() => undefined);
    return () => {
      cancelado = true;
    };
    // transformar is a pure function of the kept value; a new one each render must not read again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [chave, usuarioId, chaveDaConsulta, queryClient]);
}
