/**
 * Server settings the UI needs (centre name, business time zone), kept on the device so the
 * sidebar and every date read right offline too.
 */
import { useQuery } from '@tanstack/react-query';
import { APP_TZ_PADRAO, hoje, usarTabelaDoFuso } from '../../../shared/dates';
import { lerTabelaDoFuso, type TabelaDoFuso } from '../../../shared/fusos';
import { api } from '../api/client';

export interface ConfigApp {
  centro_nome: string;
  app_tz: string;
  /** APP_TZ's offsets around the server's today (shared/fusos.ts); absent in a copy saved by an older app. */
  fuso_tabela?: TabelaDoFuso;
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

/**
 * Dates in APP_TZ read from a table of its offsets, without Intl (shared/fusos.ts): first the build's
 * table of the default zone, then the server's saved one, then each one the server sends.
 */
function usarTabelas(config: ConfigApp) {
  const daCompilacao = typeof __TABELA_FUSO_PADRAO__ === 'undefined' ? null : lerTabelaDoFuso(__TABELA_FUSO_PADRAO__);
  if (daCompilacao) usarTabelaDoFuso(daCompilacao);
  const doServidor = lerTabelaDoFuso(config.fuso_tabela);
  if (doServidor && doServidor.fuso === config.app_tz) usarTabelaDoFuso(doServidor);
}

let atual = lerSalva();
usarTabelas(atual);

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
      usarTabelas(c);
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
