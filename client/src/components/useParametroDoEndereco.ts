/**
 * The record an address asks a screen to open (shared/enderecosDasTelas.ts, e.g. the audit trail's link
 * '/relatorios?rota=7'): the parameter's value, and `esquecer()`, which leaves the address without it
 * once the record is closed, so a reload or another visit does not open it again.
 */
import { useCallback } from 'react';
import { useSearchParams } from 'react-router-dom';

export function useParametroDoEndereco(parametro: string): { busca: URLSearchParams; valor: string | null; esquecer: () => void } {
  const [busca, setBusca] = useSearchParams();
  const esquecer = useCallback(() => {
    setBusca(
      (atual) => {
        const sem = new URLSearchParams(atual);
        sem.delete(parametro);
        return sem;
      },
      { replace: true },
    );
  }, [parametro, setBusca]);
  return { busca, valor: busca.get(parametro), esquecer };
}
