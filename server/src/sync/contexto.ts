import type { App } from '../tipos';
import type { ContextoEscrita } from './escritas';

/** What every write needs from the app's configuration. */
export function contextoDeEscrita(app: App): ContextoEscrita {
  return { db: app.db, fuso: app.config.appTz, armazenamento: app.armazenamento, cotaComprovantesBytes: app.config.cotaComprovantesBytes };
}
