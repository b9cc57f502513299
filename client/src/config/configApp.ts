/**
 * Server settings the UI needs (centre name, business time zone), kept on the device so the
 * sidebar and every date read right offline too.
 */
import { useQuery } from '@tanstack/react-query';
import { APP_TZ_PADRAO, hoje } from '../../../shared/dates';
import { api } from '../api/client';

export interface ConfigApp {
  centro_nome: string;
  app_tz: string;
  versao: string;
}

const CHAVE = 'config';
const PADRAO: ConfigApp = { centro_nome: 'Centro de Ensino', app_tz: APP_TZ_PADRAO, versao: '' };

function lerSalva(): ConfigApp {
  try {
    const salvo = JSON.parse(localStorage.getItem(CHAVE) ?? 'null') as Partial<ConfigApp> | null;
    if (salvo && typeof salvo.centro_nome === 'string' && typeof salvo.app_tz === 'string') return { ...PADRAO, ...salvo };
  } catch {
    // unreadable: defaults
  }
  return PADRAO;
}

let atual = lerSalva();

/** The business time zone (APP_TZ) for formatting outside React. */
export function fusoDoApp(): string {
  return atual.app_tz;
}

/** Today in the business time zone, never UTC. */
export function hojeNoApp(): string {
  return hoje(atual.app_tz);
}

export function useConfigApp(): ConfigApp {
  const { data } = useQuery({
    queryKey: ['config'],
    queryFn: async () => {
      const c = await api.get<ConfigApp>('/config');
      atual = c;
      localStorage.setItem(CHAVE, JSON.stringify(c));
      return c;
    },
    initialData: atual,
    initialDataUpdatedAt: 0,
    staleTime: 60 * 60_000,
    networkMode: 'always',
    retry: false,
  });
  return data;
}
